"""The version of the served data, as every server process sees it.

Each load writes a new `dataset` row (its number and a random identity); each process
polls it, so after a load every worker of every server on that database moves to the new
version within one poll interval. Responses are cached and tagged (ETag) by this
version, and cursors carry it."""

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from store.engines import make_sync_engine
from store.tables import DatasetRow, table_of

log = logging.getLogger(__name__)


def data_version(version: int | None, identity: str | None) -> str | None:
    """The served data's version as clients see it: the load's number and its random
    identity (`DatasetRow.identity`), unique to that load in any database."""
    return None if version is None else f"{version}-{identity}"


_VERSION = select(table_of(DatasetRow).c.version, table_of(DatasetRow).c.identity)
# The same, as two scalar subqueries: a row (of NULLs when nothing is loaded) that other
# columns can join, such as a request's statement timeout (store.reader).
VERSION_COLUMNS = (
    select(table_of(DatasetRow).c.version).limit(1).scalar_subquery().label("version"),
    select(table_of(DatasetRow).c.identity).limit(1).scalar_subquery().label("identity"),
)


async def read_data_version(connection: AsyncConnection) -> str | None:
    """The data version the database behind ``connection`` serves: None before any load."""
    row = (await connection.execute(_VERSION)).first()
    return None if row is None else data_version(*row)


def holds_data(database_url: str) -> bool:
    """Whether the (migrated) database at ``database_url`` holds a load."""
    engine = make_sync_engine(database_url)
    try:
        with engine.connect() as connection:
            return connection.execute(_VERSION).first() is not None
    finally:
        engine.dispose()


class DataVersion:
    """The version every request of this process is tagged with, read every ``interval``
    seconds. A read that does not answer within ``timeout`` (a connection that hangs) is
    left behind and the version is unknown until one answers: requests then go to the
    database, uncached, rather than be answered from an older version. So after a load
    commits, no answer is tagged with the version before it for longer than
    ``interval + timeout``."""

    def __init__(
        self,
        engine: AsyncEngine,
        interval: float,
        timeout: float = 1.0,
        on_change: Callable[[str], object] | None = None,
        before_read: Callable[[], Awaitable[object]] | None = None,
    ) -> None:
        self._engine = engine
        # Run before each read (store.engines.SqliteFileWatch: a database file replaced).
        self._before_read = before_read
        # Called with each new version this process sees (the first one included).
        self._on_change = on_change
        self._interval = interval
        self._timeout = timeout
        self.current: str | None = None
        self._task: asyncio.Task[None] | None = None
        self._left_behind: set[asyncio.Task[str | None]] = set()

    async def refresh(self) -> str | None:
        """Read the version now; None when the database cannot say (away, hanging, not
        loaded)."""
        if self._before_read is not None:
            await self._before_read()
        reading = asyncio.ensure_future(self._read())
        try:
            done, _ = await asyncio.wait({reading}, timeout=self._timeout)
        except asyncio.CancelledError:
            # The poll is stopping: the read is left to finish, and `stop` waits for it.
            # Not cancelled: a read cancelled while aiosqlite's thread opens its
            # connection ends at once, and that thread then hands its result to a loop
            # that may have closed ("Event loop is closed", raised in the thread).
            self._keep(reading)
            raise
        if not done:
            # Not awaited: ending a hanging connection can hang as well.
            self._leave_behind(reading)
            log.warning("the data version did not come within %g s", self._timeout)
            self.current = None
        else:
            seen, self.current = self.current, reading.result()
            if self.current is not None and self.current != seen and self._on_change:
                self._on_change(self.current)
        return self.current

    def _leave_behind(self, reading: "asyncio.Task[str | None]") -> None:
        reading.cancel()
        self._keep(reading)

    def _keep(self, reading: "asyncio.Task[str | None]") -> None:
        self._left_behind.add(reading)
        reading.add_done_callback(self._left_behind.discard)

    async def _read(self) -> str | None:
        try:
            async with self._engine.connect() as connection:
                return await read_data_version(connection)
        except (SQLAlchemyError, OSError) as exc:
            log.warning("cannot read the data version: %s", type(exc).__name__)
            return None

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
        if self._left_behind:  # reads still running: a last chance to end, briefly
            await asyncio.wait(set(self._left_behind), timeout=self._timeout)
        for hanging in set(self._left_behind):  # given up: called off, and let end
            hanging.cancel()
        if self._left_behind:
            await asyncio.wait(set(self._left_behind), timeout=self._timeout)
