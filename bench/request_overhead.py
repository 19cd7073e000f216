"""Where a request's processor time goes besides the query's own work (issue 23 item 5:
where PostgreSQL loses to SQLite).

    .venv/bin/python -m bench.request_overhead DATABASE_URL [--requests 300] [--json]

Two measures, each the best of 5 runs (processor time of this process only: PostgreSQL's
own work is in its processes, SQLite's in this one):

- **Per request**, straight through the ASGI app (no HTTP client, whose own cost is larger
  than a small request's: Starlette's TestClient adds about 2.4 ms), the response cache
  off: `{ __typename }` reads nothing (the app's own cost: HTTP edge, parse, validation,
  the answer's encoding); `{ roots { slug } }` reads one statement (and so opens the
  request's snapshot: on PostgreSQL a connection from the pool, LOCK, the snapshot's first
  read, COMMIT); and W1, the seed page (bench/workloads.py).
- **Per statement**, on PostgreSQL only: one row by its key, run on one open connection
  through SQLAlchemy's asyncio engine as requests run it (store.engines), through psycopg's
  asyncio connection alone, and through psycopg's blocking connection.
"""

import argparse
import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

import psycopg
from sqlalchemy import bindparam, select
from starlette.types import ASGIApp, Message, Scope

from api.app import create_app
from api.edge.middleware import replay
from api.settings import Settings
from bench.workloads import W1_SEED_PAGE
from store.engines import is_sqlite, make_async_engine, parse_url
from store.tables import NodeRow, table_of

REQUESTS = 300
RUNS = 5
DOCUMENTS = {
    "nothing read ({ __typename })": ("{ __typename }", {}),
    "one statement ({ roots { slug } })": ("{ roots { slug } }", {}),
    "the seed page (W1)": (W1_SEED_PAGE, {"path": "optimization/training-parallelism"}),
}
# One node by its key: a statement whose database work is next to nothing.
_ONE_ROW = select(table_of(NodeRow)).where(table_of(NodeRow).c.id == bindparam("id"))


def graphql_post(body: bytes) -> Scope:
    """The scope of one POST /graphql of ``body``, as a server hands it over."""
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/graphql",
        "raw_path": b"/graphql",
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"host", b"bench"),
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ],
        "client": ("127.0.0.1", 1),
        "server": ("bench", 80),
    }


async def client_stays() -> Message:
    """What the app hears from a client that never leaves mid-answer: nothing."""
    await asyncio.Event().wait()
    raise AssertionError


async def _post(app: ASGIApp, body: bytes) -> bytes:
    """One POST /graphql through ``app``, as a server hands it over; the answer's body."""
    parts: list[bytes] = []

    async def send(message: Message) -> None:
        if message["type"] == "http.response.body":
            parts.append(message.get("body", b""))

    await app(graphql_post(body), replay(body, client_stays), send)
    return b"".join(parts)


async def _best_ms(run: Callable[[], Awaitable[object]], count: int) -> float:
    """The least processor time of one ``run()``, in ms, over RUNS runs of ``count``."""
    for _ in range(max(count // 3, 10)):  # warm: caches, prepared statements
        await run()
    best = float("inf")
    for _ in range(RUNS):
        start = time.process_time()
        for _ in range(count):
            await run()
        best = min(best, (time.process_time() - start) / count)
    return round(best * 1000, 3)


async def per_request(url: str, count: int) -> dict[str, float]:
    app = create_app(Settings(database_url=url, response_cache=False, request_log=False))
    figures: dict[str, float] = {}
    async with app.router.lifespan_context(app):
        for name, (document, variables) in DOCUMENTS.items():
            body = json.dumps({"query": document, "variables": variables}).encode()
            answer = json.loads(await _post(app, body))
            assert "data" in answer, answer
            assert not answer.get("errors"), answer

            async def ask(body: bytes = body) -> bytes:
                return await _post(app, body)

            figures[name] = await _best_ms(ask, count)
    return figures


async def per_statement(url: str, count: int) -> dict[str, float]:
    """One statement's processor time three ways (PostgreSQL)."""
    engine = make_async_engine(url)
    sql = str(_ONE_ROW.compile(dialect=engine.dialect)).replace("%(id)s", "%s")
    figures: dict[str, float] = {}
    try:
        async with engine.connect() as connection:

            async def through_sqlalchemy() -> Any:
                return (await connection.execute(_ONE_ROW, {"id": 1})).all()

            figures["SQLAlchemy asyncio (as requests run it)"] = await _best_ms(
                through_sqlalchemy, count
            )
    finally:
        await engine.dispose()
    conninfo = parse_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    async with await psycopg.AsyncConnection.connect(conninfo) as aconnection:

        async def through_psycopg_async() -> Any:
            return await (await aconnection.execute(sql, (1,))).fetchall()

        figures["psycopg asyncio alone"] = await _best_ms(through_psycopg_async, count)
    with psycopg.connect(conninfo) as blocking:

        async def through_psycopg_blocking() -> Any:
            return blocking.execute(sql, (1,)).fetchall()

        figures["psycopg blocking"] = await _best_ms(through_psycopg_blocking, count)
    return figures


def measure(url: str, count: int = REQUESTS) -> dict[str, dict[str, float]]:
    async def both() -> dict[str, dict[str, float]]:
        figures = {"per request (ms)": await per_request(url, count)}
        if not is_sqlite(url):
            figures["per statement (ms)"] = await per_statement(url, count)
        return figures

    return asyncio.run(both())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("database_url")
    parser.add_argument("--requests", type=int, default=REQUESTS)
    parser.add_argument("--json", action="store_true", help="one JSON object")
    arguments = parser.parse_args()
    figures = measure(arguments.database_url, arguments.requests)
    if arguments.json:
        print(json.dumps(figures))
        return
    for group, values in figures.items():
        print(group)
        for name, ms in values.items():
            print(f"  {name}: {ms:.2f}")


if __name__ == "__main__":
    main()
