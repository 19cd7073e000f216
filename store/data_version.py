"""The version of the served data, as every server process sees it.

Each load bumps `dataset.version` in the database; each process polls it, so after a
load every worker of every server on that database moves to the new version within one
poll interval. Responses are cached and tagged (ETag) by this version."""

import asyncio
import contextlib
import logging

from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncEngine

from store.tables import DatasetRow, table_of

log = logging.getLogger(__name__)


class DataVersion:
    def __init__(self, engine: AsyncEngine, interval: float) -> None:
        self._engine = engine
        self._interval = interval
        self.current: int | None = None
        self._task: asyncio.Task[None] | None = None

    async def refresh(self) -> int | None:
        """Read the version now; None when the database cannot say (away, not loaded)."""
        try:
            async with self._engine.connect() as connection:
                version = (
                    await connection.execute(select(table_of(DatasetRow).c.version))
                ).scalar()
        except (SQLAlchemyError, OSError) as exc:
            log.warning("cannot read the data version: %s", type(exc).__name__)
            version = None
        self.current = version
        return version

    async def _poll(self) -> None:
        while True:
            await asyncio.sleep(self._interval)
            await self.refresh()

    async def start(self) -> None:
        await self.refresh()
        self._task = asyncio.create_task(self._poll())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
