"""`taxonomy load DIR --db URL`: a dataset folder (DESIGN.md §4) loads all or nothing.

* Every kind of bad input is reported as ``file:line: what is wrong``. Each case writes the
  small hand-made dataset SMALL below, breaks one line of it and compares the complete list
  of problems. Nothing refers to the lines that the cases break (nodes 5 and 6, model 3,
  source 3, method 4, any evidence line), so one broken line makes exactly one problem.
* Through the CLI, on every backend, a bad load exits non-zero, prints its problems and
  leaves every table exactly as it was, even when the bad line is near the end of a large
  file or only the database can tell that it is bad.
* Loading the same files again keeps every ID; another dataset replaces the old one
  entirely.
"""

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from click.testing import CliRunner, Result
from sqlalchemy import inspect, text

from api.commands.cli import main
from api.ingest.dataset import DatasetError, read_dataset
from api.ingest.files import FILES
from api.ingest.load import load_directory
from store import search_index
from store.engines import make_sync_engine

from conftest import DATASETS, POSTGRES_URL, Api, release_of, serve

Row = dict[str, Any]
NewDatabase = Callable[[str, str], str]

GO = DATASETS["go"]  # a small real dataset: duplicate evidence lines, parents after children

SMALL: dict[str, list[Row]] = {
    "nodes.jsonl": [
        {"slug": "child", "name": "Child", "parent": "root", "matching_aids": ["kid"]},
        {"slug": "root", "name": "Root", "parent": None, "matching_aids": []},
        {"slug": "leaf", "name": "Leaf", "parent": "child", "matching_aids": []},
        {"slug": "other", "name": "Other", "parent": None, "matching_aids": [], "description": "B"},
        {"slug": "spare", "name": "Spare", "parent": "other", "matching_aids": []},
        {"slug": "twig", "name": "Twig", "parent": "spare", "matching_aids": []},
    ],
    "models.jsonl": [
        {"slug": "m1", "name": "Model One", "organization": "Lab", "release_date": "2024-01-01"},
        {"slug": "m2", "name": "Model Two", "release_date": None},
        {"slug": "m3", "name": "Unused"},
    ],
    "sources.jsonl": [
        {"slug": "m1-paper", "model": "m1", "title": "Paper", "kind": "paper"},
        {"slug": "m2-card", "model": "m2", "title": "Card", "kind": "model_card"},
        {"slug": "m1-blog", "model": "m1", "title": "Blog", "kind": "blog_post"},
    ],
    "methods.jsonl": [
        {"slug": "alpha", "name": "Alpha", "node": "leaf", "aliases": ["a"]},
        {"slug": "beta", "name": "Beta", "node": "child"},
        {"slug": "gamma", "name": "Gamma", "node": "other"},
        {"slug": "lonely", "name": "Lonely", "node": "root"},
    ],
    "evidence.jsonl": [
        # Lines 1 and 2 are the same line, as real data has.
        {"model": "m1", "method": "alpha", "strength": "core", "source": "m1-paper", "quote": "q"},
        {"model": "m1", "method": "alpha", "strength": "core", "source": "m1-paper", "quote": "q"},
        {"model": "m2", "method": "beta", "strength": "used", "source": "m2-card"},
        {"model": "m2", "method": "gamma", "strength": "mentioned"},
    ],
}
SMALL_COUNTS = {"nodeCount": 6, "modelCount": 3, "sourceCount": 3, "methodCount": 4}
SMALL_COUNTS |= {"evidenceCount": 4}
DROP = object()  # as a value in an edit: remove the field
STRENGTH_PROBLEM = "field 'strength' must be one of core, used, mentioned, got \"strong\""
SLUG_IS = (
    "a slug is lowercase letters a-z, digits, '-', '_' and '.', starting with a letter or digit"
)
STOPPED = "(stopped): more than 50 problems; fix these and run again"
NOT_A_FOLDER = ": does not exist; give a folder holding " + ", ".join(FILES)

TAXONOMY = """
{ taxonomy { dataVersion checksum nodeCount modelCount sourceCount methodCount evidenceCount } }
"""
NODES = "{ roots { id slug descendants { id slug } } }"
METHODS_PAGE = """
query Methods($after: String) {
  methods(first: 100, after: $after) {
    pageInfo { hasNextPage endCursor }
    nodes { id slug node { id } }
  }
}
"""
MODELS_PAGE = """
query Models($after: String) {
  models(first: 100, after: $after) {
    pageInfo { hasNextPage endCursor }
    nodes {
      id slug
      sources { id slug }
      evidence(first: 100) {
        totalCount
        nodes { id method { slug } strength quote locator }
      }
    }
  }
}
"""
OLD_SLUGS = """
query Old($node: String!, $method: String!, $model: String!) {
  node(slug: $node) { id }
  method(slug: $method) { id }
  model(slug: $model) { id }
}
"""
ENTITY = """
query Entity($id: ID!) {
  entity(id: $id) { __typename ... on Node { id } ... on Evidence { id } }
}
"""
PLACES = """
{
  roots { slug children { slug } }
  leaf: node(slug: "leaf") { level path slugPath parent { slug } ancestors { slug } }
  child: node(slug: "child") { level path slugPath }
  twig: node(slug: "twig") { level path slugPath }
}
"""
DUPLICATES = """
{
  model(slug: "m1") {
    evidence { totalCount nodes { id method { slug } strength source { slug } quote } }
  }
}
"""


# ---- writing and breaking datasets ---------------------------------------------------------


