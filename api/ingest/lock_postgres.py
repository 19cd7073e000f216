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
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, text
from sqlalchemy.exc import DBAPIError, OperationalError

from api.ingest.turns import RunningLoad, Say, wait_turn
from store.engines import is_sqlite, parse_url

ABANDONED_AFTER_SECONDS = 60  # idle in its transaction that long, a loader is gone
_CHECK_CLIENT = "2s"  # how often a load's backend checks, mid-statement, that it has a client

_NAME = re.compile(r"taxonomy load pid ([0-9]+) on (.*)")
# Granted on `dataset`, these keep a load from taking its lock (readers' ACCESS SHARE does not).
_CONFLICTING = (
    "RowExclusiveLock",
    "ShareUpdateExclusiveLock",  # VACUUM, which a load runs on it after committing
    "ShareLock",
    "ShareRowExclusiveLock",
    "ExclusiveLock",
    "AccessExclusiveLock",
)
# clock_timestamp(), not now(): now() is when this load's transaction began, minutes ago
# for a load that has been waiting.
_HOLDERS = text(
    """
    SELECT a.pid, coalesce(a.application_name, ''), host(a.client_addr), a.backend_type, a.state,
           a.xact_start, extract(epoch FROM clock_timestamp() - a.state_change)
    FROM pg_locks AS l JOIN pg_stat_activity AS a ON a.pid = l.pid
    WHERE l.locktype = 'relation' AND l.relation = 'dataset'::regclass AND l.granted
      AND l.mode = ANY(:modes) AND a.pid <> pg_backend_pid()
    ORDER BY a.xact_start NULLS LAST
    """
)


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


@dataclass(frozen=True)
class _Backend:
    """A backend that holds a lock on `dataset` that a load's lock conflicts with."""

    pid: int
    application: str
    client: str | None
    kind: str
    state: str | None
    since: datetime | None
    idle_seconds: float

    def loader(self) -> tuple[int, str] | None:
        """The loader's pid and host, if a loader owns the backend."""
        match = _NAME.fullmatch(self.application)
        return (int(match[1]), match[2]) if match else None

    def abandoned(self) -> str | None:
        """Why this backend's loader is gone, if it is."""
        loader = self.loader()
        if loader is None:
            return None  # not a loader's: never ended
        pid, host = loader
        if self.application == application_name(pid) and not _running(pid):
            return f"whose process (pid {pid} on {host}) is no longer running"
        idle = (self.state or "").startswith("idle in transaction")
        if idle and self.idle_seconds >= ABANDONED_AFTER_SECONDS:
            return f"(pid {pid} on {host}) idle in its transaction for {self.idle_seconds:.0f} s"
        return None

    def running(self) -> RunningLoad:
        loader = self.loader()
        if loader is not None:
            pid, host = loader
            return RunningLoad(
                f"another load is running (pid {pid} on {host}, PostgreSQL backend {self.pid})",
                self.since,
            )
        who = self.application or self.kind
        where = f"from {self.client}" if self.client else "over a local socket"
        return RunningLoad(
            f"the load lock (table dataset) is held by PostgreSQL backend {self.pid} "
            f"({who}, {where})",
            self.since,
        )


def take_table_lock(connection: Connection, *, wait: bool, say: Say) -> None:
    """Take the load lock in ``connection``'s transaction, waiting in the open."""
    tried: set[int] = set()  # backends this load tried to end: each is tried once
    wait_turn(lambda: _attempt(connection, say, tried), wait=wait, say=say)
    settings = {"idle_in_transaction_session_timeout": f"{ABANDONED_AFTER_SECONDS}s"}
    if _version(connection) >= 14:
        settings["client_connection_check_interval"] = _CHECK_CLIENT
    for name, value in settings.items():
        connection.execute(
            text("SELECT set_config(:name, :value, true)"), {"name": name, "value": value}
        )


def _attempt(connection: Connection, say: Say, tried: set[int]) -> RunningLoad | None:
    """None once the lock is taken; else who holds it (after ending any holder whose
    loader is gone, and trying again)."""
    while True:
        try:
            with connection.begin_nested():
                connection.execute(text("LOCK TABLE dataset IN SHARE ROW EXCLUSIVE MODE NOWAIT"))
        except OperationalError as exc:
            if getattr(exc.orig, "sqlstate", None) != "55P03":  # lock_not_available
                raise
        else:
            return None
        rows = connection.execute(_HOLDERS, {"modes": list(_CONFLICTING)})
        holders = [_Backend(*row) for row in rows]
        ended = False
        for backend in holders:
            reason = backend.abandoned()
            if reason is not None and backend.pid not in tried:
                tried.add(backend.pid)
                ended = _terminate(connection, backend.pid, reason, say) or ended
        if holders and not ended:
            return holders[0].running()
        # Released meanwhile, or its holder just ended: try again at once.


def _terminate(connection: Connection, pid: int, reason: str, say: Say) -> bool:
    # With a timeout (PostgreSQL 14+), it returns once the backend is gone, lock released.
    timeout = ", 5000" if _version(connection) >= 14 else ""
    try:
        with connection.begin_nested():
            ended = connection.execute(
                text(f"SELECT pg_terminate_backend(:pid{timeout})"), {"pid": pid}
            ).scalar()
    except DBAPIError as exc:
        say(f"cannot end PostgreSQL backend {pid}, left by a load {reason}: {exc.orig}")
        return False
    if ended:
        say(f"ended PostgreSQL backend {pid}, which held the load lock for a load {reason}")
    return bool(ended)


def _version(connection: Connection) -> int:
    info = connection.dialect.server_version_info
    return int(info[0]) if info else 0


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process
        return True
    return True
