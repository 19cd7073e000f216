"""PostgreSQL: one load at a time, by a table lock whose holder can be named, and ended
when its loader is gone.

A load takes `LOCK TABLE dataset IN SHARE ROW EXCLUSIVE MODE` in its transaction, as
loads always have: the mode conflicts with itself and not with readers, and the lock is
the load's own backend's, so it lasts exactly as long as the load's transaction. A load
does not queue for it blindly, though: it tries with NOWAIT and, while another backend
holds it, finds that backend (pg_locks, pg_stat_activity: a loader's application_name
carries its pid and host, xact_start says since when), says so, and tries again.

A loader killed while its backend runs a statement leaves that backend running with the
lock until the statement ends: a backend hears that its client is gone only when it next
talks to it (a derive step of 18 s, say). So a waiting load ends, with
pg_terminate_backend, and says so, a backend that holds the lock for a loader whose
process no longer runs on this host, or that has been idle in its transaction for a
minute, which a live loader never is. A load also asks PostgreSQL to end its own session
in those cases (client_connection_check_interval, idle_in_transaction_session_timeout),
so that its leftovers end even when no other load comes to look.
"""

import os
import re
import socket

from api.ingest.turns import RunningLoad, Say, wait_turn
from store.engines import is_sqlite, parse_url
from store.load.lock_postgres import (
    BackendNotEndedError,
    LockHolder,
    end_backend,
    end_when_abandoned,
    lock_holders,
    try_table_lock,
)
from store.load.transaction import LoadTransaction

ABANDONED_AFTER_SECONDS = 60  # idle in its transaction that long, a loader is gone

_NAME = re.compile(r"taxonomy load pid ([0-9]+) on (.*)")


def application_name(pid: int | None = None, host: str | None = None) -> str:
    """What a loader calls its connections: its pid and host (63 bytes at most)."""
    name = f"taxonomy load pid {pid or os.getpid()} on {host or socket.gethostname()}"
    return name.encode()[:63].decode(errors="ignore")


def loader_url(url: str) -> str:
    """``url`` naming the connections after this loader, on PostgreSQL."""
    parsed = parse_url(url)
    if is_sqlite(parsed):
        return url
    named = parsed.update_query_dict({"application_name": application_name()})
    return named.render_as_string(hide_password=False)


def _loader(holder: LockHolder) -> tuple[int, str] | None:
    """The loader's pid and host, if a loader owns the backend."""
    match = _NAME.fullmatch(holder.application)
    return (int(match[1]), match[2]) if match else None


def _abandoned(holder: LockHolder) -> str | None:
    """Why this backend's loader is gone, if it is."""
    loader = _loader(holder)
    if loader is None:
        return None  # not a loader's: never ended
    pid, host = loader
    if holder.application == application_name(pid) and not _running(pid):
        return f"whose process (pid {pid} on {host}) is no longer running"
    idle = (holder.state or "").startswith("idle in transaction")
    if idle and holder.idle_seconds >= ABANDONED_AFTER_SECONDS:
        return f"(pid {pid} on {host}) idle in its transaction for {holder.idle_seconds:.0f} s"
    return None


def _running_load(holder: LockHolder) -> RunningLoad:
    loader = _loader(holder)
    if loader is not None:
        pid, host = loader
        return RunningLoad(
            f"another load is running (pid {pid} on {host}, PostgreSQL backend {holder.pid})",
            holder.since,
        )
    who = holder.application or holder.kind
    where = f"from {holder.client}" if holder.client else "over a local socket"
    return RunningLoad(
        f"the load lock (table dataset) is held by PostgreSQL backend {holder.pid} "
        f"({who}, {where})",
        holder.since,
    )


def take_table_lock(connection: LoadTransaction, *, wait: bool, say: Say) -> None:
    """Take the load lock in ``connection``'s transaction, waiting in the open."""
    tried: set[int] = set()  # backends this load tried to end: each is tried once
    wait_turn(lambda: _attempt(connection, say, tried), wait=wait, say=say)
    end_when_abandoned(connection, idle_seconds=ABANDONED_AFTER_SECONDS)


def _attempt(connection: LoadTransaction, say: Say, tried: set[int]) -> RunningLoad | None:
    """None once the lock is taken; else who holds it (after ending any holder whose
    loader is gone, and trying again)."""
    while not try_table_lock(connection):
        holders = lock_holders(connection)
        ended = False
        for holder in holders:
            reason = _abandoned(holder)
            if reason is not None and holder.pid not in tried:
                tried.add(holder.pid)
                ended = _terminate(connection, holder.pid, reason, say) or ended
        if holders and not ended:
            return _running_load(holders[0])
        # Released meanwhile, or its holder just ended: try again at once.
    return None


def _terminate(connection: LoadTransaction, pid: int, reason: str, say: Say) -> bool:
    try:
        ended = end_backend(connection, pid=pid)
    except BackendNotEndedError as exc:
        say(f"cannot end PostgreSQL backend {pid}, left by a load {reason}: {exc}")
        return False
    if ended:
        say(f"ended PostgreSQL backend {pid}, which held the load lock for a load {reason}")
    return ended


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process
        return True
    return True