def write_lines(path: Path, lines: list[str]) -> None:
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")


def write_dataset(folder: Path, files: Mapping[str, list[Row]] = SMALL) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, rows in files.items():
        write_lines(folder / name, [json.dumps(row) for row in rows])
    return folder


def small_line(file: str, line: int) -> str:
    return json.dumps(SMALL[file][line - 1])


def edit_line(folder: Path, file: str, line: int, change: str | Row) -> None:
    """Replace line ``line`` (from 1) of ``file``: by raw text, or by the line's object
    updated with ``change`` (a DROP value removes the field). One past the end appends."""
    path = folder / file
    lines = path.read_text(encoding="utf-8").splitlines()
    if isinstance(change, str):
        new = change
    else:
        updated = {**json.loads(lines[line - 1]), **change}
        new = json.dumps({key: value for key, value in updated.items() if value is not DROP})
    if line == len(lines) + 1:
        lines.append(new)
    else:
        lines[line - 1] = new
    write_lines(path, lines)


def problems_of(folder: Path) -> list[str]:
    with pytest.raises(DatasetError) as caught:
        read_dataset(folder)
    return caught.value.problems


class Case(NamedTuple):
    id: str
    file: str
    line: int
    change: str | Row
    problems: list[str]


BAD_LINES = [
    Case(
        "invalid-json",
        "models.jsonl",
        3,
        '{"slug": "m3" "name": "Unused"}',
        ["models.jsonl:3: is not valid JSON (Expecting ',' delimiter at column 15)"],
    ),
    Case(
        "array-not-object",
        "evidence.jsonl",
        3,
        '["m2", "beta", "used"]',
        ["evidence.jsonl:3: must be a JSON object, got list"],
    ),
    Case(
        "missing-name",
        "methods.jsonl",
        4,
        {"name": DROP},
        ["methods.jsonl:4: missing required field 'name'"],
    ),
    Case(
        "missing-parent-field",
        "nodes.jsonl",
        6,
        {"parent": DROP},
        ["nodes.jsonl:6: missing required field 'parent'"],
    ),
    Case(
        "missing-strength",
        "evidence.jsonl",
        4,
        {"strength": DROP},
        ["evidence.jsonl:4: missing required field 'strength'"],
    ),
    Case(
        "matching-aids-a-string",
        "nodes.jsonl",
        6,
        {"matching_aids": "twigs"},
        ["nodes.jsonl:6: field 'matching_aids' must be a list of strings, got \"twigs\""],
    ),
    Case(
        "name-a-number",
        "models.jsonl",
        3,
        {"name": 42},
        ["models.jsonl:3: field 'name' must be a non-empty string, got 42"],
    ),
    Case(
        "empty-title",
        "sources.jsonl",
        3,
        {"title": " "},
        ["sources.jsonl:3: field 'title' must be a non-empty string, got \" \""],
    ),
    # Slugs are URL-safe (api.ingest.lines.SLUG): one example of each way to break it.
    Case(
        "slash-in-slug",
        "methods.jsonl",
        4,
        {"slug": "lone/ly"},
        [f"methods.jsonl:4: field 'slug' 'lone/ly' is not URL-safe: {SLUG_IS} (such as 'lone-ly')"],
    ),
    Case(
        "space-and-question-mark-in-slug",
        "models.jsonl",
        3,
        {"slug": "Bad Slug?x"},
        [
            f"models.jsonl:3: field 'slug' 'Bad Slug?x' is not URL-safe: {SLUG_IS} "
            "(such as 'bad-slug-x')"
        ],
    ),
    Case(
        "capitals-in-slug",
        "nodes.jsonl",
        6,
        {"slug": "Twig"},
        [f"nodes.jsonl:6: field 'slug' 'Twig' is not URL-safe: {SLUG_IS} (such as 'twig')"],
    ),
    Case(
        "slug-starting-with-a-dot",
        "sources.jsonl",
        3,
        {"slug": "..m2-card"},
        [
            f"sources.jsonl:3: field 'slug' '..m2-card' is not URL-safe: {SLUG_IS} "
            "(such as 'm2-card')"
        ],
    ),
    Case(
        "accent-in-slug",
        "methods.jsonl",
        4,
        {"slug": "café"},
        [f"methods.jsonl:4: field 'slug' 'café' is not URL-safe: {SLUG_IS} (such as 'caf')"],
    ),
    Case(
        "nothing-url-safe-in-slug",
        "methods.jsonl",
        4,
        {"slug": "注意"},
        [f"methods.jsonl:4: field 'slug' '注意' is not URL-safe: {SLUG_IS}"],
    ),
    Case(
        "unknown-field",
        "models.jsonl",
        3,
        {"release-date": "2024-05-01"},
        [
            "models.jsonl:3: unknown field(s) release-date; "
            "expected slug, name, organization, release_date"
        ],
    ),
    Case(
        "strength-strong",
        "evidence.jsonl",
        3,
        {"strength": "strong"},
        [f"evidence.jsonl:3: {STRENGTH_PROBLEM}"],
    ),
    Case(
        "kind-video",
        "sources.jsonl",
        3,
        {"kind": "video"},
        [
            "sources.jsonl:3: field 'kind' must be one of technical_report, model_card, "
            'blog_post, paper, other, got "video"'
        ],
    ),
    Case(
        "month-13",
        "models.jsonl",
        3,
        {"release_date": "2024-13-01"},
        ["models.jsonl:3: field 'release_date' '2024-13-01' is not an ISO date (YYYY-MM-DD)"],
    ),
    Case(
        "date-in-words",
        "sources.jsonl",
        3,
        {"published_on": "March 2024"},
        ["sources.jsonl:3: field 'published_on' 'March 2024' is not an ISO date (YYYY-MM-DD)"],
    ),
    Case(
        "date-a-number",
        "models.jsonl",
        3,
        {"release_date": 2024},
        ["models.jsonl:3: field 'release_date' must be an ISO date (YYYY-MM-DD) or null, got 2024"],
    ),
    Case(
        "duplicate-node",
        "nodes.jsonl",
        7,
        small_line("nodes.jsonl", 6),
        ["nodes.jsonl:7: duplicate slug 'twig' (first at line 6)"],
    ),
    Case(
        "duplicate-model",
        "models.jsonl",
        4,
        small_line("models.jsonl", 3),
        ["models.jsonl:4: duplicate slug 'm3' (first at line 3)"],
    ),
    Case(
        "duplicate-source",
        "sources.jsonl",
        4,
        small_line("sources.jsonl", 3),
        ["sources.jsonl:4: duplicate slug 'm1-blog' (first at line 3)"],
    ),
    Case(
        "duplicate-method",
        "methods.jsonl",
        5,
        small_line("methods.jsonl", 4),
        ["methods.jsonl:5: duplicate slug 'lonely' (first at line 4)"],
    ),
    Case(
        "parent-not-a-node",
        "nodes.jsonl",
        6,
        {"parent": "nope"},
        ["nodes.jsonl:6: parent 'nope' is not a node in nodes.jsonl"],
    ),
    Case(
        "method-at-missing-node",
        "methods.jsonl",
        4,
        {"node": "nope"},
        ["methods.jsonl:4: node 'nope' is not in nodes.jsonl"],
    ),
    Case(
        "source-of-unknown-model",
        "sources.jsonl",
        3,
        {"model": "nope"},
        ["sources.jsonl:3: model 'nope' is not in models.jsonl"],
    ),
    Case(
        "evidence-unknown-model",
        "evidence.jsonl",
        4,
        {"model": "nope"},
        ["evidence.jsonl:4: model 'nope' is not in models.jsonl"],
    ),
    Case(
        "evidence-unknown-method",
        "evidence.jsonl",
        4,
        {"method": "nope"},
        ["evidence.jsonl:4: method 'nope' is not in methods.jsonl"],
    ),
    Case(
        "evidence-unknown-source",
        "evidence.jsonl",
        4,
        {"source": "nope"},
        ["evidence.jsonl:4: source 'nope' is not in sources.jsonl"],
    ),
    Case(
        "source-of-another-model",
        "evidence.jsonl",
        3,
        {"source": "m1-paper"},
        ["evidence.jsonl:3: source 'm1-paper' belongs to model 'm1', not 'm2'"],
    ),
    Case(
        "two-node-cycle",
        "nodes.jsonl",
        5,
        {"parent": "twig"},
        [
            "nodes.jsonl:5: node 'spare' is in a cycle of parents: spare -> twig -> spare",
            "nodes.jsonl:6: node 'twig' is in a cycle of parents: twig -> spare -> twig",
        ],
    ),
    Case(
        "own-parent",
        "nodes.jsonl",
        6,
        {"parent": "twig"},
        ["nodes.jsonl:6: node 'twig' is in a cycle of parents: twig -> twig"],
    ),
    # Dates are YYYY-MM-DD only: date.fromisoformat alone also takes these two.
    Case(
        "date-basic-format",
        "models.jsonl",
        3,
        {"release_date": "20260220"},
        ["models.jsonl:3: field 'release_date' '20260220' is not an ISO date (YYYY-MM-DD)"],
    ),
    Case(
        "date-week-format",
        "sources.jsonl",
        3,
        {"published_on": "2026-W08-5"},
        ["sources.jsonl:3: field 'published_on' '2026-W08-5' is not an ISO date (YYYY-MM-DD)"],
    ),
    Case(
        "date-other-digits",
        "models.jsonl",
        3,
        {"release_date": "٢٠٢٤-01-01"},
        ["models.jsonl:3: field 'release_date' '٢٠٢٤-01-01' is not an ISO date (YYYY-MM-DD)"],
    ),
    # What the JSON parsers raise, beyond their syntax errors: Python's int() refuses a
    # string of over 4,300 digits (ValueError), and the standard library's parser recurses
    # (RecursionError). Each is a problem at its line, never a traceback.
    Case(
        "huge-integer",
        "models.jsonl",
        3,
        '{"slug": "m3", "name": ' + "7" * 5_000 + "}",
        [
            "models.jsonl:3: field 'name' must be a non-empty string, "
            f"got {'7' * 80}… (5,000 characters)"
        ],
    ),
    Case(
        "deep-nesting",
        "evidence.jsonl",
        3,
        "[" * 100_000 + "]" * 100_000,
        [
            "evidence.jsonl:3: is nested too deeply: "
            "arrays or objects 100,000 levels inside each other"
        ],
    ),
    Case(
        "deep-nesting-in-a-field",
        "methods.jsonl",
        4,
        '{"slug": "lonely", "name": ' + "[" * 5_000 + "]" * 5_000 + ', "node": "root"}',
        ["methods.jsonl:4: is nested too deeply: arrays or objects 5,001 levels inside each other"],
    ),
    Case(
        "nan",
        "models.jsonl",
        3,
        '{"slug": "m3", "name": NaN}',
        ["models.jsonl:3: is not valid JSON (NaN is not a JSON number)"],
    ),
    # Numbers are shown as the line wrote them, not as a parser read them.
    Case(
        "number-with-exponent",
        "models.jsonl",
        3,
        '{"slug": "m3", "name": 1e3}',
        ["models.jsonl:3: field 'name' must be a non-empty string, got 1e3"],
    ),
    Case(
        "number-beyond-64-bits",
        "evidence.jsonl",
        4,
        '{"model": "m2", "method": "gamma", "strength": 99999999999999999999}',
        [
            "evidence.jsonl:4: field 'strength' must be one of core, used, mentioned, "
            "got 99999999999999999999"
        ],
    ),
    Case(
        "numbers-in-a-list",
        "nodes.jsonl",
        6,
        '{"slug": "twig", "name": "Twig", "parent": "spare", "matching_aids": [1.50, "x", 1E400]}',
        [
            "nodes.jsonl:6: field 'matching_aids' must be a list of strings, "
            'got [1.50, "x", 1E400]'
        ],
    ),
    Case(
        "a-number-not-an-object",
        "evidence.jsonl",
        4,
        "-0.0",
        ["evidence.jsonl:4: must be a JSON object, got number"],
    ),
]
CLI_CASES = ["invalid-json", "unknown-field", "duplicate-method", "source-of-another-model"]
CLI_CASES += [
    "huge-integer",
    "deep-nesting",
    "date-basic-format",
    "space-and-question-mark-in-slug",
]


