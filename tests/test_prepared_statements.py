"""On PostgreSQL, statements that requests run again and again end up prepared on their
connections (psycopg prepares a statement on its sixth run on one connection), so the
database stops planning them on every request. Ending requests with a ROLLBACK made
psycopg forget them every time, and none was ever prepared."""

from collections.abc import Callable
from contextlib import AsyncExitStack
from typing import Any

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from conftest import POSTGRES_URL, Api
from seed_page import NODE_PAGE

SEED_PATH = {"path": "optimization/training-parallelism"}


async def _prepared_statements(engine: AsyncEngine, connections: int) -> set[str]:
    """The statements prepared on each of ``connections`` connections checked out at once
    (so every idle one in the pool is among them)."""
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
def test_statements_requests_repeat_get_prepared(api_for: Callable[[str, str], Api]) -> None:
    api = api_for("postgresql", "fixtures")
    for _ in range(20):
        result: Any = api.execute(NODE_PAGE, SEED_PATH)
        assert not result.errors, result.errors
    engine = api.client.app.state.request_engine  # type: ignore[attr-defined]
    assert api.client.portal is not None
    prepared = api.client.portal.call(_prepared_statements, engine, 3)
    assert any("FROM branch_model" in statement for statement in prepared), prepared
    assert any("FROM treatment" in statement for statement in prepared), prepared
