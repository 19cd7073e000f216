"""`taxonomy generate --next-of`: the next version of a dataset, with a seeded, known mix
of every change history records. Loaded over the dataset (and over itself again), the
API's `changes` are the independent reference's (tests/reference_history.py), on each
database; the counts the generator reports are the changes the reference finds."""

import filecmp
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_history import _FIELDS, _all_changes, _as_tuples, expected_changes

from api.commands.cli import main
from api.commands.generate_next import next_version
from api.ingest.files import FILES
from api.ingest.load import load_directory
from api.settings import DEFAULT_FIXTURES_DIR

from conftest import DATASETS, Api, serve


def test_the_same_seed_writes_the_same_version(tmp_path: Path) -> None:
    first = next_version(DEFAULT_FIXTURES_DIR, tmp_path / "a", seed=7)
    again = next_version(DEFAULT_FIXTURES_DIR, tmp_path / "b", seed=7)
    other = next_version(DEFAULT_FIXTURES_DIR, tmp_path / "c", seed=8)
    assert first == again
    assert not filecmp.cmpfiles(tmp_path / "a", tmp_path / "b", FILES, shallow=False)[1]
    assert filecmp.cmpfiles(tmp_path / "a", tmp_path / "c", FILES, shallow=False)[1]
    assert other  # a mix, whatever the seed


def test_the_reported_mix_is_what_the_reference_finds(tmp_path: Path) -> None:
    done = next_version(DEFAULT_FIXTURES_DIR, tmp_path / "next", seed=3, each=4)
    expected = expected_changes(DEFAULT_FIXTURES_DIR, tmp_path / "next")

    def count(record: str, kind: str) -> int:
        return sum(1 for change in expected[record] if change[0] == kind)

    for record, kind, key in [
        ("nodes", "RENAMED", "node renamed"),
        ("nodes", "MOVED", "node moved"),
        ("methods", "ADDED", "method added"),
        ("methods", "REMOVED", "method removed"),
        ("methods", "MOVED", "method moved"),
        ("methods", "RENAMED", "method renamed"),
        ("models", "ADDED", "model added"),
        ("models", "REMOVED", "model removed"),
        ("nodes", "CHANGED", "node changed"),
        ("methods", "CHANGED", "method changed"),
    ]:
        assert done[key] == 4, (key, done)
        assert count(record, kind) == done[key], (record, kind)
    # Models change in their organization, or apart from those in their documents.
    assert done["model changed"] == done["model sources changed"] == 4, done
    assert count("models", "CHANGED") == 8
    sources_changed = [c for c in expected["models"] if "sources" in {f[0] for f in c[-1]}]
    assert len(sources_changed) == 4, sources_changed
    assert done["treatment added"] == count("treatments", "ADDED")
    # Treatments whose evidence alone changed (a quote or a locator edited).
    assert done["treatment evidence edited"] == count("treatments", "CHANGED") == 4, done
    edited = [c for c in expected["treatments"] if c[0] == "CHANGED"]
    assert all([f[0] for f in c[-1]] == ["evidence"] for c in edited), edited


def test_changes_over_generated_versions_match_the_reference(
    backend: str, new_database: Callable[[str, str], str], tmp_path: Path
) -> None:
    second = tmp_path / "second"
    third = tmp_path / "third"
    next_version(DEFAULT_FIXTURES_DIR, second, seed=1)
    next_version(second, third, seed=2)
    folders = [DEFAULT_FIXTURES_DIR, second, third]
    url = new_database(backend, "generated_next")
    for folder in folders:
        load_directory(folder, url)
    with serve(url) as client:
        api = Api(client, url)
        for since, until in [(1, 2), (2, 3), (1, 3)]:
            expected = expected_changes(folders[since - 1], folders[until - 1])
            assert expected["methods"], "a generated version changes methods"
            for record in _FIELDS:
                rows = _all_changes(api, record, since, until)
                assert _as_tuples(rows, record) == expected[record], (since, until, record)


