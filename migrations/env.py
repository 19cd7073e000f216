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
        context.configure(
            connection=connection,
            target_metadata=metadata,
            include_object=include_object,
            render_as_batch=connection.dialect.name == "sqlite",
            compare_type=True,
        )
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    raise SystemExit("offline (--sql) migrations are not supported: run against a database")
run_migrations_online()
