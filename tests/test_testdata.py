"""The two real datasets in ../shared/testdata load and are served right: every figure is
compared with `reference.py`, which computes it from the JSONL files independently."""

from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

from conftest import DATASETS, Api
from reference import NodeFigures, Reference

NODE_FIGURES = """
query Figures($slug: String!) {
  node(slug: $slug) {
    slug name level path slugPath
    counts {
      methodsInBranch methodsFiledHere modelsInBranch evidenceInBranch childCount
      descendantCount treatmentsByStrength { core used mentioned }
      methodsByStrongest { core used mentioned }
    }
  }
}
"""

BY_MODEL_PAGE = """
query ByModel($slug: String!, $after: String) {
  node(slug: $slug) {
    byModel(first: 100, after: $after) {
      totalCount
      pageInfo { hasNextPage endCursor }
      nodes {
        model { slug name }
        strongest
        methodCount
        methods { method { name } strength }
      }
    }
  }
}
"""

METHOD_FIGURES = """
query Method($slug: String!) { method(slug: $slug) { strongest modelCount } }
"""

TOTALS = """
{ taxonomy { nodeCount rootCount depth methodCount modelCount sourceCount evidenceCount } }
"""


@cache
def reference(dataset: str) -> Reference:
    return Reference.from_dir(DATASETS[dataset])


@pytest.fixture(params=["pwc", "go"])
def dataset(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def served(api_for: Callable[[str, str], Api], backend: str, dataset: str) -> Api:
    return api_for(backend, dataset)


def _as_figures(node: dict[str, Any]) -> NodeFigures:
    counts = node["counts"]
    by_strength = counts["treatmentsByStrength"]
    return NodeFigures(
        slug=node["slug"],
        name=node["name"],
        level=node["level"],
        path=node["path"],
        slug_path=node["slugPath"],
        methods_in_branch=counts["methodsInBranch"],
        methods_filed_here=counts["methodsFiledHere"],
        models_in_branch=counts["modelsInBranch"],
        evidence_in_branch=counts["evidenceInBranch"],
        child_count=counts["childCount"],
        descendant_count=counts["descendantCount"],
        core=by_strength["core"],
        used=by_strength["used"],
        mentioned=by_strength["mentioned"],
    )


def _by_model(api: Api, slug: str) -> list[tuple[str, str, str, tuple[tuple[str, str], ...]]]:
    rows, after = [], None
    while True:
        page = api.query(BY_MODEL_PAGE, {"slug": slug, "after": after})["node"]["byModel"]
        for row in page["nodes"]:
            assert row["methodCount"] == len(row["methods"])
            rows.append(
                (
                    row["model"]["slug"],
                    row["model"]["name"],
                    row["strongest"],
                    tuple((m["method"]["name"], m["strength"]) for m in row["methods"]),
                )
            )
        if not page["pageInfo"]["hasNextPage"]:
            assert page["totalCount"] == len(rows)
            return rows
        after = page["pageInfo"]["endCursor"]


def _nodes_to_check(ref: Reference) -> list[str]:
    deep_with_models = [s for s in ref.deepest(60) if ref.node(s).models_in_branch][:4]
    return ref.roots() + ref.deepest(3) + deep_with_models


def test_totals(served: Api, dataset: str) -> None:
    ref = reference(dataset)
    totals = served.query(TOTALS)["taxonomy"]
    deepest = ref.node(ref.deepest(1)[0])
    assert totals["rootCount"] == len(ref.roots())
    assert totals["depth"] == deepest.level
    # Every node is in exactly one root's branch (plus the root itself).
    assert totals["nodeCount"] == sum(ref.node(r).descendant_count + 1 for r in ref.roots())
    assert totals["methodCount"] == sum(ref.node(r).methods_in_branch for r in ref.roots())
    assert totals["evidenceCount"] == sum(ref.node(r).evidence_in_branch for r in ref.roots())


def test_node_figures_match_the_reference(served: Api, dataset: str) -> None:
    ref = reference(dataset)
    for slug in _nodes_to_check(ref):
        node = served.query(NODE_FIGURES, {"slug": slug})["node"]
        assert _as_figures(node) == ref.node(slug), slug
        assert node["counts"]["methodsByStrongest"] == ref.methods_by_strongest(slug), slug


def test_by_model_rows_match_the_reference(served: Api, dataset: str) -> None:
    ref = reference(dataset)
    largest_root = max(ref.roots(), key=lambda slug: ref.node(slug).models_in_branch)
    for slug in [largest_root, *_nodes_to_check(ref)[-4:]]:
        expected = [
            (row.model_slug, row.model_name, row.strongest, row.methods)
            for row in ref.by_model(slug)
        ]
        assert _by_model(served, slug) == expected, slug


def test_method_figures_match_the_reference(served: Api, dataset: str) -> None:
    ref = reference(dataset)
    slugs = ref.method_slugs()[::40]  # a spread sample of methods
    for slug in slugs:
        method = served.query(METHOD_FIGURES, {"slug": slug})["method"]
        assert method == {
            "strongest": ref.method_strongest(slug),
            "modelCount": ref.method_model_count(slug),
        }, slug
