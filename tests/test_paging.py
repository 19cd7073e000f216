"""Paging both ways (issue 16): `first`/`after` forward and `last`/`before` backward on
every connection, `hasPreviousPage`/`hasNextPage` exact on every page (the first, the
last, one in the middle, an empty one), and the orders of the lists (natural directions,
undated models last both ways, ties by name then slug both ways), checked against the
oracle (tests/reference.py) on the fixtures and on a dataset made of ties."""

import base64
import dataclasses
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from graphql import GraphQLObjectType

from schema import default_schema
from schema.limits import WORK

from conftest import DATASETS, Api
from reference import Reference
from tiny_dataset import write_files

PAGE = """totalCount
  edges { cursor node { ITEM } }
  pageInfo { hasNextPage hasPreviousPage startCursor endCursor }"""
VARIABLES = "$first: Int, $after: String, $last: Int, $before: String"
PAGING = "first: $first, after: $after, last: $last, before: $before"
SEED_PATH = "optimization/training-parallelism"


@dataclass(frozen=True)
class Listing:
    """A connection somewhere in a query: ``document`` holds `ARGS` where its arguments
    go (the paging variables, then ``extra``) and `PAGE` where its selection goes; ``path``
    leads to it in the answer; ``item`` selects what tells its items apart."""

    document: str
    path: tuple[str, ...]
    item: str = "id"
    extra: str = ""
    params: dict[str, Any] = dataclasses.field(default_factory=dict)
    # Where the connection is below ``path``, when it is one of a list's items'.
    pick: Callable[[Any], Any] | None = None

    def fetch(self, api: Api, **paging: Any) -> dict[str, Any]:
        arguments = PAGING + (f", {self.extra}" if self.extra else "")
        body = self.document.replace("ARGS", arguments).replace("PAGE", PAGE)
        document = f"query Q({VARIABLES}{self._params()}) {body}".replace("ITEM", self.item)
        data: Any = api.query(document, {**self.params, **paging})
        for name in self.path:
            data = data[name]
        if self.pick is not None:
            data = self.pick(data)
        assert isinstance(data, dict)
        return data

    def _params(self) -> str:
        return "".join(f", ${name}: String!" for name in self.params)

    def everything(self, api: Api) -> tuple[list[Any], list[str]]:
        """The whole list (its items and their cursors), a hundred at a time."""
        items: list[Any] = []
        cursors: list[str] = []
        after = None
        while True:
            page = self.fetch(api, first=100, after=after)
            items += [edge["node"] for edge in page["edges"]]
            cursors += [edge["cursor"] for edge in page["edges"]]
            if not page["pageInfo"]["hasNextPage"]:
                return items, cursors
            after = page["pageInfo"]["endCursor"]


def _check_page(
    page: dict[str, Any], items: list[Any], cursors: list[str], start: int, end: int
) -> None:
    """``page`` holds items[start:end], with exact flags and cursors."""
    assert [edge["node"] for edge in page["edges"]] == items[start:end]
    assert [edge["cursor"] for edge in page["edges"]] == cursors[start:end]
    info = page["pageInfo"]
    assert info["hasPreviousPage"] is (start > 0), (start, end, len(items))
    assert info["hasNextPage"] is (end < len(items)), (start, end, len(items))
    assert info["startCursor"] == (cursors[start] if end > start else None)
    assert info["endCursor"] == (cursors[end - 1] if end > start else None)


