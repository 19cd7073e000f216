"""History (DESIGN §5): releases, the net changes between any two of them, and when each
record was first seen, checked against tests/reference_history.py, which compares the
dataset folders themselves. Four loads: the fixtures, an edited copy, an edit of that
(some edits of the second undone, one renamed again), and the third once more (a release
that changes nothing); then a load that fails, which must record nothing."""

import json
import shutil
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from sqlalchemy import bindparam, create_engine, make_url, text

from api.commands.cli import main
from api.ingest.dataset import DatasetError
from api.ingest.load import load_directory
from api.settings import DEFAULT_FIXTURES_DIR
from store.engines import make_sync_engine
from store.history import field_values

import reference_history as ref
from conftest import POSTGRES_URL, Api, serve

Rows = list[dict[str, Any]]


def _read(folder: Path, name: str) -> Rows:
    with (folder / f"{name}.jsonl").open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def _write(folder: Path, name: str, rows: Rows) -> None:
    text_ = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
    (folder / f"{name}.jsonl").write_text(text_, encoding="utf-8")


def _by_slug(rows: Rows, slug: str) -> dict[str, Any]:
    return next(row for row in rows if row["slug"] == slug)


def _method_at(methods: Rows, node: str) -> dict[str, Any]:
    return next(method for method in methods if method["node"] == node)


def _second(folder: Path) -> None:
    """Every kind of change against the fixtures."""
    nodes, methods = _read(folder, "nodes"), _read(folder, "methods")
    models, sources = _read(folder, "models"), _read(folder, "sources")
    evidence = _read(folder, "evidence")
    _by_slug(nodes, "distillation")["parent"] = "optimization"  # node moved
    _by_slug(nodes, "serving")["name"] = "model serving"  # node renamed
    _by_slug(nodes, "serving")["matching_aids"].append("continuous batching")  # and changed
    # Nodes changed: a description given, matching aids edited (undone in the third).
    _by_slug(nodes, "tokenization")["description"] = "Splitting text into tokens."
    _by_slug(nodes, "decoding")["matching_aids"] = ["sampling"]
    # Methods changed: a description (changed again in the third), aliases.
    _method_at(methods, "decoding")["description"] = "Described in the second."
    _method_at(methods, "normalization")["aliases"] = ["an alias", "another"]
    nodes.append({"slug": "curation", "name": "curation", "parent": "data", "matching_aids": []})
    # A node removed: its methods filed elsewhere (moved).
    nodes = [node for node in nodes if node["slug"] != "kv-cache-compression"]
    for method in methods:
        if method["node"] == "kv-cache-compression":
            method["node"] = "serving"
    # Methods: two added (one treated), one removed, two moved, one renamed.
    methods += [
        {"slug": "fresh-method", "name": "Fresh Method", "node": "curation"},
        {"slug": "short-lived", "name": "Short-lived", "node": "training-parallelism"},
    ]
    training = [m for m in methods if m["node"] == "training-parallelism"]
    training[0]["node"] = "curation"
    training[0]["description"] = "Moved, and described anew."  # moved and changed
    training[1]["node"] = "optimizers"
    training[2]["name"] = "First Name"
    removed = training[3]["slug"]
    methods = [m for m in methods if m["slug"] != removed]
    evidence = [e for e in evidence if e["method"] != removed]
    # Models: one added (with evidence), one removed (with its sources and evidence), one
    # renamed.
    models[0]["name"] = "Renamed Model"
    models[0]["release_date"] = "2020-01-31"  # and changed
    models[1]["organization"] = "Another Organization"  # changed
    models[2]["release_date"] = None  # changed: undated
    gone = models[-1]["slug"]
    models = [*models[:-1], {"slug": "new-model", "name": "New Model", "release_date": None}]
    sources = [s for s in sources if s["model"] != gone]
    evidence = [e for e in evidence if e["model"] != gone]
    evidence.append({"model": "new-model", "method": "fresh-method", "strength": "used"})
    evidence.append({"model": "new-model", "method": "short-lived", "strength": "core"})
    # Treatments: one pair strengthened to core, one weakened to mentioned.
    pairs = sorted({(e["model"], e["method"]) for e in evidence if e["strength"] == "used"})
    for piece in evidence:
        if (piece["model"], piece["method"]) == pairs[0]:
            piece["strength"] = "core"
        if (piece["model"], piece["method"]) == pairs[1]:
            piece["strength"] = "mentioned"
    # Evidence edited, the pairs' strengths as they were (EDITED_EVIDENCE): a quote given,
    # a locator given, and a piece added at its pair's strength.
    quoted, located, added_to = _edited_pieces(evidence, pairs[:2])
    quoted["quote"] = "We overlap communication."
    located["locator"] = "p. 3"
    evidence.append({**added_to, "quote": "Also here.", "locator": "§2"})
    for name, rows in (("nodes", nodes), ("methods", methods), ("models", models)):
        _write(folder, name, rows)
    _write(folder, "sources", sources)
    _write(folder, "evidence", evidence)


