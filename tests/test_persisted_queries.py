"""Automatic persisted queries as Apollo's clients speak them, the allowlist mode, and
what the parse of documents costs and keeps."""

import hashlib
import json
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx2 as httpx
import psutil
import pytest
from graphql import Lexer, Source
from starlette.testclient import TestClient

from conftest import Api, serve, versioned
from processes import running_server, worker_pids

QUERY = "query Roots { roots { slug } }"
DIGEST = hashlib.sha256(QUERY.encode()).hexdigest()
ROOTS = {"data": {"roots": [{"slug": "alpha"}, {"slug": "zeta"}]}}


def _persisted(digest: str = DIGEST) -> dict[str, Any]:
    return {"persistedQuery": {"version": 1, "sha256Hash": digest}}


def _post(client: TestClient, **body: Any) -> tuple[int, Any]:
    """The status and the answer (without its data version, checked: conftest.versioned)."""
    response = client.post("/graphql", json=body)
    return response.status_code, versioned(response.json())


def test_hash_first_then_the_document_then_the_hash_alone(tiny: Api) -> None:
    status, body = _post(tiny.client, extensions=_persisted())
    assert status == 200
    assert body["errors"][0]["message"] == "PersistedQueryNotFound"
    assert body["errors"][0]["extensions"]["code"] == "PERSISTED_QUERY_NOT_FOUND"

    assert _post(tiny.client, query=QUERY, extensions=_persisted()) == (200, ROOTS)
    assert _post(tiny.client, extensions=_persisted()) == (200, ROOTS)
    got = tiny.client.get("/graphql", params={"extensions": json.dumps(_persisted())})
    assert versioned(got.json()) == ROOTS


def test_a_hash_that_is_not_the_documents_is_refused(tiny: Api) -> None:
    status, body = _post(tiny.client, query=QUERY, extensions=_persisted("0" * 64))
    assert status == 400
    assert body["errors"][0]["extensions"]["code"] == "BAD_REQUEST"
    assert _post(tiny.client, extensions=_persisted("0" * 64))[1]["errors"][0]["message"] == (
        "PersistedQueryNotFound"
    )


def _hash_of(document: str) -> dict[str, Any]:
    return _persisted(hashlib.sha256(document.encode()).hexdigest())


def _runs_by_hash(client: TestClient, document: str) -> bool:
    return "errors" not in _post(client, extensions=_hash_of(document))[1]


def test_the_store_is_bounded_least_recently_used_out_first(tiny: Api) -> None:
    documents = [QUERY, "query Other { taxonomy { nodeCount } }", "query Third { roots { id } }"]
    with serve(tiny.database_url, persisted_queries_entries=2) as client:
        for document in documents[:2]:
            assert _post(client, query=document, extensions=_hash_of(document))[0] == 200
        assert _runs_by_hash(client, QUERY)  # Other is now the least recently used
        assert _post(client, query=documents[2], extensions=_hash_of(documents[2]))[0] == 200
        assert [_runs_by_hash(client, document) for document in documents] == [True, False, True]


def test_a_cached_answer_is_found_by_the_hash_the_client_sent(tiny: Api) -> None:
    """The response cache comes before persisted queries (api.app): a hit is found by the
    hash and variables as sent, without the document put back, so it is answered even
    after the hash left this process's store; a hash never answered is still not found."""
    other = "query Other { taxonomy { nodeCount } }"
    with serve(tiny.database_url, persisted_queries_entries=1) as client:
        assert _post(client, query=QUERY, extensions=_persisted())[0] == 200
        first = client.post("/graphql", json={"extensions": _persisted()})
        assert (first.headers["x-cache"], versioned(first.json())) == ("miss", ROOTS)
        assert _post(client, query=other, extensions=_hash_of(other))[0] == 200  # QUERY out
        again = client.post("/graphql", json={"extensions": _persisted()})
        assert (again.headers["x-cache"], versioned(again.json())) == ("hit", ROOTS)
        by_get = {"extensions": json.dumps(_persisted())}
        assert client.get("/graphql", params=by_get).json()["errors"][0]["message"] == (
            "PersistedQueryNotFound"  # this GET was never answered: the store decides
        )


def test_allowlist_mode_runs_only_registered_operations(tiny: Api, tmp_path: Path) -> None:
    allowlist = tmp_path / "operations.json"
    other = "query Other { taxonomy { nodeCount } }"
    listed = {
        hashlib.sha256(document.encode()).hexdigest(): document for document in (QUERY, other)
    }
    allowlist.write_text(json.dumps(listed), encoding="utf-8")
    with serve(
        tiny.database_url, persisted_queries_allowlist=str(allowlist), persisted_queries_entries=1
    ) as client:
        # Both listed documents stay, whatever the bound on registered ones.
        for _ in range(2):
            assert _runs_by_hash(client, other)
            assert _post(client, extensions=_persisted()) == (200, ROOTS)
        assert _post(client, query=QUERY) == (200, ROOTS)
        status, body = _post(client, query="{ taxonomy { nodeCount } }")
        assert status == 400
        assert body["errors"][0]["extensions"]["code"] == "PERSISTED_QUERY_NOT_ALLOWED"


