"""A request's access to the database: one snapshot, one statement at a time.

Two kinds, by database. PostgreSQL is read over the network, so its statements are
awaited (`AsyncReader`). SQLite is a file in this process: its statements take
microseconds to a few milliseconds, less than the thread hops of an async driver
(aiosqlite sends every cursor call to a thread and back), so they run straight from the
event loop (`InLoopReader`), stopped by SQLite itself when the request's time is up.
"""

import asyncio
import contextlib
import logging
import sqlite3
import time
from dataclasses import dataclass

from sqlalchemy import (
    Connection,
    Dialect,
    Engine,
    Executable,
    bindparam,
    func,
    select,
    text,
)
from sqlalchemy.exc import DBAPIError, OperationalError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from store.data_version import VERSION_COLUMNS, data_version
from store.database_errors import FAULTS_LOGGER
from store.engines import request_slots
from store.rows import AnyResult, Params, Prepared, RowT
from store.turns import ROWS_PER_TURN, Turns

# SQLite calls the progress handler every this many virtual machine instructions
# (a few hundred microseconds of work): often enough to stop within a millisecond.
_PROGRESS_INSTRUCTIONS = 10_000


# A request's snapshot begins with its first statement, which reads the data version the
# snapshot holds (store.data_version): an answer is labelled with the version it was read
# from, never the one the process last polled (they differ for up to a poll interval
# after a load). On PostgreSQL the same statement sets the request's statement timeout.
_SNAPSHOT_VERSION = select(*VERSION_COLUMNS)
_SNAPSHOT_VERSION_AND_TIMEOUT = select(
    *VERSION_COLUMNS, func.set_config("statement_timeout", bindparam("ms"), True)
)


# PostgreSQL: taken before a snapshot begins, by every reader of the served tables (a
# request's, an export's): see AsyncReader._begin.
LOCK_BEFORE_SNAPSHOT = text("LOCK TABLE dataset IN ACCESS SHARE MODE")
# A request's transaction and that LOCK in one round trip: the serving engine leaves
# psycopg in autocommit (store.engines.make_async_engine), so psycopg sends no BEGIN of its
# own before a reader's first statement, and this string, sent without parameters, goes
# by the simple protocol, which takes several statements. (The COMMIT that ends it is
# SQLAlchemy's: psycopg commits a transaction the server says is open.)
BEGIN_AND_LOCK = f"BEGIN ISOLATION LEVEL REPEATABLE READ; {LOCK_BEFORE_SNAPSHOT.text}"

# PostgreSQL's SQLSTATE for a statement it cancelled (here: at its statement_timeout).
_QUERY_CANCELED = "57014"


def _is_statement_timeout(exc: DBAPIError) -> bool:
    return getattr(exc.orig, "sqlstate", None) == _QUERY_CANCELED