def _edited_pieces(evidence: Rows, taken: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """The pieces whose evidence the second edits (the first of three pairs of one piece
    each, whose strengths no other edit touches); the third finds them again."""
    count: dict[tuple[str, str], int] = {}
    for piece in evidence:
        pair = (piece["model"], piece["method"])
        count[pair] = count.get(pair, 0) + 1
    alone = [p for p in evidence if count[(p["model"], p["method"])] == 1]
    return [p for p in alone if (p["model"], p["method"]) not in taken][:3]


def _third(folder: Path, first: Path) -> None:
    """Some of the second's edits undone, one method renamed again."""
    methods, evidence = _read(folder, "methods"), _read(folder, "evidence")
    # Added in the second, removed here: no change from the first to the third.
    methods = [m for m in methods if m["slug"] != "short-lived"]
    evidence = [e for e in evidence if e["method"] != "short-lived"]
    _by_slug(methods, _read(first, "methods")[2]["slug"])["name"] = "Second Name"
    _method_at(methods, "decoding")["description"] = "Described in the third."
    # The second's edit of a node's matching aids undone.
    nodes = _read(folder, "nodes")
    _by_slug(nodes, "decoding")["matching_aids"] = _by_slug(_read(first, "nodes"), "decoding")[
        "matching_aids"
    ]
    _write(folder, "nodes", nodes)
    # Moved in the second, moved back here.
    original = {m["slug"]: m["node"] for m in _read(first, "methods")}
    for method in methods:
        if method["node"] == "optimizers" and original.get(method["slug"]) != "optimizers":
            method["node"] = original[method["slug"]]
    # The model removed in the second comes back, with its sources and evidence.
    gone = _read(first, "models")[-1]
    models = [*_read(folder, "models"), gone]
    models[3]["organization"] = "Third Organization"  # a model changed
    sources = _read(folder, "sources") + [
        s for s in _read(first, "sources") if s["model"] == gone["slug"]
    ]
    evidence += [e for e in _read(first, "evidence") if e["model"] == gone["slug"]]
    # The second's quote edited again, its locator undone (no change from the first).
    for piece in evidence:
        if piece.get("quote") == "We overlap communication.":
            piece["quote"] = "We overlap communication with computation."
        if piece.get("locator") == "p. 3":
            piece["locator"] = None
    _write(folder, "methods", methods)
    _write(folder, "models", models)
    _write(folder, "sources", sources)
    _write(folder, "evidence", evidence)


@dataclass(frozen=True)
class History:
    api: Api
    url: str
    folders: list[Path]  # release n is folders[n - 1]


def load_four_releases(root: Path, url: str) -> list[Path]:
    """Load the four releases into ``url``; the folders they came from (release n is the
    n-th), made under ``root``."""
    first, second, third = root / "first", root / "second", root / "third"
    shutil.copytree(DEFAULT_FIXTURES_DIR, first)
    shutil.copytree(first, second)
    _second(second)
    shutil.copytree(second, third)
    _third(third, first)
    folders = [first, second, third, third]
    for number, folder in enumerate(folders, start=1):
        load_directory(folder, url, note=f"load {number}")
    return folders


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def history(
    request: pytest.FixtureRequest,
    new_database: Callable[[str, str], str],
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[History]:
    if request.param == "postgresql" and POSTGRES_URL is None:
        pytest.skip("needs TEST_DATABASE_URL")
    root = tmp_path_factory.mktemp("history")
    url = new_database(request.param, "history")
    folders = load_four_releases(root, url)
    broken = root / "broken"
    shutil.copytree(folders[1], broken)
    (broken / "methods.jsonl").write_text('{"slug": "x"}\n', encoding="utf-8")
    with pytest.raises(DatasetError):
        load_directory(broken, url)
    with serve(url, statement_header=True) as client:
        yield History(Api(client, url), url, folders)


_NAMED = "kind slug name fromPath toPath fromName toName"
_FIELDS = {
    "nodes": _NAMED,
    "methods": _NAMED,
    "models": "kind slug name fromName toName",
    "treatments": "kind modelSlug methodSlug fromStrength toStrength",
}
_FIELD_CHANGES = "fieldChanges { field fromValue toValue fromItems toItems }"
# What a test asks of each change: its fields, and a record's field changes.
_SELECTED = {record: f"{fields} {_FIELD_CHANGES}" for record, fields in _FIELDS.items()}


def _all_changes(api: Api, record: str, since: int, until: int, arguments: str = "") -> Rows:
    """Every change of ``record`` (nodes...), page after page (7 at a time)."""
    rows: Rows = []
    after = None
    while True:
        data = api.query(
            f"""query ($since: Int!, $until: Int, $after: String) {{
              changes(since: $since, until: $until) {{
                {record}(first: 7, after: $after{arguments}) {{
                  totalCount nodes {{ {_SELECTED[record]} }} pageInfo {{ hasNextPage endCursor }}
                }} }} }}""",
            {"since": since, "until": until, "after": after},
        )["changes"][record]
        rows += data["nodes"]
        if not data["pageInfo"]["hasNextPage"]:
            assert data["totalCount"] == len(rows)
            return rows
        after = data["pageInfo"]["endCursor"]


def _expected(history: History, since: int, until: int) -> dict[str, set[tuple[Any, ...]]]:
    return expected_changes(history.folders[since - 1], history.folders[until - 1])


def expected_changes(earlier: Path, later: Path) -> dict[str, set[tuple[Any, ...]]]:
    """The reference's net changes between two dataset folders, by kind of record."""
    before, after = ref.Snapshot(earlier), ref.Snapshot(later)
    return {
        "nodes": ref.node_changes(before, after),
        "methods": ref.method_changes(before, after),
        "models": ref.model_changes(before, after),
        "treatments": ref.treatment_changes(before, after),
    }


def _field_changes(row: dict[str, Any]) -> tuple[ref.FieldChange, ...]:
    """A change's `fieldChanges` in the reference's terms."""

    def items(found: list[str] | None) -> tuple[str, ...] | None:
        return None if found is None else tuple(found)

    return tuple(
        (c["field"], c["fromValue"], c["toValue"], items(c["fromItems"]), items(c["toItems"]))
        for c in row["fieldChanges"]
    )


def _as_tuples(rows: Rows, record: str) -> set[tuple[Any, ...]]:
    fields = _FIELDS[record].split()
    return {(*(row[field] for field in fields), _field_changes(row)) for row in rows}


@pytest.mark.parametrize(("since", "until"), [(1, 2), (2, 3), (1, 3), (3, 4), (1, 4), (2, 2)])
def test_changes_are_the_net_difference_of_the_two_releases_data(
    history: History, since: int, until: int
) -> None:
    expected = _expected(history, since, until)
    for record, wanted in expected.items():
        rows = _all_changes(history.api, record, since, until)
        assert _as_tuples(rows, record) == wanted, record
        assert len(rows) == len(wanted)  # no change twice
    summary = history.api.query(
        """query ($since: Int!, $until: Int) { changes(since: $since, until: $until) {
            isEmpty from { number } to { number }
            summary { total nodes { total moved } methods { total renamed } models { renamed }
                      treatments { strengthened weakened } } } }""",
        {"since": since, "until": until},
    )["changes"]
    total = sum(len(wanted) for wanted in expected.values())
    assert summary["summary"]["total"] == total
    assert summary["isEmpty"] is (total == 0)
    assert (summary["from"]["number"], summary["to"]["number"]) == (since, until)
    methods = expected["methods"]
    assert summary["summary"]["methods"]["renamed"] == sum(c[0] == "RENAMED" for c in methods)
    models = expected["models"]
    assert summary["summary"]["models"]["renamed"] == sum(c[0] == "RENAMED" for c in models)


def test_changes_between_moments_are_those_between_the_releases_then_served(
    history: History,
) -> None:
    """`changes(from:, to:)` names each release by a moment it was served at: the newest
    loaded at or before it (a zone-less moment is UTC)."""
    releases = history.api.query("{ releases(first: 10) { nodes { number loadedAt } } }")
    loaded = {r["number"]: r["loadedAt"] for r in releases["releases"]["nodes"]}
    summary = "{ from { number } to { number } summary { total } }"

    def compared(arguments: str) -> tuple[int, int, int]:
        data = history.api.query(f"{{ changes({arguments}) {summary} }}")["changes"]
        return data["from"]["number"], data["to"]["number"], data["summary"]["total"]

    for since, until in ((1, 2), (1, 4), (2, 3)):
        by_number = compared(f"since: {since}, until: {until}")
        # At the very moment of a load, and a moment later: the same release.
        assert compared(f'from: "{loaded[since]}", to: "{loaded[until]}"') == by_number
        zoneless = loaded[until].removesuffix("+00:00")
        assert compared(f'since: {since}, to: "{zoneless}"') == by_number
    assert compared(f'from: "{loaded[2]}"')[:2] == (2, 4)  # `to` left out: the newest

    def refused(arguments: str) -> dict[str, Any]:
        given = f"({arguments})" if arguments else ""
        (error,) = history.api.errors(f"{{ changes{given} {{ isEmpty }} }}")
        return error

    before_any = refused('from: "2000-01-01T00:00:00+00:00"')
    assert before_any["extensions"]["code"] == "NOT_FOUND"
    assert "no release was served at 2000-01-01" in before_any["message"]
    both = (f'since: 1, from: "{loaded[1]}"', f'since: 1, until: 2, to: "{loaded[2]}"')
    for arguments in (*both, ""):
        assert refused(arguments)["extensions"]["code"] == "BAD_USER_INPUT", arguments


def test_the_old_names_of_renamed_fields_answer_the_same(history: History) -> None:
    """`TreatmentChange.before`/`after` and `Source.title` are deprecated for
    `fromStrength`/`toStrength` and `name` (issue 26 item 8): until they go, each answers
    what its new name does."""
    rows = _all_changes(history.api, "treatments", 1, 4)
    old = history.api.query(
        "{ changes(since: 1, until: 4) { treatments(first: 100) { nodes {"
        " modelSlug methodSlug before after } } } }"
    )["changes"]["treatments"]["nodes"]
    assert rows
    assert len(old) == len(rows)
    assert [(r["modelSlug"], r["methodSlug"], r["before"], r["after"]) for r in old] == [
        (r["modelSlug"], r["methodSlug"], r["fromStrength"], r["toStrength"]) for r in rows
    ]
    sources = history.api.query('{ model(slug: "kimi-k3") { sources { title name } } }')
    listed = sources["model"]["sources"]
    assert listed
    assert all(source["title"] == source["name"] for source in listed)


def test_the_edits_are_all_there_and_undone_ones_are_not(history: History) -> None:
    """The reference itself sees what the edits meant to make (so the comparisons above
    compare something): every kind from the first to the second, and from the first to
    the third, no trace of what was added then removed, moved and moved back, removed
    and added back; one rename from the first name to the last."""
    second = _expected(history, 1, 2)
    kinds = {record: {change[0] for change in rows} for record, rows in second.items()}
    assert kinds["nodes"] == {"ADDED", "REMOVED", "MOVED", "RENAMED", "CHANGED"}
    assert kinds["methods"] == {"ADDED", "REMOVED", "MOVED", "RENAMED", "CHANGED"}
    assert kinds["models"] == {"ADDED", "REMOVED", "RENAMED", "CHANGED"}
    # A record moved or renamed, and changed, carries its field changes.
    for record, kind in (("nodes", "RENAMED"), ("methods", "MOVED"), ("models", "RENAMED")):
        assert any(c[0] == kind and c[-1] for c in second[record]), record
    assert kinds["treatments"] == {"ADDED", "REMOVED", "STRENGTHENED", "WEAKENED", "CHANGED"}
    net = _expected(history, 1, 3)
    slugs = {change[1] for change in net["methods"]}
    assert "short-lived" not in slugs
    assert not {change for change in net["models"] if change[0] == "REMOVED"}
    renamed = [c for c in net["methods"] if c[0] == "RENAMED"]
    names = {(c[5], c[6]) for c in renamed}
    first_name = _read(history.folders[0], "methods")[2]["name"]
    assert (first_name, "Second Name") in names
    api_renamed = _all_changes(history.api, "methods", 1, 3, ", kinds: [RENAMED]")
    assert {(row["fromName"], row["toName"]) for row in api_renamed} == names
    # Matching aids edited and edited back: no change; a description changed twice: one
    # change from the first to the last.
    assert "decoding" in {c[1] for c in second["nodes"]}
    assert "decoding" not in {c[1] for c in net["nodes"]}
    twice = _method_at(_read(history.folders[0], "methods"), "decoding")
    (changed,) = [c for c in net["methods"] if c[1] == twice["slug"]]
    assert changed[0] == "CHANGED"
    wanted = (("description", twice["description"], "Described in the third.", None, None),)
    assert changed[-1] == wanted


def test_changed_fields_by_kind_and_in_the_counts(history: History) -> None:
    """`kinds: [CHANGED]` lists the records changed in another field alone (not those
    moved or renamed too), and `summary` counts them as `changed`."""
    for since, until in ((1, 2), (2, 3), (1, 3)):
        expected = _expected(history, since, until)
        counts = history.api.query(
            """query ($since: Int!, $until: Int) { changes(since: $since, until: $until) {
                summary { nodes { changed } methods { changed } models { changed }
                          treatments { changed } } } }""",
            {"since": since, "until": until},
        )["changes"]["summary"]
        for record in ("nodes", "methods", "models", "treatments"):
            wanted = {c for c in expected[record] if c[0] == "CHANGED"}
            assert wanted, (record, since, until)
            assert counts[record]["changed"] == len(wanted)
            found = _all_changes(history.api, record, since, until, ", kinds: [CHANGED]")
            assert _as_tuples(found, record) == wanted


@pytest.mark.parametrize("branch", ["optimization", "data", "post-training", "serving"])
def test_changes_of_a_branch(history: History, branch: str) -> None:
    before, after = ref.Snapshot(history.folders[0]), ref.Snapshot(history.folders[2])
    argument = f', branch: {{slug: "{branch}"}}'
    methods = _all_changes(history.api, "methods", 1, 3, argument)
    wanted = {
        change
        for change in ref.method_changes(before, after)
        if ref.method_in_branch(before, after, change[1], branch)
    }
    assert _as_tuples(methods, "methods") == wanted
    treatments = _all_changes(history.api, "treatments", 1, 3, argument)
    wanted_pairs = {
        change
        for change in ref.treatment_changes(before, after)
        if ref.method_in_branch(before, after, change[2], branch)
    }
    assert _as_tuples(treatments, "treatments") == wanted_pairs
    nodes = _all_changes(history.api, "nodes", 1, 3, argument)
    wanted_nodes = {
        change
        for change in ref.node_changes(before, after)
        if any(
            change[1] in snapshot.nodes and snapshot.in_branch(change[1], branch)
            for snapshot in (before, after)
        )
    }
    assert _as_tuples(nodes, "nodes") == wanted_nodes


def test_changes_by_kind(history: History) -> None:
    moved = _all_changes(history.api, "methods", 1, 2, ", kinds: [MOVED, ADDED]")
    wanted = {c for c in _expected(history, 1, 2)["methods"] if c[0] in {"MOVED", "ADDED"}}
    assert wanted
    assert _as_tuples(moved, "methods") == wanted


def _first_seen(history: History, record: str, slug: str) -> int:
    """The reference's first release with ``slug``: the earliest retained one that has it."""
    return next(
        number
        for number, folder in enumerate(history.folders, start=1)
        if any(row["slug"] == slug for row in _read(folder, record))
    )


def _all(api: Api, field: str, filter_: str = "") -> Rows:
    rows: Rows = []
    after = None
    while True:
        data = api.query(
            f"""query ($after: String) {{ {field}(first: 100, after: $after{filter_}) {{
                nodes {{ slug firstSeen {{ number version }} }}
                pageInfo {{ hasNextPage endCursor }} }} }}""",
            {"after": after},
        )[field]
        rows += data["nodes"]
        if not data["pageInfo"]["hasNextPage"]:
            return rows
        after = data["pageInfo"]["endCursor"]


@pytest.mark.parametrize("record", ["methods", "models"])
def test_first_seen_and_first_seen_after(history: History, record: str) -> None:
    rows = _all(history.api, record)
    seen = {row["slug"]: row["firstSeen"]["number"] for row in rows}
    assert seen == {slug: _first_seen(history, record, slug) for slug in seen}
    assert set(seen.values()) == {1, 2}  # something is new in the second release
    for after in (0, 1, 2, 3):
        found = _all(history.api, record, f", filter: {{firstSeenAfter: {after}}}")
        assert {row["slug"] for row in found} == {s for s, n in seen.items() if n > after}
    # A model removed in the second release and back in the third existed in the first.
    came_back = _read(history.folders[0], "models")[-1]["slug"]
    if record == "models":
        assert seen[came_back] == 1


def test_first_seen_of_nodes(history: History) -> None:
    data = history.api.query(
        """{ a: node(slug: "curation") { firstSeen { number } }
             b: node(slug: "optimization") { firstSeen { number note } }
             roots { slug firstSeen { number } } }"""
    )
    assert data["a"]["firstSeen"]["number"] == _first_seen(history, "nodes", "curation") == 2
    assert data["b"]["firstSeen"] == {"number": 1, "note": "load 1"}
    assert {root["firstSeen"]["number"] for root in data["roots"]} == {1}


def test_releases_newest_first_and_a_failed_load_recorded_nothing(history: History) -> None:
    data = history.api.query(
        """{ releases(first: 10) { totalCount nodes { id number version note checksum
               totals { nodes methods models sources evidence }
               changes { isEmpty summary { total } } } }
             taxonomy { dataVersion checksum } }"""
    )
    releases = data["releases"]["nodes"]
    assert data["releases"]["totalCount"] == 4  # the failed load made none
    assert [r["number"] for r in releases] == [4, 3, 2, 1]
    assert [r["note"] for r in releases] == ["load 4", "load 3", "load 2", "load 1"]
    assert releases[0]["version"] == data["taxonomy"]["dataVersion"]
    assert len({r["version"] for r in releases}) == 4
    assert releases[0]["checksum"] == releases[1]["checksum"] == data["taxonomy"]["checksum"]
    for release in releases:
        folder = history.folders[release["number"] - 1]
        assert release["totals"] == {
            name: len(_read(folder, name)) for name in ("nodes", "methods", "models", "sources")
        } | {"evidence": len(_read(folder, "evidence"))}
    # The first has no release before it; the fourth loaded the third's data again.
    assert releases[3]["changes"] is None
    assert releases[0]["changes"] == {"isEmpty": True, "summary": {"total": 0}}
    assert releases[1]["changes"]["isEmpty"] is False
    engine = make_sync_engine(history.url)
    try:
        with engine.connect() as connection:
            newest = connection.execute(text("SELECT MAX(release) FROM treatment_change"))
            assert newest.scalar() == 3
    finally:
        engine.dispose()
    one = history.api.query(
        "query ($id: ID!) { entity(id: $id) { ... on Release { number } } }",
        {"id": releases[2]["id"]},
    )
    assert one == {"entity": {"number": 2}}
    by_version = history.api.query(
        "query ($v: String!) { release(version: $v) { number } }", {"v": releases[1]["version"]}
    )
    assert by_version == {"release": {"number": 3}}


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ("since: 9", "there is no release 9; the retained releases are 1 to 4"),
        ("since: 0", "there is no release 0"),
        ("since: 3, until: 2", "`since` (3) is after `until` (2)"),
    ],
)
def test_wrong_release_numbers_are_explained(
    history: History, arguments: str, message: str
) -> None:
    errors = history.api.errors(f"{{ changes({arguments}) {{ isEmpty }} }}")
    assert message in errors[0]["message"]


