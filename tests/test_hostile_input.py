"""Hostile input through the ASGI app: every limit refuses with its code and names itself
and its value, errors follow GraphQL over HTTP, our own faults are masked (with a request id
the log shares), and hand-written attacks never get a 5xx or an `INTERNAL`."""

import asyncio
import base64
import gzip
import json
import logging
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fragment_bomb import spreading
from sqlalchemy import text
from starlette.testclient import TestClient

from api.app import create_app
from api.settings import Settings
from schema import query as query_module
from schema.limits import WORK
from schema.nul_guard import RefuseNul
from schema.taxonomy import TaxonomySummary

from conftest import GRAPHQL_CLIENT_HEADERS, Api, serve, versioned

GRAPHQL_RESPONSE = "application/graphql-response+json"
SUMMARY = "{ taxonomy { nodeCount } }"
# No list in the chain of parents, so its cost stays tiny whatever its depth.
PARENTS = 'query { node(slug: "gamma") { %s } }'
# Three nested pages of $n: some n^3 objects at the bottom (evidence, and their sources).
NESTED_FIRST = """
query($n: Int) {
  models(first: $n) { nodes { treatments(first: $n) { nodes { method {
    evidence(first: $n) { nodes { source { title } } }
  } } } } }
}"""
NESTED_FIRST_LITERAL = NESTED_FIRST.replace("query($n: Int)", "query").replace("$n", "100")
SEARCH = "query($q: String!) { search(query: $q, first: 5) { totalCount } }"
MODELS_FILTERED = "query($f: ModelFilter) { models(filter: $f) { totalCount } }"
METHODS_FIRST = "query($n: Int) { methods(first: $n) { totalCount } }"
FORBIDDEN_IN_ANSWERS = ("Traceback", "secret", "/etc/passwd", "SELECT", 'File "', ".py")


def _parents(depth: int) -> str:
    """A query whose deepest field is at ``depth`` (the root field is at 0)."""
    return PARENTS % ("parent { " * (depth - 1) + "name" + " }" * (depth - 1))


def _id(raw: str) -> str:
    """An ID as the API makes them (base64 of `Kind:key`), for keys the API never made."""
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def _errors(response: Any) -> list[dict[str, Any]]:
    body = response.json()
    assert isinstance(body, dict), body
    errors: list[dict[str, Any]] = body.get("errors") or []
    return errors


def _refusal(response: Any, code: str, limit: str, value: float) -> dict[str, Any]:
    """The one error of a refused request, checked to name ``limit`` and ``value``."""
    errors = _errors(response)
    assert len(errors) == 1, errors
    error = errors[0]
    assert error["extensions"]["code"] == code
    assert error["extensions"]["limit"] == limit
    assert error["extensions"]["limitValue"] == value
    assert f"`{limit}`" in error["message"]
    return error


def _assert_no_fault(response: Any) -> list[dict[str, Any]]:
    """No 5xx, a JSON answer whose every error has a code, none of them INTERNAL."""
    assert response.status_code < 500, (response.status_code, response.text[:500])
    body = response.json()
    results = body if isinstance(body, list) else [body]
    errors = [error for result in results for error in result.get("errors") or []]
    for error in errors:
        assert error.get("extensions", {}).get("code"), f"an error without a code: {error}"
        assert error["extensions"]["code"] != "INTERNAL", error
    return errors


@pytest.fixture(scope="module")
def clients() -> Iterator[dict[str, TestClient]]:
    made: dict[str, TestClient] = {}
    yield made
    for client in made.values():
        client.__exit__(None, None, None)


@pytest.fixture
def client(tiny: Api, clients: dict[str, TestClient]) -> TestClient:
    """An app on the tiny dataset that answers faults with 500s instead of raising."""
    if tiny.database_url not in clients:
        app = create_app(Settings(database_url=tiny.database_url))
        clients[tiny.database_url] = TestClient(
            app, raise_server_exceptions=False, headers=GRAPHQL_CLIENT_HEADERS
        )
        clients[tiny.database_url].__enter__()
    return clients[tiny.database_url]


# Limits


def test_depth_is_limited(tiny: Api) -> None:
    assert tiny.query(_parents(10))["node"] is not None  # at the limit
    response = tiny.client.post("/graphql", json={"query": _parents(11)})
    assert response.status_code == 400
    error = _refusal(response, "QUERY_TOO_COMPLEX", "max_depth", 10)
    assert "10" in error["message"]
    with serve(tiny.database_url, max_depth=3) as client:
        assert client.post("/graphql", json={"query": _parents(3)}).status_code == 200
        _refusal(
            client.post("/graphql", json={"query": _parents(4)}),
            *("QUERY_TOO_COMPLEX", "max_depth", 3),
        )


def test_aliases_are_limited(tiny: Api) -> None:
    def aliased(count: int) -> str:
        return "{ " + " ".join(f"a{i}: taxonomy {{ nodeCount }}" for i in range(count)) + " }"

    assert len(tiny.query(aliased(30))) == 30
    response = tiny.client.post("/graphql", json={"query": aliased(31)})
    assert response.status_code == 400
    error = _refusal(response, "QUERY_TOO_COMPLEX", "max_aliases", 30)
    assert "30" in error["message"]
    with serve(tiny.database_url, max_aliases=2) as client:
        assert client.post("/graphql", json={"query": aliased(2)}).status_code == 200
        _refusal(
            client.post("/graphql", json={"query": aliased(3)}),
            *("QUERY_TOO_COMPLEX", "max_aliases", 2),
        )


@pytest.mark.parametrize(
    ("levels", "leaf", "limit"),
    [
        (7, "taxonomy { nodeCount }", "max_cost"),  # 574 bytes: 8**7 objects
        (8, "taxonomy { nodeCount }", "max_cost"),
        (8, "a: taxonomy { nodeCount } b: taxonomy { nodeCount }", "max_aliases"),
    ],
)
def test_fragments_spread_millions_of_times_are_refused_at_once(
    tiny: Api, levels: int, leaf: str, limit: str
) -> None:
    """Each fragment's figures are worked out once: before, this document took 20-30 s
    to refuse (every spread walked again), and held up every other request meanwhile."""
    document = spreading(levels, 8, leaf)
    started = time.monotonic()
    response = tiny.client.post("/graphql", json={"query": document})
    took = time.monotonic() - started
    assert response.status_code == 400
    error = _errors(response)[0]
    assert error["extensions"]["code"] == "QUERY_TOO_COMPLEX"
    assert error["extensions"]["limit"] == limit
    # A bound far above the milliseconds it takes, far below the seconds it took.
    assert took < 2, f"{len(document)} bytes took {took:.1f} s to refuse"