class StatementTimeoutError(Exception):
    """A statement ran past the request's deadline and the database stopped it."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"stopped at the request's time limit of {seconds:g} s")
        self.seconds = seconds


class Reader:
    """The request's one connection (one transaction: its snapshot), opened on first use
    and closed when the request ends; counts its statements.

    A connection, not an ORM session: rows are read as records (`store.rows`), and
    nothing is written, so the session's work on each statement (ORM compile state,
    result setup, its transaction bookkeeping) would buy nothing."""

    statements: int = 0
    # The data version of this reader's snapshot (store.data_version), once it is open;
    # None before, or when nothing is loaded.
    snapshot_version: str | None = None
    _sql_dialect: Dialect  # the engine's, for which statements are compiled

    async def open_snapshot(self) -> str | None:
        """Begin the snapshot now, if no statement has begun it yet, and say which data
        version it holds."""
        raise NotImplementedError

    @property
    def dialect(self) -> str:
        return self._sql_dialect.name

    async def execute(self, statement: Executable, params: Params | None = None) -> AnyResult:
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    @property
    def database(self) -> str:
        """Which database this reads (its URL, without a password)."""
        raise NotImplementedError

    def detached(self) -> "Reader":
        """A new reader of the same database, with a snapshot of its own and no deadline:
        for work a request starts but that outlives it (the search catalogue's build)."""
        raise NotImplementedError

    # Whether statements run in the calling thread, holding up its event loop meanwhile.
    blocks_the_loop: bool = False
    # The request's share of the event loop (store.turns): its rows and its list fields
    # give the loop back to the other requests every slice.
    turns: Turns

    async def take_turn(self) -> None:
        """Give the event loop to the other requests if this one has held it for a slice."""
        await self.turns.take()

    async def rows(self, statement: Prepared[RowT], params: Params | None = None) -> list[RowT]:
        """The rows of ``statement``, each made as its shape says: records (`store.rows`),
        not ORM instances."""
        row_of = statement.row_of
        result = await self.execute(statement.statement, params)
        # A part at a time, each followed by a check of the request's turn: SQLite steps
        # through a statement as its rows are fetched, so neither the statement nor the
        # records of thousands of rows hold the loop longer than a slice (store.turns).
        rows: list[RowT] = []
        for part in result.partitions(ROWS_PER_TURN):
            rows.extend([row_of(row) for row in part])
            await self.turns.take()
        return rows

    @staticmethod
    def of(engine: Engine | AsyncEngine, deadline: "Deadline | None" = None) -> "Reader":
        """The reader for ``engine``: in the event loop for a synchronous (SQLite) one."""
        if isinstance(engine, AsyncEngine):
            return AsyncReader(engine, deadline)
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

    def __init__(self, engine: AsyncEngine, deadline: "Deadline | None" = None) -> None:
        self._engine = engine
        self._deadline = deadline
        self._connection: AsyncConnection | None = None
        self._lock = asyncio.Lock()
        self._slots = request_slots(engine)
        self._holds_slot = False
        self._sql_dialect = engine.dialect
        self.turns = Turns()

    @property
    def database(self) -> str:
        return self._engine.url.render_as_string(hide_password=True)

    def detached(self) -> Reader:
        return AsyncReader(self._engine)

    async def _connect(self) -> None:
        """Take a connection and begin the snapshot with the connection's setup statement.

        A pooled connection that the database dropped while it sat idle (a restart, a cut
        network) fails on its first use, and SQLAlchemy then retires every connection of
        the pool. Nothing has been read before the setup statement, so it is tried once
        more, on a new connection: what a ping before every checkout would buy, without
        a round trip on every request. A database still away fails this again, and the
        connection is forgotten: the request's other fields then fail to connect
        (DATABASE_UNAVAILABLE) rather than use a closed connection."""
        if self._slots is not None and not self._holds_slot:
            await self._slots.acquire()  # first come, first served (store.engines)
            self._holds_slot = True
        for retry in (False, True):
            self._connection = await self._engine.connect()
            try:
                await self._begin(self._connection)
                return
            except DBAPIError as exc:
                dead, self._connection = self._connection, None
                with contextlib.suppress(SQLAlchemyError):
                    await dead.close()
                if retry or not exc.connection_invalidated:
                    self._raise_if_timed_out(exc)
                    raise

    async def _begin(self, connection: AsyncConnection) -> None:
        if connection.dialect.name == "postgresql":
            # Before the snapshot begins (LOCK TABLE takes none): a load swaps its new
            # tables in under an ACCESS EXCLUSIVE lock on `dataset` (store.load.beside),
            # and a snapshot begun while waiting for it would read the old release's
            # version and find the new tables empty.
            await connection.exec_driver_sql(BEGIN_AND_LOCK)
        if self._deadline is None:
            opened = await connection.execute(_SNAPSHOT_VERSION)
        else:
            # The database stops the request's statements itself at its deadline: a
            # statement cancelled from here instead costs a round trip more (psycopg's
            # cancel request), and is not stopped at all should the network be cut. Local
            # to the transaction, so the pooled connection keeps no trace of it. Set in
            # the snapshot's first statement, so it costs no round trip of its own.
            left_ms = max(1, int((self._deadline.at - time.monotonic()) * 1000))
            opened = await connection.execute(_SNAPSHOT_VERSION_AND_TIMEOUT, {"ms": str(left_ms)})
        # Not counted among the request's statements: the connection's setup, whatever
        # the request asks.
        self.snapshot_version = data_version(*opened.one()[:2])

    def _raise_if_timed_out(self, exc: DBAPIError) -> None:
        """A statement the database stopped at the request's deadline is said as such."""
        if self._deadline is not None and _is_statement_timeout(exc):
            raise StatementTimeoutError(self._deadline.seconds) from exc

    async def open_snapshot(self) -> str | None:
        async with self._lock:
            if self._connection is None:
                await self._connect()
        return self.snapshot_version

    def _release_slot(self) -> None:
        if self._slots is not None and self._holds_slot:
            self._holds_slot = False
            self._slots.release()

    async def execute(self, statement: Executable, params: Params | None = None) -> AnyResult:
        async with self._lock:
            self.statements += 1
            if self._connection is None:
                await self._connect()
            assert self._connection is not None
            try:
                return await self._connection.execute(statement, params)
            except DBAPIError as exc:
                self._raise_if_timed_out(exc)
                raise

    async def close(self) -> None:
        async with self._lock:
            connection, self._connection = self._connection, None
            if connection is None:
                self._release_slot()  # taken, then connecting failed
                return
            try:
                # A connection invalidated under a cancelled statement (a build stopped
                # at shutdown, a request unwinding after its time limit) has no
                # transaction left to commit: SQLAlchemy refuses, and closing it is all.
                if connection.in_transaction() and not connection.invalidated:
                    # A read-only transaction ends the same either way, but psycopg
                    # forgets a connection's prepared statements on every ROLLBACK (it
                    # cannot tell which survive one): ended by rollbacks, no statement
                    # would ever run often enough to be prepared, and PostgreSQL would
                    # plan each one every time. After a COMMIT the pool's reset has
                    # nothing to undo.
                    await connection.commit()
            finally:
                # Back to the pool even when the COMMIT failed (a dropped connection:
                # the pool's rollback fails too, and the pool retires it).
                try:
                    await connection.close()
                finally:
                    self._release_slot()


_faults = logging.getLogger(FAULTS_LOGGER)


async def close_quietly(reader: Reader, request_id: str | None) -> None:
    """Closes ``reader``; a connection that died under it is logged, not raised: the pool
    replaces it, and what the request read stands."""
    try:
        await reader.close()
    except Exception as exc:
        _faults.warning(
            "request %s: closing its connection failed: %s", request_id, type(exc).__name__
        )


def sqlite_connection(connection: Connection) -> sqlite3.Connection:
    """The sqlite3 connection under ``connection`` (SQLAlchemy's public accessor)."""
    driver = connection.connection.driver_connection
    assert isinstance(driver, sqlite3.Connection)
    return driver


class InLoopReader(Reader):
    """Statements run to completion in the event loop's thread, without awaiting: no two
    ever overlap, and each request holds its own connection (its snapshot) across awaits.

    A blocked loop cannot be interrupted by the request's asyncio time limit, so SQLite's
    progress handler stops a statement that runs past the request's deadline.
    """

    def __init__(self, engine: Engine, deadline: Deadline | None) -> None:
        self._engine = engine
        self._connection: Connection | None = None
        self._deadline = deadline
        self._sql_dialect = engine.dialect
        self.turns = Turns()

    @property
    def database(self) -> str:
        return self._engine.url.render_as_string(hide_password=True)

    blocks_the_loop = True

    def detached(self) -> Reader:
        return InLoopReader(self._engine, None)

    def _open(self) -> Connection:
        connection = self._engine.connect()
        try:
            connection.begin()  # the snapshot (store.engines: an explicit BEGIN on SQLite)
            if self._deadline is not None:
                at = self._deadline.at
                sqlite_connection(connection).set_progress_handler(
                    lambda: time.monotonic() > at, _PROGRESS_INSTRUCTIONS
                )
            # The snapshot's first read, not counted (the connection's setup: see above).
            version = connection.execute(_SNAPSHOT_VERSION).one()
        except BaseException:
            self._reset(connection)
            raise
        self.snapshot_version = data_version(*version)
        return connection

    async def open_snapshot(self) -> str | None:
        if self._connection is None:
            self._connection = self._open()
        return self.snapshot_version

    async def execute(self, statement: Executable, params: Params | None = None) -> AnyResult:
        if self._connection is None:
            self._connection = self._open()
        self.statements += 1
        try:
            return self._connection.execute(statement, params)
        except OperationalError as exc:
            if self._deadline is None or "interrupted" not in str(exc.orig):
                raise
        # SQLite stopped the statement at the deadline, which the request's asyncio limit
        # (api.edge.http_guards.TimeLimit) shares: its timer is due and fires as soon as the
        # loop runs, stopping the request as any other overrun (503 TIMEOUT, before the
        # answer starts; a cancellation arriving after would cut the answer short).
        await asyncio.sleep(0.05)
        # No asyncio limit watches this request (an in-process execution): the field fails.
        raise StatementTimeoutError(self._deadline.seconds)

    async def close(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            self._reset(connection)

    def _reset(self, connection: Connection) -> None:
        if self._deadline is not None:  # the connection goes back to the pool without it
            sqlite_connection(connection).set_progress_handler(None, _PROGRESS_INSTRUCTIONS)
        connection.close()  # rolls the read-only transaction back
