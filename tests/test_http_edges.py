"""HTTP's edges: over-long URLs and heads, several operations without a name, graphql-core's
cap on validation errors, no suggestions without introspection, security headers on every
response and no `server` header, and connections that send nothing, or too slowly, dropped.

Through the ASGI app, and against a served process where the server's own behaviour is
what counts (uvicorn and api.edge.request_heads)."""

import re
import select
import socket
import time
from collections.abc import Iterator
from typing import Any

import httpx2 as httpx
import orjson
import pytest
from starlette.testclient import TestClient

from api.edge.security_headers import DEFAULT_POLICY
from api.endpoint.graphiql import PAGE_POLICY
from api.pages.browser import PAGE_POLICY as BROWSER_POLICY

from conftest import Api, serve, versioned
from processes import running_server

GRAPHQL_RESPONSE = "application/graphql-response+json"
SECURITY_HEADERS = {
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
}
HEADER_TIMEOUT = 1.0
KEEP_ALIVE = 1


def _error(response: Any) -> dict[str, Any]:
    (error,) = response.json()["errors"]
    assert isinstance(error, dict)
    return error


def _secured(response: Any, policy: str = DEFAULT_POLICY.decode()) -> None:
    for name, value in SECURITY_HEADERS.items():
        assert response.headers.get(name) == value, (name, dict(response.headers))
    assert response.headers.get("content-security-policy") == policy
    assert "server" not in response.headers


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A `taxonomy serve` with short timeouts for a request's head and idle connections."""
    database = tmp_path_factory.mktemp("edges") / "taxonomy.db"
    with running_server(
        f"sqlite:///{database}",
        header_timeout_seconds=str(HEADER_TIMEOUT),
        keep_alive_seconds=str(KEEP_ALIVE),
    ) as base:
        yield base


# URLs and heads


def test_a_url_over_the_limit_is_refused_with_414(tiny: Api) -> None:
    query = "{ taxonomy { nodeCount } }" + " " * 16_384
    with serve(tiny.database_url) as client:
        response = client.get("/graphql", params={"query": query})
        assert response.status_code == 414
        assert response.headers["content-type"].startswith(GRAPHQL_RESPONSE)
        error = _error(response)
        assert error["extensions"] == {
            "code": "BAD_REQUEST",
            "requestId": response.headers["x-request-id"],
            "limit": "max_url_bytes",
            "limitValue": 16_384,
        }
        assert "`max_url_bytes` of 16,384 bytes" in error["message"]
        _secured(response)
        # Just under it, the query runs.
        fits = {"query": "{ taxonomy { nodeCount } }" + " " * 16_000}
        assert versioned(client.get("/graphql", params=fits).json()) == {
            "data": {"taxonomy": {"nodeCount": 5}}
        }


@pytest.mark.parametrize("size", [20_000, 66_000, 300_000])
def test_served_long_urls_get_a_coded_414(served: str, size: int) -> None:
    """Up to 64 KiB the app refuses them itself (with a request id); beyond, uvicorn could
    not even parse them (a plain-text 400), and api.edge.request_heads refuses them alike.
    (Sent by hand: HTTP clients refuse to send URLs this long.)"""
    status, headers, body = _exchange(
        served, b"GET /graphql?query=" + b"x" * size + b" HTTP/1.1\r\nHost: x\r\n\r\n"
    )
    assert status == 414, body
    assert headers["content-type"].split(";")[0] in ("application/json", GRAPHQL_RESPONSE)
    assert orjson.loads(body)["errors"][0]["extensions"]["limit"] == "max_url_bytes"
    _secured(httpx.Response(status, headers=headers))


def test_served_heads_over_their_limit_get_a_coded_431(served: str) -> None:
    headers = {f"x-padding-{i}": "y" * 1_000 for i in range(200)}
    response = httpx.get(f"{served}/healthz", headers=headers, timeout=10)
    assert response.status_code == 431, response.text
    assert _error(response)["extensions"]["code"] == "BAD_REQUEST"
    _secured(response)


