"""Migrations: up to head, down to nothing, up again, on each backend; and the tables of
the code match what the migrations build (`alembic check`)."""

from collections.abc import Callable

from alembic import command
from sqlalchemy import inspect

from api import migrate
from api.db import make_sync_engine
from api.search_index import POSTGRES_TABLE, SQLITE_TABLE
from api.tables import metadata

TABLES = set(metadata.tables)


def _tables(url: str) -> set[str]:
    engine = make_sync_engine(url)
    try:
        return set(inspect(engine).get_table_names())
    finally:
        engine.dispose()


def test_upgrade_downgrade_upgrade(backend: str, new_database: Callable[[str, str], str]) -> None:
    url = new_database(backend, "migrations")
    search_table = SQLITE_TABLE if backend == "sqlite" else POSTGRES_TABLE

    migrate.upgrade(url)
    assert TABLES | {search_table, "alembic_version"} <= _tables(url)

    migrate.downgrade(url, "base")
    assert _tables(url) == {"alembic_version"}

    migrate.upgrade(url)
    assert TABLES | {search_table} <= _tables(url)


def test_models_match_migrations(backend: str, new_database: Callable[[str, str], str]) -> None:
    url = new_database(backend, "check")
    migrate.upgrade(url)
    # Raises if the tables in api/tables.py differ from what the migrations built.
    command.check(migrate.alembic_config(url))


def test_one_linear_history() -> None:
    from alembic.script import ScriptDirectory

    scripts = ScriptDirectory.from_config(migrate.alembic_config("sqlite://"))
    assert len(scripts.get_heads()) == 1
    assert migrate.head_revision() == scripts.get_current_head()
