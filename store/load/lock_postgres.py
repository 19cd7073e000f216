"""PostgreSQL: the statements of the load lock (api.ingest.lock_postgres decides when to
wait, whom to end and what to say): `LOCK TABLE dataset IN SHARE ROW EXCLUSIVE MODE`,
taken in the load's transaction with NOWAIT; the backends that hold a lock it conflicts
with; ending one; and the settings that end a load's own session once its loader is gone."""

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, text
from sqlalchemy.exc import DBAPIError, OperationalError

_CHECK_CLIENT = "2s"  # how often a load's backend checks, mid-statement, that it has a client
_LOCK_NOT_AVAILABLE = "55P03"

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


@dataclass(frozen=True)
class LockHolder:
    """A backend that holds a lock on `dataset` that a load's lock conflicts with."""

    pid: int
    application: str
    client: str | None
    kind: str
    state: str | None
    since: datetime | None
    idle_seconds: float


class BackendNotEndedError(Exception):
    """PostgreSQL refused to end a backend (its message says why)."""


def try_table_lock(connection: Connection) -> bool:
    """Take the load lock if nobody holds it; False (and nothing taken) if another does."""
    try:
        with connection.begin_nested():
            connection.execute(text("LOCK TABLE dataset IN SHARE ROW EXCLUSIVE MODE NOWAIT"))
    except OperationalError as exc:
        if getattr(exc.orig, "sqlstate", None) != _LOCK_NOT_AVAILABLE:
            raise
        return False
    return True


def lock_holders(connection: Connection) -> list[LockHolder]:
    """The backends holding the load lock's conflicting locks, longest-running first."""
    rows = connection.execute(_HOLDERS, {"modes": list(_CONFLICTING)})
    return [LockHolder(*row) for row in rows]


def end_backend(connection: Connection, *, pid: int) -> bool:
    """Ask PostgreSQL to end backend ``pid``; whether it did. Raises BackendNotEndedError."""
    # With a timeout (PostgreSQL 14+), it returns once the backend is gone, lock released.
    timeout = ", 5000" if _version(connection) >= 14 else ""
    try:
        with connection.begin_nested():
            ended = connection.execute(
                text(f"SELECT pg_terminate_backend(:pid{timeout})"), {"pid": pid}
            ).scalar()
    except DBAPIError as exc:
        raise BackendNotEndedError(str(exc.orig)) from exc
    return bool(ended)


def end_when_abandoned(connection: Connection, *, idle_seconds: int) -> None:
    """The load's own session ends once idle in its transaction for ``idle_seconds`` or,
    PostgreSQL 14+, once its client is gone, even mid-statement."""
    settings = {"idle_in_transaction_session_timeout": f"{idle_seconds}s"}
    if _version(connection) >= 14:
        settings["client_connection_check_interval"] = _CHECK_CLIENT
    for name, value in settings.items():
        connection.execute(
            text("SELECT set_config(:name, :value, true)"), {"name": name, "value": value}
        )


def _version(connection: Connection) -> int:
    info = connection.dialect.server_version_info
    return int(info[0]) if info else 0