@pytest.mark.parametrize("dataset", ["pwc", "go"])
def test_changes_over_a_real_datasets_next_version_match_the_reference(
    backend: str, new_database: Callable[[str, str], str], tmp_path: Path, dataset: str
) -> None:
    """The real datasets, edited by the generator (no seed node there: nothing is kept
    back), loaded one over the other."""
    original = Path(DATASETS[dataset])
    edited = tmp_path / "next"
    done = next_version(original, edited, seed=5, each=4)
    assert done["method moved"] == 4
    url = new_database(backend, f"next_{dataset}")
    load_directory(original, url)
    load_directory(edited, url)
    expected = expected_changes(original, edited)
    with serve(url) as client:
        api = Api(client, url)
        for record in _FIELDS:
            rows = _all_changes(api, record, 1, 2)
            assert _as_tuples(rows, record) == expected[record], record


def test_the_cli_writes_and_describes_the_next_version(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main, ["generate", str(tmp_path / "next"), "--next-of", str(DEFAULT_FIXTURES_DIR)]
    )
    assert result.exit_code == 0, result.output
    assert "3 method added" in result.output
    assert sorted(path.name for path in (tmp_path / "next").iterdir()) == sorted(FILES)
    refused = CliRunner().invoke(
        main, ["generate", str(tmp_path / "next"), "--next-of", str(DEFAULT_FIXTURES_DIR)]
    )
    assert refused.exit_code != 0
    # Worded since 939d4c4 as every "new folder" refusal is (store.file_kinds).
    assert f"{tmp_path / 'next'} is not an empty folder; name a new one" in refused.output


@pytest.mark.parametrize(
    ("file", "line", "said"),
    [
        ("methods.jsonl", '{"slug": ', "methods.jsonl:3: "),  # not JSON
        ("methods.jsonl", '{"slug": 5}', "methods.jsonl:3: field 'slug'"),  # wrong fields
        ("nodes.jsonl", None, "missing nodes.jsonl"),  # a file missing
    ],
)
def test_a_next_version_of_bad_data_names_the_problem_and_writes_nothing(
    tmp_path: Path, file: str, line: str | None, said: str
) -> None:
    """Issue 25 item 7: it was a traceback (json.decoder.JSONDecodeError, KeyError)."""
    bad = tmp_path / "bad"
    bad.mkdir()
    for name in FILES:
        (bad / name).write_bytes((DEFAULT_FIXTURES_DIR / name).read_bytes())
    if line is None:
        (bad / file).unlink()
    else:
        lines = (bad / file).read_text(encoding="utf-8").splitlines()
        lines[2] = line
        (bad / file).write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["generate", str(tmp_path / "next"), "--next-of", str(bad)])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    assert said in result.output
    assert "nothing was written" in result.output
    assert not (tmp_path / "next").exists()


def test_a_next_version_of_a_next_version_adds_no_slug_twice(tmp_path: Path) -> None:
    """With the same seed, the second version added `next-0-method-1` again, a duplicate
    the load refused; it marks its edits and new slugs `next-0-2` instead."""
    next_version(DEFAULT_FIXTURES_DIR, tmp_path / "a")
    next_version(tmp_path / "a", tmp_path / "b")
    next_version(tmp_path / "b", tmp_path / "c")
    for name in FILES:
        if name == "evidence.jsonl":
            continue
        lines = (tmp_path / "c" / name).read_text(encoding="utf-8").splitlines()
        slugs = [json.loads(line)["slug"] for line in lines if line]
        assert len(slugs) == len(set(slugs)), name
    methods = (tmp_path / "c" / "methods.jsonl").read_text(encoding="utf-8")
    assert '"next-0-2-method-0"' in methods
    assert '"next-0-3-method-0"' in methods
    url = f"sqlite:///{tmp_path / 'loaded.db'}"
    for folder in ("a", "b", "c"):
        load_directory(tmp_path / folder, url)
