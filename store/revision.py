"""The migration a database is at, read from the table Alembic keeps its revision in:
one query, so that a database already migrated is told without importing Alembic
(api.commands.migrate)."""

from sqlalchemy import Connection, inspect, text

from store.engines import make_sync_engine

# Where Alembic keeps the revision a database is at.
VERSION_TABLE = "alembic_version"


def current_revision(connection: Connection) -> str | None:
    """The revision the database behind ``connection`` is at: None if it was never
    migrated."""
    if not inspect(connection).has_table(VERSION_TABLE):
        return None
    revision = connection.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalar()
    return None if revision is None else str(revision)


def database_revision(database_url: str) -> str | None:
    """The revision the database at ``database_url`` is at (None: not migrated at all)."""
    engine = make_sync_engine(database_url)
    try:
        with engine.connect() as connection:
            return current_revision(connection)
    finally:
        engine.dispose()
