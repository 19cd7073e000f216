"""Looking ahead (schema/lookahead.py): a list fetches its items' sub-lists early only when
the query asks for them, however the query is written; the answers never depend on it."""

from typing import Any

import pytest
import strawberry

from schema.context import Info
from schema.lookahead import selects

from conftest import Api
from seed_page import NODE_PAGE

PATHS = (("nodes", "methods"), ("nodes", "treatments"), ("nodes",), ("methods",))


@strawberry.type
class Item:
    methods: int = 0
    treatments: int = 0


@strawberry.type
class Page:
    nodes: list[Item]


seen: list[dict[tuple[str, ...], bool]] = []


@strawberry.type
class Probe:
    @strawberry.field
    def page(self, info: Info) -> Page:
        seen.append({path: selects(info, *path) for path in PATHS})
        return Page(nodes=[Item()])


probe_schema = strawberry.Schema(query=Probe)


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        ("{ page { nodes { methods } } }", {("nodes", "methods"), ("nodes",)}),
        ("{ page { nodes { treatments } } }", {("nodes", "treatments"), ("nodes",)}),
        ("{ page { nodes { __typename } } }", {("nodes",)}),
        ("{ page { __typename } }", set()),
        # aliases do not hide a field; fragments, named or inline, are looked through
        ("{ page { items: nodes { m: methods } } }", {("nodes", "methods"), ("nodes",)}),
        (
            "{ page { ...P } } fragment P on Page { nodes { ...I } } "
            "fragment I on Item { methods }",
            {("nodes", "methods"), ("nodes",)},
        ),
        (
            "{ page { ... on Page { nodes { ... { treatments } } } } }",
            {("nodes", "treatments"), ("nodes",)},
        ),
    ],
)
def test_selects_sees_what_the_query_asks_for(document: str, expected: set[Any]) -> None:
    seen.clear()
    result = probe_schema.execute_sync(document)
    assert result.errors is None, result.errors
    assert seen == [{path: path in expected for path in PATHS}]


BY_MODEL = """
query ($path: String!) {
  node(path: $path) { byModel(first: 50) { nodes { model { name } strongest %s } } }
}
"""
METHODS = "{ methods(first: 50) { nodes { name %s } } }"


def test_sub_lists_not_asked_for_are_not_fetched(api: Api) -> None:
    variables = {"path": "optimization/training-parallelism"}
    without = api.count_statements(BY_MODEL % "", variables)
    with_methods = api.count_statements(BY_MODEL % "methods { method { name } }", variables)
    assert with_methods == without + 1
    assert api.count_statements(METHODS % "treatments { strength }") == (
        api.count_statements(METHODS % "") + 1
    )


SEED_PAGE_THROUGH_FRAGMENTS = """
query NodePage($path: String!) {
  node(path: $path) {
    name level path matchingAids
    counts { methodsInBranch methodsFiledHere modelsInBranch }
    children { name counts { methodsInBranch methodsFiledHere } }
    byModel(first: 100) { ...Rows }
  }
}
fragment Rows on ModelTreatmentConnection { nodes { model { name } strongest ...Methods } }
fragment Methods on ModelTreatment { ... { methods { method { name } strength } } }
"""


def test_answers_are_the_same_inline_or_through_fragments(api: Api) -> None:
    variables = {"path": "optimization/training-parallelism"}
    assert api.query(SEED_PAGE_THROUGH_FRAGMENTS, variables) == api.query(NODE_PAGE, variables)
    inline = api.query(METHODS % "treatments { strength model { name } }")
    through = api.query(
        METHODS % "...T" + " fragment T on Method { treatments { strength model { name } } }"
    )
    assert through == inline