def test_the_cli_prints_what_the_api_answers(history: History) -> None:
    runner = CliRunner()
    listed = runner.invoke(main, ["releases", "--db", history.url, "--json"])
    assert listed.exit_code == 0, listed.output
    assert [json.loads(line)["number"] for line in listed.output.splitlines()] == [4, 3, 2, 1]
    shown = runner.invoke(
        main, ["changes", "--since", "1", "--until", "3", "--db", history.url, "--json"]
    )
    assert shown.exit_code == 0, shown.output
    head, *rows = [json.loads(line) for line in shown.output.splitlines()]
    expected = _expected(history, 1, 3)
    assert head == {
        "record": "summary",
        "from": 1,
        "to": 3,
        "isEmpty": False,
        "total": sum(len(v) for v in expected.values()),
    }
    for record, wanted in expected.items():
        mine = [row for row in rows if row["record"] == record[:-1]]
        assert _as_tuples(mine, record) == wanted
    lines = runner.invoke(
        main, ["changes", "--since", "1", "--until", "3", "--db", history.url]
    ).output.splitlines()
    described = _method_at(_read(history.folders[0], "methods"), "decoding")
    assert (
        f"  method    CHANGED      {described['slug']} ({described['name']}): "
        "description: - -> 'Described in the third.'"
    ) in lines
    serving = "  node      RENAMED      serving (model serving): 'serving' -> 'model serving'; "
    (renamed,) = [line for line in lines if line.startswith(serving)]
    aids = (
        'matchingAids: ["deployment", "batching"] -> '
        '["deployment", "batching", "continuous batching"]'
    )
    assert renamed == serving + aids
    text_ = runner.invoke(main, ["changes", "--since", "3", "--db", history.url])
    assert text_.output.strip() == "nothing changed from release 3 to release 4"
    wrong = runner.invoke(main, ["changes", "--since", "7", "--db", history.url])
    assert wrong.exit_code == 1
    assert "there is no release 7" in wrong.output