@pytest.mark.parametrize("case", [pytest.param(case, id=case.id) for case in BAD_LINES])
def test_a_bad_line_is_reported_as_file_line_what_is_wrong(tmp_path: Path, case: Case) -> None:
    folder = write_dataset(tmp_path / "bad")
    edit_line(folder, case.file, case.line, case.change)
    assert problems_of(folder) == case.problems


def test_the_small_dataset_itself_is_good(tmp_path: Path) -> None:
    dataset = read_dataset(write_dataset(tmp_path / "good"))
    assert [node.record.slug for node in dataset.nodes] == [
        *("other", "spare", "twig", "root", "child", "leaf")
    ]
    assert dataset.evidence_count == 4


def test_problems_in_several_files_are_all_reported_at_once(tmp_path: Path) -> None:
    """Nodes, models, sources and methods first (their lines, then what is wrong between
    them, here the tree); then the evidence, which is read last, streaming."""
    folder = write_dataset(tmp_path / "bad")
    edit_line(folder, "evidence.jsonl", 2, {"strength": "strong"})
    edit_line(folder, "nodes.jsonl", 6, {"parent": "nope"})
    edit_line(folder, "models.jsonl", 3, {"release_date": "2024-02-30"})
    assert problems_of(folder) == [
        "models.jsonl:3: field 'release_date' '2024-02-30' is not an ISO date (YYYY-MM-DD)",
        "nodes.jsonl:6: parent 'nope' is not a node in nodes.jsonl",
        f"evidence.jsonl:2: {STRENGTH_PROBLEM}",
    ]


