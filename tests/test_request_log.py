"""The request log: one JSON line per request on `taxonomy.requests` (request id, operation,
status, duration, cache, statements), never a variable's value; off with
TAXONOMY_REQUEST_LOG=false; `taxonomy serve` writes it to standard output; and our faults
are logged without the values their statements were given."""

import json
import logging
import os
import subprocess
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from sqlalchemy import text

from api.edge.request_log import LOGGER
from schema import query as query_module
from schema.taxonomy import TaxonomySummary

from conftest import Api, serve, versioned
from processes import TAXONOMY, free_port, wait_ready

PROBE = "query Probe($slug: String!) { node(slug: $slug) { name } }"
SECRET = "secret-slug-4711"


def _lines(caplog: pytest.LogCaptureFixture) -> list[dict[str, Any]]:
    return [json.loads(record.getMessage()) for record in caplog.records if record.name == LOGGER]


def test_every_logged_text_is_cut_with_a_marker(
    tiny: Api, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 25 item 6: a 900 KB operation name was written to the log whole."""
    caplog.set_level(logging.INFO, logger=LOGGER)
    name = "A" * 900_000
    with serve(tiny.database_url, max_body_bytes=2_000_000, max_tokens=100_000) as client:
        client.post("/graphql", json={"query": f"query {name} {{ __typename }}"})
        client.get("/nodes/" + "n" * 5_000)
    lines = _lines(caplog)
    assert [line["operation"] for line in lines][:1] == ["A" * 200 + "…[cut: 900,000 chars]"]
    assert lines[1]["path"] == "/nodes/" + "n" * 193 + "…[cut: 5,007 chars]"
    assert max(len(record.getMessage()) for record in caplog.records) < 2_000


def test_one_line_per_request_without_variables(
    tiny: Api, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger=LOGGER)
    with serve(tiny.database_url) as client:
        request = {"query": PROBE, "variables": {"slug": SECRET}}
        for cache in ("miss", "hit"):
            caplog.clear()
            response = client.post("/graphql", json=request)
            assert versioned(response.json()) == {"data": {"node": None}}
            (line,) = _lines(caplog)
            assert line.pop("ms") > 0
            statements = line.pop("statements")
            assert statements >= 1 if cache == "miss" else statements == 0
            assert line == {
                "requestId": response.headers["x-request-id"],
                "method": "POST",
                "path": "/graphql",
                "operation": "Probe",
                "status": 200,
                "cache": cache,
            }
            assert SECRET not in caplog.text

        caplog.clear()  # a GET's variables are in its query string, which is not logged
        got = client.get(
            "/graphql", params={"query": PROBE, "variables": json.dumps(request["variables"])}
        )
        (line,) = _lines(caplog)
        assert (line["method"], line["operation"], line["status"]) == ("GET", "Probe", 200)
        assert got.status_code == 200
        assert SECRET not in caplog.text

        caplog.clear()  # refusals and other paths have their line too
        refused = client.post("/graphql", json={"query": "{ nope }"})
        client.get("/healthz")
        first, second = _lines(caplog)
        assert (first["status"], first["cache"], first["operation"]) == (
            refused.status_code,
            "miss",
            None,
        )
        assert (second["path"], second["status"], second["cache"]) == ("/healthz", 200, None)


def test_the_request_log_can_be_turned_off(tiny: Api, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger=LOGGER)
    with serve(tiny.database_url, request_log=False) as client:
        assert client.post("/graphql", json={"query": "{ __typename }"}).status_code == 200
    assert _lines(caplog) == []


def test_serve_writes_the_request_log_to_standard_output(tmp_path: Path) -> None:
    port = free_port()
    output = tmp_path / "stdout.txt"
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    database = f"sqlite:///{tmp_path}/taxonomy.db"
    with output.open("wb") as stdout:
        process = subprocess.Popen(
            [str(TAXONOMY), "serve", "--db", database, "--port", str(port)],
            env=env,
            stdout=stdout,
            stderr=subprocess.DEVNULL,
        )
        try:
            base = f"http://127.0.0.1:{port}"
            wait_ready(base, process)
            response = httpx.post(
                f"{base}/graphql",
                json={"query": PROBE, "variables": {"slug": SECRET}},
                headers={"x-request-id": "served-request-0001"},
            )
            assert response.status_code == 200
        finally:
            process.terminate()
            process.wait(timeout=15)
    text = output.read_text(encoding="utf-8")
    assert SECRET not in text
    lines = [json.loads(line) for line in text.splitlines() if line.startswith("{")]
    (line,) = [line for line in lines if line["requestId"] == "served-request-0001"]
    assert (line["operation"], line["status"], line["cache"]) == ("Probe", 200, "miss")


# A statement given a client's value that the database refuses (psycopg adapts a list
# to an array, sqlite3 cannot bind one; PostgreSQL quotes the text it cannot read).
_FAILING = {
    "sqlite": ("SELECT :v", {"v": [SECRET]}),
    "postgresql": ("SELECT CAST(:v AS INTEGER)", {"v": SECRET}),
}


def test_internal_errors_are_logged_without_bound_values(
    tiny: Api, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def failing(info: Any) -> TaxonomySummary:
        reader = info.context.reader
        statement, values = _FAILING[reader.dialect]
        await reader.execute(text(statement), values)
        raise AssertionError("the database took it")

    monkeypatch.setattr(query_module, "taxonomy_summary", failing)
    caplog.set_level(logging.ERROR)
    with serve(tiny.database_url, response_cache=False) as client:
        response = client.post(
            "/graphql",
            json={"query": "{ taxonomy { nodeCount } }"},
            headers={"x-request-id": "fault-request-0001"},
        )
    (error,) = response.json()["errors"]
    assert error["extensions"]["code"] == "INTERNAL"
    (entry,) = [record for record in caplog.records if record.name == "taxonomy.errors"]
    assert entry.levelno == logging.ERROR
    logged = caplog.text  # as a handler writes it, traceback and all
    assert "fault-request-0001" in logged
    assert SECRET not in logged
    assert "[SQL: SELECT " in logged  # the statement itself, with its placeholder
    assert "Traceback" in logged
    assert "withheld" in logged