def test_changes_kept_for_later_pages_follow_a_new_load(
    backend: str, new_database: Callable[[str, str], str], tiny_folder: Path, tmp_path: Path
) -> None:
    """A comparison is kept for the next pages by the newest release's version: a load
    after it is seen at once (by the schema itself, under any response cache)."""
    url = new_database(backend, "kept")
    load_directory(tiny_folder, url)
    load_directory(tiny_folder, url)
    document = "{ changes(since: 1) { to { number } isEmpty summary { total } } }"
    with serve(url) as client:
        api = Api(client, url)
        first = api.execute(document)
        assert first.data == {
            "changes": {"to": {"number": 2}, "isEmpty": True, "summary": {"total": 0}}
        }
        edited = shutil.copytree(tiny_folder, tmp_path / "edited")
        methods = _read(edited, "methods")
        methods[0]["name"] = "Another Name"
        _write(edited, "methods", methods)
        load_directory(edited, url)
        again = api.execute(document)
        assert again.data == {
            "changes": {"to": {"number": 3}, "isEmpty": False, "summary": {"total": 1}}
        }


def _all_changes_backward(api: Api, record: str, since: int, until: int) -> Rows:
    """Every change of ``record``, from the last page to the first (5 at a time)."""
    rows: Rows = []
    before = None
    while True:
        data = api.query(
            f"""query ($since: Int!, $until: Int, $before: String) {{
              changes(since: $since, until: $until) {{
                {record}(last: 5, before: $before) {{
                  totalCount nodes {{ {_SELECTED[record]} }}
                  pageInfo {{ hasPreviousPage hasNextPage startCursor }}
                }} }} }}""",
            {"since": since, "until": until, "before": before},
        )["changes"][record]
        assert data["pageInfo"]["hasNextPage"] == (before is not None)
        rows = data["nodes"] + rows
        if not data["pageInfo"]["hasPreviousPage"]:
            assert data["totalCount"] == len(rows)
            return rows
        before = data["pageInfo"]["startCursor"]


