"""Tests of the oracle itself, on a tiny dataset whose every answer is worked out by hand below.

The tree (file order puts `leaf` before its parent `mid`):

    root "Root"          level 1   method m-gamma "gamma"
      mid "Mid"          level 2   methods m-alpha-upper "Alpha", m-beta "Beta"
        leaf "Leaf"      level 3   methods m-alpha "alpha", m-lonely "Lonely" (no evidence)
      side "Side"        level 2   method m-delta "Delta"
    other "Other"        level 1   method m-other "Other method"

Models (release date):  new "Newest" 2024-05-01;  a-zulu "Zulu" and b-echo "echo" both
2024-01-01;  old "Old" 2020-01-01;  undated "Undated" (null);  undated-2 "aardvark" (no key);
outsider "Outsider" 2023-03-03 (evidence only outside `root`).

Evidence rows, numbered for the sums below, and the treatment of each (model, method) pair:

     1  new        m-beta         mentioned  \\ (new, m-beta) = core: the stronger of the two
     2  new        m-beta         core       /
     3  new        m-alpha        used         (new, m-alpha) = used
     4  a-zulu     m-alpha-upper  used         (a-zulu, m-alpha-upper) = used
     5  a-zulu     m-alpha        used         (a-zulu, m-alpha) = used
     6  a-zulu     m-delta        mentioned    (a-zulu, m-delta) = mentioned
     7  b-echo     m-gamma        mentioned    (b-echo, m-gamma) = mentioned
     8  old        m-beta         used       \\ (old, m-beta) = used: two rows, one pair
     9  old        m-beta         used       /
    10  undated    m-alpha        core       \\ (undated, m-alpha) = core: the stronger comes
    11  undated    m-alpha        mentioned  /  first here, after the weaker in rows 1-2
    12  undated-2  m-delta        used         (undated-2, m-delta) = used
    13  undated-2  m-other        mentioned    (undated-2, m-other) = mentioned
    14  outsider   m-other        core         (outsider, m-other) = core
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from reference import ByModelRow, NodeFigures, Reference
from tiny_dataset import write_files

NODES: list[dict[str, Any]] = [
    {"slug": "leaf", "name": "Leaf", "parent": "mid", "matching_aids": ["leafy"]},
    {"slug": "root", "name": "Root", "parent": None, "description": "top", "matching_aids": []},
    {"slug": "mid", "name": "Mid", "parent": "root", "matching_aids": []},
    {"slug": "side", "name": "Side", "parent": "root", "matching_aids": []},
    {"slug": "other", "name": "Other", "parent": None, "matching_aids": []},
]
MODELS: list[dict[str, Any]] = [
    {"slug": "new", "name": "Newest", "organization": "Org", "release_date": "2024-05-01"},
    {"slug": "a-zulu", "name": "Zulu", "release_date": "2024-01-01"},
    {"slug": "b-echo", "name": "echo", "release_date": "2024-01-01"},
    {"slug": "old", "name": "Old", "release_date": "2020-01-01"},
    {"slug": "undated", "name": "Undated", "release_date": None},
    {"slug": "undated-2", "name": "aardvark"},
    {"slug": "outsider", "name": "Outsider", "release_date": "2023-03-03"},
]
SOURCES: list[dict[str, Any]] = [
    {"slug": "new-report", "model": "new", "title": "Newest report", "kind": "technical_report"},
]
METHODS: list[dict[str, Any]] = [
    {"slug": "m-alpha", "name": "alpha", "node": "leaf", "aliases": []},
    {"slug": "m-lonely", "name": "Lonely", "node": "leaf"},
    {"slug": "m-alpha-upper", "name": "Alpha", "node": "mid"},
    {"slug": "m-beta", "name": "Beta", "node": "mid", "description": "b"},
    {"slug": "m-gamma", "name": "gamma", "node": "root"},
    {"slug": "m-delta", "name": "Delta", "node": "side"},
    {"slug": "m-other", "name": "Other method", "node": "other"},
]
EVIDENCE: list[dict[str, Any]] = [
    {"model": "new", "method": "m-beta", "strength": "mentioned", "source": "new-report"},
    {"model": "new", "method": "m-beta", "strength": "core", "quote": "we built Beta"},
    {"model": "new", "method": "m-alpha", "strength": "used"},
    {"model": "a-zulu", "method": "m-alpha-upper", "strength": "used"},
    {"model": "a-zulu", "method": "m-alpha", "strength": "used"},
    {"model": "a-zulu", "method": "m-delta", "strength": "mentioned"},
    {"model": "b-echo", "method": "m-gamma", "strength": "mentioned"},
    {"model": "old", "method": "m-beta", "strength": "used"},
    {"model": "old", "method": "m-beta", "strength": "used", "locator": "p. 2"},
    {"model": "undated", "method": "m-alpha", "strength": "core"},
    {"model": "undated", "method": "m-alpha", "strength": "mentioned"},
    {"model": "undated-2", "method": "m-delta", "strength": "used"},
    {"model": "undated-2", "method": "m-other", "strength": "mentioned"},
    {"model": "outsider", "method": "m-other", "strength": "core"},
]


def write_dataset(
    folder: Path,
    *,
    nodes: list[dict[str, Any]] = NODES,
    models: list[dict[str, Any]] = MODELS,
    methods: list[dict[str, Any]] = METHODS,
    evidence: list[dict[str, Any]] = EVIDENCE,
) -> Path:
    files = {
        "nodes": nodes,
        "models": models,
        "sources": SOURCES,
        "methods": methods,
        "evidence": evidence,
    }
    return write_files(folder, files)


@pytest.fixture
def ref(tmp_path: Path) -> Reference:
    return Reference.from_dir(write_dataset(tmp_path))


def test_leaf_figures(ref: Reference) -> None:
    # Branch = {leaf}: methods m-alpha, m-lonely. Evidence on them: rows 3, 5, 10, 11. Pairs:
    # (new, m-alpha) used, (a-zulu, m-alpha) used, (undated, m-alpha) core.
    assert ref.node("leaf") == NodeFigures(
        slug="leaf",
        name="Leaf",
        level=3,
        path="Root :: Mid :: Leaf",
        slug_path="root/mid/leaf",
        methods_in_branch=2,
        methods_filed_here=2,
        models_in_branch=3,
        evidence_in_branch=4,
        child_count=0,
        descendant_count=0,
        core=1,
        used=2,
        mentioned=0,
    )


def test_mid_figures(ref: Reference) -> None:
    # Branch = {mid, leaf}: methods m-alpha-upper, m-beta (here), m-alpha, m-lonely.
    # Evidence: row 4 (m-alpha-upper), rows 1, 2, 8, 9 (m-beta), rows 3, 5, 10, 11 (m-alpha) = 9.
    # Models: new, a-zulu, old, undated. Pairs: (new, m-beta) core, (undated, m-alpha) core;
    # (new, m-alpha), (a-zulu, m-alpha-upper), (a-zulu, m-alpha), (old, m-beta) used.
    assert ref.node("mid") == NodeFigures(
        slug="mid",
        name="Mid",
        level=2,
        path="Root :: Mid",
        slug_path="root/mid",
        methods_in_branch=4,
        methods_filed_here=2,
        models_in_branch=4,
        evidence_in_branch=9,
        child_count=1,
        descendant_count=1,
        core=2,
        used=4,
        mentioned=0,
    )


def test_root_figures(ref: Reference) -> None:
    # Branch = every node but `other`: all methods but m-other (6), m-gamma filed here.
    # Evidence: rows 1-12. Models: all but outsider (6). Pairs: the 9 treatments of rows 1-12:
    # core (new, m-beta), (undated, m-alpha); mentioned (a-zulu, m-delta), (b-echo, m-gamma);
    # the other 5 used.
    assert ref.node("root") == NodeFigures(
        slug="root",
        name="Root",
        level=1,
        path="Root",
        slug_path="root",
        methods_in_branch=6,
        methods_filed_here=1,
        models_in_branch=6,
        evidence_in_branch=12,
        child_count=2,
        descendant_count=3,
        core=2,
        used=5,
        mentioned=2,
    )


def test_side_and_other_figures(ref: Reference) -> None:
    # side: m-delta only; rows 6 (a-zulu mentioned) and 12 (undated-2 used).
    assert ref.node("side") == NodeFigures(
        slug="side",
        name="Side",
        level=2,
        path="Root :: Side",
        slug_path="root/side",
        methods_in_branch=1,
        methods_filed_here=1,
        models_in_branch=2,
        evidence_in_branch=2,
        child_count=0,
        descendant_count=0,
        core=0,
        used=1,
        mentioned=1,
    )
    # other: m-other only; rows 13 (undated-2 mentioned) and 14 (outsider core).
    assert ref.node("other") == NodeFigures(
        slug="other",
        name="Other",
        level=1,
        path="Other",
        slug_path="other",
        methods_in_branch=1,
        methods_filed_here=1,
        models_in_branch=2,
        evidence_in_branch=2,
        child_count=0,
        descendant_count=0,
        core=1,
        used=0,
        mentioned=1,
    )


def test_roots_and_deepest(ref: Reference) -> None:
    assert ref.roots() == ["other", "root"]
    # leaf is level 3; mid and side tie at level 2 (slug order); other and root at level 1.
    assert ref.deepest(1) == ["leaf"]
    assert ref.deepest(3) == ["leaf", "mid", "side"]
    assert ref.deepest(10) == ["leaf", "mid", "side", "other", "root"]


def test_by_model_root(ref: Reference) -> None:
    # Row order: new (2024-05-01); then the 2024-01-01 tie by casefolded name, "echo" before
    # "zulu" (plain string order would put "Zulu" first, and slug order a-zulu first); old
    # (2020); then the undated, by casefolded name: "aardvark" before "undated".
    # Within a row: strongest first, so new's Beta (core) precedes alpha (used) although
    # "alpha" < "beta"; a-zulu's "alpha" and "Alpha" casefold alike and tie at used, so their
    # slugs decide (m-alpha < m-alpha-upper). m-other lies outside root, so aardvark's row
    # holds only Delta.
    assert ref.by_model("root") == [
        ByModelRow("new", "Newest", "CORE", (("Beta", "CORE"), ("alpha", "USED"))),
        ByModelRow("b-echo", "echo", "MENTIONED", (("gamma", "MENTIONED"),)),
        ByModelRow(
            "a-zulu",
            "Zulu",
            "USED",
            (("alpha", "USED"), ("Alpha", "USED"), ("Delta", "MENTIONED")),
        ),
        ByModelRow("old", "Old", "USED", (("Beta", "USED"),)),
        ByModelRow("undated-2", "aardvark", "USED", (("Delta", "USED"),)),
        ByModelRow("undated", "Undated", "CORE", (("alpha", "CORE"),)),
    ]


def test_by_model_is_scoped_to_the_branch(ref: Reference) -> None:
    # In `side`, a-zulu treats only Delta (mentioned), so its row is headed MENTIONED here
    # although its strongest treatment under `root` is USED.
    assert ref.by_model("side") == [
        ByModelRow("a-zulu", "Zulu", "MENTIONED", (("Delta", "MENTIONED"),)),
        ByModelRow("undated-2", "aardvark", "USED", (("Delta", "USED"),)),
    ]
    # In `leaf`, only m-alpha has evidence: new (2024-05-01), a-zulu (2024-01-01), undated.
    assert ref.by_model("leaf") == [
        ByModelRow("new", "Newest", "USED", (("alpha", "USED"),)),
        ByModelRow("a-zulu", "Zulu", "USED", (("alpha", "USED"),)),
        ByModelRow("undated", "Undated", "CORE", (("alpha", "CORE"),)),
    ]
    # In `other`: outsider (2023-03-03) before the undated aardvark.
    assert ref.by_model("other") == [
        ByModelRow("outsider", "Outsider", "CORE", (("Other method", "CORE"),)),
        ByModelRow("undated-2", "aardvark", "MENTIONED", (("Other method", "MENTIONED"),)),
    ]


@pytest.mark.parametrize(
    ("method", "strongest", "model_count"),
    [
        ("m-beta", "CORE", 2),  # new: mentioned + core -> core; old: used twice, one model
        ("m-alpha", "CORE", 3),  # new used, a-zulu used, undated core + mentioned -> core
        ("m-alpha-upper", "USED", 1),
        ("m-gamma", "MENTIONED", 1),
        ("m-delta", "USED", 2),  # a-zulu mentioned, undated-2 used
        ("m-other", "CORE", 2),
        ("m-lonely", None, 0),  # a method without evidence
    ],
)
def test_method_figures(
    ref: Reference, method: str, strongest: str | None, model_count: int
) -> None:
    assert ref.method_strongest(method) == strongest
    assert ref.method_model_count(method) == model_count


def test_unknown_slugs_raise(ref: Reference) -> None:
    with pytest.raises(KeyError):
        ref.node("nope")
    with pytest.raises(KeyError):
        ref.method_strongest("nope")


def test_unknown_parent_is_rejected(tmp_path: Path) -> None:
    nodes = [*NODES, {"slug": "stray", "name": "Stray", "parent": "missing", "matching_aids": []}]
    with pytest.raises(ValueError, match="unknown parent"):
        Reference.from_dir(write_dataset(tmp_path, nodes=nodes))


def test_parent_cycle_is_rejected(tmp_path: Path) -> None:
    nodes = [
        {"slug": "a", "name": "A", "parent": "b", "matching_aids": []},
        {"slug": "b", "name": "B", "parent": "a", "matching_aids": []},
    ]
    with pytest.raises(ValueError, match="cycle"):
        Reference.from_dir(write_dataset(tmp_path, nodes=nodes, methods=[], evidence=[]))
