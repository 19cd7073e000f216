"""The benchmark of pages of changes (`bench/changes_page.py`) runs and times what it
says: every page it names, over a history with changes of every kind."""

from collections.abc import Callable
from pathlib import Path

from api.commands.generate_next import next_version
from api.ingest.load import load_directory
from api.settings import DEFAULT_FIXTURES_DIR
from bench.changes_page import main


def test_every_page_is_timed_over_two_releases(
    backend: str, new_database: Callable[[str, str], str], tmp_path: Path
) -> None:
    url = new_database(backend, "changes_page")
    edited = tmp_path / "next"
    next_version(DEFAULT_FIXTURES_DIR, edited, seed=1, each=3)
    load_directory(DEFAULT_FIXTURES_DIR, url)
    load_directory(edited, url)
    report = main(url, 2)
    assert report["since"] == 1
    summary = report["changes"]
    assert isinstance(summary, dict)
    assert summary["treatments"]["total"] > 0
    assert summary["methods"]["total"] > 0
    pages = report["pages"]
    assert isinstance(pages, dict)
    assert set(pages) == {
        "treatments first page",
        "treatments last page",
        "treatments WEAKENED",
        "treatments in largest root",
        "methods first page",
        "methods in largest root",
    }
    for figures in pages.values():
        assert figures["cold_ms"] > 0
        assert figures["p50_ms"] > 0
