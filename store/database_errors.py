"""The errors of a database that cannot be used, as the layers above catch and report
them without importing SQLAlchemy: the command line (api.cli) and /readyz
(store.readiness, api.readiness)."""

from sqlalchemy.exc import DatabaseError, DBAPIError, OperationalError, SQLAlchemyError

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


def is_operational(error: BaseException) -> bool:
    """Whether ``error`` is the database failing to do its work (the connection, the disk,
    a lock), rather than refusing a statement as wrong."""
    return isinstance(error, OperationalError)