def test_depth_through_fragments_is_the_depth_of_the_fields(tiny: Api) -> None:
    """A fragment counts the depth of its fields wherever it is spread."""

    def spread_under(parents: int) -> str:
        # node, then `parents` levels of parent, then the fragment's three: 1 + parents + 3
        return (
            '{ node(slug: "gamma") { '
            + "parent { " * parents
            + "...N"
            + " }" * parents
            + " } } fragment N on Node { parent { parent { parent { name } } } }"
        )

    assert tiny.post(spread_under(6)).get("errors") is None  # 10 levels: at the limit
    response = tiny.client.post("/graphql", json={"query": spread_under(7)})
    _refusal(response, "QUERY_TOO_COMPLEX", "max_depth", 10)


def test_tokens_are_limited(tiny: Api) -> None:
    def repeated(count: int) -> str:
        return "{ taxonomy { " + "nodeCount " * count + "} }"

    # Under the limit, the document is not refused for its tokens (graphql-core's own
    # budget for comparing so many identical fields may still refuse it).
    under = tiny.client.post("/graphql", json={"query": repeated(4_900)})
    assert all(e["extensions"].get("limit") != "max_tokens" for e in _errors(under))
    assert tiny.query(repeated(400))["taxonomy"] == {"nodeCount": 5}
    response = tiny.client.post("/graphql", json={"query": repeated(5_000)})
    assert response.status_code == 400
    error = _refusal(response, "QUERY_TOO_COMPLEX", "max_tokens", 5_000)
    assert "5000" in error["message"].replace(",", "")
    with serve(tiny.database_url, max_tokens=20) as client:
        assert client.post("/graphql", json={"query": repeated(5)}).status_code == 200
        _refusal(
            client.post("/graphql", json={"query": repeated(30)}),
            *("QUERY_TOO_COMPLEX", "max_tokens", 20),
        )


def _nested_first_cost(n: int) -> int:
    """NESTED_FIRST's cost: nested `first`s multiply (n^3 pieces of evidence, each with its
    page object and its source, at the bottom), and each list adds its work."""
    evidence = WORK["Method.evidence"] + n * (1 + 1 + 1)
    treatments = WORK["Model.treatments"] + n * (1 + 1 + 1 + evidence)
    return WORK["Query.models"] + n * (1 + 1 + treatments)


def test_cost_is_limited_with_literal_first(tiny: Api) -> None:
    response = tiny.client.post("/graphql", json={"query": NESTED_FIRST_LITERAL})
    assert response.status_code == 400
    error = _refusal(response, "QUERY_TOO_COMPLEX", "max_cost", 50_000)
    assert "50,000" in error["message"]
    assert error["extensions"]["cost"] == _nested_first_cost(100) > 3 * 100**3


def test_cost_is_limited_with_variable_first(tiny: Api) -> None:
    # n = 5: a few hundred objects and their lists' work, under the limit
    assert _nested_first_cost(5) < 50_000 < _nested_first_cost(10)
    assert tiny.query(NESTED_FIRST, {"n": 5})["models"]["nodes"]
    response = tiny.client.post("/graphql", json={"query": NESTED_FIRST, "variables": {"n": 40}})
    assert response.status_code == 400
    error = _refusal(response, "QUERY_TOO_COMPLEX", "max_cost", 50_000)
    assert error["extensions"]["cost"] == _nested_first_cost(40)


def test_cost_counts_lists_without_first_and_is_configurable(tiny: Api) -> None:
    with serve(tiny.database_url, max_cost=100) as client:
        # roots: an estimated 10; their children: 10 more each.
        flat = client.post("/graphql", json={"query": "{ roots { name } }"})
        assert flat.status_code == 200
        assert flat.json()["data"]["roots"]
        deeper = client.post("/graphql", json={"query": "{ roots { children { name } } }"})
        assert deeper.status_code == 400
        assert _refusal(deeper, "QUERY_TOO_COMPLEX", "max_cost", 100)["extensions"]["cost"] == 110


def test_body_size_is_limited(tiny: Api) -> None:
    padded = b'{"query": "{ taxonomy { nodeCount } }"' + b" " * 1_000_000 + b"}"
    response = tiny.client.post(
        "/graphql", content=padded, headers={"content-type": "application/json"}
    )
    assert response.status_code == 413
    error = _refusal(response, "BAD_REQUEST", "max_body_bytes", 1_000_000)
    assert "1,000,000" in error["message"]
    with serve(tiny.database_url, max_body_bytes=200) as client:
        small = b'{"query": "{ taxonomy { nodeCount } }"}'
        headers = {"content-type": "application/json"}
        assert client.post("/graphql", content=small, headers=headers).status_code == 200
        big = small[:-1] + b" " * 300 + b"}"
        _refusal(
            client.post("/graphql", content=big, headers=headers),
            *("BAD_REQUEST", "max_body_bytes", 200),
        )
        # Without a content-length (chunked), the limit holds as the body streams in.
        chunked = client.post("/graphql", content=iter([big[:150], big[150:]]), headers=headers)
        assert chunked.status_code == 413
        _refusal(chunked, "BAD_REQUEST", "max_body_bytes", 200)


@pytest.mark.parametrize("coding", ["gzip", "br", "GZIP, deflate"])
def test_an_encoded_body_is_a_415_that_says_so(tiny: Api, coding: str) -> None:
    """A compressed body was read as it is and refused as "not valid UTF-8 JSON" (400),
    which points its client at its JSON; nothing here decodes one."""
    document = b'{"query": "{ taxonomy { nodeCount } }"}'
    for body in (gzip.compress(document), document):
        response = tiny.client.post(
            "/graphql",
            content=body,
            headers={"content-type": "application/json", "content-encoding": coding},
        )
        assert response.status_code == 415
        assert response.headers["accept-encoding"] == "identity"
        (error,) = response.json()["errors"]
        assert error["extensions"]["code"] == "BAD_REQUEST"
        assert f"Content-Encoding: {coding.lower()}" in error["message"]
        assert "without the header" in error["message"]
    identity = tiny.client.post(
        "/graphql",
        content=document,
        headers={"content-type": "application/json", "content-encoding": "identity"},
    )
    assert identity.status_code == 200
    assert identity.json()["data"]["taxonomy"]["nodeCount"] == 5


