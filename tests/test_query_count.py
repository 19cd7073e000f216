"""No N+1: the SQL statements a query runs do not grow with the data. Each query runs on a
small synthetic dataset and on one ten times larger; the counts must be equal and within a
fixed bound."""

from collections.abc import Callable
from pathlib import Path

import pytest

from api.commands.generate import Shape, generate
from api.endpoint.operations import operation
from api.pages.browser import persisted_documents

from conftest import Api

SMALL = Shape(nodes=40, methods=150, models=30, evidence=500, depth=4)
LARGE = Shape(nodes=400, methods=1500, models=300, evidence=5000, depth=4)

# Deeper than the example operations, on purpose: four levels of nested children, and a
# page of methods with each one's treatments (a sub-list of every item).
ROOTS_FOUR_LEVELS = """
{
  roots {
    name counts { methodsInBranch modelsInBranch }
    children {
      name counts { methodsInBranch modelsInBranch }
      children {
        name counts { methodsInBranch modelsInBranch }
        children { name counts { methodsInBranch modelsInBranch childCount } }
      }
    }
  }
}
"""

METHODS_WITH_TREATMENTS = """
{
  methods(first: 50, orderBy: {field: MODEL_COUNT, direction: DESC}) {
    totalCount
    nodes { name node { path } strongest modelCount treatments { strength model { name } } }
  }
}
"""

# Every root's adoption curve and a page of methods with theirs and their first model.
ADOPTION = """
{
  roots { name adoption(interval: MONTH) { period models cumulativeModels newMethods } }
  methods(first: 50) {
    nodes { name adoption(minStrength: USED) { period models } firstTreatedBy { name } }
  }
}
"""

# A By-model page with the first methods of every row, paged (`methodsConnection`): the
# first pages of all rows come in one statement, not one each.
BY_MODEL_METHOD_PAGES = """
query ($path: String!) {
  node(path: $path) {
    byModel(first: 100) {
      nodes {
        model { name }
        methodsConnection(first: 3) {
          totalCount
          nodes { strength method { name } }
          pageInfo { hasNextPage endCursor }
        }
      }
    }
  }
}
"""


def browser_document(name: str) -> str:
    """The taxonomy browser's own document of operation ``name``, as its build sent it."""
    found = [doc for doc in persisted_documents().values() if f"query {name}(" in doc]
    assert len(found) == 1, f"the browser's build has {len(found)} documents named {name}"
    return found[0]


# (query, variables, most statements allowed): the bound holds for any size of data.
WORKLOADS = {
    "seed-page": (operation("NodePage"), {"path": "syn-n0"}, 6),
    "tree": (operation("Tree"), None, 8),
    "methods-page": (operation("MethodsPage"), {"first": 50}, 5),
    "roots-four-levels": (ROOTS_FOUR_LEVELS, None, 8),
    "methods-with-treatments": (METHODS_WITH_TREATMENTS, None, 5),
    "adoption": (ADOPTION, None, 5),
    "by-model-method-pages": (BY_MODEL_METHOD_PAGES, {"path": "syn-n0"}, 5),
    # The browser's model and method pages: a page of treatments, each with the first page
    # of its evidence (all of them in one statement, not one per treatment).
    "browser-model-page": (browser_document("BrowserModel"), {"slug": "syn-m0"}, 13),
    "browser-method-page": (browser_document("BrowserMethod"), {"slug": "syn-x0"}, 16),
}


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folders = {}
    for name, shape in (("small", SMALL), ("large", LARGE)):
        folders[name] = tmp_path_factory.mktemp(f"synthetic-{name}")
        generate(folders[name], shape, seed=7)
    return folders


@pytest.mark.parametrize("workload", list(WORKLOADS))
def test_statements_do_not_grow_with_the_data(
    workload: str,
    backend: str,
    synthetic: dict[str, Path],
    api_for: Callable[[str, str], Api],
) -> None:
    document, variables, bound = WORKLOADS[workload]
    for size in ("small", "large"):
        # Something to count: every top-level field found (a node path that names no node
        # would make the count vacuous). Run past the response cache, which the count
        # below must miss.
        answer = api_for(backend, str(synthetic[size])).execute(document, variables)
        assert not answer.errors, answer.errors
        assert all(answer.data.values()), f"{workload}: {answer.data}"
    small = api_for(backend, str(synthetic["small"])).count_statements(document, variables)
    large = api_for(backend, str(synthetic["large"])).count_statements(document, variables)
    assert large == small, f"{workload}: {small} statements on small data, {large} on large"
    assert small <= bound, f"{workload}: {small} statements, bound {bound}"


MODEL_PAGE = """query ($withSources: Boolean!) { model(slug: "kimi-k3") {
  sourcesConnection(first: 100) { nodes { slug } }
  treatments(first: 20) { nodes { method { slug }
    evidenceConnection(first: 3) { nodes { quote source @include(if: $withSources) { slug } } }
  } } } }"""


