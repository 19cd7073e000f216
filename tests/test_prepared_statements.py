"""On PostgreSQL, statements that requests run again and again end up prepared on their
connections (psycopg prepares a statement on its sixth run on one connection), so the
database stops planning them on every request. Ending requests with a ROLLBACK made
psycopg forget them every time, and none was ever prepared. `TAXONOMY_PREPARED_STATEMENTS`
off (for a pooler that cannot keep them) prepares none."""

from collections.abc import Callable
from contextlib import AsyncExitStack
from typing import Any

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from api.ingest.load import load_directory
from api.settings import DEFAULT_FIXTURES_DIR
from schema import default_schema
from schema.context import Context

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
