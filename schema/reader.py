"""A request's access to the database: one snapshot, one statement at a time.

Two kinds, by database. PostgreSQL is read over the network, so its statements are
awaited (`AsyncReader`). SQLite is a file in this process: its statements take
microseconds to a few milliseconds, less than the thread hops of an async driver
(aiosqlite sends every cursor call to a thread and back), so they run straight from the
event loop (`InLoopReader`), stopped by SQLite itself when the request's time is up.
"""

import asyncio
import contextlib
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import psycopg
from sqlalchemy import Connection, Dialect, Engine, Executable, Result
from sqlalchemy.exc import DBAPIError, OperationalError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from schema.errors import RequestTimeoutError
from schema.records import AnySelect, Prepared

_IN_TRANSACTION = psycopg.pq.TransactionStatus.INTRANS

# SQLite calls the progress handler every this many virtual machine instructions
# (a few hundred microseconds of work): often enough to stop within a millisecond.
_PROGRESS_INSTRUCTIONS = 10_000


class Reader:
    """The request's one connection (one transaction: its snapshot), opened on first use
    and closed when the request ends; counts its statements.

    A connection, not an ORM session: rows are read as records (`schema.records`), and
    nothing is written, so the session's work on each statement (ORM compile state,
    result setup, its transaction bookkeeping) would buy nothing."""

    statements: int = 0
    _sql_dialect: Dialect  # the engine's, for which statements are compiled

    @property
    def dialect(self) -> str:
        return self._sql_dialect.name

    async def execute(
        self, statement: Executable, params: dict[str, Any] | None = None
    ) -> Result[*tuple[Any, ...]]:
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    async def rows(
        self, statement: "AnySelect | Prepared", params: dict[str, Any] | None = None
    ) -> list[tuple[Any, ...]]:
        """The rows of ``statement`` (a select of ORM entities and columns), each entity
        read as a light record (`schema.records`), not an ORM instance."""
        if isinstance(statement, Prepared):
            prepared = statement
            values = await self.run(prepared, params or {})
        else:  # built for this request: SQLAlchemy's cache knows its compiled form
            prepared = Prepared.of(statement)
            values = (await self.execute(prepared.statement, params)).all()
        row_of = prepared.row_of
        return [row_of(row) for row in values]

    async def run(self, prepared: Prepared, params: dict[str, Any]) -> Sequence[Sequence[Any]]:
        """The rows of ``prepared`` as SQLAlchemy would give them, run by the driver itself
        (`schema.driver_sql`). A driver's error makes SQLAlchemy run the statement again,
        so that the error is reported as every other is (`schema.errors` knows
        SQLAlchemy's), and a connection the database dropped is retired by the pool."""
        form = prepared.driver_form(self._sql_dialect)
        sql, values = form.bound(params)
        rows = await self._by_driver(sql, values)
        if rows is None:
            return (await self.execute(prepared.statement, params)).all()
        return form.converted(rows)

    async def _by_driver(self, sql: str, values: Any) -> list[Any] | None:
        """The driver's rows of ``sql`` (counted), or None if the driver failed."""
        raise NotImplementedError

    async def records(
        self, statement: "AnySelect | Prepared", params: dict[str, Any] | None = None
    ) -> list[Any]:
        """The first column of each of ``rows`` (a select of one entity: its records)."""
        return [row[0] for row in await self.rows(statement, params)]

    @staticmethod
    def of(engine: Engine | AsyncEngine, deadline: "Deadline | None" = None) -> "Reader":
        """The reader for ``engine``: in the event loop for a synchronous (SQLite) one."""
        if isinstance(engine, AsyncEngine):
            return AsyncReader(engine)
        return InLoopReader(engine, deadline)


@dataclass(frozen=True)
class Deadline:
    """When a request must be done (on time.monotonic()'s clock), from a limit of seconds."""

    seconds: float
    at: float

    @classmethod
    def after(cls, seconds: float) -> "Deadline":
        return cls(seconds, time.monotonic() + seconds)