def test_a_model_pages_evidence_cites_sources_already_read(api: Api) -> None:
    """A model page lists its model's documents and its evidence, which cites them: the
    documents are kept at hand (schema.model), so naming each piece's source reads
    nothing more."""
    with_sources = api.count_statements(MODEL_PAGE, {"withSources": True})
    assert with_sources == api.count_statements(MODEL_PAGE, {"withSources": False})
    data = api.query(MODEL_PAGE, {"withSources": True})["model"]
    listed = {node["slug"] for node in data["sourcesConnection"]["nodes"]}
    cited = {
        piece["source"]["slug"]
        for treatment in data["treatments"]["nodes"]
        for piece in treatment["evidenceConnection"]["nodes"]
        if piece["source"] is not None
    }
    assert cited
    assert cited <= listed


NODE_METHODS = """query ($scope: Scope!, $total: Boolean!) {
  node(path: "optimization") {
    counts { methodsInBranch methodsFiledHere }
    methods(scope: $scope, first: 3, orderBy: {field: STRONGEST}) {
      totalCount @include(if: $total) nodes { slug } } } }"""
# Aliased by the scope: each test's own document, not an answer the response cache keeps.
NODE_ALONE = (
    """{ %s: node(path: "optimization") { counts { methodsInBranch methodsFiledHere } } }"""
)


@pytest.mark.parametrize("scope", ["BRANCH", "HERE"])
def test_a_nodes_method_count_is_the_one_the_node_came_with(api: Api, scope: str) -> None:
    """A node's list of methods costs its page's statement and no more: how many methods
    it holds is in the counts the node brought with it (store.methods: `known`), which its
    totalCount is."""
    alone = api.count_statements(NODE_ALONE % scope.lower())
    for total in (False, True):
        variables = {"scope": scope, "total": total}
        assert api.count_statements(NODE_METHODS, variables) == alone + 1, total
    node = api.query(NODE_METHODS, {"scope": scope, "total": True})["node"]
    counts = node["counts"]
    expected = counts["methodsInBranch"] if scope == "BRANCH" else counts["methodsFiledHere"]
    assert node["methods"]["totalCount"] == expected


DEEP_PATH = "architecture/mixture-of-experts/expert-routing/load-balancing"
BREADCRUMB = ["architecture", "mixture-of-experts", "expert-routing"]
NODE_BY_PATH = """query ($ancestors: Boolean!, $key: String!) { n%s: node(path: $key) {
  slug ancestors @include(if: $ancestors) { slug } } }"""
# Another field that names the same node joins its batch (the browser's node page).
NODE_BY_PATH_AND_BRANCH = """query ($ancestors: Boolean!, $key: String!) { n%s: node(path: $key) {
  slug ancestors @include(if: $ancestors) { slug } }
  organizations(branch: { path: $key }) { name } }"""
METHODS_NODE = """query ($ancestors: Boolean!, $key: String!) { m%s: method(slug: $key) {
  node { slug ancestors @include(if: $ancestors) { slug } } } }"""


@pytest.mark.parametrize(
    ("document", "key"),
    [
        (NODE_BY_PATH, DEEP_PATH),
        (NODE_BY_PATH_AND_BRANCH, DEEP_PATH),
        (METHODS_NODE, "auxiliary-loss-free-load-balancing"),
    ],
    ids=["node-by-path", "node-by-path-and-branch", "a-methods-node"],
)
def test_a_node_and_its_ancestors_are_one_statement(api: Api, document: str, key: str) -> None:
    """A page shows a node with its breadcrumb: the ancestors come in the node's statement
    (a slug path's prefixes; a node id's closure rows, itself at depth 0), not in one of
    their own, and are the same ancestors, root first."""
    counts = [
        api.count_statements(document % index, {"ancestors": ancestors, "key": key})
        for index, ancestors in enumerate((False, True))
    ]
    assert counts[1] == counts[0], counts
    answer = api.query(document % "", {"ancestors": True, "key": key})
    node = answer["n"] if "n" in answer else answer["m"]["node"]
    assert node["slug"] == "load-balancing"
    assert [ancestor["slug"] for ancestor in node["ancestors"]] == BREADCRUMB


@pytest.mark.parametrize("path", ["architecture/no-such-node", "no-such-root/mixture-of-experts"])
def test_a_slug_path_that_names_no_node_is_null_with_its_ancestors_asked(
    api: Api, path: str
) -> None:
    """Prefixes that are nodes do not make a node of a path that names none."""
    answer = api.query(NODE_BY_PATH % "", {"ancestors": True, "key": path})
    assert answer == {"n": None}


METHODS_NODES_BY_ID = """query ($ids: [ID!]!) { e%s: entities(ids: $ids) {
  ... on Method { node { slug ancestors { slug } } } } }"""


def test_the_nodes_of_many_methods_come_with_their_ancestors_in_one_statement(api: Api) -> None:
    """Methods looked up by ID do not bring their nodes: each one's node and ancestors are
    read through one batch for all of them, not a statement per method."""
    methods = api.query("{ methods(first: 40) { nodes { id node { slug } } } }")["methods"]
    ids = [method["id"] for method in methods["nodes"]]
    assert len({method["node"]["slug"] for method in methods["nodes"]}) > 5
    one = api.count_statements(METHODS_NODES_BY_ID % 0, {"ids": ids[:1]})
    assert api.count_statements(METHODS_NODES_BY_ID % 1, {"ids": ids}) == one