def test_served_garbage_gets_a_coded_400(served: str) -> None:
    status, headers, body = _exchange(served, b"NOT HTTP AT ALL\r\n\r\n")
    assert status == 400, body
    assert orjson.loads(body)["errors"][0]["extensions"]["code"] == "BAD_REQUEST"
    _secured(httpx.Response(status, headers=headers))


# Operations and validation


TWO_OPERATIONS = "query Counts { taxonomy { nodeCount } } query Roots { roots { slug } }"


def test_several_operations_without_a_name_are_refused_naming_them(tiny: Api) -> None:
    response = tiny.client.post("/graphql", json={"query": TWO_OPERATIONS})
    assert response.status_code == 400
    error = _error(response)
    assert error["extensions"]["code"] == "BAD_REQUEST"
    assert error["extensions"]["operations"] == ["Counts", "Roots"]
    assert "Counts, Roots" in error["message"]
    assert "operationName" in error["message"]
    named = tiny.client.post("/graphql", json={"query": TWO_OPERATIONS, "operationName": "Roots"})
    assert list(named.json()["data"]) == ["roots"]
    got = tiny.client.get("/graphql", params={"query": TWO_OPERATIONS})
    assert _error(got)["extensions"]["operations"] == ["Counts", "Roots"]
    # One operation needs no name.
    single = tiny.client.post("/graphql", json={"query": "query Only { taxonomy { nodeCount } }"})
    assert versioned(single.json()) == {"data": {"taxonomy": {"nodeCount": 5}}}


@pytest.mark.parametrize("name", [5, ["Roots"], {"name": "Roots"}, True])
def test_an_operation_name_that_is_no_string_is_refused_as_such(tiny: Api, name: object) -> None:
    """GraphQL over HTTP: `operationName` is a string. A number was looked for as a name
    ("Unknown operation named '5'"); now the request is refused for what it is."""
    documents = (TWO_OPERATIONS, "query Only { taxonomy { nodeCount } }")
    for document, accept in zip(documents, ("application/json", "*/*"), strict=True):
        response = tiny.client.post(
            "/graphql",
            json={"query": document, "operationName": name},
            headers={"accept": accept},
        )
        # A malformed request: 400 under either media type (the GraphQL-over-HTTP audit's
        # 6C00-6C03 ask it of application/json too).
        assert response.status_code == 400
        error = _error(response)
        assert error["extensions"]["code"] == "BAD_REQUEST"
        assert f"`operationName` is {type(name).__name__}" in error["message"]
        assert "not a string" in error["message"]


def test_the_cap_on_validation_errors_is_a_named_limit(tiny: Api) -> None:
    document = "{ " + " ".join(f"f{i}" for i in range(1_000)) + " }"
    response = tiny.client.post("/graphql", json={"query": document})
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert len(errors) == 101
    assert {error["extensions"]["code"] for error in errors} == {"GRAPHQL_VALIDATION_FAILED"}
    last = errors[-1]
    assert last["extensions"]["limit"] == "max_validation_errors"
    assert last["extensions"]["limitValue"] == 100
    assert "`max_validation_errors`" in last["message"]
    assert not [error for error in errors if "Validation aborted" in error["message"]]


SUGGESTED = {
    "field": "{ taxonomy { nodeCounts } }",
    "argument": '{ node(slugg: "alpha") { name } }',
    "type": "query($f: ModelFiltr) { models(filter: $f) { totalCount } }",
    "enum value": "{ methods(first: 1, orderBy: {field: NAMES}) { totalCount } }",
}


@pytest.mark.parametrize("kind", list(SUGGESTED))
def test_no_suggestions_without_introspection(tiny: Api, kind: str) -> None:
    document = {"query": SUGGESTED[kind]}
    with_introspection = [
        e["message"] for e in tiny.client.post("/graphql", json=document).json()["errors"]
    ]
    assert any("Did you mean" in message for message in with_introspection), with_introspection
    with serve(tiny.database_url, introspection=False) as client:
        response = client.post("/graphql", json=document)
        # An unknown enum value written in a field's arguments is refused on that field,
        # as it runs (schema.argument_values); the others refuse the document.
        on_its_field = kind == "enum value"
        assert response.status_code == (200 if on_its_field else 400)
        messages = [error["message"] for error in response.json()["errors"]]
        assert messages
        assert not [message for message in messages if "Did you mean" in message], messages
        assert {e["extensions"]["code"] for e in response.json()["errors"]} == {
            "BAD_USER_INPUT" if on_its_field else "GRAPHQL_VALIDATION_FAILED"
        }


