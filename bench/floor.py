"""The floor: the least a Python web server can do to give our server's answers.

One Starlette endpoint per workload (POST /w1 .. /w5, with the same JSON body as the
GraphQL request, of which only `variables` is read) runs our server's SQL statements
(`bench.floor_queries`) on plain sqlite3 or psycopg, in one snapshot like our server's
requests (BEGIN on SQLite, REPEATABLE READ on PostgreSQL), and writes `{"data": ...}` with
orjson. No ORM, no GraphQL, no cache: whatever our server spends beyond this is the
price of those layers.

Run it as uvicorn workers: ``uvicorn --factory bench.floor:create_app`` with
``BENCH_FLOOR_DATABASE_URL`` set (each worker builds its own app from the environment).
"""

import asyncio
import os
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any, Protocol

import orjson
import psycopg
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from bench.floor_queries import ANSWERS, Answer, Row

URL_VARIABLE = "BENCH_FLOOR_DATABASE_URL"
POOL_SIZE = 5  # connections per process, as our server's TAXONOMY_POOL_SIZE default


class Database(Protocol):
    dialect: str

    async def answer(self, answer: Answer, variables: dict[str, Any]) -> tuple[Any, int]:
        """(the workload's `data`, how many statements it ran)."""
        ...

    async def close(self) -> None: ...


class SqliteDatabase:
    """One connection per process, used straight from the event loop.

    A request's statements run back to back with no await that yields in between, so no
    two requests ever share the connection at once, and SQLite's reads take microseconds.
    """

    dialect = "sqlite"

    def __init__(self, path: str) -> None:
        self._connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._connection.execute("PRAGMA busy_timeout = 5000")

    async def answer(self, answer: Answer, variables: dict[str, Any]) -> tuple[Any, int]:
        statements = 0
        connection = self._connection

        async def fetch(sql: str, params: Sequence[Any]) -> list[Row]:
            nonlocal statements
            statements += 1
            return connection.execute(sql, tuple(params)).fetchall()

        connection.execute("BEGIN")
        try:
            return await answer(fetch, self.dialect, variables), statements
        finally:
            connection.execute("COMMIT")

    async def close(self) -> None:
        self._connection.close()


class PostgresDatabase:
    """A small pool of psycopg async connections, each request in a REPEATABLE READ
    transaction of its own."""

    dialect = "postgresql"

    def __init__(self, conninfo: str, size: int = POOL_SIZE) -> None:
        self._conninfo = conninfo
        self._size = size
        self._opened = 0
        self._idle: asyncio.Queue[psycopg.AsyncConnection[Any]] = asyncio.Queue()
        self._all: list[psycopg.AsyncConnection[Any]] = []

    async def _acquire(self) -> psycopg.AsyncConnection[Any]:
        if self._idle.empty() and self._opened < self._size:
            self._opened += 1
            connection = await psycopg.AsyncConnection.connect(self._conninfo)
            await connection.set_isolation_level(psycopg.IsolationLevel.REPEATABLE_READ)
            self._all.append(connection)
            return connection
        return await self._idle.get()

    async def answer(self, answer: Answer, variables: dict[str, Any]) -> tuple[Any, int]:
        statements = 0
        connection = await self._acquire()
        try:
            async with connection.cursor() as cursor:

                async def fetch(sql: str, params: Sequence[Any]) -> list[Row]:
                    nonlocal statements
                    statements += 1
                    await cursor.execute(sql.replace("?", "%s"), tuple(params))
                    return await cursor.fetchall()

                data = await answer(fetch, self.dialect, variables)
            # COMMIT, as our server ends its read-only transactions: psycopg forgets a
            # connection's prepared statements on every ROLLBACK, so none would be prepared.
            await connection.commit()
            return data, statements
        finally:
            self._idle.put_nowait(connection)

    async def close(self) -> None:
        for connection in self._all:
            await connection.close()


def open_database(url: str) -> Database:
    """sqlite:///path or postgresql://... (the URLs `taxonomy --db` takes)."""
    if url.startswith("sqlite:///"):
        return SqliteDatabase(url.removeprefix("sqlite:///"))
    if url.startswith(("postgresql://", "postgres://")):
        return PostgresDatabase(url)
    raise ValueError(f"{url!r}: the floor serves sqlite:///path or postgresql://...")


def _endpoint(answer: Answer) -> Any:
    async def endpoint(request: Request) -> Response:
        body = orjson.loads(await request.body())
        database: Database = request.app.state.database
        data, statements = await database.answer(answer, body.get("variables") or {})
        return Response(
            orjson.dumps({"data": data}),
            media_type="application/json",
            headers={"x-sql-statements": str(statements)},
        )

    return endpoint


def create_app(url: str | None = None) -> Starlette:
    database_url = url or os.environ[URL_VARIABLE]

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        app.state.database = open_database(database_url)
        try:
            yield
        finally:
            await app.state.database.close()

    routes = [
        Route(f"/{name.lower()}", _endpoint(answer), methods=["POST"])
        for name, answer in ANSWERS.items()
    ]
    routes.append(Route("/healthz", lambda _: Response(b'{"status":"ok"}'), methods=["GET"]))
    return Starlette(routes=routes, lifespan=lifespan)