def check_both_ways(api: Api, listing: Listing, minimum: int = 3) -> list[Any]:
    """Page ``listing`` forward and backward at a few sizes and between cursors: the same
    items in the same order, exact flags on every page; the whole list is returned."""
    items, cursors = listing.everything(api)
    count = len(items)
    assert count >= minimum, f"{listing.path}: {count} items, too few to page"
    assert listing.fetch(api, first=0)["totalCount"] == count
    sizes = {count // 3 + 1, count} | ({1, 2} if count <= 12 else set())
    for size in sorted(size for size in sizes if size <= 100):
        start, after = 0, None  # forward from the start
        while True:
            page = listing.fetch(api, first=size, after=after)
            _check_page(page, items, cursors, start, min(start + size, count))
            if not page["pageInfo"]["hasNextPage"]:
                break
            start, after = start + size, page["pageInfo"]["endCursor"]
        end, before = count, None  # backward from the end
        while True:
            page = listing.fetch(api, last=size, before=before)
            _check_page(page, items, cursors, max(end - size, 0), end)
            if not page["pageInfo"]["hasPreviousPage"]:
                break
            end, before = end - size, page["pageInfo"]["startCursor"]
    # Between two cursors, from either end: only the items strictly between.
    low, high = 0, min(count - 1, 60)  # at most a page apart
    between = {"after": cursors[low], "before": cursors[high]}
    _check_page(listing.fetch(api, first=100, **between), items, cursors, low + 1, high)
    _check_page(listing.fetch(api, last=100, **between), items, cursors, low + 1, high)
    one = listing.fetch(api, first=1, **between)
    _check_page(one, items, cursors, low + 1, min(low + 2, high))
    one = listing.fetch(api, last=1, **between)
    _check_page(one, items, cursors, max(high - 1, low + 1), high)
    # `first` with `before`: from the start, up to the cursor; `last` with `after` likewise.
    _check_page(listing.fetch(api, first=100, before=cursors[1]), items, cursors, 0, 1)
    _check_page(listing.fetch(api, last=100, after=cursors[-2]), items, cursors, count - 1, count)
    # Empty pages say what lies on either side of their place.
    _check_page(listing.fetch(api, first=0), items, cursors, 0, 0)
    _check_page(listing.fetch(api, last=0), items, cursors, count, count)
    _check_page(listing.fetch(api, after=cursors[-1]), items, cursors, count, count)
    _check_page(listing.fetch(api, last=5, before=cursors[0]), items, cursors, 0, 0)
    _check_page(listing.fetch(api, first=0, after=cursors[0]), items, cursors, 1, 1)
    return items


def _slugs(items: list[dict[str, Any]]) -> list[str]:
    return [item["slug"] for item in items]


ORDERS = [None, "ASC", "DESC"]


def _order(field: str, direction: str | None) -> str:
    return f"orderBy: {{field: {field}" + (f", direction: {direction}" if direction else "") + "}"


def _descending(natural_descending: bool, direction: str | None) -> bool:
    return natural_descending if direction is None else direction == "DESC"


# ---- a dataset made of ties -----------------------------------------------------------------

TIES_MODELS: list[dict[str, Any]] = [
    # Two names equal but for case, released the same day: by slug either way.
    {"slug": "foo-b", "name": "Foo", "release_date": "2024-01-01"},
    {"slug": "foo-a", "name": "foo", "release_date": "2024-01-01"},
    {"slug": "bar", "name": "Bar", "release_date": "2024-01-01"},
    {"slug": "old", "name": "Zulu", "release_date": "2020-06-01"},
    {"slug": "new", "name": "Alpha", "release_date": "2025-06-01"},
    # Undated: last whichever way dates run, among themselves by name, then slug.
    {"slug": "u-b", "name": "undated", "release_date": None},
    {"slug": "u-a", "name": "Undated"},
    {"slug": "aardvark", "name": "Aardvark"},
]
TIES_METHODS: list[dict[str, Any]] = [
    {"slug": "same-b", "name": "Same", "node": "root"},
    {"slug": "same-a", "name": "same", "node": "root"},
    {"slug": "other", "name": "Other", "node": "root"},
    {"slug": "core", "name": "core one", "node": "root"},
    {"slug": "lonely", "name": "Lonely", "node": "root"},  # no model treats it
    {"slug": "lonely-2", "name": "alone", "node": "root"},  # nor this one
]
TIES_EVIDENCE = [
    ("foo-a", "same-b", "used"),
    ("foo-b", "same-a", "used"),
    ("bar", "other", "mentioned"),
    ("old", "other", "used"),
    ("old", "other", "mentioned"),
    ("new", "core", "core"),
    ("u-b", "same-a", "mentioned"),
    ("u-a", "same-b", "mentioned"),
    ("aardvark", "core", "used"),
    ("aardvark", "same-a", "core"),
]


@pytest.fixture(scope="session")
def ties_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_files(
        tmp_path_factory.mktemp("ties"),
        {
            "nodes": [{"slug": "root", "name": "Root", "parent": None, "matching_aids": []}],
            "models": TIES_MODELS,
            "sources": [],
            "methods": TIES_METHODS,
            "evidence": [
                {"model": model, "method": method, "strength": strength}
                for model, method, strength in TIES_EVIDENCE
            ],
        },
    )


@pytest.fixture(params=["fixtures", "ties"])
def dataset(
    request: pytest.FixtureRequest,
    api_for: Callable[[str, str], Api],
    backend: str,
    ties_folder: Path,
) -> tuple[Api, Reference, str]:
    """Each dataset served from each backend, with its oracle and its node to page in."""
    if request.param == "ties":
        return api_for(backend, str(ties_folder)), Reference.from_dir(ties_folder), "root"
    folder = DATASETS["fixtures"]
    return api_for(backend, "fixtures"), Reference.from_dir(folder), SEED_PATH


# ---- orders -----------------------------------------------------------------------------------


@pytest.mark.parametrize("direction", ORDERS)
@pytest.mark.parametrize(
    ("field", "natural_descending"),
    [("NAME", False), ("STRONGEST", True), ("MODEL_COUNT", True)],
)
def test_methods_in_every_order_both_ways(
    dataset: tuple[Api, Reference, str], field: str, natural_descending: bool, direction: str | None
) -> None:
    api, reference, _ = dataset
    listing = Listing("{ methods(ARGS) { PAGE } }", ("methods",), "slug", _order(field, direction))
    expected = reference.methods_ordered(field.lower(), _descending(natural_descending, direction))
    assert _slugs(check_both_ways(api, listing)) == expected


@pytest.mark.parametrize("direction", ORDERS)
@pytest.mark.parametrize(("field", "natural_descending"), [("NAME", False), ("RELEASE_DATE", True)])
def test_models_in_every_order_both_ways(
    dataset: tuple[Api, Reference, str], field: str, natural_descending: bool, direction: str | None
) -> None:
    api, reference, _ = dataset
    listing = Listing("{ models(ARGS) { PAGE } }", ("models",), "slug", _order(field, direction))
    expected = reference.models_ordered(field.lower(), _descending(natural_descending, direction))
    assert _slugs(check_both_ways(api, listing)) == expected


def test_the_ties_in_plain_words(
    api_for: Callable[[str, str], Api], backend: str, ties_folder: Path
) -> None:
    """What the oracle works out, spelled out once for the dataset of ties."""
    api = api_for(backend, str(ties_folder))

    def models(order: str) -> list[str]:
        return _slugs(api.query(f"{{ models({order}) {{ nodes {{ slug }} }} }}")["models"]["nodes"])

    undated = ["aardvark", "u-a", "u-b"]  # Aardvark, then Undated/undated by slug
    same_day = ["bar", "foo-a", "foo-b"]  # Bar, then Foo/foo by slug
    assert models("orderBy: {field: RELEASE_DATE}") == ["new", *same_day, "old", *undated]
    assert models("orderBy: {field: RELEASE_DATE, direction: ASC}") == [
        "old",
        *same_day,
        "new",
        *undated,
    ]
    assert models("orderBy: {field: NAME, direction: DESC}") == [
        "old",  # Zulu
        "u-a",  # Undated and undated: by slug A to Z, also Z to A
        "u-b",
        "foo-a",  # foo and Foo likewise
        "foo-b",
        "bar",
        "new",  # Alpha
        "aardvark",
    ]

    def methods(order: str) -> list[str]:
        answer = api.query(f"{{ methods({order}) {{ nodes {{ slug }} }} }}")
        return _slugs(answer["methods"]["nodes"])

    # Untreated methods last both ways; CORE first by default.
    assert methods("orderBy: {field: STRONGEST}") == [
        "core",
        "same-a",
        "other",
        "same-b",
        "lonely-2",
        "lonely",
    ]
    assert methods("orderBy: {field: STRONGEST, direction: ASC}") == [
        "other",
        "same-b",
        "core",
        "same-a",
        "lonely-2",
        "lonely",
    ]


@pytest.mark.parametrize("direction", ORDERS)
@pytest.mark.parametrize(
    ("field", "natural_descending"),
    [
        ("RELEASE_DATE", True),
        ("NAME", False),
        ("STRONGEST", True),
        ("STRENGTH", True),  # deprecated: the same order as STRONGEST
        ("METHOD_COUNT", True),
    ],
)
def test_by_model_in_every_order_both_ways(
    dataset: tuple[Api, Reference, str], field: str, natural_descending: bool, direction: str | None
) -> None:
    api, reference, path = dataset
    listing = Listing(
        "{ node(path: $path) { byModel(ARGS) { PAGE } } }",
        ("node", "byModel"),
        "model { slug }",
        _order(field, direction),
        {"path": path},
    )
    descending = _descending(natural_descending, direction)
    in_branch = {row.model_slug for row in reference.by_model(path.split("/")[-1])}
    if field in ("RELEASE_DATE", "NAME"):
        expected = reference.models_ordered(field.lower(), descending, in_branch)
    else:
        figures = reference.branch_model_figures(path.split("/")[-1])
        by_name = reference.models_ordered("name", False, in_branch)
        which = 1 if field == "METHOD_COUNT" else 0
        # Sorted by name first: the stable sort by figure keeps name order among ties.
        expected = sorted(
            by_name,
            key=lambda slug: -figures[slug][which] if descending else figures[slug][which],
        )
    rows = check_both_ways(api, listing)
    assert [row["model"]["slug"] for row in rows] == expected


def test_the_seed_pages_order_backward_is_the_oracles(
    api_for: Callable[[str, str], Api], backend: str
) -> None:
    """On PwC, a root's By-model table read backward from its end, a page at a time, is
    the oracle's default order (newest first, undated after, ties by name)."""
    api = api_for(backend, "pwc")
    reference = Reference.from_dir(DATASETS["pwc"])
    slug = max(reference.roots(), key=lambda root: reference.node(root).models_in_branch)
    expected = [row.model_slug for row in reference.by_model(slug)]
    listing = Listing(
        "{ node(slug: $slug) { byModel(ARGS) { PAGE } } }",
        ("node", "byModel"),
        "model { slug }",
        params={"slug": slug},
    )
    rows: list[str] = []
    before = None
    while True:
        page = listing.fetch(api, last=100, before=before)
        rows[:0] = [edge["node"]["model"]["slug"] for edge in page["edges"]]
        if not page["pageInfo"]["hasPreviousPage"]:
            break
        before = page["pageInfo"]["startCursor"]
    assert rows == expected


# ---- every other connection -------------------------------------------------------------------


def _most(api: Api, document: str, path: tuple[str, ...], count: Callable[[Any], int]) -> Any:
    data: Any = api.query_whole(document)
    for name in path:
        data = data[name]
    return max(data, key=count)


def test_the_other_connections_both_ways(api: Api) -> None:
    """Each connection not ordered by choice, on the parent whose list is longest."""
    method = _most(
        api,
        "{ methods(first: 100) { nodes { slug modelCount } } }",
        ("methods", "nodes"),
        lambda method: method["modelCount"],
    )["slug"]
    model = _most(
        api,
        "{ models(first: 100) { nodes { slug treatments { totalCount } } } }",
        ("models", "nodes"),
        lambda model: model["treatments"]["totalCount"],
    )["slug"]
    listings = [
        Listing(
            "{ node(path: $p) { methods(ARGS) { PAGE } } }",
            ("node", "methods"),
            "slug",
            params={"p": SEED_PATH},
        ),
        Listing(
            "{ node(path: $p) { methods(ARGS) { PAGE } } }",
            ("node", "methods"),
            "slug",
            "scope: HERE",
            {"p": SEED_PATH},
        ),
        Listing(
            "{ model(slug: $s) { treatments(ARGS) { PAGE } } }",
            ("model", "treatments"),
            "method { slug } strength",
            params={"s": model},
        ),
        Listing(
            "{ model(slug: $s) { evidence(ARGS) { PAGE } } }",
            ("model", "evidence"),
            params={"s": model},
        ),
        Listing(
            "{ method(slug: $s) { evidence(ARGS) { PAGE } } }",
            ("method", "evidence"),
            params={"s": method},
        ),
        Listing(
            "{ method(slug: $s) { treatmentsConnection(ARGS) { PAGE } } }",
            ("method", "treatmentsConnection"),
            "model { slug } strength",
            params={"s": method},
        ),
        Listing(
            "{ search(query: $q, ARGS) { PAGE } }",
            ("search",),
            "__typename ... on Node { id } ... on Method { id } ... on Model { id }",
            params={"q": "parallel"},
        ),
    ]
    for listing in listings:
        check_both_ways(api, listing)


def test_a_nodes_children_and_descendants_both_ways(
    api_for: Callable[[str, str], Api], backend: str
) -> None:
    """On PwC, whose largest node has more children than a page holds: the connections
    hold what the lists hold (`descendants`, deprecated, and `children`), in pre-order."""
    api = api_for(backend, "pwc")
    roots = api.query("{ roots { slug counts { childCount descendantCount } } }")["roots"]
    root = max(roots, key=lambda root: root["counts"]["childCount"])["slug"]
    lists = api.query(
        """query($s: String!) { node(slug: $s) {
            children { id } descendants { id } near: descendants(maxDepth: 2) { id }
        } }""",
        {"s": root},
    )["node"]
    assert len(lists["children"]) > 100
    for name, extra, expected in [
        ("childrenConnection", "", lists["children"]),
        ("descendantsConnection", "", lists["descendants"]),
        ("descendantsConnection", "maxDepth: 2", lists["near"]),
    ]:
        listing = Listing(
            f"{{ node(slug: $s) {{ {name}(ARGS) {{ PAGE }} }} }}",
            ("node", name),
            extra=extra,
            params={"s": root},
        )
        assert check_both_ways(api, listing) == expected


def test_a_models_sources_and_profile_both_ways(
    api_for: Callable[[str, str], Api], backend: str
) -> None:
    """On GO, whose models have several documents and treat methods in many branches:
    the connections hold what the lists hold (`sources`, deprecated, and `branches`)."""
    api = api_for(backend, "go")
    every_model = Listing(
        "{ models(ARGS) { PAGE } }",
        ("models",),
        "slug sources { id } branches(level: 3) { node { id } }",
    )
    models, _ = every_model.everything(api)
    for name, list_name, extra, item in [
        ("sourcesConnection", "sources", "", "id"),
        ("branchesConnection", "branches", "level: 3", "node { id }"),
    ]:
        model = max(models, key=lambda model: len(model[list_name]))
        listing = Listing(
            f"{{ model(slug: $s) {{ {name}(ARGS) {{ PAGE }} }} }}",
            ("model", name),
            item,
            extra,
            {"s": model["slug"]},
        )
        assert check_both_ways(api, listing) == model[list_name]
    document = (
        "query($s: String!) { model(slug: $s) { branchesConnection(level: 0) { totalCount } } }"
    )
    (error,) = api.errors(document, {"s": models[0]["slug"]})
    assert error["message"] == "`level` must be at least 1 (the roots), got 0"


def test_nested_connections_both_ways_and_their_deprecated_lists(api: Api) -> None:
    """A By-model row's methods and a (model, method) pair's evidence page both ways, and
    the deprecated lists beside them still hold the same items."""
    rows = api.query_whole(
        """query($p: String!) { node(path: $p) { byModel(first: 100) { nodes {
            model { slug } methodCount
            methods { method { slug } strength evidence { id } }
        } } } }""",
        {"p": SEED_PATH},
    )["node"]["byModel"]["nodes"]
    row = max(rows, key=lambda row: row["methodCount"])
    model = row["model"]["slug"]

    def of_model(slug: str, connection: str) -> Callable[[Any], Any]:
        return lambda nodes: next(n for n in nodes if n["model"]["slug"] == slug)[connection]

    listing = Listing(
        "{ node(path: $p) { byModel(first: 20) { nodes { model { slug } "
        "methodsConnection(ARGS) { PAGE } } } } }",
        ("node", "byModel", "nodes"),
        "method { slug } strength",
        params={"p": SEED_PATH},
        pick=of_model(model, "methodsConnection"),
    )
    methods = check_both_ways(api, listing)
    assert methods == [{"method": m["method"], "strength": m["strength"]} for m in row["methods"]]

    pair = max(
        (treatment for row in rows for treatment in row["methods"]),
        key=lambda treatment: len(treatment["evidence"]),
    )
    assert len(pair["evidence"]) >= 2
    owner = next(r["model"]["slug"] for r in rows if pair in r["methods"])
    evidence = Listing(
        "{ method(slug: $s) { treatmentsConnection(first: 20) { nodes { model { slug } "
        "evidenceConnection(ARGS) { PAGE } } } } }",
        ("method", "treatmentsConnection", "nodes"),
        params={"s": pair["method"]["slug"]},
        pick=of_model(owner, "evidenceConnection"),
    )
    pieces = check_both_ways(api, evidence, minimum=2)
    assert sorted(piece["id"] for piece in pieces) == sorted(e["id"] for e in pair["evidence"])

    treatments = api.query(
        """query($s: String!) { method(slug: $s) {
            treatments { model { slug } strength }
            treatmentsConnection(first: 100) { nodes { model { slug } strength } }
        } }""",
        {"s": pair["method"]["slug"]},
    )["method"]
    assert treatments["treatments"] == treatments["treatmentsConnection"]["nodes"]


@pytest.mark.parametrize("first", [1, 3])
def test_each_treatments_first_evidence_page_on_a_page_of_treatments(api: Api, first: int) -> None:
    """The first pages of a page's pairs' evidence come in one statement for all of them
    (tests/test_query_count.py): each is still its own pair's, strongest first and then
    in file order, with its own count, and its cursor goes on where it stopped."""
    order = {"CORE": 0, "USED": 1, "MENTIONED": 2}
    rows = api.query(
        """query($s: String!, $n: Int!) { model(slug: $s) { treatments(first: 100) { nodes {
            evidence { id strength }
            evidenceConnection(first: $n) {
                totalCount nodes { id } pageInfo { hasNextPage endCursor }
            }
        } } } }""",
        {"s": "kimi-k3", "n": first},
    )["model"]["treatments"]["nodes"]
    assert len(rows) >= 5
    # Kimi K3's treatments: 18, three of them with two pieces of evidence.
    assert any(len(row["evidence"]) > first for row in rows) == (first == 1)
    for row in rows:
        # The deprecated list is in file order; a stable sort by strength is the page's order.
        expected = [e["id"] for e in sorted(row["evidence"], key=lambda e: order[e["strength"]])]
        page = row["evidenceConnection"]
        assert [e["id"] for e in page["nodes"]] == expected[:first]
        assert page["totalCount"] == len(expected)
        assert page["pageInfo"]["hasNextPage"] == (len(expected) > first)
        rest = api.query(
            """query($s: String!, $a: String!) { model(slug: $s) { treatments(first: 100) {
                nodes { evidenceConnection(first: 100, after: $a) { nodes { id } } }
            } } }""",
            {"s": "kimi-k3", "a": page["pageInfo"]["endCursor"]},
        )["model"]["treatments"]["nodes"][rows.index(row)]["evidenceConnection"]["nodes"]
        if page["nodes"]:
            assert [e["id"] for e in rest] == expected[first:]


# ---- arguments ----------------------------------------------------------------------------


def test_first_and_last_together_are_refused(tiny: Api) -> None:
    for arguments in ("first: 2, last: 2", "first: 20, last: 2"):
        (error,) = tiny.errors(f"{{ models({arguments}) {{ nodes {{ slug }} }} }}")
        assert error["extensions"]["code"] == "BAD_USER_INPUT"
        assert error["message"].startswith("`first` and `last` were both given")
    # `first`'s default counts only when `last` is not given; an explicit null is no `first`.
    for arguments in ("last: 2", "first: null, last: 2"):
        answer = tiny.query(f"{{ models({arguments}) {{ nodes {{ slug }} }} }}")
        assert len(answer["models"]["nodes"]) == 2
    document = "query($n: Int) { models(first: $n, last: 2) { nodes { slug } } }"
    assert len(tiny.query(document, {})["models"]["nodes"]) == 2  # a variable left out


@pytest.mark.parametrize("last", [-1, 101])
def test_last_out_of_range_is_an_error(tiny: Api, last: int) -> None:
    (error,) = tiny.errors(f"{{ methods(last: {last}) {{ nodes {{ slug }} }} }}")
    assert error["message"].startswith(f"`last` must be between 0 and 100, got {last}")
    assert "before: pageInfo.startCursor" in error["message"]


def test_bad_before_cursors_are_input_errors(tiny: Api) -> None:
    (error,) = tiny.errors('{ methods(last: 1, before: "nope") { nodes { slug } } }')
    assert error["message"].startswith("`before` cursor 'nope' is not a cursor of this API")
    cursor = tiny.query("{ models(first: 1) { pageInfo { endCursor } } }")["models"]["pageInfo"]
    document = "query($c: String) { methods(last: 1, before: $c) { nodes { slug } } }"
    (error,) = tiny.errors(document, {"c": cursor["endCursor"]})
    assert "`before` cursor" in error["message"]
    assert "belongs to another list or ordering" in error["message"]
    # A cursor of the right list whose value is not of its order's type: damaged.
    raw = cursor["endCursor"]
    list_name = json.loads(base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4)))[0]
    forged = base64.urlsafe_b64encode(json.dumps([list_name, "x"]).encode()).decode()
    document = "query($c: String) { models(last: 1, before: $c) { nodes { slug } } }"
    (error,) = tiny.errors(document, {"c": forged})
    assert error["message"] == "`before` cursor is damaged; start again without it"
    assert error["extensions"]["code"] == "BAD_USER_INPUT"