def test_batching_is_off_by_default(tiny: Api) -> None:
    response = tiny.client.post("/graphql", json=[{"query": SUMMARY}, {"query": SUMMARY}])
    assert response.status_code == 400
    assert [error["extensions"]["code"] for error in _errors(response)] == ["BAD_REQUEST"]


def test_batching_is_allowed_up_to_its_cap(tiny: Api) -> None:
    with serve(tiny.database_url, batching_max_operations=2) as client:
        two = client.post("/graphql", json=[{"query": SUMMARY}, {"query": "{ roots { slug } }"}])
        assert two.status_code == 200
        assert versioned(two.json()) == [
            {"data": {"taxonomy": {"nodeCount": 5}}},
            {"data": {"roots": [{"slug": "alpha"}, {"slug": "zeta"}]}},
        ]
        three = client.post("/graphql", json=[{"query": SUMMARY}] * 3)
        assert three.status_code == 400
        assert [error["extensions"]["code"] for error in _errors(three)] == ["BAD_REQUEST"]


def test_a_batch_over_the_cap_names_the_limit(tiny: Api) -> None:
    with serve(tiny.database_url, batching_max_operations=2) as client:
        three = client.post("/graphql", json=[{"query": SUMMARY}] * 3)
        _refusal(three, "BAD_REQUEST", "batching_max_operations", 2)