@pytest.mark.parametrize("naming", [1, 200])
def test_lines_naming_a_rejected_record_say_so_once(tmp_path: Path, naming: int) -> None:
    """A bad model line is its own problem; the lines naming that model are one more,
    with their count, not one each (200 of them filled the cap of 50 problems)."""
    folder = write_dataset(tmp_path / "bad")
    write_lines(folder / "evidence.jsonl", [small_line("evidence.jsonl", 3)] * naming)  # m2
    edit_line(folder, "models.jsonl", 2, {"release_date": "2024-1-1"})
    evidence = (
        "evidence.jsonl:1: model 'm2' was rejected at models.jsonl:2"
        if naming == 1
        else "evidence.jsonl:1: 200 evidence lines refer to model 'm2', rejected at "
        "models.jsonl:2 (this is the first)"
    )
    assert problems_of(folder) == [
        "models.jsonl:2: field 'release_date' '2024-1-1' is not an ISO date (YYYY-MM-DD)",
        "sources.jsonl:2: model 'm2' was rejected at models.jsonl:2",
        evidence,
    ]


def test_lines_naming_a_missing_record_say_so_once(tmp_path: Path) -> None:
    folder = write_dataset(tmp_path / "bad")
    nowhere = {"model": "m1", "method": "nope", "strength": "core"}
    write_lines(
        folder / "evidence.jsonl", [small_line("evidence.jsonl", 1)] + [json.dumps(nowhere)] * 120
    )
    assert problems_of(folder) == [
        "evidence.jsonl:2: 120 evidence lines refer to method 'nope', which is not in "
        "methods.jsonl (this is the first)"
    ]


def test_a_rejected_node_is_the_one_problem_of_its_subtree(tmp_path: Path) -> None:
    """`root` is rejected: `child` names it as parent, a method is filed at it, and `leaf`
    (below `child`) is not reached from any root; only the first two say so."""
    folder = write_dataset(tmp_path / "bad")
    edit_line(folder, "nodes.jsonl", 2, {"name": 7})
    assert problems_of(folder) == [
        "nodes.jsonl:2: field 'name' must be a non-empty string, got 7",
        "nodes.jsonl:1: parent 'root' was rejected at nodes.jsonl:2",
        "methods.jsonl:4: node 'root' was rejected at nodes.jsonl:2",
    ]