@pytest.mark.parametrize("record", list(_FIELDS))
def test_changes_page_backward_as_forward(history: History, record: str) -> None:
    """last/before over the changes (an in-memory list: store.list_page) give the same
    rows, in the same order, as first/after."""
    forward = _all_changes(history.api, record, 1, 3)
    assert forward, record  # the edits touch every kind
    assert _all_changes_backward(history.api, record, 1, 3) == forward


# Slugs that a PostgreSQL database's collation orders otherwise than their bytes (ICU's
# en-US puts '_' before '-' and '.', and all three before digits; bytes put '_' after).
_COLLATION_SLUGS = ["a_b", "a-b", "a.b", "a0", "ab", "a-c", "a_0"]


@pytest.mark.skipif(POSTGRES_URL is None, reason="PostgreSQL only (TEST_DATABASE_URL)")
def test_changes_page_in_byte_order_whatever_the_database_collation(
    tiny_folder: Path, tmp_path: Path
) -> None:
    """Change lists are paged by slug in byte order (as on SQLite and in Python), also in
    a PostgreSQL database whose own collation (ICU en-US) orders the slugs otherwise."""
    assert POSTGRES_URL is not None
    admin = create_engine(
        make_url(POSTGRES_URL).set(drivername="postgresql+psycopg"), isolation_level="AUTOCOMMIT"
    )
    database = f"taxonomy_test_{uuid.uuid4().hex[:10]}_icu"
    with admin.connect() as connection:
        connection.execute(
            text(
                f'CREATE DATABASE "{database}" TEMPLATE template0 LOCALE_PROVIDER icu '
                "ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'"
            )
        )
    try:
        url = make_url(POSTGRES_URL).set(database=database).render_as_string(False)
        edited = shutil.copytree(tiny_folder, tmp_path / "edited")
        methods = _read(edited, "methods")
        node = methods[0]["node"]
        methods += [{"slug": s, "name": f"Method {s}", "node": node} for s in _COLLATION_SLUGS]
        _write(edited, "methods", methods)
        load_directory(tiny_folder, url)
        load_directory(edited, url)
        with make_sync_engine(url).connect() as connection:
            by_database = connection.execute(
                text("SELECT slug FROM method WHERE slug IN :slugs ORDER BY slug").bindparams(
                    bindparam("slugs", expanding=True)
                ),
                {"slugs": _COLLATION_SLUGS},
            ).scalars()
            assert list(by_database) != sorted(_COLLATION_SLUGS)  # the collation differs
        with serve(url) as client:
            rows = _all_changes(Api(client, url), "methods", 1, 2)
        assert [row["slug"] for row in rows] == sorted(_COLLATION_SLUGS)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)'))
        admin.dispose()


