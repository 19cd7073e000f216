"""A query's work grows with its answer, not with the data around it.

Two datasets differ only in how many methods a prolific model treats in one large root
(100 or 10,000); the queries below ask for answers that do not include those methods.
The work is counted as SQLite counts it, in virtual machine instructions (a progress
handler on each request's connection), so the measure is exact and repeatable, unlike
time. Statement counts alone (tests/test_query_count.py) cannot see a statement whose
plan walks a whole branch.
"""

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from store.reader import InLoopReader, sqlite_connection

from conftest import Api
from tiny_dataset import write_files

# SQLite calls the handler every this many instructions of a statement (its count starts
# again with each statement): a step of 100 counted a request of a few small statements as
# nothing at all, so the step is small enough to see each one.
_STEP = 5

# The newest model's By-model row in the large root: one method, whatever else the root
# holds. And the prolific model's treatments in the small root: one method too.
BY_MODEL_PAGE = """
query ($slug: String!) {
  node(slug: $slug) {
    byModel(first: 1) { nodes { model { name } strongest methods { method { name } strength } } }
  }
}
"""
TREATMENTS_WITHIN = """
query ($within: ID!) {
  model(slug: "prolific") {
    treatments(within: $within) { nodes { method { name } strength } }
  }
}
"""

# A page of the prolific model's treatments (its first, or the one after): the same
# methods in both datasets (`Filler 00000` ... come first by name), read off the index by
# model, strength and method name rank, whatever the model's other treatments.
TREATMENTS_PAGE = """
query ($after: String) {
  model(slug: "prolific") {
    treatments(first: 2, after: $after) {
      nodes { method { name } strength }
      pageInfo { endCursor hasNextPage hasPreviousPage }
    }
  }
}
"""

# The prolific model's first methods in the large root (the first `Filler`s by name, in
# both datasets), as a By-model row lists them and as a page of its treatments there:
# with 10,000 in the branch, read in order off the (model, strength, name rank) index;
# with 100, sorted off the (model, node_pre) index (store.treatments.SCAN_FROM). Sorting
# the 10,000 read them all for every page.
BY_MODEL_ROWS_METHODS = """
query ($slug: String!) {
  node(slug: $slug) {
    byModel(first: 2, orderBy: {field: METHOD_COUNT}) {
      nodes { model { name } methodsConnection(first: 2) { nodes { method { name } } } }
    }
  }
}
"""
TREATMENTS_IN_BRANCH_PAGE = """
query ($after: String) {
  model(slug: "prolific") {
    treatments(branch: {slug: "big"}, first: 2, after: $after) {
      nodes { method { name } strength }
      pageInfo { endCursor hasNextPage hasPreviousPage }
    }
  }
}
"""

STRENGTHS = ("core", "used", "mentioned")


def _write(folder: Path, filler: int) -> Path:
    """Roots `big` (one method of `newest` and ``filler`` of `prolific`, their strengths in
    turn) and `small` (one method of `prolific`)."""
    methods = [
        {"slug": "newest-method", "name": "Newest method", "node": "big"},
        {"slug": "small-method", "name": "Small method", "node": "small"},
    ] + [{"slug": f"filler-{i}", "name": f"Filler {i:05d}", "node": "big"} for i in range(filler)]
    evidence = [
        {"model": "newest", "method": "newest-method", "strength": "core"},
        {"model": "prolific", "method": "small-method", "strength": "used"},
    ] + [
        {"model": "prolific", "method": f"filler-{i}", "strength": STRENGTHS[i % 3]}
        for i in range(filler)
    ]
    files: dict[str, list[dict[str, Any]]] = {
        "nodes": [
            {"slug": "big", "name": "Big", "parent": None, "matching_aids": []},
            {"slug": "small", "name": "Small", "parent": None, "matching_aids": []},
        ],
        "models": [
            {"slug": "newest", "name": "Newest", "release_date": "2026-01-01"},
            {"slug": "prolific", "name": "Prolific", "release_date": "2020-01-01"},
        ],
        "sources": [],
        "methods": methods,
        "evidence": evidence,
    }
    return write_files(folder, files)