def test_time_is_limited(tiny: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    async def slow(info: Any) -> TaxonomySummary:
        await asyncio.sleep(5)
        raise AssertionError("not stopped")

    monkeypatch.setattr(query_module, "taxonomy_summary", slow)
    with serve(tiny.database_url, request_timeout_seconds=0.2, response_cache=False) as client:
        started = time.monotonic()
        response = client.post("/graphql", json={"query": SUMMARY})
        elapsed = time.monotonic() - started
        assert response.status_code == 503
        assert response.headers["content-type"].startswith(GRAPHQL_RESPONSE)
        error = _refusal(response, "TIMEOUT", "request_timeout_seconds", 0.2)
        assert "0.2 s" in error["message"]
        assert error["extensions"]["requestId"] == response.headers["x-request-id"]
        assert elapsed < 2


# A statement that runs for minutes unless stopped (SQLite counts to a billion).
_SLOW_SQL = {
    "sqlite": "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
    "SELECT count(*) FROM (SELECT x FROM c LIMIT 1000000000)",
    "postgresql": "SELECT pg_sleep(60)",
}


def test_a_slow_statement_is_stopped_at_the_time_limit(
    tiny: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite's statements run in the event loop, where asyncio cannot interrupt them:
    SQLite itself stops them at the request's deadline. Either way the client hears
    TIMEOUT in time, and the server goes on answering on the same connections."""

    async def slow(info: Any) -> TaxonomySummary:
        reader = info.context.reader
        await reader.execute(text(_SLOW_SQL[reader.dialect]))
        raise AssertionError("not stopped")

    with serve(tiny.database_url, request_timeout_seconds=0.3, response_cache=False) as client:
        with monkeypatch.context() as patched:
            patched.setattr(query_module, "taxonomy_summary", slow)
            started = time.monotonic()
            response = client.post("/graphql", json={"query": SUMMARY})
            elapsed = time.monotonic() - started
        # Stopped by the asyncio limit before the answer began (503), or by SQLite inside
        # the operation, which then answers with the field's error (200).
        assert response.status_code in (200, 503), response.text
        error = _refusal(response, "TIMEOUT", "request_timeout_seconds", 0.3)
        assert "0.3 s" in error["message"]
        assert elapsed < 2
        for _ in range(10):  # more requests than the pool keeps connections
            assert versioned(client.post("/graphql", json={"query": SUMMARY}).json()) == {
                "data": {"taxonomy": {"nodeCount": 5}}
            }
        # The stopped request gave its connection back (no snapshot is left open).
        engine = client.app.state.request_engine  # type: ignore[attr-defined]
        assert getattr(engine, "sync_engine", engine).pool.checkedout() == 0


def test_introspection_can_be_turned_off(tiny: Api) -> None:
    document = "{ __schema { queryType { name } } }"
    assert tiny.query(document) == {"__schema": {"queryType": {"name": "Query"}}}
    with serve(tiny.database_url, introspection=False) as client:
        refused = client.post("/graphql", json={"query": document})
        assert refused.status_code == 400
        errors = _errors(refused)
        assert errors
        assert {error["extensions"]["code"] for error in errors} == {"GRAPHQL_VALIDATION_FAILED"}
        assert "introspection" in errors[0]["message"]
        typed = client.post("/graphql", json={"query": '{ __type(name: "Node") { name } }'})
        assert typed.status_code == 400
        # __typename is not introspection of the schema.
        assert versioned(client.post("/graphql", json={"query": "{ __typename }"}).json()) == {
            "data": {"__typename": "Query"}
        }


def test_graphiql_can_be_turned_off(tiny: Api) -> None:
    html = {"accept": "text/html"}
    assert "graphiql" in tiny.client.get("/graphql", headers=html).text.lower()
    with serve(tiny.database_url, graphiql=False) as client:
        page = client.get("/graphql", headers=html)
        assert page.status_code < 500
        assert "graphiql" not in page.text.lower()
        assert not page.headers["content-type"].startswith("text/html")


def test_cors_is_off_by_default(tiny: Api) -> None:
    origin = {"origin": "https://browser.example"}
    response = tiny.client.post("/graphql", json={"query": SUMMARY}, headers=origin)
    assert response.status_code == 200
    assert "access-control-allow-origin" not in response.headers
    preflight = tiny.client.options(
        "/graphql", headers={**origin, "access-control-request-method": "POST"}
    )
    assert "access-control-allow-origin" not in preflight.headers


def test_cors_allows_listed_origins_only(tiny: Api) -> None:
    listed = "https://browser.example"
    with serve(tiny.database_url, cors_origins=[listed]) as client:
        allowed = client.post("/graphql", json={"query": SUMMARY}, headers={"origin": listed})
        assert allowed.headers["access-control-allow-origin"] == listed
        assert "x-request-id" in allowed.headers["access-control-expose-headers"]
        preflight = client.options(
            "/graphql",
            headers={
                "origin": listed,
                "access-control-request-method": "POST",
                "access-control-request-headers": "content-type",
            },
        )
        assert preflight.status_code == 200
        assert preflight.headers["access-control-allow-origin"] == listed
        other = client.post(
            "/graphql", json={"query": SUMMARY}, headers={"origin": "https://evil.example"}
        )
        assert other.status_code == 200
        assert "access-control-allow-origin" not in other.headers


# GraphQL over HTTP


def test_graphql_response_media_type_and_status(tiny: Api) -> None:
    """A client that asks for GraphQL over HTTP's media type gets it, with 400 and no
    `data` entry for a request that could not run."""
    headers = {"accept": GRAPHQL_RESPONSE}

    def post(document: str) -> Any:
        response = tiny.client.post("/graphql", json={"query": document}, headers=headers)
        assert response.headers["content-type"].startswith(GRAPHQL_RESPONSE)
        return response

    executed = post(SUMMARY)
    assert (executed.status_code, versioned(executed.json())) == (
        200,
        {"data": {"taxonomy": {"nodeCount": 5}}},
    )
    unparsable = post("{ taxonomy { nodeCount ")
    assert unparsable.status_code == 400
    assert [e["extensions"]["code"] for e in _errors(unparsable)] == ["GRAPHQL_PARSE_FAILED"]
    invalid = post("{ taxonomy { nodeCounts } }")
    assert invalid.status_code == 400
    assert [e["extensions"]["code"] for e in _errors(invalid)] == ["GRAPHQL_VALIDATION_FAILED"]
    too_complex = post("{ a: __typename " + " ".join(f"a{i}: __typename" for i in range(40)) + " }")
    assert too_complex.status_code == 400
    assert [e["extensions"]["code"] for e in _errors(too_complex)] == ["QUERY_TOO_COMPLEX"]
    for refused in (unparsable, invalid, too_complex):
        assert "data" not in refused.json()  # a request error: never ran
    # Executed, with a field error: 200 with its code, and `data`.
    bad_input = post("{ methods(first: 1000) { totalCount } }")
    assert bad_input.status_code == 200
    assert [e["extensions"]["code"] for e in _errors(bad_input)] == ["BAD_USER_INPUT"]
    assert "data" in bad_input.json()


@pytest.mark.parametrize("accept", ["application/json", "*/*", None])
def test_plain_json_clients_get_json_and_200(tiny: Api, accept: str | None) -> None:
    """Any client that does not name GraphQL over HTTP's media type (`*/*`, or no Accept
    at all) may predate it: `application/json`, and 200 for request errors too."""
    for document, code in [
        (SUMMARY, None),
        ("{ taxonomy { nodeCount ", "GRAPHQL_PARSE_FAILED"),
        ("{ taxonomy { nodeCounts } }", "GRAPHQL_VALIDATION_FAILED"),
        ("{ methods(first: 1000) { totalCount } }", "BAD_USER_INPUT"),
    ]:
        request = tiny.client.build_request("POST", "/graphql", json={"query": document})
        del request.headers["accept"]  # the test client's own
        if accept is not None:
            request.headers["accept"] = accept
        response = tiny.client.send(request)
        assert response.headers["content-type"].startswith("application/json")
        assert response.status_code == 200
        assert [e["extensions"]["code"] for e in _errors(response)] == ([code] if code else [])


def test_internal_errors_are_masked_and_logged_with_the_request_id(
    tiny: Api, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def broken(info: Any) -> TaxonomySummary:
        raise RuntimeError("secret /etc/passwd SELECT * FROM nodes")

    monkeypatch.setattr(query_module, "taxonomy_summary", broken)
    caplog.set_level(logging.ERROR)
    with serve(tiny.database_url, response_cache=False) as client:
        for headers in [{}, {"x-request-id": "client-chosen-id-42"}]:
            caplog.clear()
            response = client.post("/graphql", json={"query": SUMMARY}, headers=headers)
            assert response.status_code == 200  # executed; the fault is in the answer
            request_id = response.headers["x-request-id"]
            if headers:
                assert request_id == "client-chosen-id-42"
            errors = _errors(response)
            assert len(errors) == 1
            assert errors[0]["extensions"] == {"code": "INTERNAL", "requestId": request_id}
            for forbidden in FORBIDDEN_IN_ANSWERS:
                assert forbidden not in response.text
            logged = [record for record in caplog.records if request_id in record.getMessage()]
            assert len(logged) == 1
            assert logged[0].levelno == logging.ERROR
            assert logged[0].exc_info is not None
            assert "secret /etc/passwd" in str(logged[0].exc_info[1])
            assert "Traceback" in caplog.text


def test_client_errors_are_not_logged_as_faults(
    tiny: Api, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR)
    tiny.client.post("/graphql", json={"query": "{ methods(first: 1000) { totalCount } }"})
    tiny.client.post("/graphql", json={"query": "{ nope }"})
    assert not [record for record in caplog.records if record.name.startswith("taxonomy")]


# Hand-written attacks

ATTACKS: dict[str, dict[str, Any]] = {
    "alias flood": {
        "json": {"query": "{ " + " ".join(f"a{i}: __typename" for i in range(2_000)) + " }"}
    },
    "duplicated fields": {"json": {"query": "{ taxonomy { " + "nodeCount " * 400 + "} }"}},
    "duplicated field flood": {"json": {"query": "{ taxonomy { " + "nodeCount " * 4_900 + "} }"}},
    "duplicated list flood": {"json": {"query": "{ roots { " + "children { name } " * 300 + "} }"}},
    "duplicated root flood": {"json": {"query": "{ " + "roots { name } " * 1_600 + "}"}},
    "directive flood": {"json": {"query": "{ taxonomy " + "@include(if: true) " * 1_000 + "}"}},
    "deep selection": {
        "json": {"query": "{ roots " + "{ children " * 60 + "{ name" + " }" * 61 + " }"}
    },
    "deep fragments": {
        "json": {
            "query": "{ roots { ...F0 } } "
            + " ".join(f"fragment F{i} on Node {{ children {{ ...F{i + 1} }} }}" for i in range(30))
            + " fragment F30 on Node { name }"
        }
    },
    "circular fragments": {
        "json": {
            "query": "{ roots { ...A } } fragment A on Node { children { ...B } } "
            "fragment B on Node { parent { ...A } }"
        }
    },
    "self-spreading fragment": {
        "json": {"query": "{ roots { ...A } } fragment A on Node { name ...A }"}
    },
    "fragment fan-out": {
        "json": {
            "query": "{ roots { ...A } } fragment A on Node { children { ...B ...B ...B } } "
            "fragment B on Node { children { ...C ...C ...C } } "
            "fragment C on Node { children { name } }"
        }
    },
    "deeply nested list literal": {
        "json": {"query": "{ search(query: " + "[" * 2_400 + "]" * 2_400 + ") { totalCount } }"}
    },
    "deeply nested object literal": {
        "json": {
            "query": "{ search(query: " + "{a: " * 1_500 + "1" + "}" * 1_500 + ") { totalCount } }"
        }
    },
    "huge first": {"json": {"query": "{ methods(first: 2147483647) { totalCount } }"}},
    "first beyond Int": {
        "json": {"query": "{ methods(first: 99999999999999999999) { totalCount } }"}
    },
    "negative first": {"json": {"query": "{ methods(first: -1) { totalCount } }"}},
    "huge first in a variable": {"json": {"query": METHODS_FIRST, "variables": {"n": 2**31 - 1}}},
    "nested huge first": {
        "json": {
            "query": "{ methods(first: 100) { nodes { evidence(first: 100) { nodes { "
            "model { evidence(first: 100) { totalCount } } } } } } }"
        }
    },
    "huge string variable": {
        "json": {"query": SEARCH, "variables": {"q": "expert parallel " * 55_000}}
    },
    "huge list variable": {"json": {"query": SEARCH, "variables": {"q": ["x"] * 100_000}}},
    "huge filter string": {
        "json": {"query": MODELS_FILTERED, "variables": {"f": {"nameContains": "%_" * 200_000}}}
    },
    "huge path": {
        "json": {
            "query": "query($p: String) { node(path: $p) { name } }",
            "variables": {"p": " :: ".join(["alpha"] * 50_000)},
        }
    },
    "deeply nested variables": {
        "json": {
            "query": "query($q: String!) { search(query: $q) { totalCount } }",
            "variables": {"q": "x", "extra": [[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]},
        }
    },
    "null bytes in a search": {"json": {"query": SEARCH, "variables": {"q": "gamma\x00rays"}}},
    "search syntax": {
        "json": {"query": SEARCH, "variables": {"q": "\"* OR NEAR( ^ -: AND) '; --"}}
    },
    "search with no words": {"json": {"query": SEARCH, "variables": {"q": "  ** ()  "}}},
    "lone surrogate escape": {"json": {"query": '{ node(slug: "\\ud800") { name } }'}},
    "int for string": {"json": {"query": SEARCH, "variables": {"q": 5}}},
    "string for int": {"json": {"query": METHODS_FIRST, "variables": {"n": "ten"}}},
    "float for int": {"json": {"query": METHODS_FIRST, "variables": {"n": 1.5}}},
    "null for non-null": {"json": {"query": SEARCH, "variables": {"q": None}}},
    "missing variable": {"json": {"query": SEARCH}},
    "object for ID": {
        "json": {
            "query": "query($i: ID!) { entity(id: $i) { __typename } }",
            "variables": {"i": {"a": 1}},
        }
    },
    "unknown enum": {"json": {"query": "{ methods(orderBy: {field: DROP_TABLE}) { totalCount } }"}},
    "bad date": {
        "json": {"query": MODELS_FILTERED, "variables": {"f": {"releasedAfter": "2024-13-45"}}}
    },
    "huge date": {
        "json": {"query": MODELS_FILTERED, "variables": {"f": {"releasedAfter": "99999-01-01"}}}
    },
    "extreme level": {
        "json": {
            "query": '{ model(slug: "newest") { branches(level: -2147483648) { methodCount } } }'
        }
    },
    "garbage ID": {"json": {"query": '{ entity(id: "!!not base64!!") { __typename } }'}},
    "ID without a key": {"json": {"query": '{ entity(id: "Tm9kZTo") { __typename } }'}},
    "ID of an unknown kind": {"json": {"query": '{ entity(id: "RXZpbDp4") { __typename } }'}},
    "ID of another kind": {"json": {"query": '{ node(id: "TWV0aG9kOmFscGhh") { name } }'}},
    "huge ID": {
        "json": {
            "query": "query($i: ID!) { entity(id: $i) { __typename } }",
            "variables": {"i": _id("Node:" + "x" * 300_000)},
        }
    },
    "unknown ID in a filter": {
        "json": {
            "query": "query($w: ID) { methods(filter: {within: $w}) { totalCount } }",
            "variables": {"w": "Tm9kZTpub3BlYQ"},
        }
    },
    "garbage cursor": {"json": {"query": '{ methods(after: "zzz") { totalCount } }'}},
    "empty cursor": {"json": {"query": '{ methods(after: "") { totalCount } }'}},
    "an ID as a cursor": {
        "json": {"query": '{ methods(after: "TWV0aG9kOmFscGhh") { totalCount } }'}
    },
    "nested garbage cursor": {
        "json": {"query": '{ node(slug: "alpha") { byModel(after: "%%%") { totalCount } } }'}
    },
    "huge cursor": {
        "json": {
            "query": "query($a: String) { models(after: $a) { totalCount } }",
            "variables": {"a": "Z" * 500_000},
        }
    },
    "malformed JSON": {
        "content": b'{"query": "{ taxonomy ',
        "headers": {"content-type": "application/json"},
    },
    "JSON with trailing garbage": {
        "content": b'{"query": "{ __typename }"} {"x"',
        "headers": {"content-type": "application/json"},
    },
    "empty body": {"content": b"", "headers": {"content-type": "application/json"}},
    "empty object": {"json": {}},
    "empty batch": {"json": []},
    "a query that is not a string": {"json": {"query": 5}},
    "variables that are not an object": {"json": {"query": SUMMARY, "variables": [1, 2]}},
    "unknown operation name": {"json": {"query": SUMMARY, "operationName": "Nope"}},
    "several operations, none named": {
        "json": {"query": "query A { __typename } query B { __typename }"}
    },
    "a mutation": {"json": {"query": "mutation { dropEverything }"}},
    "a subscription": {"json": {"query": "subscription { changes }"}},
    "text/plain": {
        "content": b'{"query": "{ __typename }"}',
        "headers": {"content-type": "text/plain"},
    },
    "XML": {
        "content": b"<query>{ __typename }</query>",
        "headers": {"content-type": "application/xml"},
    },
    "form": {
        "content": b"query=%7B+__typename+%7D",
        "headers": {"content-type": "application/x-www-form-urlencoded"},
    },
    "broken multipart": {
        "content": b'--x\r\nContent-Disposition: form-data; name="operations"\r\n\r\n{bad\r\n--x--',
        "headers": {"content-type": "multipart/form-data; boundary=x"},
    },
    "no content type": {"content": b'{"query": "{ __typename }"}'},
    "charset trickery": {
        "content": '{"query": "{ __typename }"}'.encode("utf-16"),
        "headers": {"content-type": "application/json; charset=utf-16"},
    },
    "GET with bad variables": {
        "method": "GET",
        "params": {
            "query": "query($q: String!) { search(query: $q) { totalCount } }",
            "variables": "{bad",
        },
    },
    "GET with a mutation": {"method": "GET", "params": {"query": "mutation { x }"}},
    "GET with a long query": {
        "method": "GET",
        "params": {"query": "{ taxonomy { " + "nodeCount " * 1_500 + "} }"},
    },
    "unknown method": {"method": "PUT", "json": {"query": SUMMARY}},
}


def _attack(client: TestClient, request: dict[str, Any]) -> Any:
    request = dict(request)
    method = request.pop("method", "POST")
    return client.request(method, "/graphql", **request)


@pytest.mark.parametrize("name", list(ATTACKS))
def test_attacks_get_no_fault(client: TestClient, name: str) -> None:
    response = _attack(client, ATTACKS[name])
    if response.status_code == 405:  # the router's own refusal of an unknown method
        return
    assert response.headers["content-type"].split(";")[0] in (GRAPHQL_RESPONSE, "application/json")
    _assert_no_fault(response)
    for forbidden in ("Traceback", 'File "'):
        assert forbidden not in response.text


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("alias flood", "QUERY_TOO_COMPLEX"),
        ("deep selection", "QUERY_TOO_COMPLEX"),
        ("deep fragments", "QUERY_TOO_COMPLEX"),
        ("circular fragments", "GRAPHQL_VALIDATION_FAILED"),
        ("self-spreading fragment", "GRAPHQL_VALIDATION_FAILED"),
        ("fragment fan-out", "QUERY_TOO_COMPLEX"),
        ("huge first", "QUERY_TOO_COMPLEX"),
        ("huge first in a variable", "QUERY_TOO_COMPLEX"),
        ("nested huge first", "QUERY_TOO_COMPLEX"),
        ("negative first", "BAD_USER_INPUT"),
        ("garbage ID", "BAD_USER_INPUT"),
        ("ID of another kind", "BAD_USER_INPUT"),
        ("garbage cursor", "BAD_USER_INPUT"),
        ("huge cursor", "BAD_USER_INPUT"),
        ("huge filter string", "BAD_USER_INPUT"),
        ("string for int", "GRAPHQL_VALIDATION_FAILED"),
        ("null for non-null", "GRAPHQL_VALIDATION_FAILED"),
        # Written inline: refused on its field, as it runs (schema.argument_values).
        ("unknown enum", "BAD_USER_INPUT"),
        ("deeply nested list literal", "GRAPHQL_PARSE_FAILED"),
        ("lone surrogate escape", "GRAPHQL_PARSE_FAILED"),
        ("malformed JSON", "BAD_REQUEST"),
        ("text/plain", "BAD_REQUEST"),
        ("empty batch", "BAD_REQUEST"),
        ("a query that is not a string", "BAD_REQUEST"),
        ("variables that are not an object", "BAD_REQUEST"),
        ("GET with a mutation", "BAD_REQUEST"),
    ],
)
def test_attacks_are_refused_with_their_code(client: TestClient, name: str, code: str) -> None:
    errors = _assert_no_fault(_attack(client, ATTACKS[name]))
    assert errors, f"{name} was answered without an error"
    assert {error["extensions"]["code"] for error in errors} == {code}


def _forged(raw: str) -> str:
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


FORGED_CURSORS = {
    "an integer past 64 bits": '["%s", 1180591620717411303424]',
    "text for an integer": '["%s", "x"]',
    "a boolean": '["%s", true]',
    "a fraction": '["%s", 1.5]',
    "null": '["%s", null]',
    "too many values": '["%s", 1, 2, 3]',
    "none at all": '["%s"]',
    "nested 100,000 deep": '["%s", ' + "[" * 100_000 + "]" * 100_000 + "]",
}
CURSORED_LISTS = {
    "methods": ("methods:name:asc", "query($a: String) { methods(after: $a) { totalCount } }"),
    "by model count": (
        "methods:model_count:desc",
        "query($a: String) { methods(after: $a, orderBy: {field: MODEL_COUNT, direction: DESC})"
        " { nodes { slug } } }",
    ),
    "byModel": (
        "byModel:release_date:desc",
        'query($a: String) { node(slug: "alpha") { byModel(after: $a) { nodes { strongest } } } }',
    ),
    "models": ("models:name:asc", "query($a: String) { models(after: $a) { nodes { slug } } }"),
}


@pytest.mark.parametrize("forgery", sorted(FORGED_CURSORS))
@pytest.mark.parametrize("listing", sorted(CURSORED_LISTS))
def test_forged_cursors_are_bad_input_never_internal(
    client: TestClient, listing: str, forgery: str
) -> None:
    """A cursor is the client's to send back: one we never made (values out of range, of
    the wrong type or number, nested deep) is refused as input, on either database,
    before any statement could fail on it."""
    list_name, document = CURSORED_LISTS[listing]
    summary = client.post("/graphql", json={"query": "{ taxonomy { dataVersion } }"}).json()
    version = summary["data"]["taxonomy"]["dataVersion"]  # cursors name their data's
    cursor = _forged(FORGED_CURSORS[forgery] % f"{list_name}@{version}")
    response = client.post("/graphql", json={"query": document, "variables": {"a": cursor}})
    errors = _assert_no_fault(response)
    assert [error["extensions"]["code"] for error in errors] == ["BAD_USER_INPUT"], errors
    assert "cursor" in errors[0]["message"]


def test_a_forged_search_position_is_bad_input(client: TestClient) -> None:
    document = 'query($a: String) { search(query: "alpha", after: $a) { totalCount } }'
    first = client.post(
        "/graphql", json={"query": '{ search(query: "alpha") { edges { cursor } } }'}
    )
    list_name = json.loads(
        base64.urlsafe_b64decode(first.json()["data"]["search"]["edges"][0]["cursor"] + "==")
    )[0]
    for position in ("1180591620717411303424", "-1", '"x"', "true"):
        cursor = _forged(f'["{list_name}", {position}]')
        errors = _assert_no_fault(
            client.post("/graphql", json={"query": document, "variables": {"a": cursor}})
        )
        assert [error["extensions"]["code"] for error in errors] == ["BAD_USER_INPUT"], (
            position,
            errors,
        )


@pytest.mark.parametrize("name", ["duplicated fields", "huge string variable", "search syntax"])
def test_harmless_floods_are_answered(client: TestClient, name: str) -> None:
    response = _attack(client, ATTACKS[name])
    assert response.status_code == 200
    assert _assert_no_fault(response) == []


# Where a NUL can reach an argument, each beside a sibling the answer must keep: (document,
# variables, path of the refused field, path of the sibling, the argument named).
SIBLING = "taxonomy { rootCount }"
NUL_PLACES: dict[str, tuple[str, dict[str, Any] | None, list[Any], list[Any], str | None]] = {
    # An ID's own check refuses it (schema.ids), a batch's entry by entry.
    "an ID, inline": (
        f'{{ a: node(id: "\\u0000") {{ name }} {SIBLING} }}',
        *(None, ["a"], ["taxonomy", "rootCount"], None),
    ),
    "a slug, as \\u{0}": (
        '{ a: node(slug: "a\\u{0}b") { name } b: node(slug: "alpha") { name } }',
        *(None, ["a"], ["b", "name"], "slug"),
    ),
    "a slug, as \\u{000000}": (
        f'{{ method(slug: "\\u{{000000}}") {{ name }} {SIBLING} }}',
        *(None, ["method"], ["taxonomy", "rootCount"], "slug"),
    ),
    # graphql-core reads a NUL written as itself inside a string (only outside one is it a
    # syntax error); it reached PostgreSQL, whose error nulled the sibling too (INTERNAL).
    "a slug, written as itself": (
        '{ a: node(slug: "x\x00") { name } b: node(slug: "alpha") { name } }',
        *(None, ["a"], ["b", "name"], "slug"),
    ),
    "a path, in a variable": (
        f"query($p: String) {{ node(path: $p) {{ name }} {SIBLING} }}",
        *({"p": "alpha/\x00"}, ["node"], ["taxonomy", "rootCount"], "path"),
    ),
    "a search, in a variable": (
        f"query($q: String!) {{ search(query: $q) {{ totalCount }} {SIBLING} }}",
        *({"q": "gamma\x00rays"}, ["search"], ["taxonomy", "rootCount"], "query"),
    ),
    "a search, inline": (
        f'{{ search(query: "gamma\\u0000") {{ totalCount }} {SIBLING} }}',
        *(None, ["search"], ["taxonomy", "rootCount"], "query"),
    ),
    "an input object, inline": (
        f'{{ methods(filter: {{nameContains: "\\u0000"}}) {{ totalCount }} {SIBLING} }}',
        *(None, ["methods"], ["taxonomy", "rootCount"], "filter"),
    ),
    "an input object, in a variable": (
        f"query($f: ModelFilter) {{ models(filter: $f) {{ totalCount }} {SIBLING} }}",
        *({"f": {"organization": "\x00"}}, ["models"], ["taxonomy", "rootCount"], "filter"),
    ),
    "a batch's ID, in a variable": (
        f"query($i: [ID!]!) {{ entities(ids: $i) {{ __typename }} {SIBLING} }}",
        *({"i": [_id("Node:alpha"), "\x00"]}, ["entities", 1], ["entities", 0], None),
    ),
    "a batch's ID, inline": (
        f'{{ entities(ids: ["\\u0000"]) {{ __typename }} {SIBLING} }}',
        *(None, ["entities", 0], ["taxonomy", "rootCount"], None),
    ),
    "a cursor of a nested connection": (
        '{ node(slug: "alpha") { name byModel(after: "\\u0000") { totalCount } } }',
        *(None, ["node", "byModel"], ["node", "name"], "after"),
    ),
    "a variable's default": (
        f'query($s: String = "\\u0000") {{ model(slug: $s) {{ name }} {SIBLING} }}',
        *(None, ["model"], ["taxonomy", "rootCount"], "slug"),
    ),
}


def _at(data: Any, path: list[Any]) -> Any:
    for step in path:
        data = data[step]
    return data


@pytest.mark.parametrize("place", list(NUL_PLACES))
def test_a_nul_in_an_argument_is_refused_on_its_field_alone(client: TestClient, place: str) -> None:
    """No name, slug, ID or search holds a NUL, and PostgreSQL cannot even compare one: a
    field given one answers BAD_USER_INPUT at its own path, naming the argument, and its
    siblings are answered, on both databases (the whole answer was null, its error with no
    path)."""
    document, variables, refused, sibling, argument = NUL_PLACES[place]
    response = client.post("/graphql", json={"query": document, "variables": variables})
    assert response.status_code == 200, response.text
    errors = _assert_no_fault(response)
    assert [(e.get("path"), e["extensions"]["code"]) for e in errors] == [
        (refused, "BAD_USER_INPUT")
    ]
    if argument is not None:
        assert errors[0]["extensions"]["argument"] == argument
        assert f"argument `{argument}`" in errors[0]["message"]
        assert "NUL" in errors[0]["message"]
    data = response.json()["data"]
    assert _at(data, refused) is None
    assert _at(data, sibling) is not None, data


def test_a_nul_under_a_list_is_refused_at_each_item(client: TestClient) -> None:
    document = '{ models(first: 2) { nodes { name treatments(after: "\\u0000") { totalCount } } } }'
    response = client.post("/graphql", json={"query": document})
    errors = _assert_no_fault(response)
    assert [error["path"] for error in errors] == [
        ["models", "nodes", 0, "treatments"],
        ["models", "nodes", 1, "treatments"],
    ]
    nodes = response.json()["data"]["models"]["nodes"]
    assert [node["treatments"] for node in nodes] == [None, None]
    assert all(node["name"] for node in nodes)


def test_only_a_request_that_may_hold_a_nul_has_its_fields_checked(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check on each field runs only for a request whose document or variables may
    hold a NUL: every other request pays two one-character searches and a walk of its
    variables (schema.nul_guard)."""
    checked: list[str] = []
    resolve = RefuseNul.resolve

    def counted(self: RefuseNul, _next: Any, root: Any, info: Any, **kwargs: Any) -> Any:
        checked.append(info.field_name)
        return resolve(self, _next, root, info, **kwargs)

    monkeypatch.setattr(RefuseNul, "resolve", counted)
    clean = '{ node(slug: "alpha") { name children { name } } } # a backslash: \\u0041'
    assert client.post("/graphql", json={"query": clean}).json()["data"]["node"]["name"]
    assert checked == []
    with_nul = '{ node(slug: "alpha") { name children { name } } model(slug: "\\u0000") { name } }'
    assert client.post("/graphql", json={"query": with_nul}).json()["data"]["node"]["name"]
    assert {"node", "name", "children", "model"} <= set(checked)


