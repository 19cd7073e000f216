"""Every answer of /graphql says which data it was read from (a `Data-Version` header and
`extensions.dataVersion`, the same as `taxonomy.dataVersion`) and how long it may be kept
(`Cache-Control`, with `Vary`); a request answers within its time limit (and a short
grace) even while the database hangs, and PostgreSQL stops a request's statements itself
at its deadline."""

import asyncio
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeoutError
from pathlib import Path

import httpx2 as httpx
import psycopg
import pytest
from sqlalchemy import make_url, text
from tcp_proxy import TcpProxy

from api.ingest.load import load_directory
from store.engines import make_async_engine
from store.reader import AsyncReader, Deadline, StatementTimeoutError
from store.search_cache import SearchCache

from conftest import POSTGRES_URL, Api, release_of, serve
from processes import running_server

QUERY = {"query": "{ taxonomy { dataVersion nodeCount } }"}
POLL = 0.1


def _version(tiny: Api) -> str:
    version: str = tiny.query("{ taxonomy { dataVersion } }")["taxonomy"]["dataVersion"]
    return version


def _says_version(response: httpx.Response, version: str) -> None:
    assert response.headers["data-version"] == version, response.headers
    assert "Accept" in response.headers["vary"]
    if response.status_code != 304:
        extensions = response.json()["extensions"]
        assert extensions["dataVersion"] == version, response.text
        # Beside it, only what the operation cost, once worked out: a document that does
        # not validate has none (tests/test_cost_in_answers.py).
        assert set(extensions) <= {"dataVersion", "cost"}, response.text


def test_every_answer_names_its_data_version_and_how_long_to_keep_it(tiny: Api) -> None:
    version = _version(tiny)
    release_of(version)
    client = tiny.client

    posted = client.post("/graphql", json=QUERY)
    assert posted.status_code == 200
    assert posted.json()["data"]["taxonomy"]["dataVersion"] == version
    _says_version(posted, version)

    got = client.get("/graphql", params=QUERY)
    _says_version(got, version)
    assert got.headers["cache-control"] == "public, no-cache"  # keep, but revalidate
    again = client.get("/graphql", params=QUERY)
    assert again.headers["x-cache"] == "hit"
    _says_version(again, version)
    assert again.headers["cache-control"] == "public, no-cache"
    assert again.content == got.content

    unchanged = client.get("/graphql", params=QUERY, headers={"if-none-match": got.headers["etag"]})
    assert unchanged.status_code == 304
    _says_version(unchanged, version)
    assert unchanged.headers["cache-control"] == "public, no-cache"

    # Errors, and refusals answered before GraphQL runs, are never to be kept.
    invalid = client.post("/graphql", json={"query": "{ nope }"})
    assert invalid.status_code == 400
    _says_version(invalid, version)
    too_big = client.post(
        "/graphql",
        content=b'{"query": "' + b" " * 1_100_000 + b'"}',
        headers={"content-type": "application/json"},
    )
    assert too_big.status_code == 413
    _says_version(too_big, version)
    for refused in (invalid, too_big):
        assert refused.headers["cache-control"] == "no-store"
        assert "etag" not in refused.headers


def test_max_age_is_configurable(
    backend: str, new_database: Callable[[str, str], str], tiny_folder: Path
) -> None:
    url = new_database(backend, "max_age")
    load_directory(tiny_folder, url)
    with serve(url, cache_max_age_seconds=60) as client:
        assert client.get("/graphql", params=QUERY).headers["cache-control"] == (
            "public, max-age=60"
        )
        refused = client.get("/graphql", params={"query": "{ nope }"})
        assert refused.headers["cache-control"] == "no-store"


def test_a_load_moves_every_answer_to_the_new_version(
    backend: str, new_database: Callable[[str, str], str], tiny_folder: Path
) -> None:
    url = new_database(backend, "moves")
    load_directory(tiny_folder, url)
    with serve(url, version_poll_seconds=POLL) as client:
        before = client.post("/graphql", json=QUERY)
        load_directory(tiny_folder, url)
        time.sleep(POLL * 5)
        after = client.post("/graphql", json=QUERY)
        version = after.json()["data"]["taxonomy"]["dataVersion"]
        assert release_of(version) == 2
        assert version != before.headers["data-version"]
        _says_version(after, version)


HANG_LIMIT = 2.0
GRACE = 1.0  # the promise: within the limit + 1 s