@pytest.fixture(scope="module")
def datasets(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("cost")
    return {"small": _write(base / "small", 100), "large": _write(base / "large", 10_000)}


@pytest.fixture
def instructions(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts, in steps of `_STEP`, the SQLite instructions of every request's statements."""
    counted = [0]
    opened = InLoopReader._open

    def counting_open(self: InLoopReader) -> Any:
        connection = opened(self)

        def tick() -> int:
            counted[0] += _STEP
            return 0  # go on

        sqlite_connection(connection).set_progress_handler(tick, _STEP)
        return connection

    monkeypatch.setattr(InLoopReader, "_open", counting_open)
    return counted


def _cost(api: Api, counted: list[int], document: str, variables: dict[str, Any]) -> int:
    counted[0] = 0
    result = api.execute(document, variables)
    assert not result.errors, result.errors
    return counted[0]


def _within_id(api: Api) -> str:
    node_id: str = api.query('{ node(slug: "small") { id } }')["node"]["id"]
    return node_id


def _after_first_page(api: Api, document: str = TREATMENTS_PAGE) -> dict[str, Any]:
    first = api.query(document, {"after": None})
    return {"after": first["model"]["treatments"]["pageInfo"]["endCursor"]}


def _after_first_page_in_branch(api: Api) -> dict[str, Any]:
    return _after_first_page(api, TREATMENTS_IN_BRANCH_PAGE)


@pytest.mark.parametrize(
    ("document", "variables"),
    [
        (BY_MODEL_PAGE, lambda api: {"slug": "big"}),
        (TREATMENTS_WITHIN, lambda api: {"within": _within_id(api)}),
        (TREATMENTS_PAGE, lambda api: {"after": None}),
        (TREATMENTS_PAGE, _after_first_page),
        (BY_MODEL_ROWS_METHODS, lambda api: {"slug": "big"}),
        (TREATMENTS_IN_BRANCH_PAGE, lambda api: {"after": None}),
        (TREATMENTS_IN_BRANCH_PAGE, _after_first_page_in_branch),
    ],
    ids=[
        "by-model-row-in-a-large-branch",
        "model-treatments-within-a-small-branch",
        "model-treatments-first-page",
        "model-treatments-second-page",
        "by-model-rows-methods-of-a-large-branch",
        "model-treatments-in-a-large-branch-first-page",
        "model-treatments-in-a-large-branch-second-page",
    ],
)
def test_work_does_not_grow_with_what_the_answer_leaves_out(
    document: str,
    variables: Callable[[Api], dict[str, Any]],
    datasets: dict[str, Path],
    api_for: Callable[[str, str], Api],
    instructions: list[int],
) -> None:
    costs, answers = {}, {}
    for size, folder in datasets.items():
        api = api_for("sqlite", str(folder))
        # The search catalogue is built in the background when a server starts, through
        # readers of its own: a search waits for it, so that none of its reads is counted.
        api.query('{ search(query: "method", first: 1) { totalCount } }')
        values = variables(api)
        answers[size] = api.execute(document, values).data
        costs[size] = _cost(api, instructions, document, values)
    assert answers["small"] == answers["large"]
    assert costs["small"] > 0, "the progress handler counted nothing"
    # 100 times the data left out; the work may wobble (page sizes, B-tree depth), not grow.
    assert costs["large"] < 2 * costs["small"], costs


TREATMENTS_IN_BIG = """
query ($first: Int, $after: String, $last: Int, $before: String) {
  model(slug: "prolific") {
    treatments(branch: {slug: "big"}, first: $first, after: $after, last: $last, before: $before) {
      totalCount
      nodes { method { name } strength }
      pageInfo { startCursor endCursor hasNextPage hasPreviousPage }
    }
  }
}
"""


def test_a_large_branchs_treatments_page_both_ways_in_the_lists_order(
    backend: str, datasets: dict[str, Path], api_for: Callable[[str, str], Api]
) -> None:
    """The 10,000 treatments of `prolific` in `big` are read in order off the (model,
    strength, name rank) index (store.treatments.SCAN_FROM): their pages, forward from the
    start to the end and back from the end, hold the list's rows in its order, strongest
    first then by name, each once, on both databases."""
    api = api_for(backend, str(datasets["large"]))
    expected = [
        (STRENGTHS[rank].upper(), f"Filler {i:05d}")
        for rank, i in sorted((i % 3, i) for i in range(10_000))
    ]

    def page(**window: Any) -> tuple[list[tuple[str, str]], dict[str, Any], int]:
        found = api.query(TREATMENTS_IN_BIG, window)["model"]["treatments"]
        rows = [(row["strength"], row["method"]["name"]) for row in found["nodes"]]
        return rows, found["pageInfo"], found["totalCount"]

    # Forward to the end, a page of 100 at a time: every row once, in order.
    rows, info, total = page(first=100)
    assert (info["hasPreviousPage"], total) == (False, 10_000)
    walked = rows
    while info["hasNextPage"]:
        rows, info, _ = page(first=100, after=info["endCursor"])
        assert info["hasPreviousPage"]
        walked += rows
    assert walked == expected
    # Back from the end.
    rows, info, _ = page(last=100)
    assert (rows, info["hasNextPage"], info["hasPreviousPage"]) == (expected[-100:], False, True)
    rows, info, _ = page(last=100, before=info["startCursor"])
    assert (rows, info["hasNextPage"]) == (expected[-200:-100], True)


ALL_METHODS_PAGE = """
query ($order: MethodOrder!) {
  methods(first: 5, orderBy: $order) { totalCount nodes { name } }
}
"""


@pytest.mark.parametrize("field", ["MODEL_COUNT", "STRONGEST", "NAME"])
@pytest.mark.parametrize("direction", ["DESC", "ASC"])
def test_a_page_of_all_methods_in_any_order_does_not_grow_with_the_list(
    field: str,
    direction: str,
    datasets: dict[str, Path],
    api_for: Callable[[str, str], Api],
    instructions: list[int],
) -> None:
    """A page of the whole list of methods, in each order, is read from an index that
    stops after the page, and its total is the one the load recorded: by model count or
    strongest treatment it sorted every method for each page (0.7-2.2 s a page at L)."""
    variables = {"order": {"field": field, "direction": direction}}
    costs, names, totals = {}, {}, {}
    for size, folder in datasets.items():
        api = api_for("sqlite", str(folder))
        api.query('{ search(query: "method", first: 1) { totalCount } }')  # as above
        answer = api.execute(ALL_METHODS_PAGE, variables).data
        assert answer is not None
        names[size] = [method["name"] for method in answer["methods"]["nodes"]]
        totals[size] = answer["methods"]["totalCount"]
        costs[size] = _cost(api, instructions, ALL_METHODS_PAGE, variables)
    assert totals == {"small": 102, "large": 10_002}
    assert len(names["small"]) == len(names["large"]) == 5
    if (field, direction) != ("NAME", "DESC"):  # Z to A starts among the fillers' last
        assert names["small"] == names["large"]
    assert costs["small"] > 0, "the progress handler counted nothing"
    assert costs["large"] < 2 * costs["small"], costs


ORDERED_TREATMENTS_PAGE = """
query (
  $order: TreatmentsOfModelOrder, $minStrength: Strength, $after: String, $branch: NodeRef
) {
  model(slug: "prolific") {
    treatments(
      first: 3, after: $after, orderBy: $order, minStrength: $minStrength, branch: $branch
    ) {
      nodes { method { name node { name } } strength }
      pageInfo { endCursor }
    }
  }
}
"""


@pytest.mark.parametrize("branch", [None, "big"], ids=["all", "in-big"])
@pytest.mark.parametrize("min_strength", [None, "CORE"])
@pytest.mark.parametrize("second", [False, True], ids=["first-page", "second-page"])
@pytest.mark.parametrize("direction", ["DESC", "ASC"])
@pytest.mark.parametrize("field", ["STRONGEST", "NAME", "NODE"])
def test_a_page_of_a_models_methods_in_any_order_does_not_grow_with_the_list(
    field: str,
    direction: str,
    second: bool,
    min_strength: str | None,
    branch: str | None,
    datasets: dict[str, Path],
    api_for: Callable[[str, str], Api],
    instructions: list[int],
) -> None:
    """A page of the prolific model's methods (100 or 10,000 of them), in each order of
    `Model.treatments(orderBy:)` both ways, with and without `minStrength`, the first page
    or the one after it, is read off the order's index of treatment and stops after the
    page (migration 0016): sorting them all cost 330-630 ms a page at size L. So is a
    page of those in the large root `big` (100 or 10,000 of them: sorted off the branch's
    range below store.treatments.SCAN_FROM, read in order from it)."""
    order = {"field": field, "direction": direction}
    costs, pages = {}, {}
    for size, folder in datasets.items():
        api = api_for("sqlite", str(folder))
        api.query('{ search(query: "method", first: 1) { totalCount } }')  # as above
        variables: dict[str, Any] = {
            "order": order,
            "minStrength": min_strength,
            "after": None,
            "branch": branch and {"slug": branch},
        }
        if second:
            first = api.query(ORDERED_TREATMENTS_PAGE, variables)["model"]["treatments"]
            variables["after"] = first["pageInfo"]["endCursor"]
        answer = api.execute(ORDERED_TREATMENTS_PAGE, variables).data
        assert answer is not None
        pages[size] = answer["model"]["treatments"]["nodes"]
        costs[size] = _cost(api, instructions, ORDERED_TREATMENTS_PAGE, variables)
    assert len(pages["small"]) == len(pages["large"]) == 3
    assert costs["small"] > 0, "the progress handler counted nothing"
    assert costs["large"] < 2 * costs["small"], costs