def test_every_connection_pages_both_ways_with_its_defaults_in_the_sdl() -> None:
    connections = []
    for type_ in default_schema()._schema.type_map.values():
        if not isinstance(type_, GraphQLObjectType) or type_.name.startswith("__"):
            continue
        for name, field_ in type_.fields.items():
            returned = getattr(field_.type, "of_type", field_.type)
            if getattr(returned, "name", "").endswith("Connection"):
                connections.append(f"{type_.name}.{name}")
                assert {"first", "after", "last", "before"} <= set(field_.args), name
                assert field_.args["first"].default_value == 20, name
    assert len(connections) >= 10, connections
    sdl = default_schema().as_str()
    assert "first: Int = null" not in sdl
    assert "if not given" not in sdl
    # The default orders are in the SDL too, not in prose.
    assert sdl.count("orderBy: MethodOrder = { field: NAME }") == 2  # Query.methods, Node.methods
    assert sdl.count("orderBy: ModelOrder = { field: NAME }") == 1
    assert sdl.count("orderBy: ModelTreatmentOrder = { field: RELEASE_DATE }") == 1


def test_an_order_given_as_null_is_the_default(dataset: tuple[Api, Reference, str]) -> None:
    api, reference, path = dataset
    answer = api.query(
        """query($p: String!) {
            methods(first: 100, orderBy: null) { nodes { slug } }
            models(first: 100, orderBy: null) { nodes { slug } }
            node(path: $p) { byModel(first: 100, orderBy: null) { nodes { model { slug } } } }
        }""",
        {"p": path},
    )
    assert _slugs(answer["methods"]["nodes"]) == reference.methods_ordered("name", False)[:100]
    assert _slugs(answer["models"]["nodes"]) == reference.models_ordered("name", False)
    rows = answer["node"]["byModel"]["nodes"]
    expected = [row.model_slug for row in reference.by_model(path.split("/")[-1])]
    assert [row["model"]["slug"] for row in rows] == expected