def test_a_field_a_change_row_does_not_keep_is_unknown_not_changed() -> None:
    """A model's `sources` are compared since issue 26's last item: a change row written
    before keeps no `sources`, and a net change from it reports the fields both rows keep
    (here the organization), never the documents as changed from nothing."""
    before = json.dumps({"organization": "A", "releaseDate": None})
    after = json.dumps({"organization": "B", "releaseDate": None, "sources": ["R (paper)"]})
    changes = field_values.field_changes("model", before, after)
    assert [change.field for change in changes] == ["organization"]
    both = json.dumps({"organization": "B", "releaseDate": None, "sources": []})
    changes = field_values.field_changes("model", both, after)
    assert [(c.field, c.before, c.after) for c in changes] == [("sources", [], ["R (paper)"])]


def test_a_pair_removed_and_added_back_changed_only_if_its_evidence_did(
    backend: str, new_database: Callable[[str, str], str], tiny_folder: Path, tmp_path: Path
) -> None:
    """A pair removed by one load and added back by a later one keeps no evidence texts in
    either change row; over a range holding both, it is CHANGED when its evidence came back
    otherwise (compared by the digests its rows keep: migration 0017; its texts are
    unknown, so no field changes), and no change when it came back the same. Releases: the
    tiny dataset; the pair (tie-b, m-charlie) removed; added back with a quote; removed;
    added back as at first."""
    url = new_database(backend, "readded")
    pair = ("tie-b", "m-charlie")
    evidence = _read(tiny_folder, "evidence")
    without = [p for p in evidence if (p["model"], p["method"]) != pair]
    quoted = [
        {**p, "quote": "Quoted again."} if (p["model"], p["method"]) == pair else p
        for p in evidence
    ]
    for number, pieces in enumerate([evidence, without, quoted, without, evidence], start=1):
        folder = shutil.copytree(tiny_folder, tmp_path / str(number))
        _write(folder, "evidence", pieces)
        load_directory(folder, url)
    document = """query ($since: Int!, $until: Int!) { changes(since: $since, until: $until) {
        treatments(first: 100) { nodes { kind modelSlug methodSlug fromStrength toStrength
            fieldChanges { field } } } } }"""
    with serve(url) as client:
        api = Api(client, url)

        def changes(since: int, until: int) -> list[Any]:
            found = api.query(document, {"since": since, "until": until})
            rows: list[Any] = found["changes"]["treatments"]["nodes"]
            return rows

        def of_pair(since: int, until: int) -> list[tuple[str, str | None, str | None]]:
            return [
                (row["kind"], row["fromStrength"], row["toStrength"])
                for row in changes(since, until)
                if (row["modelSlug"], row["methodSlug"]) == pair
            ]

        assert of_pair(1, 2) == [("REMOVED", "USED", None)]
        assert of_pair(2, 3) == [("ADDED", None, "USED")]
        assert of_pair(1, 3) == [("CHANGED", "USED", "USED")]
        assert of_pair(3, 5) == [("CHANGED", "USED", "USED")]
        assert of_pair(1, 5) == []
        assert of_pair(2, 4) == []
        # Its texts were not kept at either end: no field is named.
        (changed,) = [row for row in changes(1, 3) if row["kind"] == "CHANGED"]
        assert changed["fieldChanges"] == []
        # The independent reference, from the datasets themselves, agrees on what changed.
        for since, until in ((1, 3), (3, 5), (1, 5), (2, 4)):
            expected = expected_changes(tmp_path / str(since), tmp_path / str(until))
            assert {
                (row["kind"], row["modelSlug"], row["methodSlug"]) for row in changes(since, until)
            } == {(kind, model, method) for kind, model, method, *_ in expected["treatments"]}


