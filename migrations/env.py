"""Alembic environment: metadata from the tables, the URL from the settings."""

from typing import Any

from alembic import context

from api.settings import Settings
from store.engines import make_sync_engine
from store.search_index import is_search_index_object
from store.tables import metadata

config = context.config


def include_object(
    obj: Any, name: str | None, type_: str, reflected: bool, compare_to: Any
) -> bool:
    # The full-text index differs per database (FTS5 or tsvector) and lives outside the
    # metadata; `alembic check` must not report it as an unknown table.
    return not is_search_index_object(name, type_)


def run_migrations_online() -> None:
    url = config.attributes.get("database_url") or Settings().database_url
    engine = make_sync_engine(url)
    with engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:
            # Batch mode rebuilds a table to alter it (copy, drop, rename): with foreign
            # keys enforced, dropping a table that other rows refer to fails. They are
            # turned off for the migration (outside any transaction, where SQLite takes
            # the pragma) and checked once it is done.
            driver = connection.connection.driver_connection
            assert driver is not None  # a connection just opened has its driver's
            driver.execute("PRAGMA foreign_keys = OFF")
        context.configure(
            connection=connection,
            target_metadata=metadata,
            include_object=include_object,
            render_as_batch=connection.dialect.name == "sqlite",
            compare_type=True,
        )
        with context.begin_transaction():
            context.run_migrations()
            if sqlite:
                broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
                if broken:
                    raise RuntimeError(f"the migration broke foreign keys: {broken[:5]}")
    engine.dispose()


if context.is_offline_mode():
    raise SystemExit("offline (--sql) migrations are not supported: run against a database")
run_migrations_online()
