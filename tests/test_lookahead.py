"""Looking ahead (schema/lookahead.py): a list fetches its items' sub-lists early only when
the query asks for them, however the query is written; the answers never depend on it."""

import json
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any
from unittest.mock import patch

import pytest
import strawberry
from strawberry.types.info import Info as StrawberryInfo

from api.settings import DEFAULT_FIXTURES_DIR
from schema.context import Info
from schema.lookahead import selects
from schema.pagination import DEFAULT_PAGE_SIZE

from conftest import Api, serve, versioned
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
    # What the look-ahead keeps of a request in its context (Context.selections).
    result = probe_schema.execute_sync(document, context_value=SimpleNamespace(selections={}))
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
    ...Id name level path matchingAids
    counts { methodsInBranch methodsFiledHere modelsInBranch }
    children { ...Id name counts { methodsInBranch methodsFiledHere } }
    byModel(first: 100) { ...Rows }
  }
}
fragment Id on Entity { id }
fragment Rows on ModelTreatmentConnection {
  nodes { ...Id model { ...Id name } strongest ...Methods }
}
fragment Methods on ModelTreatment {
  ... { methodCount methodsConnection(first: 20) { nodes { ...Id method { id name } strength } } }
}
"""
ROW_METHODS = "methods { id method { id name } strength }"


def test_answers_are_the_same_inline_or_through_fragments(api: Api) -> None:
    variables = {"path": "optimization/training-parallelism"}
    assert api.query(SEED_PAGE_THROUGH_FRAGMENTS, variables) == api.query(NODE_PAGE, variables)
    # The rows' deprecated plain list, read ahead the same through a fragment.
    through_rows = api.query(
        BY_MODEL % "...M" + f" fragment M on ModelTreatment {{ {ROW_METHODS} }}", variables
    )
    assert through_rows == api.query(BY_MODEL % ROW_METHODS, variables)
    inline = api.query(METHODS % "treatments { strength model { name } }")
    through = api.query(
        METHODS % "...T" + " fragment T on Method { treatments { strength model { name } } }"
    )
    assert through == inline


def _nested_children(levels: int, leaf: str = "name counts { methodsInBranch }") -> str:
    selection = leaf
    for _ in range(levels):
        selection = f"name counts {{ methodsInBranch }} children {{ {selection} }}"
    return selection


def test_a_tree_fetched_ahead_is_the_tree_fetched_level_by_level(api: Api) -> None:
    """`roots` fetches the nested `children` ahead; `node` leaves each level to its loader.
    Both give the same tree, leaves (empty `children`) included, down to every level asked."""
    for levels in (1, 2, 3):
        ahead = api.query(f"{{ roots {{ slug {_nested_children(levels)} }} }}")["roots"]
        assert ahead, "the fixtures have roots"
        for root in ahead:
            by_level = api.query(
                f'{{ node(slug: "{root["slug"]}") {{ slug {_nested_children(levels)} }} }}'
            )["node"]
            assert by_level == root
    assert "'children': []" in str(ahead), "the fixtures' tree has leaves above depth 3"


def test_a_tree_costs_one_statement_at_any_depth(api: Api) -> None:
    """The roots and every level of `children` below them come in one statement."""
    assert api.count_statements("{ roots { name } }") == 1
    depths = {
        levels: api.count_statements(f"{{ roots {{ {_nested_children(levels)} }} }}")
        for levels in (1, 2, 3)
    }
    assert depths == {1: 1, 2: 1, 3: 1}
    through_fragment = api.count_statements(
        "{ roots { ...N } } fragment N on Node { children { ... { children { name } } } }"
    )
    assert through_fragment == 1


def test_json_columns_are_served_as_loaded(api: Api) -> None:
    """Aliases and matching aids (JSON columns, which records keep as text until a field
    shows them) come out as the lists the files hold, on every page that reads them."""
    files = DEFAULT_FIXTURES_DIR
    aliases = {
        row["slug"]: row.get("aliases", [])
        for row in map(json.loads, (files / "methods.jsonl").read_text().splitlines())
    }
    aids = {
        row["slug"]: row.get("matching_aids", [])
        for row in map(json.loads, (files / "nodes.jsonl").read_text().splitlines())
    }
    assert any(aliases.values()), "the fixtures have methods with aliases"
    assert any(aids.values()), "the fixtures have nodes with matching aids"
    served: list[dict[str, Any]] = []
    after = None
    while True:
        page = api.query(
            "query ($after: String) { methods(first: 100, after: $after) {"
            " nodes { slug aliases node { slug matchingAids } } pageInfo { endCursor hasNextPage }"
            " } }",
            {"after": after},
        )["methods"]
        served += page["nodes"]
        if not page["pageInfo"]["hasNextPage"]:
            break
        after = page["pageInfo"]["endCursor"]
    assert {method["slug"]: method["aliases"] for method in served} == aliases
    for method in served:
        assert method["node"]["matchingAids"] == aids[method["node"]["slug"]]
    tree = api.query("{ roots { slug matchingAids children { slug matchingAids } } }")
    for root in tree["roots"]:
        for node in [root, *root["children"]]:
            assert node["matchingAids"] == aids[node["slug"]]


LISTS: dict[str, tuple[str, Callable[[dict[str, Any]], dict[str, Any]]]] = {
    "byModel": (
        'query ($after: String) { node(path: "optimization") { byModel(first: 7, after: $after)'
        " { totalCount nodes { model { slug } } pageInfo { endCursor hasNextPage } } } }",
        lambda data: data["node"]["byModel"],
    ),
    "methods": (
        "query ($after: String) { methods(first: 40, after: $after, orderBy: {field: MODEL_COUNT})"
        " { totalCount nodes { slug } pageInfo { endCursor hasNextPage } } }",
        lambda data: data["methods"],
    ),
    "models": (
        "query ($after: String) { models(first: 10, after: $after)"
        " { totalCount nodes { slug } pageInfo { endCursor hasNextPage } } }",
        lambda data: data["models"],
    ),
}


@pytest.mark.parametrize("name", list(LISTS))
def test_a_first_page_brings_its_total_with_it(api: Api, name: str) -> None:
    """`totalCount` of a first page comes with the page (no statement of its own); on a
    later page it is counted apart; both are the list's length."""
    document, connection = LISTS[name]
    without_total = document.replace(" totalCount", "")
    assert api.count_statements(document, {"after": None}) == api.count_statements(
        without_total, {"after": None}
    )
    totals, seen, after = [], [], None
    while True:
        page = connection(api.query(document, {"after": after}))
        totals.append(page["totalCount"])
        seen += page["nodes"]
        if not page["pageInfo"]["hasNextPage"]:
            break
        after = page["pageInfo"]["endCursor"]
    assert len(totals) > 1, "the list spans several pages"
    assert set(totals) == {len(seen)}