# Security headers


def test_every_response_has_the_security_headers(tiny: Api) -> None:
    client: TestClient = tiny.client
    _secured(client.post("/graphql", json={"query": "{ taxonomy { nodeCount } }"}))
    _secured(client.post("/graphql", json={"query": "{ nope }"}))
    _secured(client.post("/graphql", content=b"x" * 2_000_000))  # over the body limit
    _secured(client.get("/healthz"))
    _secured(client.get("/readyz"))
    _secured(client.get("/nowhere"))
    _secured(client.get("/graphiql-assets/main.css"))
    _secured(client.get("/browser-assets/nowhere.js"))
    _secured(client.get("/", follow_redirects=False), BROWSER_POLICY)
    _secured(client.get("/nodes/optimization", follow_redirects=False), BROWSER_POLICY)
    page = client.get("/graphql", headers={"accept": "text/html"})
    assert page.headers["content-type"].startswith("text/html")
    _secured(page, PAGE_POLICY)


def test_the_graphiql_page_loads_only_its_own_scripts_and_styles() -> None:
    directives = dict(part.strip().split(" ", 1) for part in PAGE_POLICY.split(";"))
    assert directives["default-src"] == "'none'"
    assert directives["script-src"] == "'self'"
    # Its own style sheet, and the one style GraphiQL writes by itself, by its hash.
    assert re.fullmatch(r"'self' 'sha256-[A-Za-z0-9+/]{43}='", directives["style-src"])
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in PAGE_POLICY


def test_served_answers_have_no_server_header(served: str) -> None:
    for path in ("/healthz", "/graphql?query={__typename}", "/nowhere"):
        response = httpx.get(f"{served}{path}", timeout=10)
        assert "server" not in response.headers, dict(response.headers)
        _secured(response)


# Slow and silent clients


def _connect(base: str) -> socket.socket:
    host, port = base.removeprefix("http://").split(":")
    return socket.create_connection((host, int(port)), timeout=10)


