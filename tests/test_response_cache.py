"""The response cache and ETags: repeated queries are answered without SQL, GET answers
`304 Not Modified` while the data is the same, and a load makes both move on; the cache
answers only what the server would accept, and no older version 2 s after a load, even
with the database's connections hanging."""

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx2 as httpx
import orjson
import pytest
from starlette.testclient import TestClient
from tcp_proxy import TcpProxy

from api.app import create_app
from api.edge.response_cache import LRU, Cached
from api.ingest.load import load_directory
from api.settings import DEFAULT_FIXTURES_DIR, Settings

from conftest import GRAPHQL_CLIENT_HEADERS, POSTGRES_URL, release_of, serve
from processes import running_server

QUERY = "query($slug: String!) { node(slug: $slug) { name counts { methodsInBranch } } }"
POLL = 0.1


def _post(client: TestClient, slug: str = "alpha") -> tuple[int, dict[str, str], bytes]:
    response = client.post("/graphql", json={"query": QUERY, "variables": {"slug": slug}})
    return response.status_code, dict(response.headers), response.content


def _loaded(backend: str, new_database: Callable[[str, str], str], folder: Path) -> str:
    url = new_database(backend, "cache")
    load_directory(folder, url)
    return url


def test_a_repeated_query_is_answered_from_the_cache(
    backend: str, new_database: Callable[[str, str], str], tiny_folder: Path
) -> None:
    url = _loaded(backend, new_database, tiny_folder)
    with serve(url, statement_header=True) as client:
        status, first, body = _post(client)
        assert (status, first["x-cache"]) == (200, "miss")
        assert first["x-sql-statements"] == "1"  # the node with its counts
        status, second, cached = _post(client)
        assert (status, second["x-cache"]) == (200, "hit")
        assert second["x-sql-statements"] == "0"  # nothing ran
        assert cached == body
        assert second["etag"] == first["etag"]
        # Other variables are another query.
        assert _post(client, "beta")[1]["x-cache"] == "miss"


def test_errors_are_not_cached(
    backend: str, new_database: Callable[[str, str], str], tiny_folder: Path
) -> None:
    url = _loaded(backend, new_database, tiny_folder)
    with serve(url) as client:
        for _ in range(2):
            response = client.post(
                "/graphql", json={"query": "{ methods(first: 500) { totalCount } }"}
            )
            assert "errors" in response.json()
            assert "x-cache" not in response.headers


def test_get_answers_304_until_a_load_changes_the_data(
    backend: str, new_database: Callable[[str, str], str], tiny_folder: Path
) -> None:
    url = _loaded(backend, new_database, tiny_folder)
    with serve(url, version_poll_seconds=POLL, response_cache=False) as client:
        params = {"query": "{ taxonomy { dataVersion } }"}
        first = client.get("/graphql", params=params)
        assert list(first.json()) == ["data", "extensions"]  # no errors
        assert release_of(first.json()["data"]["taxonomy"]["dataVersion"]) == 1
        etag = first.headers["etag"]
        again = client.get("/graphql", params=params, headers={"if-none-match": etag})
        assert (again.status_code, again.content) == (304, b"")

        load_directory(tiny_folder, url)  # same files, new data version
        time.sleep(POLL * 5)
        after = client.get("/graphql", params=params, headers={"if-none-match": etag})
        assert after.status_code == 200
        assert list(after.json()) == ["data", "extensions"]  # no errors
        assert release_of(after.json()["data"]["taxonomy"]["dataVersion"]) == 2
        assert after.headers["etag"] != etag


def test_the_cache_moves_to_new_data_after_a_load(
    backend: str, new_database: Callable[[str, str], str], tiny_folder: Path
) -> None:
    url = _loaded(backend, new_database, tiny_folder)
    document = {"query": "{ taxonomy { dataVersion nodeCount } }"}
    with serve(url, version_poll_seconds=POLL) as client:
        assert client.post("/graphql", json=document).json()["data"]["taxonomy"]["nodeCount"] == 5
        assert client.post("/graphql", json=document).headers["x-cache"] == "hit"
        load_directory(Path(__file__).resolve().parents[1] / "fixtures", url)
        time.sleep(POLL * 5)
        fresh = client.post("/graphql", json=document)
        assert fresh.headers["x-cache"] == "miss"
        taxonomy = fresh.json()["data"]["taxonomy"]
        assert (release_of(taxonomy["dataVersion"]), taxonomy["nodeCount"]) == (2, 40)


