"""`taxonomy load` refuses a load that would wipe what is served (issue 15, item 5).

A load that would empty a table that has rows, or remove more than half of the served
methods, models or evidence, exits 1 saying what would be lost, and changes nothing,
unless `--allow-shrink`. The check comes before the evidence is read (its count comes
from the file's lines), and again, exactly, before the commit.
"""

from pathlib import Path

import pytest
from test_loader import (
    SMALL,
    NewDatabase,
    Row,
    assert_loaded,
    assert_refused,
    load,
    table_rows,
    write_dataset,
)

from api.ingest import write
from api.ingest.load import load_directory
from api.ingest.shrink import ShrinkError

EMPTIED: dict[str, tuple[dict[str, list[Row]], str]] = {
    "empty evidence": (
        {"evidence.jsonl": []},
        "all 4 evidence (evidence.jsonl is empty)",
    ),
    "five empty files": (
        {name: [] for name in SMALL},
        "all 6 nodes (nodes.jsonl is empty), all 3 models (models.jsonl is empty), "
        "all 3 sources (sources.jsonl is empty), all 4 methods (methods.jsonl is empty) "
        "and all 4 evidence (evidence.jsonl is empty)",
    ),
    "no tree": (
        {"nodes.jsonl": [], "methods.jsonl": [], "evidence.jsonl": []},
        "all 6 nodes (nodes.jsonl is empty), all 4 methods (methods.jsonl is empty) "
        "and all 4 evidence (evidence.jsonl is empty)",
    ),
}


@pytest.fixture
def loaded(tmp_path: Path, new_database: NewDatabase, backend: str) -> str:
    """A database serving SMALL: 6 nodes, 3 models, 3 sources, 4 methods, 4 evidence."""
    url = new_database(backend, "shrink")
    assert_loaded(load(write_dataset(tmp_path / "small"), url), 4)
    return url


def refusal(lost: str) -> str:
    return (
        f"Error: nothing was loaded: this load would remove {lost}; pass --allow-shrink "
        "to load it anyway; the database is unchanged"
    )


@pytest.mark.parametrize("case", list(EMPTIED))
def test_a_load_that_would_empty_a_table_is_refused_and_changes_nothing(
    tmp_path: Path, loaded: str, case: str
) -> None:
    files, lost = EMPTIED[case]
    before = table_rows(loaded)
    result = load(write_dataset(tmp_path / "cut", {**SMALL, **files}), loaded)
    assert_refused(result, [refusal(lost)])
    # Refused before the evidence was read: no progress line for it.
    assert "evidence.jsonl: " not in result.stderr
    assert table_rows(loaded) == before


def many_methods(count: int) -> dict[str, list[Row]]:
    """SMALL with ``count`` methods (`m0`...) at its root, and its evidence on the first."""
    methods = [
        {"slug": f"m{index}", "name": f"M {index}", "node": "root"} for index in range(count)
    ]
    evidence = [{**line, "method": "m0"} for line in SMALL["evidence.jsonl"]]
    return {**SMALL, "methods.jsonl": methods, "evidence.jsonl": evidence}


def test_a_load_that_would_remove_over_half_the_methods_is_refused(
    tmp_path: Path, new_database: NewDatabase, backend: str
) -> None:
    url = new_database(backend, "shrink_methods")
    assert_loaded(load(write_dataset(tmp_path / "big", many_methods(2_000)), url), 4)
    before = table_rows(url)
    smaller = write_dataset(tmp_path / "small", many_methods(88))
    assert_refused(load(smaller, url), [refusal("1,912 of 2,000 methods (96%)")])
    assert table_rows(url) == before

    # Half of them is not over half; and --allow-shrink loads anything.
    assert_loaded(load(write_dataset(tmp_path / "half", many_methods(1_000)), url), 4)
    assert_loaded(load(smaller, url, "--allow-shrink"), 4)
    assert len(table_rows(url)["method"]) == 88


def test_models_and_evidence_are_guarded_too(tmp_path: Path, loaded: str) -> None:
    """Keep only model m1 (and what names it): 2 of 3 models go, 2 of 4 evidence (half,
    allowed), 1 of 3 sources (sources may shrink; only emptying them is refused)."""
    files = {
        "models.jsonl": SMALL["models.jsonl"][:1],
        "sources.jsonl": [source for source in SMALL["sources.jsonl"] if source["model"] == "m1"],
        "evidence.jsonl": [line for line in SMALL["evidence.jsonl"] if line["model"] == "m1"],
    }
    before = table_rows(loaded)
    result = load(write_dataset(tmp_path / "cut", {**SMALL, **files}), loaded)
    assert_refused(result, [refusal("2 of 3 models (67%)")])
    assert table_rows(loaded) == before


def test_an_empty_dataset_loads_into_an_empty_database(
    tmp_path: Path, new_database: NewDatabase, backend: str
) -> None:
    """Nothing is served, so nothing can be lost."""
    url = new_database(backend, "shrink_fresh")
    assert_loaded(load(write_dataset(tmp_path / "empty", {name: [] for name in SMALL}), url), 0)


def test_the_evidence_is_counted_again_before_the_commit(
    tmp_path: Path, loaded: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first check counts the file's lines; the rows written are checked again, so a
    file that changed meanwhile (here: a count that said more) is still refused."""
    monkeypatch.setattr(write, "evidence_lines", lambda directory: 1_000)
    folder = write_dataset(
        tmp_path / "cut", {**SMALL, "evidence.jsonl": SMALL["evidence.jsonl"][:1]}
    )
    before = table_rows(loaded)
    with pytest.raises(ShrinkError) as caught:
        load_directory(folder, loaded, allow_shrink=False)
    assert str(caught.value) == "this load would remove 3 of 4 evidence (75%)"
    assert table_rows(loaded) == before
