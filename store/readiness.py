"""What /readyz asks the database (api.edge.readiness bounds it in time and answers HTTP), and
what it says when the database cannot be read."""

from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from store.data_version import read_data_version
from store.database_errors import damaged_database, database_said, refused_to_the_role
from store.engines import (
    DatabaseFileError,
    ServerEngine,
    check_sqlite_file,
    is_sqlite,
    sqlite_path,
)
from store.file_kinds import NOTHING, kind_of
from store.revision import current_revision

# The engine the readiness check reads through (its own pool: api.app).
ReadinessEngine = ServerEngine


async def database_state(engine: ReadinessEngine, *, head: str) -> tuple[str | None, str | None]:
    """The database's migration and, when it is at ``head``, its data version (None
    before any load). Raises one of DATABASE_UNAVAILABLE when it cannot be read."""
    try:
        return await _state(engine, head)
    except DBAPIError as exc:
        if not exc.connection_invalidated:
            raise
        # A pooled connection the database dropped while idle; the pool has retired
        # it and its like, so a second try reads through a new one (as requests do:
        # store.reader.AsyncReader).
        return await _state(engine, head)


async def _state(engine: ReadinessEngine, head: str) -> tuple[str | None, str | None]:
    """A check cut short (cancelled when stale: api.edge.readiness.BoundedCheck) lets its
    connection go at once, with no rollback to wait for on a connection that may hang."""
    connection = await engine.connect()
    try:
        await connection.execute(text("SELECT 1"))
        revision = await connection.run_sync(current_revision)
        version = await read_data_version(connection) if revision == head else None
    except BaseException:
        await connection.invalidate()
        raise
    finally:
        await connection.close()
    return revision, version


def unavailable_reason(error: Exception, *, database_url: str) -> str:
    """Why the database at ``database_url`` could not be read, in words, from ``error``
    (one of DATABASE_UNAVAILABLE): on SQLite, what is at the path when it is no database
    (as the command line says it: store.engines.check_sqlite_file)."""
    path = sqlite_path(database_url) if is_sqlite(database_url) else None
    if path is not None:
        if kind_of(path) == NOTHING:
            return f"no database at {path}: run `taxonomy migrate` or `taxonomy load DIR`"
        try:
            check_sqlite_file(database_url, existing=True)
        except DatabaseFileError as refusal:
            return str(refusal)
        damaged = damaged_database(error, shown=str(path))
        if damaged is not None:
            return damaged
    if refused_to_the_role(error):
        return (
            f"the database refused the server's role ({database_said(error)}): let it read "
            'the taxonomy\'s tables (docs/operations.md, "Least privilege")'
        )
    return f"database unreachable: {type(error).__name__}"