def _answer(size: int) -> Cached:
    return Cached(200, [], b"x" * size)


def test_the_cache_keeps_at_most_its_entries_least_recently_used_out_first() -> None:
    cache = LRU(max_entries=2, max_bytes=1_000)
    cache.put("a", _answer(1))
    cache.put("b", _answer(1))
    assert cache.get("a") is not None  # now b is the least recently used
    cache.put("c", _answer(1))
    assert (cache.get("a"), cache.get("b"), cache.get("c")) == (_answer(1), None, _answer(1))


def test_the_cache_keeps_at_most_its_bytes_and_no_answer_over_a_quarter_of_them() -> None:
    cache = LRU(max_entries=100, max_bytes=100)
    for key in "abcd":
        cache.put(key, _answer(25))
    assert cache.get("a") is not None
    cache.put("e", _answer(25))  # 125 bytes: b, the least recently used, goes
    assert [key for key in "abcde" if cache.get(key) is None] == ["b"]
    cache.put("huge", _answer(26))
    assert cache.get("huge") is None
    assert len(cache) == 4


# What the cache answers: only what the server would accept, never an older version.

SEED = orjson.dumps({"query": QUERY, "variables": {"slug": "alpha"}})


def _refused(response: Any) -> list[str]:
    """The codes of a refused request's errors (and that it was not a cached answer)."""
    assert response.status_code == 400, (response.status_code, response.text)
    assert "x-cache" not in response.headers
    return [error["extensions"]["code"] for error in response.json()["errors"]]


def test_the_cache_answers_only_requests_the_server_accepts(
    backend: str, new_database: Callable[[str, str], str], tiny_folder: Path
) -> None:
    url = _loaded(backend, new_database, tiny_folder)
    with serve(url) as client:
        as_json = {"content-type": "application/json"}
        # A cross-site "simple request" (a form or fetch without preflight) can send only
        # text/plain: refused before anything is cached, and after.
        for _ in range(2):
            plain = client.post("/graphql", content=SEED, headers={"content-type": "text/plain"})
            assert _refused(plain) == ["BAD_REQUEST"]
        for expected in ("miss", "hit"):
            answer = client.post("/graphql", content=SEED, headers=as_json)
            assert (answer.status_code, answer.headers["x-cache"]) == (200, expected)
        plain = client.post("/graphql", content=SEED, headers={"content-type": "text/plain"})
        assert _refused(plain) == ["BAD_REQUEST"]
        # The rest of the request: `extensions` that are not an object are refused.
        seed = orjson.loads(SEED)
        assert _refused(client.post("/graphql", json={**seed, "extensions": "x"})) == [
            "BAD_REQUEST"
        ]
        # An operation the document does not have is no cached answer.
        unnamed = client.post("/graphql", json={**seed, "operationName": "Elsewhere"})
        assert "x-cache" not in unnamed.headers
        assert unnamed.json().get("errors"), unnamed.json()
        # The same holds for GET: what Strawberry reads of a query string is in the key.
        params = {"query": QUERY, "variables": orjson.dumps(seed["variables"]).decode()}
        assert client.get("/graphql", params=params).status_code == 200
        assert client.get("/graphql", params=params).headers["x-cache"] == "hit"
        assert _refused(client.get("/graphql", params={**params, "extensions": "[1]"})) == [
            "BAD_REQUEST"
        ]


FROZEN_WITHIN_SECONDS = 2.0


