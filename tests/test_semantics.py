"""Every rule of DESIGN.md §2, through the schema, on the hand-worked dataset of
`tiny_dataset.py` (its docstring draws the tree and the models)."""

from typing import Any

import pytest

from schema.ids import encode_id

from conftest import Api

NODE = """
query Node($path: String!) {
  node(path: $path) {
    name level path slugPath matchingAids
    parent { slug }
    ancestors { slug }
    children { slug }
    descendants { slug level }
    counts {
      methodsInBranch methodsFiledHere modelsInBranch evidenceInBranch childCount
      descendantCount treatmentsByStrength { core used mentioned }
      methodsByStrongest { core used mentioned }
    }
  }
}
"""

BY_MODEL = """
query ByModel($order: ModelTreatmentOrder, $min: Strength) {
  node(slug: "alpha") {
    byModel(orderBy: $order, minStrength: $min) {
      totalCount
      nodes { model { name } strongest methodCount methods { method { name } strength } }
    }
  }
}
"""


def _rows(api: Api, **variables: Any) -> list[str]:
    nodes = api.query(BY_MODEL, variables)["node"]["byModel"]["nodes"]
    return [row["model"]["name"] for row in nodes]


def test_level_path_and_slug_path(tiny: Api) -> None:
    gamma = tiny.query(NODE, {"path": "alpha/beta/gamma"})["node"]
    assert gamma["level"] == 3
    assert gamma["path"] == "Alpha :: beta :: Gamma"
    assert gamma["slugPath"] == "alpha/beta/gamma"
    assert gamma["parent"] == {"slug": "beta"}
    assert gamma["ancestors"] == [{"slug": "alpha"}, {"slug": "beta"}]
    assert gamma["matchingAids"] == ["gamma rays"]
    root = tiny.query(NODE, {"path": "alpha"})["node"]
    assert (root["level"], root["parent"], root["ancestors"]) == (1, None, [])


def test_names_path_is_matched_case_insensitively(tiny: Api) -> None:
    node = tiny.query(NODE, {"path": "alpha ::BETA::  gamma"})["node"]
    assert node["slugPath"] == "alpha/beta/gamma"


def test_children_by_name_and_descendants_in_pre_order(tiny: Api) -> None:
    alpha = tiny.query(NODE, {"path": "alpha"})["node"]
    assert alpha["children"] == [{"slug": "beta"}, {"slug": "delta"}]
    assert alpha["descendants"] == [
        {"slug": "beta", "level": 2},
        {"slug": "gamma", "level": 3},
        {"slug": "delta", "level": 2},
    ]
    shallow = tiny.query('{ node(slug: "alpha") { descendants(maxDepth: 1) { slug } } }')
    assert shallow["node"]["descendants"] == [{"slug": "beta"}, {"slug": "delta"}]
    roots = tiny.query("{ roots { slug level } }")["roots"]
    assert roots == [{"slug": "alpha", "level": 1}, {"slug": "zeta", "level": 1}]


def test_branch_counts(tiny: Api) -> None:
    counts = tiny.query(NODE, {"path": "alpha"})["node"]["counts"]
    assert counts == {
        # Root, Charlie, alpha, Bravo, Lonely, Delta methods; only Root method is filed here.
        "methodsInBranch": 6,
        "methodsFiledHere": 1,
        # Everyone but... no one: all five models have evidence in alpha's branch.
        "modelsInBranch": 5,
        # All evidence except tie-b's on Zed method (in zeta's branch).
        "evidenceInBranch": 9,
        "childCount": 2,
        "descendantCount": 3,
        # Pairs: CORE newest-alpha, Zulu-Delta; USED newest-Bravo, Bravo-Charlie,
        # alpha-Root; MENTIONED alpha-Bravo, yankee-alpha, yankee-Charlie.
        "treatmentsByStrength": {"core": 2, "used": 3, "mentioned": 3},
        # Methods by their strongest over all models: CORE alpha (newest), Delta (Zulu);
        # USED Bravo (newest; alpha's MENTIONED is weaker), Charlie (Bravo), Root (alpha);
        # Lonely method has no evidence, so it is in none.
        "methodsByStrongest": {"core": 2, "used": 3, "mentioned": 0},
    }
    gamma = tiny.query(NODE, {"path": "alpha/beta/gamma"})["node"]["counts"]
    assert (gamma["methodsInBranch"], gamma["methodsFiledHere"]) == (3, 3)
    assert (gamma["modelsInBranch"], gamma["evidenceInBranch"]) == (3, 5)