def test_evidence_edits_are_treatment_changes(history: History) -> None:
    """A quote edited, a locator edited and a piece added at its pair's strength each make
    their pair CHANGED, with its `evidence` before and after (one item per piece: its
    strength, quote, locator and source); a locator edited and undone is no net change,
    and the load that changes nothing (the fourth) reports none."""
    edited = _read(history.folders[1], "evidence")

    def found(field: str, value: str) -> tuple[str, str, str, str]:
        piece = next(p for p in edited if p.get(field) == value)
        return piece["model"], piece["method"], piece["strength"], piece["source"]

    quoted, located = found("quote", "We overlap communication."), found("locator", "p. 3")
    added_to = found("quote", "Also here.")

    def evidence_changes(since: int, until: int) -> dict[tuple[str, str], Any]:
        rows = _all_changes(history.api, "treatments", since, until, ", kinds: [CHANGED]")
        return {
            (r["modelSlug"], r["methodSlug"]): [
                (c["field"], c["fromItems"], sorted(c["toItems"])) for c in r["fieldChanges"]
            ]
            for r in rows
        }

    def item(piece: tuple[str, str, str, str], more: str = "", quote: str = "") -> str:
        said = f'{piece[2]}: "{quote}"' if quote else piece[2]
        return f"{said} ({more}{piece[3]})"

    assert evidence_changes(1, 2) == {
        quoted[:2]: [
            ("evidence", [item(quoted)], [item(quoted, quote="We overlap communication.")])
        ],
        located[:2]: [("evidence", [item(located)], [item(located, "p. 3; ")])],
        added_to[:2]: [
            (
                "evidence",
                [item(added_to)],
                sorted([item(added_to), item(added_to, "§2; ", "Also here.")]),
            )
        ],
    }
    net = evidence_changes(1, 3)
    assert set(net) == {quoted[:2], added_to[:2]}
    last = item(quoted, quote="We overlap communication with computation.")
    assert net[quoted[:2]] == [("evidence", [item(quoted)], [last])]
    assert evidence_changes(3, 4) == {}
