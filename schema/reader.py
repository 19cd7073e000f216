"""A request's access to the database: one session, one statement at a time."""

import asyncio
from typing import Any

from sqlalchemy import Executable, Result
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession


class Reader:
    """The request's one session, opened on first use and closed when the request ends.

    Strawberry resolves sibling fields concurrently, and an AsyncSession must not run two
    statements at once, so statements are serialised here.
    """

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._session: AsyncSession | None = None
        self._lock = asyncio.Lock()
        self.dialect = engine.dialect.name
        self.statements = 0

    async def execute(
        self, statement: Executable, params: dict[str, Any] | None = None
    ) -> Result[*tuple[Any, ...]]:
        async with self._lock:
            if self._session is None:
                self._session = AsyncSession(self._engine)
            self.statements += 1
            return await self._session.execute(statement, params)

    async def close(self) -> None:
        async with self._lock:
            if self._session is not None:
                await self._session.close()
                self._session = None