class AsyncReader(Reader):
    """Statements awaited on an AsyncConnection.

    Strawberry resolves sibling fields concurrently, and an AsyncConnection must not run
    two statements at once, so statements are serialised here.
    """

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._connection: AsyncConnection | None = None
        self._driver: Any = None  # the psycopg connection under it
        self._lock = asyncio.Lock()
        self._sql_dialect = engine.dialect

    async def _connect(self) -> None:
        self._connection = await self._engine.connect()
        self._driver = (await self._connection.get_raw_connection()).driver_connection

    async def execute(
        self, statement: Executable, params: dict[str, Any] | None = None
    ) -> Result[*tuple[Any, ...]]:
        async with self._lock:
            return await self._execute(statement, params)

    async def _by_driver(self, sql: str, values: Any) -> list[Any] | None:
        async with self._lock:
            if self._connection is None:
                await self._connect()
            try:
                rows: list[Any] = await (await self._driver.execute(sql, values)).fetchall()
            except psycopg.Error:
                return None
            self.statements += 1
            return rows

    async def _execute(
        self, statement: Executable, params: dict[str, Any] | None = None
    ) -> Result[*tuple[Any, ...]]:
        if self._connection is None:
            await self._connect()
        assert self._connection is not None
        self.statements += 1
        try:
            return await self._connection.execute(statement, params)
        except DBAPIError as exc:
            # A pooled connection that the database dropped while it sat idle (a
            # restart, a cut network) fails on its first use, and SQLAlchemy then
            # retires every connection of the pool. Before its first statement a
            # request has read nothing, so that statement is tried once more, on a
            # new connection: what a ping before every checkout would buy, without a
            # round trip on every request. A database still away fails this again.
            if not exc.connection_invalidated or self.statements > 1:
                raise
            # Forgotten before anything else: should the database still be away, the
            # request's other fields then fail to connect (DATABASE_UNAVAILABLE)
            # rather than use a closed connection.
            dead, self._connection, self._driver = self._connection, None, None
            with contextlib.suppress(SQLAlchemyError):
                await dead.close()
            await self._connect()
            assert self._connection is not None
            return await self._connection.execute(statement, params)

    async def close(self) -> None:
        async with self._lock:
            if self._connection is not None:
                connection, driver = self._connection, self._driver
                self._connection = self._driver = None
                try:
                    if driver is not None and driver.info.transaction_status == _IN_TRANSACTION:
                        # A read-only transaction ends the same either way, but psycopg
                        # forgets a connection's prepared statements on every ROLLBACK (it
                        # cannot tell which survive one): ended by rollbacks, no statement
                        # would ever run often enough to be prepared, and PostgreSQL would
                        # plan each one every time. After a COMMIT the pool's reset has
                        # nothing to undo.
                        await driver.commit()
                finally:
                    # Back to the pool even when the COMMIT failed (a dropped connection:
                    # the pool's rollback fails too, and the pool retires it).
                    await connection.close()


class InLoopReader(Reader):
    """Statements run to completion in the event loop's thread, without awaiting: no two
    ever overlap, and each request holds its own connection (its snapshot) across awaits.

    A blocked loop cannot be interrupted by the request's asyncio time limit, so SQLite's
    progress handler stops a statement that runs past the request's deadline.
    """

    def __init__(self, engine: Engine, deadline: Deadline | None) -> None:
        self._engine = engine
        self._connection: Connection | None = None
        self._driver: Any = None  # the sqlite3 connection under it
        self._deadline = deadline
        self._sql_dialect = engine.dialect

    def _open(self) -> Connection:
        connection = self._engine.connect()
        connection.begin()  # the snapshot, for statements SQLAlchemy does not run too
        self._driver = connection.connection.driver_connection
        if self._deadline is not None:
            at = self._deadline.at
            self._driver.set_progress_handler(lambda: time.monotonic() > at, _PROGRESS_INSTRUCTIONS)
        return connection

    async def _by_driver(self, sql: str, values: Any) -> list[Any] | None:
        if self._connection is None:
            self._connection = self._open()
        try:
            rows: list[Any] = self._driver.execute(sql, values).fetchall()
        except sqlite3.Error:
            return None
        self.statements += 1
        return rows

    async def execute(
        self, statement: Executable, params: dict[str, Any] | None = None
    ) -> Result[*tuple[Any, ...]]:
        if self._connection is None:
            self._connection = self._open()
        self.statements += 1
        try:
            return self._connection.execute(statement, params)
        except OperationalError as exc:
            if self._deadline is None or "interrupted" not in str(exc.orig):
                raise
        # SQLite stopped the statement at the deadline, which the request's asyncio limit
        # (api.http_guards.TimeLimit) shares: its timer is due and fires as soon as the
        # loop runs, stopping the request as any other overrun (503 TIMEOUT, before the
        # answer starts; a cancellation arriving after would cut the answer short).
        await asyncio.sleep(0.05)
        # No asyncio limit watches this request (an in-process execution): the field fails.
        raise RequestTimeoutError(self._deadline.seconds)

    async def close(self) -> None:
        connection, self._connection = self._connection, None
        if connection is None:
            return
        if self._deadline is not None:  # the connection goes back to the pool without it
            self._driver.set_progress_handler(None, _PROGRESS_INSTRUCTIONS)
        self._driver = None
        connection.close()  # rolls the read-only transaction back