def test_an_empty_first_page_has_a_total_of_zero(api: Api) -> None:
    data = api.query('{ methods(filter: {nameContains: "no such method"}) { totalCount } }')
    assert data == {"methods": {"totalCount": 0}}


@pytest.mark.parametrize(
    "lookup", ['node(path: "optimization/training-parallelism")', 'node(slug: "optimization")']
)
def test_a_node_looked_up_brings_its_counts(api: Api, lookup: str) -> None:
    name_only = api.count_statements(f"{{ {lookup} {{ name }} }}")
    with_counts = api.count_statements(f"{{ {lookup} {{ name counts {{ methodsInBranch }} }} }}")
    assert with_counts == name_only == 1


@pytest.fixture
def conversions() -> Iterator[list[tuple[str, str]]]:
    """Each conversion of a field's selections by Strawberry (`Info.selected_fields`), as
    (parent type, field)."""
    converted: list[tuple[str, str]] = []
    convert = vars(StrawberryInfo)["selected_fields"].func  # the cached_property's function

    def counted(info: StrawberryInfo) -> Any:
        converted.append((str(info.path.typename), info.field_name))
        return convert(info)

    with patch.object(StrawberryInfo, "selected_fields", property(counted)):
        yield converted


def test_the_items_of_a_list_share_one_look_ahead(
    api: Api, conversions: list[tuple[str, str]]
) -> None:
    """Each row of a By-model page looks ahead at its methods: the rows are items of one
    field of the query, whose selections are converted once for them all."""
    answer = api.execute(
        BY_MODEL % "methodsConnection(first: 3) { totalCount nodes { method { slug } } }",
        {"path": "optimization"},
    )
    assert not answer.errors, answer.errors
    rows = answer.data["node"]["byModel"]["nodes"]
    assert len(rows) > 10, "a page of many rows, each looking ahead"
    assert all(row["methodsConnection"]["nodes"] for row in rows)
    assert conversions.count(("ModelTreatment", "methodsConnection")) == 1, conversions


# `first` at its default beside `last` is refused only where the query gives it: the
# look-ahead reads each operation's own arguments, in a batch whose operations share one
# request and its context.
GIVES_FIRST = "query ($first: Int) { methods(first: $first, last: 1) { nodes { slug } } }"
LEAVES_FIRST = "{ methods(last: 1) { nodes { slug } } }"


@pytest.mark.parametrize("order", [(GIVES_FIRST, LEAVES_FIRST), (LEAVES_FIRST, GIVES_FIRST)])
def test_batched_operations_look_ahead_at_their_own_arguments(
    tiny: Api, order: tuple[str, str]
) -> None:
    with serve(tiny.database_url, batching_max_operations=2) as client:
        batch = [
            {"query": query, "variables": {"first": DEFAULT_PAGE_SIZE} if "$" in query else {}}
            for query in order
        ]
        answers = {
            query: answer
            for query, answer in zip(
                order, versioned(client.post("/graphql", json=batch).json()), strict=True
            )
        }
    assert answers[LEAVES_FIRST] == {"data": {"methods": {"nodes": [{"slug": "m-zed"}]}}}
    refused = answers[GIVES_FIRST]
    assert refused["data"] == {"methods": None}, refused
    assert "`first` and `last` were both given" in refused["errors"][0]["message"]
