"""The response cache's answers shared by the workers of one machine
(api.edge.shared_answers): an answer one worker worked out is a hit in the others, servers
with other limits never share, and the shared tier never refuses or changes an answer:
busy, broken or unwritable, requests go on as misses. `taxonomy serve --workers 2` making
and removing a directory of its own: tests/test_serve.py."""

import logging
import sqlite3
from collections.abc import Callable
from pathlib import Path

import httpx2 as httpx
import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from api.commands.cli import main
from api.edge.response_cache import Cached
from api.edge.shared_answers import SharedAnswersError, open_shared_answers
from api.ingest.load import load_directory

from conftest import serve

QUERY = "query($slug: String!) { node(slug: $slug) { name counts { methodsInBranch } } }"
DATA = {"node": {"name": "Alpha", "counts": {"methodsInBranch": 6}}}
ANSWER = b'{"data":{"node":{"name":"Alpha"}}}'


def _post(client: TestClient | httpx.Client, base: str = "") -> httpx.Response:
    return client.post(f"{base}/graphql", json={"query": QUERY, "variables": {"slug": "alpha"}})


@pytest.fixture
def tiny_url(backend: str, new_database: Callable[[str, str], str], tiny_folder: Path) -> str:
    url = new_database(backend, "shared")
    load_directory(tiny_folder, url)
    return url


def test_an_answer_one_worker_worked_out_is_a_hit_in_another(tiny_url: str, tmp_path: Path) -> None:
    shared = {"statement_header": True, "response_cache_dir": tmp_path}
    with serve(tiny_url, **shared) as first, serve(tiny_url, **shared) as second:
        worked_out = _post(first)
        assert (worked_out.status_code, worked_out.headers["x-cache"]) == (200, "miss")
        assert worked_out.json()["data"] == DATA
        assert worked_out.headers["x-sql-statements"] == "1"
        found = _post(second)  # another process on the same machine: its own cache is empty
        assert (found.status_code, found.headers["x-cache"]) == (200, "hit")
        assert found.headers["x-sql-statements"] == "0"  # nothing ran in this one
        assert found.content == worked_out.content
        assert found.headers["etag"] == worked_out.headers["etag"]
        assert found.headers["content-type"] == worked_out.headers["content-type"]
    # A server with other limits may refuse what these accept: it shares none of it.
    with serve(tiny_url, **shared, max_depth=9) as other:
        assert _post(other).headers["x-cache"] == "miss"


def test_a_busy_shared_tier_refuses_or_changes_no_answer(
    tiny_url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with serve(tiny_url, response_cache_dir=tmp_path) as first:
        # Another worker's write that does not end: this one's write times out.
        holder = sqlite3.connect(tmp_path / "cache.db", isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        with caplog.at_level(logging.WARNING, logger="api.edge.shared_answers"):
            answered = _post(first)
        holder.execute("ROLLBACK")
        holder.close()
        assert (answered.status_code, answered.json()["data"]) == (200, DATA)
        assert "an answer was not shared" in caplog.text
        assert _post(first).headers["x-cache"] == "hit"  # its own tier kept it
    with serve(tiny_url, response_cache_dir=tmp_path) as second:
        assert _post(second).headers["x-cache"] == "miss"  # it was not shared


def test_an_unusable_directory_leaves_each_process_its_own_answers(
    tiny_url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / "a-file").write_text("")
    directory = tmp_path / "a-file" / "answers"  # under a file: no directory can be made
    with caplog.at_level(logging.WARNING), serve(tiny_url, response_cache_dir=directory) as app:
        assert _post(app).headers["x-cache"] == "miss"
        assert _post(app).headers["x-cache"] == "hit"
    assert f"TAXONOMY_RESPONSE_CACHE_DIR={str(directory)!r}: cannot keep answers there" in (
        caplog.text
    )


def test_serve_refuses_a_directory_that_cannot_hold_answers(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("")
    directory = tmp_path / "a-file" / "answers"
    result = CliRunner().invoke(
        main,
        ["serve", "--db", f"sqlite:///{tmp_path / 'taxonomy.db'}"],
        env={"TAXONOMY_RESPONSE_CACHE_DIR": str(directory)},
    )
    assert result.exit_code == 2
    assert f"TAXONOMY_RESPONSE_CACHE_DIR={str(directory)!r}: cannot keep answers there" in (
        result.output
    )
    assert "name a directory this user may write, or unset it" in result.output
    assert not (tmp_path / "taxonomy.db").exists()  # refused before anything was made


def test_entries_round_trip_and_an_unreadable_one_is_a_miss(tmp_path: Path) -> None:
    answers = open_shared_answers(tmp_path, 1, '{"max_depth": 10}')
    answer = Cached(200, [(b"content-type", b"application/json"), (b"x-odd", b"\xe9\n")], ANSWER)
    answers.put("k", answer)
    assert answers.get("k") == answer
    assert answers.get("unknown") is None
    answers.answers.set(f"{answers.namespace}:bad", b"not json\n{}")
    assert answers.get("bad") is None
    answers.put("huge", Cached(200, [], b"x" * (1 << 19)))  # over a quarter of 1 MB
    assert answers.get("huge") is None
    answers.close()
    with pytest.raises(SharedAnswersError, match="cannot keep answers there"):
        open_shared_answers(Path("/dev/null/answers"), 1, "")
