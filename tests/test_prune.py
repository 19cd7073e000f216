"""`taxonomy prune --keep N` (issue 17): the four releases of test_history, pruned to the
newest three and then two, watched by one server all along. After each prune only the
newest N releases are left; `firstSeen` is the earliest retained release with the slug,
as the reference works it out from the retained releases' folders alone; the changes
between retained releases are as before; a pruned `since` is refused, naming the oldest
retained release; `--keep 0` is refused and a prune with nothing to prune says so."""

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from test_history import _all, _all_changes, _read, load_four_releases
from test_load_concurrency import another_load

from api.commands.cli import main
from api.ingest.load import load_directory
from api.ingest.prune import prune_releases
from api.ingest.turns import LoadBusyError

from conftest import POSTGRES_URL, Api, serve

RECORDS = ("nodes", "methods", "models", "treatments")
PAIRS = ((2, 3), (2, 4), (3, 4))


@dataclass
class Pruning:
    api: Api
    url: str
    folders: list[Path]  # release n is folders[n - 1]
    refused: Result  # --keep 0
    releases_after_refusal: list[int]
    nothing: Result  # --keep 4 of four releases
    outputs: dict[int, Result] = field(default_factory=dict)  # keep -> the prune's output
    # keep -> what the server answered after that prune
    releases: dict[int, list[int]] = field(default_factory=dict)
    first_seen: dict[int, dict[str, dict[str, int]]] = field(default_factory=dict)
    changes: dict[int, dict[tuple[int, int], dict[str, Any]]] = field(default_factory=dict)


def _prune(url: str, keep: int) -> Result:
    return CliRunner().invoke(main, ["prune", "--keep", str(keep), "--db", url])


def _release_numbers(api: Api) -> list[int]:
    data = api.query("{ releases(first: 20) { nodes { number } } }")
    return [release["number"] for release in data["releases"]["nodes"]]


def _wait_for_releases(api: Api, wanted: list[int]) -> list[int]:
    """The releases the server lists once it has seen the prune (it polls the version)."""
    deadline = time.monotonic() + 10
    while (numbers := _release_numbers(api)) != wanted and time.monotonic() < deadline:
        time.sleep(0.2)
    return numbers


def _node_first_seen(api: Api, slugs: list[str]) -> dict[str, int]:
    seen: dict[str, int] = {}
    for start in range(0, len(slugs), 20):  # within the server's limit on aliases
        fields = " ".join(
            f'n{i}: node(slug: "{slug}") {{ slug firstSeen {{ number }} }}'
            for i, slug in enumerate(slugs[start : start + 20])
        )
        data = api.query(f"{{ {fields} }}")
        seen |= {node["slug"]: node["firstSeen"]["number"] for node in data.values()}
    return seen


def _first_seen_now(api: Api, folders: list[Path]) -> dict[str, dict[str, int]]:
    seen = {
        record: {row["slug"]: row["firstSeen"]["number"] for row in _all(api, record)}
        for record in ("methods", "models")
    }
    seen["nodes"] = _node_first_seen(api, [n["slug"] for n in _read(folders[-1], "nodes")])
    return seen


def _changes(api: Api, pairs: tuple[tuple[int, int], ...]) -> dict[tuple[int, int], Any]:
    return {
        (since, until): {record: _all_changes(api, record, since, until) for record in RECORDS}
        for since, until in pairs
    }


@contextmanager
def _pruned(
    backend: str,
    new_database: Callable[[str, str], str],
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Pruning]:
    """The four releases, pruned to the newest three and then two, and the server that
    watched it all."""
    if backend == "postgresql" and POSTGRES_URL is None:
        pytest.skip("needs TEST_DATABASE_URL")
    url = new_database(backend, "prune")
    folders = load_four_releases(tmp_path_factory.mktemp("prune"), url)
    with serve(url) as client:
        api = Api(client, url)
        changes_before = _changes(api, PAIRS)
        _first_seen_now(api, folders)  # answers the server may keep until the prune
        refused = _prune(url, 0)
        pruning = Pruning(api, url, folders, refused, _release_numbers(api), _prune(url, 4))
        pruning.changes[4] = changes_before
        for keep, kept in ((3, [4, 3, 2]), (2, [4, 3])):
            pruning.outputs[keep] = _prune(url, keep)
            pruning.releases[keep] = _wait_for_releases(api, kept)
            pruning.first_seen[keep] = _first_seen_now(api, folders)
            pruning.changes[keep] = _changes(api, tuple(p for p in PAIRS if p[0] >= kept[-1]))
        yield pruning


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def pruning(
    request: pytest.FixtureRequest,
    new_database: Callable[[str, str], str],
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Pruning]:
    """Shared by the tests that only read it: none may change its database."""
    with _pruned(str(request.param), new_database, tmp_path_factory) as pruning:
        yield pruning


def test_keep_zero_is_refused_and_changes_nothing(pruning: Pruning) -> None:
    assert pruning.refused.exit_code != 0
    assert "--keep 0: at least the newest release must be kept" in pruning.refused.output
    assert pruning.releases_after_refusal == [4, 3, 2, 1]


def test_nothing_to_prune_says_so(pruning: Pruning) -> None:
    assert pruning.nothing.exit_code == 0, pruning.nothing.output
    assert pruning.nothing.output.strip() == "nothing to prune: 4 releases (1-4), all kept"