def _exchange(base: str, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """The status, headers and body the server answers ``request`` (bytes as sent) with."""
    with _connect(base) as sock:
        sock.sendall(request)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    fields = [line.split(": ", 1) for line in lines]
    headers = {name.lower(): value for name, value in fields}
    return int(status_line.split()[1]), headers, body


def _closed(sock: socket.socket, within: float) -> bool:
    """Whether the server closes ``sock`` within ``within`` seconds (it sends nothing)."""
    readable, _, _ = select.select([sock], [], [], within)
    return bool(readable) and sock.recv(1) == b""


def test_a_silent_connection_is_dropped(served: str) -> None:
    with _connect(served) as sock:
        started = time.monotonic()
        assert _closed(sock, HEADER_TIMEOUT + 2), "a connection that sends nothing stayed open"
        assert time.monotonic() - started >= HEADER_TIMEOUT - 0.1


def test_a_head_sent_a_byte_at_a_time_is_dropped(served: str) -> None:
    """Each byte resets uvicorn's own keep-alive timer; the head's time limit runs on."""
    head = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"y" * 100
    started = time.monotonic()
    with _connect(served) as sock:
        for byte in head:
            try:
                sock.sendall(bytes([byte]))
            except OSError:
                break
            if _closed(sock, 0.1):
                break
        else:
            raise AssertionError("a head sent a byte at a time was read to the end")
    elapsed = time.monotonic() - started
    assert HEADER_TIMEOUT - 0.1 <= elapsed < HEADER_TIMEOUT + 1.5, elapsed


def test_an_idle_keep_alive_connection_is_closed(served: str) -> None:
    with _connect(served) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        answer = b""
        while not answer.endswith(b'{"status":"ok"}'):
            answer += sock.recv(65536)
        assert answer.startswith(b"HTTP/1.1 200 ")
        started = time.monotonic()
        assert _closed(sock, KEEP_ALIVE + 2), "an idle keep-alive connection stayed open"
        assert time.monotonic() - started >= KEEP_ALIVE - 0.1


# What the head's guard (api.edge.request_heads) must let through as uvicorn would


def _answers(base: str, sends: list[bytes], count: int) -> list[bytes]:
    """The bodies of the first ``count`` answers on one connection, ``sends`` written in turn."""
    with _connect(base) as sock:
        for part in sends:
            sock.sendall(part)
            time.sleep(0.05)
        received = b""
        while received.count(b"HTTP/1.1 ") < count or not received.endswith((b"}", b"]")):
            chunk = sock.recv(65536)
            if not chunk:
                break
            received += chunk
    return [b"{" + part.split(b"\r\n\r\n{", 1)[1] for part in received.split(b"HTTP/1.1 ")[1:]]


def _post(body: bytes) -> bytes:
    return (
        b"POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body
    )


COUNT = b'{"query": "{ taxonomy { nodeCount } }"}'


def test_pipelined_requests_with_bodies_are_each_answered(served: str) -> None:
    """Two POSTs and a GET in one write: each body is told from the next request's head."""
    get = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
    answers = _answers(served, [_post(COUNT) + _post(COUNT) + get], 3)
    assert len(answers) == 3, answers
    counts = [orjson.loads(answer)["data"]["taxonomy"]["nodeCount"] for answer in answers[:2]]
    assert counts[0] == counts[1] > 0, answers
    assert orjson.loads(answers[2]) == {"status": "ok"}


def test_a_request_sent_in_pieces_is_answered(served: str) -> None:
    """An empty line before it (RFC 9112 lets a server ignore it), a head split anywhere,
    the body after a pause: all of it reaches the app, in order."""
    request = b"\r\n" + _post(COUNT)
    pieces = [request[:3], request[3:30], request[30:-10], request[-10:]]
    (answer,) = _answers(served, pieces, 1)
    assert orjson.loads(answer)["data"]["taxonomy"]["nodeCount"] > 0, answer


def test_a_chunked_body_is_read(served: str) -> None:
    head = (
        b"POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n"
    )
    body = b"%x\r\n%s\r\n0\r\n\r\n" % (len(COUNT), COUNT)
    (answer,) = _answers(served, [head + body], 1)
    assert orjson.loads(answer)["data"]["taxonomy"]["nodeCount"] > 0, answer


def test_a_second_head_on_a_connection_is_timed_too(served: str) -> None:
    """Held by the guard until whole, its bytes do not reset uvicorn's keep-alive timer
    either: it is cut by whichever comes first."""
    with _connect(served) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        answer = b""
        while not answer.endswith(b'{"status":"ok"}'):
            answer += sock.recv(65536)
        sock.sendall(b"GET /healthz HTTP/1.1\r\n")  # and no more: a head left hanging
        started = time.monotonic()
        assert _closed(sock, HEADER_TIMEOUT + 2), "a second head left hanging stayed open"
        assert time.monotonic() - started >= HEADER_TIMEOUT - 0.1


def test_conflicting_lengths_get_a_coded_400(served: str) -> None:
    request = (
        b"POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}"
    )
    status, headers, body = _exchange(served, request)
    assert status == 400, body
    assert orjson.loads(body)["errors"][0]["extensions"]["code"] == "BAD_REQUEST"
    _secured(httpx.Response(status, headers=headers))


def test_lines_ended_by_a_bare_lf_get_a_coded_400(served: str) -> None:
    """uvicorn's parser refuses them (in plain text): the head's check does, in JSON."""
    status, headers, body = _exchange(served, b"GET /healthz HTTP/1.1\nHost: x\n\n")
    assert status == 400, body
    assert orjson.loads(body)["errors"][0]["extensions"]["code"] == "BAD_REQUEST"
    _secured(httpx.Response(status, headers=headers))