@pytest.mark.skipif(POSTGRES_URL is None, reason="PostgreSQL only (TEST_DATABASE_URL)")
def test_no_older_version_is_answered_2_s_after_a_load_while_a_connection_hangs(
    new_database: Callable[[str, str], str], tiny_folder: Path
) -> None:
    """The server's connections hang (the proxy holds their bytes, TCP keeps them open),
    among them the one its data-version poll uses; a load commits meanwhile (not through
    the proxy). Cached answers of the version before it stop within 2 s."""
    url = new_database("postgresql", "frozen_cache")
    load_directory(tiny_folder, url)
    document = {"query": "{ taxonomy { dataVersion nodeCount } }"}
    answers: list[tuple[float, int, dict[str, Any]]] = []
    with TcpProxy.to_database(url) as proxy:
        proxied = proxy.through(url)
        with (
            running_server(proxied, request_timeout_seconds="3") as base,
            httpx.Client(base_url=base, timeout=10) as http,
        ):
            old = http.post("/graphql", json=document).json()["data"]["taxonomy"]
            assert http.post("/graphql", json=document).headers["x-cache"] == "hit"
            proxy.freeze(new_connections=False)  # those open now hang; new ones work
            load_directory(DEFAULT_FIXTURES_DIR, url)
            committed = time.monotonic()
            while time.monotonic() < committed + FROZEN_WITHIN_SECONDS + 2:
                started = time.monotonic() - committed
                response = http.post("/graphql", json=document)
                answers.append((started, response.status_code, response.json()))
                time.sleep(0.05)
            proxy.thaw()
    taxonomies = [(at, (answer.get("data") or {}).get("taxonomy")) for at, _, answer in answers]
    stale = [at for at, taxonomy in taxonomies if taxonomy == old]
    print(f"the older version was answered until {max(stale, default=0):.2f} s after the load")
    assert max(stale, default=0) <= FROZEN_WITHIN_SECONDS, answers
    late = [taxonomy for at, taxonomy in taxonomies if at > FROZEN_WITHIN_SECONDS]
    assert late, answers
    assert all(taxonomy and taxonomy["nodeCount"] == 40 for taxonomy in late), answers


async def _at_once(url: str, count: int, query: str) -> list[httpx.Response]:
    """``count`` requests for the same ``query``, sent at once to a new app (no answer
    cached yet) with the statement count header."""
    app = create_app(Settings(database_url=url, statement_header=True))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            requests = [
                client.post("/graphql", json={"query": query}, headers=GRAPHQL_CLIENT_HEADERS)
                for _ in range(count)
            ]
            return list(await asyncio.gather(*requests))


def test_requests_for_an_answer_being_worked_out_wait_for_it(
    backend: str, new_database: Callable[[str, str], str], tiny_folder: Path
) -> None:
    """Ten clients asking at once for a page no one asked for before: it is worked out
    once, and the other nine get that answer, with no SQL of their own."""
    url = _loaded(backend, new_database, tiny_folder)
    query = (
        "{ roots { name children { name } } methods(first: 5) { nodes { name node { path } } } }"
    )
    answers = asyncio.run(_at_once(url, 10, query))
    assert [answer.status_code for answer in answers] == [200] * 10
    assert sorted(answer.headers["x-cache"] for answer in answers) == ["hit"] * 9 + ["miss"]
    (worked_out,) = [answer for answer in answers if answer.headers["x-cache"] == "miss"]
    assert int(worked_out.headers["x-sql-statements"]) >= 2
    assert {answer.headers["x-sql-statements"] for answer in answers} - {"0"} == {
        worked_out.headers["x-sql-statements"]
    }
    assert {answer.content for answer in answers} == {worked_out.content}
    assert {answer.headers["etag"] for answer in answers} == {worked_out.headers["etag"]}
    assert b'"errors"' not in worked_out.content


def test_an_error_is_not_shared_with_requests_that_waited_for_it(
    backend: str, new_database: Callable[[str, str], str], tiny_folder: Path
) -> None:
    """An answer with errors is not kept: each request that waited for it works out its
    own (and meets the error itself)."""
    url = _loaded(backend, new_database, tiny_folder)
    query = '{ roots { name } node(slug: "alpha") { name } methods(first: 500) { totalCount } }'
    answers = asyncio.run(_at_once(url, 4, query))
    for answer in answers:
        assert answer.json()["errors"][0]["path"] == ["methods"]
        assert "x-cache" not in answer.headers
        assert int(answer.headers["x-sql-statements"]) >= 1