def test_prune_keeps_exactly_the_newest_n(pruning: Pruning) -> None:
    for keep in (3, 2):
        assert pruning.outputs[keep].exit_code == 0, pruning.outputs[keep].output
    assert pruning.outputs[3].output.startswith("removed releases 1 and ")
    assert pruning.outputs[3].output.strip().endswith("; kept 2-4")
    assert pruning.outputs[2].output.startswith("removed releases 2 and ")
    assert pruning.outputs[2].output.strip().endswith("; kept 3-4")
    assert pruning.releases == {3: [4, 3, 2], 2: [4, 3]}
    listed = CliRunner().invoke(main, ["releases", "--db", pruning.url, "--json"])
    assert listed.exit_code == 0, listed.output
    assert len(listed.output.splitlines()) == 2


def _reference_first_seen(folders: list[Path], record: str, slug: str) -> int:
    """The earliest retained release (``folders``: release n is folders[n - 1], the pruned
    ones None) whose folder has ``slug``."""
    return next(
        number
        for number, folder in enumerate(folders, start=1)
        if folder is not None and any(row["slug"] == slug for row in _read(folder, record))
    )


@pytest.mark.parametrize("keep", [3, 2])
def test_first_seen_is_the_earliest_retained_release_with_the_slug(
    pruning: Pruning, keep: int
) -> None:
    oldest = len(pruning.folders) - keep + 1
    retained: list[Any] = [None] * (oldest - 1) + pruning.folders[oldest - 1 :]
    seen = pruning.first_seen[keep]
    for record, by_slug in seen.items():
        assert by_slug
        assert by_slug == {
            slug: _reference_first_seen(retained, record, slug) for slug in by_slug
        }, record
        assert min(by_slug.values()) == oldest
    # Removed in release 2 and back in 3: once release 1 is gone it is first seen in 3,
    # not in the oldest release kept.
    came_back = _read(pruning.folders[0], "models")[-1]["slug"]
    assert seen["models"][came_back] == 3


@pytest.mark.parametrize("record", ["methods", "models"])
def test_first_seen_after_filters_by_the_pruned_first_seen(pruning: Pruning, record: str) -> None:
    seen = pruning.first_seen[2]  # the server's data now: releases 3 and 4
    for after in (2, 3, 4):
        found = _all(pruning.api, record, f", filter: {{firstSeenAfter: {after}}}")
        wanted = {slug for slug, number in seen[record].items() if number > after}
        assert {row["slug"] for row in found} == wanted
    assert _all(pruning.api, record, ", filter: {firstSeenAfter: 3}") == []


def test_changes_between_retained_releases_are_unchanged(pruning: Pruning) -> None:
    before = pruning.changes[4]
    for keep in (3, 2):
        after = pruning.changes[keep]
        assert after
        assert after == {pair: before[pair] for pair in after}
    assert any(rows for rows in before[(3, 4)].values()) is False  # release 4 = release 3
    assert any(rows for rows in before[(2, 4)].values())


def test_a_pruned_since_is_refused_naming_the_oldest_retained(pruning: Pruning) -> None:
    (error,) = pruning.api.errors("{ changes(since: 2) { isEmpty } }")
    assert (
        error["extensions"]["code"] == "NOT_FOUND"
    )  # a release that names nothing now: docs/api-guide.md, "Missing things"
    assert "release 2 was pruned" in error["message"]
    assert "the oldest retained release is 3" in error["message"]
    data = pruning.api.query("{ release(number: 3) { changes { isEmpty } } }")
    assert data == {"release": {"changes": None}}  # nothing retained before it
    shown = CliRunner().invoke(main, ["changes", "--since", "1", "--db", pruning.url])
    assert shown.exit_code == 1
    assert "release 1 was pruned" in shown.output


def test_a_load_after_pruning_counts_on(
    backend: str, new_database: Callable[[str, str], str], tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The release after a prune is numbered on and compared with the one before it. On
    a pruned database of its own: loading into the shared one changed what the tests
    that read it saw, whenever pytest-xdist ran this test before them."""
    with _pruned(backend, new_database, tmp_path_factory) as pruning:
        folders = pruning.folders
        loaded = CliRunner().invoke(
            main, ["load", str(folders[0]), "--db", pruning.url, "--allow-shrink"]
        )
        assert loaded.exit_code == 0, loaded.output
        assert _wait_for_releases(pruning.api, [5, 4, 3]) == [5, 4, 3]
        seen = _first_seen_now(pruning.api, folders[:1])
    retained: list[Any] = [None, None, folders[2], folders[3], folders[0]]
    for record, by_slug in seen.items():
        assert by_slug == {slug: _reference_first_seen(retained, record, slug) for slug in by_slug}


def test_prune_waits_for_a_running_load(
    backend: str, new_database: Callable[[str, str], str], tiny_folder: Path
) -> None:
    """Prune takes the load lock: beside a load it fails at once when told not to wait,
    and, waiting, it prunes only once the load is done."""
    url = new_database(backend, "prune_lock")
    load_directory(tiny_folder, url)
    load_directory(tiny_folder, url)
    waited: list[str] = []
    with another_load(url) as done:
        with pytest.raises(LoadBusyError):
            prune_releases(url, 1, wait=False)
        threading.Timer(0.5, done.set).start()
        pruned = prune_releases(url, 1, say=waited.append)
    assert waited  # it said whom it waited for
    assert (pruned.removed, pruned.kept) == ([1], [2])