def test_cost_counts_last_as_it_counts_first(tiny: Api) -> None:
    nested = "{ models(%s: 20) { nodes { evidence(%s: 20) { nodes { id } } } } }"
    refusals = []
    for document in (nested % ("first", "first"), nested % ("last", "last")):
        response = tiny.client.post("/graphql", json={"query": document})
        assert response.status_code == 200  # 20 * 20 objects and 20 lists: under the limit
        deeper = document.replace("{ id }", "{ id model { evidence(last: 10) { nodes { id } } } }")
        response = tiny.client.post("/graphql", json={"query": deeper})
        assert response.status_code == 400
        refusals.append(response.json()["errors"][0]["extensions"]["cost"])
    # 20 * 20 more lists, each with its work.
    assert refusals[0] == refusals[1] >= 20 * 20 * WORK["Model.evidence"]


def test_descendants_connection_checks_max_depth(tiny: Api) -> None:
    document = '{ node(slug: "alpha") { descendantsConnection(maxDepth: 0) { totalCount } } }'
    (error,) = tiny.errors(document)
    assert error["message"] == "`maxDepth` must be at least 1, got 0"
    document = '{ node(slug: "alpha") { descendantsConnection(maxDepth: 1) { nodes { slug } } } }'
    nodes = tiny.query(document)["node"]["descendantsConnection"]["nodes"]
    assert nodes == [{"slug": "beta"}, {"slug": "delta"}]
