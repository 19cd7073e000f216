"""The errors of a database that cannot be used, as the layers above catch and report
them without importing SQLAlchemy: the command line (api.commands.cli), /readyz
(store.readiness, api.edge.readiness) and the schema's error codes (schema.errors)."""

from sqlalchemy.exc import (
    DatabaseError,
    DBAPIError,
    InterfaceError,
    OperationalError,
    PendingRollbackError,
    SQLAlchemyError,
)
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

from store.engines import SQLITE_DAMAGED

# The logger our own faults are said on, each with its request id (a failed close of a
# request's connection among them: store.reader; its entries are kept without the
# statements' values: api.edge.fault_log).
FAULTS_LOGGER = "taxonomy.errors"

# What a statement raises when the database refuses or cannot run it (a command's
# database is away, full, read-only or damaged; or a fault of ours).
DatabaseFailure = DatabaseError
# What a database that cannot be read raises: the database's and SQLAlchemy's errors,
# and the network's or the file system's.
DATABASE_UNAVAILABLE: tuple[type[Exception], ...] = (SQLAlchemyError, OSError)


def database_said(error: BaseException) -> str:
    """The first line of what the database (its driver) said of ``error``; the error's
    type when it said nothing."""
    said = str(error.orig).strip() if isinstance(error, DBAPIError) and error.orig else ""
    return said.splitlines()[0] if said else type(error).__name__


def damaged_database(error: BaseException, *, shown: str) -> str | None:
    """What to say of the database at ``shown`` (its URL or path, no password) when
    ``error`` says its file is damaged (SQLite's words: store.engines.SQLITE_DAMAGED);
    None when it says something else."""
    said = database_said(error)
    if not any(phrase in said.lower() for phrase in SQLITE_DAMAGED):
        return None
    return (
        f"the database at {shown} is damaged ({said}), and was left as it is: restore it "
        "from a backup, or load the dataset into a new database"
    )


# PostgreSQL's SQLSTATEs for a statement the role may not run: a privilege it lacks on a
# table or schema (42501), or a write in a read-only transaction (25006: the server's
# read-only role, docs/operations.md, used to load).
_REFUSED_TO_THE_ROLE = frozenset({"42501", "25006"})


def refused_to_the_role(error: BaseException) -> bool:
    """Whether the database refused ``error``'s statement for the rights of the role it
    runs as: a setting to change, not a fault of the command."""
    return (
        isinstance(error, DBAPIError)
        and getattr(error.orig, "sqlstate", None) in _REFUSED_TO_THE_ROLE
    )


def is_operational(error: BaseException) -> bool:
    """Whether ``error`` is the database failing to do its work (the connection, the disk,
    a lock), rather than refusing a statement as wrong."""
    return isinstance(error, OperationalError)


# Every pooled connection stayed busy for the pool's whole timeout: the server is
# overloaded, the database is not at fault.
PoolTimeout = PoolTimeoutError

# The database went away: the connection failed (OperationalError, InterfaceError) or a
# request's connection is left unusable by a statement the drop killed (PendingRollbackError;
# the server only reads, so nothing else puts a connection in that state).
_CONNECTION_LOST = (
    OperationalError,
    InterfaceError,
    PendingRollbackError,
    ConnectionError,
    OSError,
)


def connection_lost(error: BaseException | None) -> bool:
    """Whether ``error`` says the database went away (rather than refused a statement)."""
    return isinstance(error, _CONNECTION_LOST) or (
        isinstance(error, DBAPIError) and error.connection_invalidated
    )