def test_nodes_below_a_cycle_are_one_problem(tmp_path: Path) -> None:
    folder = write_dataset(tmp_path / "bad")
    edit_line(folder, "nodes.jsonl", 5, {"parent": "twig"})  # spare <-> twig
    bud = {"slug": "bud", "name": "Bud", "parent": "twig", "matching_aids": []}
    edit_line(folder, "nodes.jsonl", 7, json.dumps(bud))
    edit_line(folder, "nodes.jsonl", 8, json.dumps({**bud, "slug": "bloom", "parent": "bud"}))
    assert problems_of(folder) == [
        "nodes.jsonl:5: node 'spare' is in a cycle of parents: spare -> twig -> spare",
        "nodes.jsonl:6: node 'twig' is in a cycle of parents: twig -> spare -> twig",
        "nodes.jsonl:7: 2 node lines hang below the cycle of parents twig -> spare -> twig "
        "(this is the first)",
    ]


@pytest.mark.parametrize(
    ("empty", "problems"),
    [
        (
            "nodes.jsonl",
            [
                "methods.jsonl:1: 4 method lines name a node, but nodes.jsonl is empty "
                "(this is the first)"
            ],
        ),
        (
            "models.jsonl",
            [
                "sources.jsonl:1: 3 source lines name a model, but models.jsonl is empty "
                "(this is the first)",
                "evidence.jsonl:1: 4 evidence lines name a model, but models.jsonl is empty "
                "(this is the first)",
            ],
        ),
        (
            "methods.jsonl",
            [
                "evidence.jsonl:1: 4 evidence lines name a method, but methods.jsonl is empty "
                "(this is the first)"
            ],
        ),
    ],
)
def test_an_empty_file_is_named_as_the_cause(
    tmp_path: Path, empty: str, problems: list[str]
) -> None:
    folder = write_dataset(tmp_path / "bad", {**SMALL, empty: []})
    assert problems_of(folder) == problems


@pytest.mark.parametrize(
    "missing", [["evidence.jsonl"], ["sources.jsonl", "evidence.jsonl"], list(FILES)]
)
def test_a_missing_file_is_named(tmp_path: Path, missing: list[str]) -> None:
    folder = write_dataset(tmp_path / "bad")
    for name in missing:
        (folder / name).unlink()
    assert problems_of(folder) == [f"{folder}: missing {', '.join(missing)}"]


@pytest.mark.parametrize(
    ("make", "said"), [("nothing", "does not exist"), ("a file", "is a file, not a folder")]
)
def test_a_directory_that_does_not_exist_is_named(tmp_path: Path, make: str, said: str) -> None:
    folder = tmp_path / "not-there"
    if make == "a file":
        folder.write_text("", encoding="utf-8")
    assert problems_of(folder) == [
        f"{folder}: {said}; give a folder holding nodes.jsonl, models.jsonl, "
        "sources.jsonl, methods.jsonl, evidence.jsonl"
    ]


def test_a_line_cut_short_is_reported_at_the_column_where_it_ends(tmp_path: Path) -> None:
    """A truncated last line is the usual invalid JSON of a file that was cut off."""
    folder = write_dataset(tmp_path / "bad")
    edit_line(folder, "models.jsonl", 3, '{"slug": "m3", "name": ')
    assert problems_of(folder) == [
        "models.jsonl:3: is not valid JSON (Expecting value at column 24)"
    ]


def test_invalid_utf8_is_reported_at_its_own_line(tmp_path: Path) -> None:
    folder = write_dataset(tmp_path / "bad")
    path = folder / "models.jsonl"
    path.write_bytes(path.read_bytes().replace(b"Unused", b"Unus\xffed"))
    assert problems_of(folder) == ["models.jsonl:3: is not valid UTF-8 (byte 29)"]


@pytest.mark.parametrize(
    ("file", "line", "change"),
    [
        pytest.param("nodes.jsonl", 4, {"parent": "twig"}, id="node-on-a-cycle"),
        pytest.param("nodes.jsonl", 1, {"parent": "nope"}, id="node-below-a-missing-parent"),
    ],
)
def test_a_method_at_a_node_that_is_in_the_file_is_not_called_missing(
    tmp_path: Path, file: str, line: int, change: Row
) -> None:
    """The node's own line is the problem; methods.jsonl must not be blamed for naming a
    node that nodes.jsonl does hold."""
    folder = write_dataset(tmp_path / "bad")
    edit_line(folder, file, line, change)
    problems = problems_of(folder)
    assert problems[0].startswith(f"{file}:{line}: ")
    assert [problem for problem in problems if "is not in nodes.jsonl" in problem] == []


@pytest.mark.parametrize(
    ("bad_lines", "stopped"), [(1, False), (49, False), (50, False), (51, True), (200, True)]
)
def test_the_problem_list_is_capped(tmp_path: Path, bad_lines: int, stopped: bool) -> None:
    folder = write_dataset(tmp_path / "bad")
    bad = json.dumps({**SMALL["evidence.jsonl"][3], "strength": "strong"})
    write_lines(folder / "evidence.jsonl", [small_line("evidence.jsonl", 1)] + [bad] * bad_lines)
    reported = [f"evidence.jsonl:{line}: {STRENGTH_PROBLEM}" for line in range(2, bad_lines + 2)]
    assert problems_of(folder) == reported[:50] + ([STOPPED] if stopped else [])


