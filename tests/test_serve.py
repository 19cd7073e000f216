"""`taxonomy serve` as users run it: it migrates a new database, loads the default
fixtures and serves the seed page; several servers on one database all move to new data
after a load."""

import time
from collections.abc import Callable
from pathlib import Path

import httpx2 as httpx
import pytest

from api.ingest.load import load_directory

from conftest import SEED_PAGE, release_of
from processes import running_server
from seed_page import NODE_PAGE, render


def test_serve_prepares_a_new_database_and_serves_the_seed_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """And its two workers share their cached answers through a directory of the server's
    own (api.edge.shared_answers), removed when it stops."""
    database = tmp_path / "taxonomy.db"  # its folder must exist (tests/test_cli.py)
    monkeypatch.setenv("TMPDIR", str(tmp_path))  # where the server makes that directory
    seed = {"query": NODE_PAGE, "variables": {"path": "optimization/training-parallelism"}}
    with running_server(f"sqlite:///{database}", workers=2) as base:
        assert database.is_file()
        (shared,) = tmp_path.glob("taxonomy-answers-*")
        assert (shared / "cache.db").is_file()
        response = httpx.post(f"{base}/graphql", json=seed)
        assert response.headers["x-cache"] == "miss"
        assert render(response.json()["data"]["node"]) == SEED_PAGE.read_text(encoding="utf-8")
        # Each on a new connection, whichever worker takes it: found, none worked out again.
        for _ in range(12):
            again = httpx.post(f"{base}/graphql", json=seed)
            assert (again.headers["x-cache"], again.content) == ("hit", response.content)
        graphiql = httpx.get(f"{base}/graphql", headers={"Accept": "text/html"})
        assert "query NodePage" in graphiql.text
    assert not shared.exists()


COUNTS = {"query": "{ taxonomy { dataVersion nodeCount } }"}


def _answers(base: str, times: int) -> set[tuple[int, int]]:
    """What `times` requests get (over the server's workers, through its cache): the
    load's number and the node count."""
    answers = set()
    for _ in range(times):
        taxonomy = httpx.post(f"{base}/graphql", json=COUNTS).json()["data"]["taxonomy"]
        answers.add((release_of(taxonomy["dataVersion"]), taxonomy["nodeCount"]))
    return answers


def test_two_servers_on_one_sqlite_file_both_serve_a_new_load(
    new_database: Callable[[str, str], str], tiny_folder: Path
) -> None:
    """On SQLite: on PostgreSQL, tests/test_servers_one_database.py asks more of the same
    (three servers, each switching within 2 s of the commit under steady traffic, with no
    error and no mixed answer), so this one would repeat it."""
    url = new_database("sqlite", "servers")
    load_directory(tiny_folder, url)
    fixtures = Path(__file__).resolve().parents[1] / "fixtures"
    poll = {"version_poll_seconds": "0.2"}
    with (
        running_server(url, workers=2, **poll) as first,
        running_server(url, workers=2, **poll) as second,
    ):
        for base in (first, second):
            assert _answers(base, 8) == {(1, 5)}  # cached by now in the workers it reached
        load_directory(fixtures, url)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if all(_answers(base, 8) == {(2, 40)} for base in (first, second)):
                break
            time.sleep(0.2)
        for base in (first, second):
            assert _answers(base, 16) == {(2, 40)}
