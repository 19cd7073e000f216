"""Automatic persisted queries as Apollo's clients speak them, and the allowlist mode."""

import hashlib
import json
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from conftest import Api, serve, versioned

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