def test_by_model_rows_methods_and_default_order(tiny: Api) -> None:
    table = tiny.query(BY_MODEL)["node"]["byModel"]
    assert table["totalCount"] == 5

    def row(name: str, strongest: str, *methods: tuple[str, str]) -> dict[str, Any]:
        return {
            "model": {"name": name},
            "strongest": strongest,
            "methodCount": len(methods),
            "methods": [{"method": {"name": m}, "strength": s} for m, s in methods],
        }

    # Newest first; the 2024-01-01 tie by name (alpha before Bravo); undated after, by name
    # (yankee before Zulu). In a row: strongest first, then name (alpha before Charlie).
    assert table["nodes"] == [
        row("Newest", "CORE", ("alpha method", "CORE"), ("Bravo method", "USED")),
        row("alpha", "USED", ("Root method", "USED"), ("Bravo method", "MENTIONED")),
        row("Bravo", "USED", ("Charlie method", "USED")),
        row("yankee", "MENTIONED", ("alpha method", "MENTIONED"), ("Charlie method", "MENTIONED")),
        row("Zulu", "CORE", ("Delta method", "CORE")),
    ]


@pytest.mark.parametrize(
    ("order", "expected"),
    [
        ({"field": "RELEASE_DATE"}, ["Newest", "alpha", "Bravo", "yankee", "Zulu"]),
        # Oldest first; undated models still last, and ties still by name A to Z.
        (
            {"field": "RELEASE_DATE", "direction": "ASC"},
            ["alpha", "Bravo", "Newest", "yankee", "Zulu"],
        ),
        # A name sorts A to Z unless told otherwise.
        ({"field": "NAME"}, ["alpha", "Bravo", "Newest", "yankee", "Zulu"]),
        ({"field": "NAME", "direction": "ASC"}, ["alpha", "Bravo", "Newest", "yankee", "Zulu"]),
        ({"field": "NAME", "direction": "DESC"}, ["Zulu", "yankee", "Newest", "Bravo", "alpha"]),
        # Strongest first, ties by name A to Z either way.
        ({"field": "STRONGEST"}, ["Newest", "Zulu", "alpha", "Bravo", "yankee"]),
        (
            {"field": "STRONGEST", "direction": "DESC"},
            ["Newest", "Zulu", "alpha", "Bravo", "yankee"],
        ),
        (
            {"field": "STRONGEST", "direction": "ASC"},
            ["yankee", "alpha", "Bravo", "Newest", "Zulu"],
        ),
        # The deprecated name of STRONGEST still orders the same way.
        ({"field": "STRENGTH"}, ["Newest", "Zulu", "alpha", "Bravo", "yankee"]),
        ({"field": "STRENGTH", "direction": "ASC"}, ["yankee", "alpha", "Bravo", "Newest", "Zulu"]),
        # The most methods first (alpha, Newest, yankee: 2 each), ties by name either way.
        ({"field": "METHOD_COUNT"}, ["alpha", "Newest", "yankee", "Bravo", "Zulu"]),
        (
            {"field": "METHOD_COUNT", "direction": "ASC"},
            ["Bravo", "Zulu", "alpha", "Newest", "yankee"],
        ),
    ],
)
def test_by_model_other_orders(tiny: Api, order: dict[str, str], expected: list[str]) -> None:
    assert _rows(tiny, order=order) == expected


def test_by_model_min_strength(tiny: Api) -> None:
    assert _rows(tiny, min="USED") == ["Newest", "alpha", "Bravo", "Zulu"]
    assert _rows(tiny, min="CORE") == ["Newest", "Zulu"]


def test_method_strongest_model_count_and_treatments(tiny: Api) -> None:
    document = """
    query M($slug: String!) {
      method(slug: $slug) {
        strongest modelCount node { slug }
        treatments { model { name } strength evidence { strength } }
        used: treatments(minStrength: USED) { model { name } }
      }
    }"""
    alpha = tiny.query(document, {"slug": "alpha"})["method"]
    assert alpha["strongest"] == "CORE"
    assert alpha["modelCount"] == 2
    assert alpha["node"] == {"slug": "gamma"}
    assert alpha["treatments"] == [
        {
            "model": {"name": "Newest"},
            "strength": "CORE",
            "evidence": [{"strength": "MENTIONED"}, {"strength": "CORE"}],
        },
        {
            "model": {"name": "yankee"},
            "strength": "MENTIONED",
            "evidence": [{"strength": "MENTIONED"}],
        },
    ]
    assert alpha["used"] == [{"model": {"name": "Newest"}}]
    lonely = tiny.query(document, {"slug": "m-lonely"})["method"]
    assert (lonely["strongest"], lonely["modelCount"], lonely["treatments"]) == (None, 0, [])