@pytest.mark.skipif(POSTGRES_URL is None, reason="PostgreSQL only (TEST_DATABASE_URL)")
def test_requests_answer_within_their_limit_while_the_database_hangs(
    new_database: Callable[[str, str], str], tiny_folder: Path, tmp_path: Path
) -> None:
    """Every byte to and from PostgreSQL held, pooled connections and new ones alike: each
    request answers 503 (TIMEOUT or DATABASE_UNAVAILABLE, with Retry-After) within its time
    limit + 1 s, and the server serves again once the database answers."""
    url = new_database("postgresql", "hanging_requests")
    load_directory(tiny_folder, url)
    with TcpProxy.to_database(url) as proxy:
        proxied = proxy.through(url)
        with running_server(
            proxied, request_timeout_seconds=str(HANG_LIMIT), response_cache="false"
        ) as base:
            with httpx.Client(base_url=base, timeout=30) as http:
                assert http.post("/graphql", json=QUERY).status_code == 200  # pool warm
            proxy.freeze()
            times = asyncio.run(_concurrent_posts(base, 4))
            proxy.thaw()
            with httpx.Client(base_url=base, timeout=30) as http:
                deadline = time.monotonic() + 15
                while http.post("/graphql", json=QUERY).status_code != 200:
                    assert time.monotonic() < deadline, "not serving after the database came back"
                    time.sleep(0.2)
    report = "requests while the database hung: " + ", ".join(
        f"{seconds:.2f} s {status} {code}" for seconds, status, code in times
    )
    print(report)
    (tmp_path / "hang.txt").write_text(report + "\n", encoding="utf-8")
    for seconds, status, code in times:
        assert status == 503, times
        assert code in ("TIMEOUT", "DATABASE_UNAVAILABLE"), times
        assert seconds < HANG_LIMIT + GRACE, times


async def _concurrent_posts(base: str, count: int) -> list[tuple[float, int, str]]:
    async def one(http: httpx.AsyncClient) -> tuple[float, int, str]:
        started = time.monotonic()
        response = await http.post("/graphql", json=QUERY)
        seconds = time.monotonic() - started
        assert response.headers["retry-after"] == "2"
        return seconds, response.status_code, response.json()["errors"][0]["extensions"]["code"]

    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        return list(await asyncio.gather(*(one(http) for _ in range(count))))


@pytest.mark.skipif(POSTGRES_URL is None, reason="PostgreSQL only (TEST_DATABASE_URL)")
def test_postgresql_stops_a_request_statement_at_its_deadline(
    new_database: Callable[[str, str], str], tiny_folder: Path
) -> None:
    """The request's remaining time is its transaction's statement_timeout: a statement
    that would run 5 s stops at a 0.5 s deadline, as TIMEOUT's own error, and the pooled
    connection keeps no trace of it."""
    url = new_database("postgresql", "statement_timeout")
    load_directory(tiny_folder, url)

    async def scenario() -> tuple[float, str]:
        engine = make_async_engine(url, pool_size=1)
        try:
            reader = AsyncReader(engine, Deadline.after(0.5))
            started = time.monotonic()
            with pytest.raises(StatementTimeoutError):
                await reader.execute(text("SELECT pg_sleep(5)"))
            seconds = time.monotonic() - started
            await reader.close()
            later = AsyncReader(engine)  # the same pooled connection, no deadline
            setting = (await later.execute(text("SHOW statement_timeout"))).scalar_one()
            await later.close()
            return seconds, setting
        finally:
            await engine.dispose()

    seconds, setting = asyncio.run(scenario())
    assert seconds < 1.5, seconds
    assert setting == "0"


@pytest.mark.skipif(POSTGRES_URL is None, reason="PostgreSQL only (TEST_DATABASE_URL)")
def test_a_statement_cancelled_mid_flight_leaves_a_reader_that_closes_quietly(
    new_database: Callable[[str, str], str], tiny_folder: Path
) -> None:
    """A search catalogue build cancelled at shutdown (or a request unwinding after its
    time limit) is cancelled inside a statement; SQLAlchemy then invalidates the
    connection, and the reader's close must not fail on the COMMIT it can no longer send
    (it once did, and the server's shutdown failed with PendingRollbackError)."""
    url = new_database("postgresql", "cancelled")
    load_directory(tiny_folder, url)

    async def scenario() -> int:
        engine = make_async_engine(url, pool_size=1)
        try:
            reader = AsyncReader(engine)
            statement = asyncio.ensure_future(reader.execute(text("SELECT pg_sleep(5)")))
            await asyncio.sleep(0.3)
            statement.cancel()
            with pytest.raises(asyncio.CancelledError):
                await statement
            await reader.close()
            later = AsyncReader(engine)  # the pool's one connection, replaced
            value = (await later.execute(text("SELECT 1"))).scalar_one()
            await later.close()
            return int(value)
        finally:
            await engine.dispose()

    assert asyncio.run(scenario()) == 1