def test_a_parent_listed_after_its_children_deep_down(tmp_path: Path) -> None:
    depth = 40
    nodes: list[Row] = [
        {"slug": f"n{level}", "name": f"N{level}", "parent": f"n{level - 1}", "matching_aids": []}
        for level in range(depth, 1, -1)
    ] + [{"slug": "n1", "name": "N1", "parent": None, "matching_aids": []}]
    files = {**SMALL, "nodes.jsonl": nodes, "methods.jsonl": [], "evidence.jsonl": []}
    dataset = read_dataset(write_dataset(tmp_path / "chain", files))
    assert [(node.record.slug, node.level) for node in dataset.nodes] == [
        (f"n{level}", level) for level in range(1, depth + 1)
    ]
    deepest = dataset.nodes[-1]
    assert deepest.slug_path == "/".join(f"n{level}" for level in range(1, depth + 1))
    assert deepest.path == " :: ".join(f"N{level}" for level in range(1, depth + 1))


# ---- through the CLI, on every backend ------------------------------------------------------


def load(directory: Path, url: str, *options: str) -> Result:
    return CliRunner().invoke(main, ["load", str(directory), "--db", url, *options])


def assert_loaded(result: Result, evidence: int) -> None:
    assert result.exit_code == 0, result.output
    assert f"{evidence:,} evidence; data version " in result.stdout


def assert_refused(result: Result, problems: list[str]) -> None:
    """Exit 1 through the CLI's own error (not a crash), each problem on a line of stderr."""
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), f"crashed: {result.exception!r}"
    lines = result.stderr.splitlines()
    for problem in problems:
        assert problem in lines
    assert "nothing was loaded" in lines[-1]
    assert lines[-1].endswith("the database is unchanged")


def table_rows(url: str, *, leave_out: str | None = None) -> dict[str, list[str]]:
    """Every row of every table, the search index's included: the database's fingerprint
    (without the column ``leave_out``, if given)."""
    engine = make_sync_engine(url)
    try:
        with engine.connect() as connection:
            tables = inspect(connection)
            found = {}
            for name in tables.get_table_names():
                columns = [c["name"] for c in tables.get_columns(name) if c["name"] != leave_out]
                listed = ", ".join(f'"{column}"' for column in columns)
                rows = connection.execute(text(f'SELECT {listed} FROM "{name}"'))
                found[name] = sorted(repr(tuple(row)) for row in rows)
            return found
    finally:
        engine.dispose()


# The history a database keeps across loads (issue 17): its releases and their changes.
HISTORY = {"release", "node_change", "method_change", "model_change", "treatment_change"}


def data_rows(url: str) -> dict[str, list[str]]:
    """The fingerprint of the served data: without the `dataset` row (version, load time,
    folder), the history of earlier loads (releases, change rows, each record's first
    release), and FTS5's shadow tables, whose layout depends on the index's history, not
    its content (the `search_fts` table itself is compared)."""
    return {
        name: rows
        for name, rows in table_rows(url, leave_out="first_seen").items()
        if name != "dataset"
        and name not in HISTORY
        and not name.startswith(f"{search_index.SQLITE_TABLE}_")
    }


def _history(url: str) -> tuple[list[int], dict[str, int], set[int]]:
    """The releases' numbers, the change rows per table, and the first releases of methods."""
    engine = make_sync_engine(url)
    try:
        with engine.connect() as connection:
            numbers = connection.execute(text("SELECT number FROM release ORDER BY number"))
            changes = {
                name: int(connection.execute(text(f"SELECT COUNT(*) FROM {name}")).scalar() or 0)
                for name in sorted(HISTORY - {"release"})
            }
            seen = connection.execute(text("SELECT DISTINCT first_seen FROM method"))
            return [row[0] for row in numbers], changes, {row[0] for row in seen}
    finally:
        engine.dispose()


@pytest.fixture(scope="module")
def small_databases(
    new_database: NewDatabase, tmp_path_factory: pytest.TempPathFactory
) -> Callable[[str], str]:
    """One database per backend holding SMALL, shared by the tests that must not change it."""
    urls: dict[str, str] = {}

    def get(backend: str) -> str:
        if backend not in urls:
            url = new_database(backend, "loader_small")
            assert_loaded(load(write_dataset(tmp_path_factory.mktemp("small")), url), 4)
            urls[backend] = url
        return urls[backend]

    return get


@pytest.fixture
def loaded(small_databases: Callable[[str], str], backend: str) -> str:
    return small_databases(backend)


@pytest.mark.parametrize(
    "case", [pytest.param(case, id=case.id) for case in BAD_LINES if case.id in CLI_CASES]
)
def test_cli_refuses_a_bad_line_and_changes_nothing(
    tmp_path: Path, loaded: str, case: Case
) -> None:
    before = table_rows(loaded)
    assert before["dataset"]
    assert before["evidence"]
    folder = write_dataset(tmp_path / "bad")
    edit_line(folder, case.file, case.line, case.change)
    assert_refused(load(folder, loaded), case.problems)
    assert table_rows(loaded) == before


def test_cli_refuses_a_missing_folder_and_changes_nothing(tmp_path: Path, loaded: str) -> None:
    before = table_rows(loaded)
    missing = tmp_path / "not-there"
    assert_refused(load(missing, loaded), [f"{missing}{NOT_A_FOLDER}"])
    assert table_rows(loaded) == before


def evidence_lines(count: int) -> list[str]:
    methods = [method["slug"] for method in SMALL["methods.jsonl"]]
    return [
        json.dumps(
            {
                "model": "m2",
                "method": methods[index % len(methods)],
                "strength": ("core", "used", "mentioned")[index % 3],
                "source": "m2-card" if index % 2 else None,
                "quote": f"quote {index}",
                "locator": f"p. {index % 97}",
            }
        )
        for index in range(count)
    ]


