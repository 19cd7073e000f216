"""On PostgreSQL, statements that requests run again and again end up prepared on their
connections (psycopg prepares a statement on its sixth run on one connection), so the
database stops planning them on every request. Ending requests with a ROLLBACK made
psycopg forget them every time, and none was ever prepared. `TAXONOMY_PREPARED_STATEMENTS`
off (for a pooler that cannot keep them) prepares none."""

from collections.abc import Callable
from contextlib import AsyncExitStack
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from api.ingest.load import load_directory
from api.settings import DEFAULT_FIXTURES_DIR
from schema import default_schema
from schema.context import Context
from store.reader import Reader

from conftest import POSTGRES_URL, serve
from seed_page import NODE_PAGE

SEED_PATH: dict[str, object] = {"path": "optimization/training-parallelism"}


async def _seed_pages_then_prepared(engine: AsyncEngine, pages: int, connections: int) -> set[str]:
    """Asks for the seed page ``pages`` times, one after another, as requests do; then
    the statements prepared on each of ``connections`` connections checked out at once
    (so every idle one in the pool is among them)."""
    for _ in range(pages):
        result: Any = await default_schema().execute(
            NODE_PAGE, variable_values=SEED_PATH, context_value=Context.for_request(engine)
        )
        assert not result.errors, result.errors
    found: set[str] = set()
    async with AsyncExitStack() as stack:
        for _ in range(connections):
            connection = await stack.enter_async_context(engine.connect())
            result = await connection.exec_driver_sql(
                "SELECT statement FROM pg_prepared_statements"
            )
            found |= {row[0] for row in result}
            await connection.rollback()
    return found


@pytest.mark.skipif(POSTGRES_URL is None, reason="PostgreSQL only (TEST_DATABASE_URL)")
@pytest.mark.parametrize("prepared_statements", [True, False], ids=["on", "off"])
def test_statements_requests_repeat_get_prepared(
    new_database: Callable[[str, str], str], prepared_statements: bool
) -> None:
    url = new_database("postgresql", "prepared")
    load_directory(DEFAULT_FIXTURES_DIR, url)
    with serve(url, prepared_statements=prepared_statements) as client:
        engine = client.app.state.request_engine  # type: ignore[attr-defined]
        assert client.portal is not None
        prepared = client.portal.call(_seed_pages_then_prepared, engine, 20, 3)
    if prepared_statements:
        assert any("FROM branch_model" in statement for statement in prepared), prepared
        assert any("FROM treatment" in statement for statement in prepared), prepared
    else:
        assert prepared == set()


async def _inside_a_request(engine: AsyncEngine) -> tuple[list[str], bool]:
    """What a request's transaction is, read inside it; and whether its first statement
    was the request's one (the setup statements are not counted)."""
    async with engine.connect() as connection:  # psycopg sends no BEGIN of its own
        driver = (await connection.get_raw_connection()).driver_connection
        assert driver is not None
        assert driver.autocommit
    reader = Reader.of(engine)
    try:
        await reader.open_snapshot()
        row = (
            await reader.execute(
                text(
                    "SELECT current_setting('transaction_isolation'), "
                    "current_setting('transaction_read_only'), "
                    "(SELECT count(*) FROM pg_locks WHERE locktype = 'relation' "
                    "AND relation = 'dataset'::regclass AND pid = pg_backend_pid() "
                    "AND mode = 'AccessShareLock')::text"
                )
            )
        ).one()
        return list(row), reader.statements == 1
    finally:
        await reader.close()


@pytest.mark.skipif(POSTGRES_URL is None, reason="PostgreSQL only (TEST_DATABASE_URL)")
def test_a_request_begins_its_snapshot_with_its_lock_in_one_round_trip(
    new_database: Callable[[str, str], str],
) -> None:
    """The serving engine leaves psycopg in autocommit, so psycopg sends no BEGIN of its
    own before the first statement: the reader sends BEGIN and its LOCK as one string
    (store.reader.BEGIN_AND_LOCK). Inside, a request's transaction is still one
    read-only REPEATABLE READ snapshot that holds the LOCK on `dataset`."""
    url = new_database("postgresql", "snapshot_begin")
    load_directory(DEFAULT_FIXTURES_DIR, url)
    with serve(url) as client:
        engine = client.app.state.request_engine  # type: ignore[attr-defined]
        assert client.portal is not None
        inside, one_statement = client.portal.call(_inside_a_request, engine)
    assert inside == ["repeatable read", "on", "1"]
    assert one_statement  # the setup statements are not the request's