@pytest.mark.skipif(POSTGRES_URL is None, reason="PostgreSQL only (TEST_DATABASE_URL)")
def test_stopping_while_the_search_catalogue_is_read_stops_cleanly(
    new_database: Callable[[str, str], str], tiny_folder: Path
) -> None:
    """The catalogue's read is held inside its statement (another transaction locks the
    table it reads), then the server's shutdown stops it: stop() returns, raising
    nothing."""
    url = new_database("postgresql", "build_stop")
    load_directory(tiny_folder, url)
    locker = psycopg.connect(make_url(url).set(drivername="postgresql").render_as_string(False))

    async def scenario() -> bool:
        engine = make_async_engine(url)
        try:
            reader = AsyncReader(engine)
            version = await reader.open_snapshot()
            await reader.close()
            searchers = SearchCache()
            with locker.transaction():
                locker.execute("LOCK TABLE search_catalogue IN ACCESS EXCLUSIVE MODE")
                building = searchers.prepare(reader, version)
                assert building is not None
                await asyncio.sleep(0.5)
                assert not building.done()  # waiting on the lock, inside a statement
                await searchers.stop()
            return building.cancelled()
        finally:
            await engine.dispose()

    try:
        assert asyncio.run(scenario())
    finally:
        locker.close()


@pytest.mark.skipif(POSTGRES_URL is None, reason="PostgreSQL only (TEST_DATABASE_URL)")
def test_pages_answer_within_their_limit_while_a_table_is_locked(
    new_database: Callable[[str, str], str], tiny_folder: Path
) -> None:
    """Issue 25 item 1: a page asks whether its subject exists, and that asking ran with no
    time limit nor statement timeout (page requests took 29 s while the database was slow,
    holding connections). Now, while another session holds a lock on the tables a page
    reads, every page answers within the limit and a little more, and within 2 s of the
    lock's release every page answers again. The changes page's subject is a range of
    releases, which a worker reads once a data version (store.history.releases.
    KnownReleases): a worker that has read it answers that page without the locked table,
    and one that has not is refused within the limit as the others are."""
    limit = 1.0
    url = new_database("postgresql", "locked_pages")
    load_directory(tiny_folder, url)
    pages = ["/nodes/alpha", "/models/newest", "/methods/m-bravo", "/changes?since=1"]
    locker = psycopg.connect(make_url(url).set(drivername="postgresql").render_as_string(False))
    with (
        serve(url, request_timeout_seconds=limit, response_cache=False) as client,
        serve(url, request_timeout_seconds=limit, response_cache=False) as new_worker,
        locker,
    ):
        assert [client.get(page).status_code for page in pages] == [200] * len(pages)
        # A request that outlives the limit fails the test on time, rather than hang it:
        # its thread ends once the lock goes.
        with ThreadPoolExecutor(max_workers=1) as waiting, locker.transaction():
            locker.execute("LOCK TABLE node, method, model, release IN ACCESS EXCLUSIVE MODE")
            asked = [(client, page) for page in pages[:-1]] + [(new_worker, pages[-1])]
            for asking, page in [*asked, (client, pages[-1])]:
                started = time.monotonic()
                try:
                    response = waiting.submit(asking.get, page).result(timeout=limit + 2)
                except FutureTimeoutError:
                    pytest.fail(f"{page} did not answer within {limit + 2} s")
                took = time.monotonic() - started
                assert took < limit + 2, (page, took)
                if asking is client and page == pages[-1]:  # its releases known
                    assert response.status_code == 200, (page, response.status_code)
                    continue
                assert response.status_code == 503, (page, response.status_code)
                assert response.headers["retry-after"]
        released = time.monotonic()
        for page in pages:
            while (status := client.get(page).status_code) != 200:
                assert status == 503, (page, status)
                assert time.monotonic() - released < 2, (page, status)
                time.sleep(0.05)
        assert time.monotonic() - released < 2