LARGE = 20_000
LATE = LARGE * 9 // 10  # past three of the loader's batches of 5,000 rows
BAD_EVIDENCE = {
    # read_dataset finds it
    "unknown-strength": {"model": "m2", "method": "beta", "strength": "strong"},
    # only the database finds it: no database stores a lone surrogate
    "lone-surrogate": {"model": "m2", "method": "beta", "strength": "used", "quote": "\ud800"},
}


@pytest.mark.parametrize("bad", list(BAD_EVIDENCE))
def test_a_bad_line_late_in_a_large_evidence_file_changes_nothing(
    tmp_path: Path, loaded: str, bad: str
) -> None:
    before = table_rows(loaded)
    folder = write_dataset(tmp_path / "large")
    lines = evidence_lines(LARGE)
    lines[LATE - 1] = json.dumps(BAD_EVIDENCE[bad])
    write_lines(folder / "evidence.jsonl", lines)
    result = load(folder, loaded)
    assert result.exit_code != 0, result.output
    assert table_rows(loaded) == before


def test_the_large_evidence_file_loads_when_good(
    tmp_path: Path, new_database: NewDatabase, backend: str
) -> None:
    url = new_database(backend, "loader_large")
    folder = write_dataset(tmp_path / "large")
    write_lines(folder / "evidence.jsonl", evidence_lines(LARGE))
    assert_loaded(load(folder, url), LARGE)


@pytest.mark.parametrize(
    "quote", [pytest.param("\ud800", id="lone-surrogate"), pytest.param("a\x00b", id="nul")]
)
def test_text_the_database_cannot_store_is_reported_not_a_crash(
    tmp_path: Path, loaded: str, quote: str
) -> None:
    """Either the line loads and reads back as written, or it is reported as a bad line
    and nothing changes; never a traceback (and never one backend only)."""
    before = table_rows(loaded)
    folder = write_dataset(tmp_path / "odd")
    edit_line(folder, "evidence.jsonl", 4, {"quote": quote})
    result = load(folder, loaded)
    if result.exit_code == 0:
        with serve(loaded) as client:
            data = Api(client, loaded).query(
                '{ method(slug: "gamma") { evidence { nodes { quote } } } }'
            )
        assert data["method"]["evidence"]["nodes"] == [{"quote": quote}]
        assert_loaded(load(write_dataset(tmp_path / "good"), loaded), 4)  # put SMALL back
    else:
        assert table_rows(loaded) == before
        assert_refused(result, [])
        assert any(line.startswith("evidence.jsonl:4: ") for line in result.stderr.splitlines())


# ---- reloading and replacing ----------------------------------------------------------------


class Snapshot(NamedTuple):
    """What a client sees of a load: its summary, and every ID with what it stands for."""

    taxonomy: Row
    ids: dict[str, dict[str, Any]]


def all_pages(api: Api, document: str, field: str) -> list[Row]:
    items: list[Row] = []
    after = None
    while True:
        page = api.query_whole(document, {"after": after})[field]
        items.extend(page["nodes"])
        if not page["pageInfo"]["hasNextPage"]:
            return items
        after = page["pageInfo"]["endCursor"]


def snapshot(url: str) -> Snapshot:
    with serve(url) as client:
        api = Api(client, url)
        taxonomy = api.query(TAXONOMY)["taxonomy"]
        roots = api.query(NODES)["roots"]
        methods = all_pages(api, METHODS_PAGE, "methods")
        models = all_pages(api, MODELS_PAGE, "models")
    ids: dict[str, dict[str, Any]] = {
        "nodes": {
            node["id"]: node["slug"] for root in roots for node in [root, *root["descendants"]]
        },
        "methods": {method["id"]: (method["slug"], method["node"]["id"]) for method in methods},
        "models": {model["id"]: model["slug"] for model in models},
        "sources": {
            source["id"]: (source["slug"], model["id"])
            for model in models
            for source in model["sources"]
        },
        "evidence": {},
    }
    for model in models:
        evidence = model["evidence"]
        assert len(evidence["nodes"]) == evidence["totalCount"], "a model with over 100 evidence"
        for item in evidence["nodes"]:
            content = (model["slug"], item["method"]["slug"], item["strength"], item["quote"])
            ids["evidence"][item["id"]] = (*content, item["locator"])
    # Every object was reached, and no two share an ID.
    counts = {"nodes": "nodeCount", "methods": "methodCount", "models": "modelCount"}
    counts |= {"sources": "sourceCount", "evidence": "evidenceCount"}
    assert {kind: len(ids[kind]) for kind in ids} == {
        kind: taxonomy[field] for kind, field in counts.items()
    }
    return Snapshot(taxonomy, ids)


def line_count(folder: Path, file: str) -> int:
    return len((folder / file).read_text(encoding="utf-8").splitlines())


def test_reloading_the_same_files_keeps_every_id(new_database: NewDatabase, backend: str) -> None:
    url = new_database(backend, "loader_reload")
    evidence = line_count(GO, "evidence.jsonl")
    assert_loaded(load(GO, url), evidence)
    before, rows_before = snapshot(url), data_rows(url)
    assert before.taxonomy["evidenceCount"] == evidence  # duplicate lines included
    assert release_of(before.taxonomy["dataVersion"]) == 1

    assert_loaded(load(GO, url), evidence)
    after = snapshot(url)
    assert release_of(after.taxonomy["dataVersion"]) == 2
    assert after.taxonomy == {**before.taxonomy, "dataVersion": after.taxonomy["dataVersion"]}
    assert len(after.taxonomy["checksum"]) == 64
    assert after.ids == before.ids
    assert data_rows(url) == rows_before
    # The same records again: a second release that changed nothing.
    no_changes = dict.fromkeys(sorted(HISTORY - {"release"}), 0)
    assert _history(url) == ([1, 2], no_changes, {1})