def test_model_profile_by_branch_and_its_treatments(tiny: Api) -> None:
    document = """
    {
      model(slug: "tie-b") {
        branches { node { slug } strongest methodCount }
        treatments { totalCount nodes { method { name } strength } }
      }
    }"""
    bravo = tiny.query(document)["model"]
    assert bravo["branches"] == [
        {"node": {"slug": "alpha"}, "strongest": "USED", "methodCount": 1},  # Charlie method
        {"node": {"slug": "zeta"}, "strongest": "CORE", "methodCount": 1},  # Zed method
    ]
    assert bravo["treatments"]["nodes"] == [
        {"method": {"name": "Zed method"}, "strength": "CORE"},
        {"method": {"name": "Charlie method"}, "strength": "USED"},
    ]
    within = tiny.query(
        'query W($n: ID!) { model(slug: "tie-b") { treatments(within: $n) { totalCount } } }',
        {"n": encode_id("Node", "zeta")},
    )
    assert within["model"]["treatments"]["totalCount"] == 1


@pytest.mark.parametrize(
    ("model", "node", "methods"),
    [
        ("newest", "alpha", ["alpha method", "Bravo method"]),  # both filed at gamma, below
        ("newest", "beta", ["alpha method", "Bravo method"]),
        ("newest", "gamma", ["alpha method", "Bravo method"]),
        ("newest", "delta", []),  # gamma's uncle
        ("tie-b", "alpha", ["Charlie method"]),
        ("tie-b", "gamma", []),  # Charlie method is filed at beta, gamma's parent
        ("tie-b", "zeta", ["Zed method"]),
        ("undated-y", "beta", ["alpha method", "Charlie method"]),  # both MENTIONED: by name
    ],
)
def test_model_treatments_within_a_branch(
    tiny: Api, model: str, node: str, methods: list[str]
) -> None:
    """`within` takes the node and everything below it, nothing beside or above it."""
    found = tiny.query(
        "query W($m: String!, $n: ID!) {"
        " model(slug: $m) { treatments(within: $n) { totalCount nodes { method { name } } } } }",
        {"m": model, "n": encode_id("Node", node)},
    )["model"]["treatments"]
    assert [row["method"]["name"] for row in found["nodes"]] == methods
    assert found["totalCount"] == len(methods)


def test_methods_here_and_in_branch(tiny: Api) -> None:
    document = """
    query($scope: Scope!) {
      node(slug: "beta") { methods(scope: $scope) { totalCount nodes { name } } }
    }"""
    here = tiny.query(document, {"scope": "HERE"})["node"]["methods"]
    assert here == {"totalCount": 1, "nodes": [{"name": "Charlie method"}]}
    branch = tiny.query(document, {"scope": "BRANCH"})["node"]["methods"]
    names = ["alpha method", "Bravo method", "Charlie method", "Lonely method"]
    assert branch == {"totalCount": 4, "nodes": [{"name": n} for n in names]}


def test_pages_walk_the_whole_list_in_order(tiny: Api) -> None:
    document = """
    query($after: String) {
      methods(first: 2, after: $after) {
        totalCount
        edges { cursor node { name } }
        pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      }
    }"""
    names, after, pages = [], None, 0
    while True:
        page = tiny.query(document, {"after": after})["methods"]
        pages += 1
        assert page["totalCount"] == 7
        assert page["pageInfo"]["hasPreviousPage"] is (after is not None)
        assert page["pageInfo"]["startCursor"] == page["edges"][0]["cursor"]
        names += [edge["node"]["name"] for edge in page["edges"]]
        if not page["pageInfo"]["hasNextPage"]:
            break
        after = page["pageInfo"]["endCursor"]
    assert pages == 4
    assert names == [
        "alpha method",
        "Bravo method",
        "Charlie method",
        "Delta method",
        "Lonely method",
        "Root method",
        "Zed method",
    ]


def test_ids_are_opaque_unique_across_types_and_refetchable(tiny: Api) -> None:
    document = """
    {
      node(slug: "alpha") { id }
      method(slug: "alpha") { id }
    }"""
    ids = tiny.query(document)
    node_id, method_id = ids["node"]["id"], ids["method"]["id"]
    assert node_id != method_id
    assert "alpha" not in node_id
    assert "alpha" not in method_id
    refetch = """
    query($id: ID!) {
      entity(id: $id) { __typename ... on Node { slug } ... on Method { slug } }
    }"""
    assert tiny.query(refetch, {"id": node_id})["entity"] == {"__typename": "Node", "slug": "alpha"}
    assert tiny.query(refetch, {"id": method_id})["entity"] == {
        "__typename": "Method",
        "slug": "alpha",
    }