BODY_PARSE_BUG = (
    "product bug: Strawberry's JSON body parsing is unguarded; the request gets a "
    "500 'Internal Server Error' in text/plain instead of 400 BAD_REQUEST"
)


@pytest.mark.parametrize("body", [b"5", b'"a string"', b"true"])
def test_a_json_body_that_is_not_an_object_is_a_bad_request(
    client: TestClient, body: bytes
) -> None:
    response = client.post("/graphql", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert [e["extensions"]["code"] for e in _errors(response)] == ["BAD_REQUEST"]


def test_an_undecodable_body_is_a_bad_request(client: TestClient) -> None:
    response = client.post(
        "/graphql", content=b"\xff\xfe{", headers={"content-type": "application/json"}
    )
    assert response.status_code == 400
    assert [e["extensions"]["code"] for e in _errors(response)] == ["BAD_REQUEST"]


def test_deeply_nested_json_is_a_bad_request(client: TestClient) -> None:
    nested = (
        b'{"query": "{ __typename }", "variables": {"a": ' + b"[" * 100_000 + b"]" * 100_000 + b"}}"
    )
    response = client.post("/graphql", content=nested, headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert [e["extensions"]["code"] for e in _errors(response)] == ["BAD_REQUEST"]


@pytest.mark.parametrize("depth", [255, 300, 900])
def test_json_nested_deeper_than_the_cache_key_writes_is_answered(
    client: TestClient, depth: int
) -> None:
    """Deeper than orjson writes (254), shallower than JSON parsers read: the answer is
    read as any other, uncached (it was a bare 500: the response cache's key)."""
    variables = b'{"a": ' * depth + b"null" + b"}" * depth
    body = b'{"query": "{ __typename }", "variables": ' + variables + b"}"
    response = client.post("/graphql", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 200, response.text
    assert response.json()["data"] == {"__typename": "Query"}


@pytest.mark.parametrize("parameter", ["variables", "extensions"])
@pytest.mark.parametrize(
    "value", ["{", '{"a": }', "nul", "[" * 1_200 + "]" * 1_200, '{"q": "a\\ud800b"}']
)
def test_a_get_whose_json_parameter_is_unreadable_is_refused_by_its_name(
    client: TestClient, parameter: str, value: str
) -> None:
    """A GET has no body: its unreadable `variables` was refused as "Unable to parse
    request body as JSON", one nested past Python's parser was a bare 500, and a lone
    surrogate (which a POST's body may not hold either) reached the database: INTERNAL
    on the field that took it, on both databases."""
    response = client.get("/graphql", params={"query": "{ __typename }", parameter: value})
    assert response.status_code == 400, response.text
    errors = _errors(response)
    assert [error["extensions"]["code"] for error in errors] == ["BAD_REQUEST"]
    assert f"the URL's `{parameter}` parameter" in errors[0]["message"]
    assert "body" not in errors[0]["message"]


def test_a_get_whose_variables_nest_deep_but_readable_is_answered(client: TestClient) -> None:
    variables = '{"a": ' * 500 + "null" + "}" * 500
    response = client.get("/graphql", params={"query": "{ __typename }", "variables": variables})
    assert response.status_code == 200, response.text
    assert response.json()["data"] == {"__typename": "Query"}


@pytest.mark.parametrize(
    "media", ["APPLICATION/JSON", "Application/Json; charset=UTF-8", "application/JSON"]
)
def test_media_types_are_read_in_any_case(client: TestClient, media: str) -> None:
    """RFC 9110: a media type's type and subtype are case-insensitive."""
    response = client.post(
        "/graphql", content=b'{"query": "{ __typename }"}', headers={"content-type": media}
    )
    assert response.status_code == 200, response.text
    assert response.json()["data"] == {"__typename": "Query"}


def test_a_first_beyond_64_bits_is_refused(client: TestClient) -> None:
    response = client.post("/graphql", json={"query": METHODS_FIRST, "variables": {"n": 2**70}})
    errors = _assert_no_fault(response)
    assert errors
    assert response.status_code == 400


NUL_LOOKUPS = {
    "node slug": ("query($v: String) { node(slug: $v) { name } }", "a\x00b"),
    "node path": ("query($v: String) { node(path: $v) { name } }", "alpha/\x00"),
    "method slug": ("query($v: String) { method(slug: $v) { name } }", "a\x00b"),
    "model slug": ("query($v: String) { model(slug: $v) { name } }", "a\x00b"),
    "an ID's key": ("query($v: ID!) { entity(id: $v) { __typename } }", _id("Node:a\x00b")),
    "a filter": (
        "query($v: String) { methods(filter: {nameContains: $v}) { totalCount } }",
        "\x00",
    ),
    "an organization": (
        "query($v: String) { models(filter: {organization: $v}) { totalCount } }",
        "\x00",
    ),
}


@pytest.mark.parametrize("name", list(NUL_LOOKUPS))
def test_null_bytes_in_lookups_are_no_fault(client: TestClient, name: str) -> None:
    document, value = NUL_LOOKUPS[name]
    response = client.post("/graphql", json={"query": document, "variables": {"v": value}})
    assert response.status_code == 200
    _assert_no_fault(response)