def test_another_dataset_replaces_the_old_one_entirely(
    tmp_path: Path, new_database: NewDatabase, backend: str
) -> None:
    """GO, then SMALL: the database is then as if SMALL alone had ever been loaded."""
    url = new_database(backend, "loader_replace")
    assert_loaded(load(GO, url), line_count(GO, "evidence.jsonl"))
    old = snapshot(url)
    small = write_dataset(tmp_path / "small")
    assert_loaded(load(small, url, "--allow-shrink"), 4)  # a few of GO's thousands

    alone = new_database(backend, "loader_alone")
    assert_loaded(load(small, alone), 4)
    assert data_rows(url) == data_rows(alone)
    # Unlike SMALL loaded alone, this database remembers GO: two releases, the second
    # changing everything, its records first seen in it.
    releases, changes, first_seen = _history(url)
    assert (releases, first_seen) == ([1, 2], {2})
    assert all(changes.values())
    assert _history(alone)[0::2] == ([1], {1})
    new = snapshot(url)
    assert new.ids == snapshot(alone).ids
    assert release_of(new.taxonomy["dataVersion"]) == 2
    assert new.taxonomy["checksum"] != old.taxonomy["checksum"]
    assert {key: new.taxonomy[key] for key in SMALL_COUNTS} == SMALL_COUNTS
    for kind in old.ids:
        assert not set(old.ids[kind]) & set(new.ids[kind])
    with serve(url) as client:
        api = Api(client, url)
        old_slugs = {"node": "go-0016070", "method": "go-0016070-concept"}
        found = api.query(OLD_SLUGS, {**old_slugs, "model": "pombase-spac25b8.17"})
        assert found == {"node": None, "method": None, "model": None}
        assert api.query(ENTITY, {"id": next(iter(old.ids["nodes"]))}) == {"entity": None}


@pytest.fixture
def small_once(tmp_path: Path, new_database: NewDatabase, backend: str) -> str:
    url = new_database(backend, "loader_fresh")
    assert_loaded(load(write_dataset(tmp_path / "small"), url), 4)
    return url


def test_a_parent_listed_after_its_child_loads_with_right_levels_and_paths(
    small_once: str,
) -> None:
    with serve(small_once) as client:
        data = Api(client, small_once).query(PLACES)
    assert data == {
        "roots": [
            {"slug": "other", "children": [{"slug": "spare"}]},
            {"slug": "root", "children": [{"slug": "child"}]},
        ],
        "leaf": {
            "level": 3,
            "path": "Root :: Child :: Leaf",
            "slugPath": "root/child/leaf",
            "parent": {"slug": "child"},
            "ancestors": [{"slug": "root"}, {"slug": "child"}],
        },
        "child": {"level": 2, "path": "Root :: Child", "slugPath": "root/child"},
        "twig": {"level": 3, "path": "Other :: Spare :: Twig", "slugPath": "other/spare/twig"},
    }


def test_duplicate_evidence_lines_get_distinct_stable_ids(tmp_path: Path, small_once: str) -> None:
    def duplicates() -> list[Row]:
        with serve(small_once) as client:
            api = Api(client, small_once)
            nodes: list[Row] = api.query(DUPLICATES)["model"]["evidence"]["nodes"]
            for item in nodes:  # each ID fetches its evidence back
                found = {"entity": {"__typename": "Evidence", "id": item["id"]}}
                assert api.query(ENTITY, {"id": item["id"]}) == found
        return nodes

    first = duplicates()
    assert [{**item, "id": None} for item in first] == 2 * [
        {
            "id": None,
            "method": {"slug": "alpha"},
            "strength": "CORE",
            "source": {"slug": "m1-paper"},
            "quote": "q",
        }
    ]
    assert first[0]["id"] != first[1]["id"]
    assert_loaded(load(write_dataset(tmp_path / "again"), small_once), 4)
    assert {item["id"] for item in duplicates()} == {item["id"] for item in first}


@pytest.mark.skipif(POSTGRES_URL is None, reason="PostgreSQL only (TEST_DATABASE_URL)")
def test_a_postgresql_load_leaves_no_dead_rows(
    new_database: Callable[[str, str], str], tiny_folder: Path
) -> None:
    """A load replaces every row; once it has committed it vacuums what it replaced, so
    neither readers nor the next load step over dead rows."""
    url = new_database("postgresql", "vacuumed")
    load_directory(tiny_folder, url)
    load_directory(tiny_folder, url)  # over the first: every row of it deleted
    engine = make_sync_engine(url)
    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT pg_stat_clear_snapshot()"))
            rows = connection.execute(
                text(
                    "SELECT relname, n_dead_tup, last_vacuum IS NOT NULL FROM pg_stat_user_tables"
                    " WHERE relname IN ('evidence', 'treatment', 'branch_model', 'node')"
                )
            ).all()
    finally:
        engine.dispose()
    assert len(rows) == 4
    for name, dead, vacuumed in rows:
        assert (dead, vacuumed) == (0, True), name
