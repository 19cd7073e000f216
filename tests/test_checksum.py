"""`taxonomy.checksum` tells whether two loads had the same data: the same for the same
records whatever the order of the lines and the spelling of their JSON (an export loaded
again keeps it: tests/test_export_and_generate.py), and on both databases; different for
any change of the data."""

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from api.ingest.files import FILES
from api.ingest.load import load_directory
from api.settings import DEFAULT_FIXTURES_DIR

from conftest import DATASETS, Api, serve

Row = dict[str, Any]


def checksum_of(url: str) -> str:
    with serve(url) as client:
        found: str = Api(client, url).query("{ taxonomy { checksum } }")["taxonomy"]["checksum"]
    assert len(found) == 64
    return found


def read(folder: Path) -> dict[str, list[Row]]:
    return {
        name: [json.loads(line) for line in (folder / name).read_text("utf-8").splitlines()]
        for name in FILES
    }


def write(folder: Path, files: dict[str, list[Row]], *, spell: Callable[[Row], str]) -> Path:
    folder.mkdir()
    for name, rows in files.items():
        (folder / name).write_text("".join(spell(row) + "\n" for row in rows), "utf-8")
    return folder


def plain(row: Row) -> str:
    return json.dumps(row, ensure_ascii=False)


@pytest.mark.parametrize("dataset", ["fixtures", "go"])
def test_both_databases_give_the_same_checksum(
    backend: str, dataset: str, api_for: Callable[[str, str], Api]
) -> None:
    sqlite = api_for("sqlite", dataset).database_url
    assert checksum_of(api_for(backend, dataset).database_url) == checksum_of(sqlite)


# Fields that may be left out of a line (DESIGN.md §4), which is then as if null.
OPTIONAL = {"description", "organization", "release_date", "url", "published_on", "aliases"}
OPTIONAL |= {"source", "quote", "locator"}


def _respelt(row: Row) -> str:
    """The same record written otherwise: keys in reverse order, spaced, non-ASCII
    escaped, empty optional fields left out."""
    kept = {
        key: value
        for key, value in reversed(row.items())
        if not (key in OPTIONAL and value in (None, "", []))
    }
    return json.dumps(kept, indent=None, separators=(" ,  ", " :  "), ensure_ascii=True)


def test_line_order_and_json_spelling_leave_the_checksum(
    backend: str,
    api_for: Callable[[str, str], Api],
    new_database: Callable[[str, str], str],
    tmp_path: Path,
) -> None:
    files = {name: rows[::-1] for name, rows in read(DEFAULT_FIXTURES_DIR).items()}
    folder = write(tmp_path / "reordered", files, spell=_respelt)
    url = new_database(backend, "checksum_order")
    load_directory(folder, url)
    assert checksum_of(url) == checksum_of(api_for(backend, "fixtures").database_url)


def _strength(files: dict[str, list[Row]]) -> None:
    evidence = files["evidence.jsonl"][0]
    evidence["strength"] = "mentioned" if evidence["strength"] != "mentioned" else "core"


def _repeat(files: dict[str, list[Row]]) -> None:
    files["evidence.jsonl"].append(dict(files["evidence.jsonl"][0]))


def _repeat_removed(files: dict[str, list[Row]]) -> None:
    """GO's evidence has exact repeats: one of them is data too."""
    rows = files["evidence.jsonl"]
    index = next(i for i, row in enumerate(rows) if rows.count(row) > 1)
    del rows[index]


def _aid(files: dict[str, list[Row]]) -> None:
    files["nodes.jsonl"][0]["matching_aids"].append("one more aid")


def _alias_last(files: dict[str, list[Row]]) -> None:
    files["methods.jsonl"][0]["aliases"].append("another name")


def _alias_first(files: dict[str, list[Row]]) -> None:
    """The same aliases as _alias_last, in another order: the API serves them as listed."""
    files["methods.jsonl"][0]["aliases"].insert(0, "another name")


def _moved(files: dict[str, list[Row]]) -> None:
    method = files["methods.jsonl"][0]
    method["node"] = next(n["slug"] for n in files["nodes.jsonl"] if n["slug"] != method["node"])


def _dated(files: dict[str, list[Row]]) -> None:
    files["models.jsonl"][0]["release_date"] = "1999-12-31"


def _described(files: dict[str, list[Row]]) -> None:
    files["sources.jsonl"][0]["url"] = "https://example.org/another"


CHANGES = [_strength, _repeat, _repeat_removed, _aid, _alias_last, _alias_first, _moved, _dated]
CHANGES += [_described]


def test_every_change_of_the_data_changes_the_checksum(
    backend: str,
    api_for: Callable[[str, str], Api],
    new_database: Callable[[str, str], str],
    tmp_path: Path,
) -> None:
    """Each change alone, loaded into one database in turn: every checksum differs from
    the original's and from each other's."""
    url = new_database(backend, "checksum_changes")
    seen = {checksum_of(api_for(backend, "go").database_url): "the GO dataset"}
    for change in CHANGES:
        files = read(DATASETS["go"])
        change(files)
        load_directory(write(tmp_path / change.__name__, files, spell=plain), url)
        found = checksum_of(url)
        assert found not in seen, f"{change.__name__} gives the checksum of {seen.get(found)}"
        seen[found] = change.__name__