@pytest.fixture
def lexed(tiny: Api, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The start of each document graphql-core's lexer reads from now on."""
    tiny.query("{ __typename }")  # what the app makes once (the cost rule's schema), made
    started: list[str] = []

    class CountingLexer(Lexer):
        def __init__(self, source: Source) -> None:
            started.append(source.body[:24])
            super().__init__(source)

    monkeypatch.setattr("graphql.language.parser.Lexer", CountingLexer)
    return started


def test_a_document_is_lexed_once_whatever_its_size(tiny: Api, lexed: list[str]) -> None:
    """graphql-core's lexer reads a new document once and one seen before never, small or
    past 20 KB: the view reads a document's operations from the schema's own parse. It
    parsed each document itself as well, again on each request past 20 KB: a 500 KB
    document cost 88 ms of CPU a request, 49 ms since."""
    for padding in (0, 30_000):
        document = f"query Once{padding}($yes: Boolean!) {{ __typename @include(if: $yes) }}"
        document += "\n#" + "x" * padding
        # Other variables each time: each request runs (none is the response cache's).
        assert tiny.query(document, {"yes": True}) == {"__typename": "Query"}
        assert tiny.query(document, {"yes": False}) == {}
    assert len(lexed) == 2, lexed


def test_a_document_that_does_not_parse_is_parsed_once_and_then_only_to_say_why(
    tiny: Api, lexed: list[str]
) -> None:
    """The view and the schema share the failed parse; what is left is Strawberry's own
    parse, which makes the error the client reads (2 lexers, then 1 a request: 3 each
    before the failure was kept)."""
    for _ in range(3):
        response = tiny.client.post("/graphql", json={"query": "{ taxonomy { "})
        assert response.status_code == 400, response.text
        [error] = response.json()["errors"]
        assert error["message"].startswith("Syntax Error"), error
    assert len(lexed) == 2 + 1 + 1, lexed


DOCUMENTS = 150


def test_distinct_huge_documents_grow_a_worker_by_a_bounded_amount(
    api_for: Callable[[str, str], Api], tiny_folder: Path
) -> None:
    """Issue 25 item 6: the parse cache kept 1,024 documents and the persisted-query store
    1,000, each up to a request body (1 MB), so one worker could grow by 1-2 GB. Both are
    bounded by bytes now: 150 distinct documents of 500 KB, each registered by its hash,
    grow a server's two workers by at most 125 MB together. Measured: 59-64 MB with the
    bounds, 222 MB with them lifted (TAXONOMY_PERSISTED_QUERIES_MEGABYTES and
    TAXONOMY_DOCUMENT_CACHE_MEGABYTES at 100,000); 300 documents told them apart no
    better (73 MB, 430 MB) for twice the CPU. On SQLite alone: what is kept is the same
    whatever the database, and lexing 75 MB of documents takes its 10-20 s of CPU."""
    tiny = api_for("sqlite", str(tiny_folder))
    with running_server(tiny.database_url, workers=2, response_cache="false") as base:
        workers = [psutil.Process(pid) for pid in worker_pids(base)]
        assert len(workers) == 2

        def resident() -> int:
            return sum(worker.memory_info().rss for worker in workers)

        with httpx.Client(base_url=base, timeout=30) as http:

            def send(number: int) -> None:
                document = f"query Q{number} {{ __typename }}\n#" + f"{number:06d}" * 83_333
                digest = hashlib.sha256(document.encode()).hexdigest()
                extensions = {"persistedQuery": {"version": 1, "sha256Hash": digest}}
                answer = http.post("/graphql", json={"query": document, "extensions": extensions})
                assert answer.status_code == 200, answer.text[:300]
                assert answer.json()["data"] == {"__typename": "Query"}

            for number in range(20):  # the worker warmed up with documents of this kind
                send(number)
            before = resident()
            # Both workers at once: each document takes a worker ~0.1 s to lex, and this
            # test's 75 MB of documents are its point.
            with ThreadPoolExecutor(max_workers=4) as senders:
                list(senders.map(send, range(20, 20 + DOCUMENTS)))
            grown = resident() - before
    print(f"two workers grew by {grown / 2**20:.0f} MB over {DOCUMENTS} documents of 500 KB")
    assert grown <= 125 << 20, f"grew by {grown / 2**20:.0f} MB"
