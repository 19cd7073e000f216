"""Releases you can walk (issue 27 item 4), on SQLite and PostgreSQL, over the three releases
of tests/walk_releases.py: the changes lists combined (one row per record, knock-on
removals grouped under their cause, by kind of change), names of removed records, a
record's history, the former-record lookups, and the browser's server answers for old URLs
(301 to a moved node's new place, 410 with a friendly page for a removed record); then the
changes page and a history section in headless Chromium."""

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import walk_releases as walk
from test_browser import BROWSER, _drive, chromium

from conftest import POSTGRES_URL, Api, serve

Rows = list[dict[str, Any]]


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def walked(
    request: pytest.FixtureRequest,
    new_database: Callable[[str, str], str],
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[Api, str]]:
    if request.param == "postgresql" and POSTGRES_URL is None:
        pytest.skip("needs TEST_DATABASE_URL")
    url = new_database(request.param, "walk")
    walk.load_walk_releases(tmp_path_factory.mktemp("walk"), url)
    with serve(url) as client:
        yield Api(client, url), url


def _changes(api: Api, since: int, until: int, lists: str) -> dict[str, Any]:
    answer: dict[str, Any] = api.query(
        f"{{ changes(since: {since}, until: {until}) {{ {lists} }} }}"
    )["changes"]
    return answer


def _walk(api: Api, field: str, arguments: str, selection: str, size: int = 2) -> Rows:
    """Every row of ``field`` (a list of `changes(since: 1, until: 2)`), ``size`` a page."""
    rows: Rows = []
    after = None
    while True:
        cursor = f', after: "{after}"' if after else ""
        page = _changes(
            api,
            1,
            2,
            f"{field}(first: {size}{cursor}{arguments}) "
            f"{{ pageInfo {{ hasNextPage endCursor }} nodes {{ {selection} }} }}",
        )[field]
        rows += page["nodes"]
        if not page["pageInfo"]["hasNextPage"]:
            return rows
        after = page["pageInfo"]["endCursor"]


def test_a_combined_list_groups_knock_on_removals_under_their_cause(
    walked: tuple[Api, str],
) -> None:
    api, _ = walked
    node_fields = "kind kinds slug name fromPath toPath"
    nodes = _walk(api, "nodes", ", combined: true, orderBy: KIND", node_fields)
    # By kind of change (REMOVED before MOVED), one row for the move with a rename; the
    # sub-node removed with its parent is not a row of its own.
    assert [(row["kind"], row["kinds"], row["slug"]) for row in nodes] == [
        ("REMOVED", ["REMOVED"], walk.REMOVED_NODE),
        ("MOVED", ["MOVED", "RENAMED"], walk.MOVED_NODE),
    ]
    assert nodes[1]["fromPath"] == "data :: tokenization"
    assert nodes[1]["toPath"] == "architecture :: tokenizers"
    # Without `combined`: two rows for the move with a rename, and every removal.
    plain = _walk(api, "nodes", "", "kind slug")
    assert sorted((row["slug"], row["kind"]) for row in plain) == [
        (walk.REMOVED_NODE, "REMOVED"),
        (walk.REMOVED_CHILD, "REMOVED"),
        (walk.MOVED_NODE, "MOVED"),
        (walk.MOVED_NODE, "RENAMED"),
    ]
    # The cause names what it took with it, each page of it; each of those names its cause.
    knock_on = api.query(
        """{ changes(since: 1, until: 2) { nodes(combined: true, kinds: [REMOVED]) { nodes {
          slug knockOn { nodeCount methodCount treatmentCount
            nodes { totalCount nodes { slug removedWith { slug kind } } }
            methods(first: 2) { totalCount pageInfo { hasNextPage endCursor }
                                nodes { slug removedWith { slug } } } } } } } }"""
    )["changes"]["nodes"]["nodes"]
    assert len(knock_on) == 1
    removed = knock_on[0]["knockOn"]
    assert removed["nodeCount"] == removed["nodes"]["totalCount"] == 1
    assert removed["treatmentCount"] is None  # a node takes treatments only through methods
    assert removed["nodes"]["nodes"] == [
        {"slug": walk.REMOVED_CHILD, "removedWith": {"slug": walk.REMOVED_NODE, "kind": "REMOVED"}}
    ]
    methods = removed["methods"]
    assert methods["totalCount"] == removed["methodCount"] == 4
    assert all(row["removedWith"] == {"slug": walk.REMOVED_NODE} for row in methods["nodes"])
    rest = api.query(
        """query($after: String) { changes(since: 1, until: 2) { nodes(combined: true,
          kinds: [REMOVED]) { nodes { knockOn { methods(first: 5, after: $after) {
          nodes { slug } } } } } } }""",
        {"after": methods["pageInfo"]["endCursor"]},
    )["changes"]["nodes"]["nodes"][0]["knockOn"]["methods"]["nodes"]
    first_two = [row["slug"] for row in methods["nodes"]]
    assert methods["pageInfo"]["hasNextPage"]
    assert len(rest) == 2
    assert sorted(first_two + [row["slug"] for row in rest]) == first_two + [
        row["slug"] for row in rest
    ]
    # Every method of the removed branch went; a combined list lists none of them, the
    # sub-node's own methods are under the sub-node.
    removed_methods = _walk(api, "methods", ", kinds: [REMOVED]", "slug removedWith { slug }")
    assert {row["slug"] for row in removed_methods} == walk.removed_branch_methods()
    below = {
        row["slug"] for row in removed_methods if row["removedWith"]["slug"] == "load-balancing"
    }
    assert below
    assert below.isdisjoint(row["slug"] for row in methods["nodes"] + rest)
    combined = _walk(api, "methods", ", combined: true", "kind slug")
    assert {(row["kind"], row["slug"]) for row in combined} == {
        ("ADDED", walk.ADDED_METHOD),
        ("RENAMED", walk.RENAMED_METHOD),
    }


def test_knock_on_lists_page_both_ways(walked: tuple[Api, str]) -> None:
    """A removal's knock-on lists page backward (`last`, `before`) to the rows they page
    forward to, as every connection does; a refused argument nulls that list alone
    (tests/test_errors_on_their_field.py counts on this test for KnockOn's lists)."""
    api, _ = walked
    removal = """query($first: Int, $after: String, $last: Int, $before: String) {
      changes(since: 1, until: 2) { nodes(combined: true, kinds: [REMOVED]) { nodes {
        slug knockOn { nodeCount methods(first: $first, after: $after, last: $last,
          before: $before) { pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
          nodes { slug } } } } } } }"""

    def page(**arguments: Any) -> dict[str, Any]:
        (row,) = api.query(removal, arguments)["changes"]["nodes"]["nodes"]
        methods: dict[str, Any] = row["knockOn"]["methods"]
        return methods

    forward = page(first=100)
    slugs = [row["slug"] for row in forward["nodes"]]
    assert len(slugs) == 4
    backward = page(first=None, last=2)
    assert [row["slug"] for row in backward["nodes"]] == slugs[2:]
    assert backward["pageInfo"]["hasPreviousPage"]
    before = page(first=None, last=2, before=backward["pageInfo"]["startCursor"])
    assert [row["slug"] for row in before["nodes"]] == slugs[:2]
    for field in ("nodes", "methods", "treatments"):
        cause = "models" if field == "treatments" else "nodes"
        body = api.post(
            f"""{{ changes(since: 1, until: 2) {{ {cause}(combined: true, kinds: [REMOVED],
              first: 1) {{ nodes {{ slug knockOn {{ {field}(first: -1) {{ totalCount }} }} }} }}
              }} }}"""
        )
        (error,) = body["errors"]
        assert error["path"] == ["changes", cause, "nodes", 0, "knockOn", field], error
        assert error["extensions"]["code"] == "BAD_USER_INPUT"
        row = body["data"]["changes"][cause]["nodes"][0]
        assert row["slug"]
        assert row["knockOn"][field] is None


def test_removed_treatments_go_with_their_model_or_method_and_are_named(
    walked: tuple[Api, str],
) -> None:
    api, _ = walked
    selection = """modelSlug methodSlug modelName methodName removedWithModel { slug name }
                   removedWithMethod { slug name fromPath removedWith { slug } }"""
    removed = _walk(api, "treatments", ", kinds: [REMOVED]", selection, size=7)
    assert removed
    assert all(row["removedWithModel"] or row["removedWithMethod"] for row in removed)
    by_model = [row for row in removed if row["modelSlug"] == walk.REMOVED_MODEL]
    assert by_model
    assert all(row["modelName"] == "Kimi K2" for row in by_model)
    assert all(row["removedWithModel"]["name"] == "Kimi K2" for row in by_model)
    gone_methods = [row for row in removed if row["methodSlug"] in walk.removed_branch_methods()]
    assert gone_methods
    for row in gone_methods:
        assert row["methodName"] != row["methodSlug"]  # a name, not the slug
        assert row["removedWithMethod"]["name"] == row["methodName"]
        assert row["removedWithMethod"]["fromPath"].startswith("architecture :: mixture of")
    assert _walk(api, "treatments", ", combined: true", "kind") == []
    model = api.query(
        """{ changes(since: 1, until: 2) { models(combined: true) { nodes { slug kinds
          knockOn { treatmentCount treatments(first: 100) { totalCount nodes { methodName } } }
        } } } }"""
    )["changes"]["models"]["nodes"]
    assert [row["slug"] for row in model] == [walk.REMOVED_MODEL]
    knocked = model[0]["knockOn"]
    assert knocked["treatmentCount"] == knocked["treatments"]["totalCount"] == len(by_model)
    assert sorted(row["methodName"] for row in knocked["treatments"]["nodes"]) == sorted(
        row["methodName"] for row in by_model
    )


def test_lists_ordered_by_kind_and_filtered_by_kind(walked: tuple[Api, str]) -> None:
    api, _ = walked
    ranks = ["ADDED", "REMOVED", "MOVED", "RENAMED", "STRENGTHENED", "WEAKENED"]
    rows = _walk(api, "treatments", ", orderBy: KIND", "kind modelSlug methodSlug", size=5)
    keys = [(ranks.index(row["kind"]), row["modelSlug"], row["methodSlug"]) for row in rows]
    assert keys == sorted(keys)
    assert len(set(keys)) == len(keys)
    assert {row["kind"] for row in rows} == {"REMOVED"}
    # A move with a rename is found by either kind, as one row.
    for kind in ("MOVED", "RENAMED"):
        found = _walk(api, "nodes", f", combined: true, kinds: [{kind}]", "slug kinds")
        assert found == [{"slug": walk.MOVED_NODE, "kinds": ["MOVED", "RENAMED"]}]
    # A cursor of one order is refused by another.
    page = _changes(api, 1, 2, "nodes(first: 1, orderBy: KIND) { pageInfo { endCursor } }")
    cursor = page["nodes"]["pageInfo"]["endCursor"]
    errors = api.errors(
        "query($after: String) { changes(since: 1, until: 2) {"
        " nodes(first: 1, after: $after) { totalCount } } }",
        {"after": cursor},
    )
    assert errors[0]["extensions"]["code"] == "BAD_USER_INPUT"


def test_history_oldest_first_with_its_releases(walked: tuple[Api, str]) -> None:
    api, _ = walked
    node = api.query(
        """{ node(path: "architecture/tokenization") { firstSeen { number }
          history(first: 1) { totalCount pageInfo { hasNextPage endCursor }
            nodes { kind kinds fromName toName fromPath toPath release { number } } } } }"""
    )["node"]
    assert node["firstSeen"]["number"] == 1
    history = node["history"]
    assert history["totalCount"] == 2
    assert history["pageInfo"]["hasNextPage"]
    assert history["nodes"] == [
        {
            "kind": "MOVED",
            "kinds": ["MOVED", "RENAMED"],
            "fromName": "tokenization",
            "toName": "tokenizers",
            "fromPath": "data :: tokenization",
            "toPath": "architecture :: tokenizers",
            "release": {"number": 2},
        }
    ]
    later = api.query(
        """query($after: String) { node(path: "architecture/tokenization") {
          history(first: 5, after: $after) { nodes { kinds toName release { number } } } } }""",
        {"after": history["pageInfo"]["endCursor"]},
    )["node"]["history"]["nodes"]
    assert later == [{"kinds": ["RENAMED"], "toName": "tokenizer design", "release": {"number": 3}}]
    newest = api.query(
        """{ node(path: "architecture/tokenization") { history(last: 1) {
          nodes { release { number } } } } }"""
    )["node"]["history"]["nodes"]
    assert newest == [{"release": {"number": 3}}]
    method = api.query(
        f"""{{ method(slug: "{walk.RENAMED_METHOD}") {{ history {{ nodes {{ kinds fromName
          toName release {{ number }} }} }} }}
           unchanged: model(slug: "olmo-7b") {{ firstSeen {{ number }}
             history {{ totalCount }} }} }}"""
    )
    assert method["method"]["history"]["nodes"] == [
        {
            "kinds": ["RENAMED"],
            "fromName": "Byte-Pair Encoding",
            "toName": "BPE Tokenization",
            "release": {"number": 2},
        }
    ]
    assert method["unchanged"] == {"firstSeen": {"number": 1}, "history": {"totalCount": 0}}
    described = api.query(
        f"""{{ node(path: "optimization/{walk.DESCRIBED_NODE}") {{ history {{ nodes {{
          kinds release {{ number }} fieldChanges {{ field fromValue toValue }} }} }} }} }}"""
    )["node"]["history"]["nodes"]
    assert described == [
        {
            "kinds": ["CHANGED"],
            "release": {"number": 3},
            "fieldChanges": [
                {"field": "description", "fromValue": None, "toValue": "Scaling rules."}
            ],
        }
    ]


def test_former_records_say_what_they_were_and_which_release_took_them(
    walked: tuple[Api, str],
) -> None:
    api, _ = walked
    answer = api.query(
        f"""{{
          moved: formerNode(path: "data/tokenization") {{ slug name path slugPath kind
            lastSeenIn {{ number }} changedIn {{ number }} node {{ slugPath }} }}
          byNames: formerNode(path: "architecture :: tokenizers") {{ kind changedIn {{ number }}
            node {{ slugPath }} }}
          removed: formerNode(path: "architecture/mixture-of-experts/expert-routing/load-balancing")
            {{ slug name kind changedIn {{ number }} node {{ id }} }}
          now: formerNode(path: "architecture/tokenization") {{ slug }}
          never: formerNode(path: "no/such/node") {{ slug }}
          method: formerMethod(slug: "top-k-routing") {{ name path lastSeenIn {{ number }}
            removedIn {{ number }} }}
          alone: formerMethod(slug: "{walk.REMOVED_ALONE}") {{ name removedIn {{ number }} }}
          model: formerModel(slug: "{walk.REMOVED_MODEL}") {{ name path removedIn {{ number }} }}
          served: formerModel(slug: "olmo-7b") {{ name }}
          unknown: formerMethod(slug: "no-such-method") {{ name }}
        }}"""
    )
    assert answer["moved"] == {
        "slug": walk.MOVED_NODE,
        "name": "tokenization",
        "path": "data :: tokenization",
        "slugPath": "data/tokenization",
        "kind": "MOVED",
        "lastSeenIn": {"number": 1},
        "changedIn": {"number": 2},
        "node": {"slugPath": "architecture/tokenization"},
    }
    assert answer["byNames"] == {
        "kind": "RENAMED",
        "changedIn": {"number": 3},
        "node": {"slugPath": "architecture/tokenization"},
    }
    assert answer["removed"] == {
        "slug": walk.REMOVED_CHILD,
        "name": "load balancing",
        "kind": "REMOVED",
        "changedIn": {"number": 2},
        "node": None,
    }
    assert answer["now"] is None
    assert answer["never"] is None
    assert answer["method"] == {
        "name": "Top-k Routing",
        "path": "architecture :: mixture of experts :: expert routing",
        "lastSeenIn": {"number": 1},
        "removedIn": {"number": 2},
    }
    assert answer["alone"] == {"name": "SentencePiece", "removedIn": {"number": 3}}
    assert answer["model"] == {"name": "Kimi K2", "path": None, "removedIn": {"number": 2}}
    assert answer["served"] is None
    assert answer["unknown"] is None


HTML = {"accept": "text/html"}


def test_an_old_url_redirects_and_a_removed_records_answers_410(walked: tuple[Api, str]) -> None:
    api, _ = walked
    client = api.client
    moved = client.get("/nodes/data/tokenization?size=50", headers=HTML, follow_redirects=False)
    assert moved.status_code == 301
    assert moved.headers["location"] == "/nodes/architecture/tokenization?size=50"
    by_names = client.get("/nodes/architecture :: tokenizers", headers=HTML, follow_redirects=False)
    assert by_names.status_code == 301
    assert by_names.headers["location"] == "/nodes/architecture/tokenization"
    assert client.get("/nodes/architecture/tokenization", headers=HTML).status_code == 200
    for path, words in [
        ("/nodes/architecture/mixture-of-experts/expert-routing", "The node “expert routing”"),
        ("/methods/top-k-routing", "The method “Top-k Routing” at architecture :: mixture"),
        (f"/models/{walk.REMOVED_MODEL}", "The model “Kimi K2”"),
        (f"/methods/{walk.REMOVED_ALONE}", "The method “SentencePiece”"),
    ]:
        gone = client.get(path, headers=HTML)
        assert gone.status_code == 410, path
        assert gone.headers["content-type"].startswith("text/html")
        body = gone.text
        assert words in body, body
        assert "was removed</h1>" in body
        assert 'href="/"' in body
        assert 'href="/search?q=' in body
    expert = client.get("/nodes/architecture/mixture-of-experts/expert-routing", headers=HTML)
    assert "until release 1; release 2 removed it" in expert.text
    assert 'href="/changes?since=1&amp;until=2"' in expert.text
    alone = client.get(f"/methods/{walk.REMOVED_ALONE}", headers=HTML)
    assert "until release 2; release 3 removed it" in alone.text
    # Never there: the plain 404 page, as before.
    assert client.get("/nodes/no/such/node", headers=HTML).status_code == 404
    assert client.get("/methods/no-such-method", headers=HTML).status_code == 404


def test_the_changes_page_query_is_under_the_cost_limit(walked: tuple[Api, str]) -> None:
    """The browser's changes page asks for 50 rows a list at most between a release and the
    next, 25 between releases further apart (forward, or back with `last`): all under the
    limit of 50,000 points."""
    api, _ = walked
    text = (BROWSER / "operations" / "BrowserChanges.graphql").read_text(encoding="utf-8")
    lists = ("nodes", "methods", "models", "treatments")
    asked = ((1, 2, 50, "First"), (1, 3, 25, "First"), (1, None, 25, "Last"))
    for since, until, size, way in asked:
        variables = {"since": since, "until": until, "knockOn": 3}
        variables |= {f"{name}{way}": size for name in lists}
        response = api.client.post("/graphql", json={"query": text, "variables": variables})
        body = response.json()
        assert not body.get("errors"), body
        cost = body["extensions"]["cost"]
        assert cost["requested"] <= cost["limit"] == 50_000, (variables, cost)


@chromium
def test_walking_the_releases_in_headless_chromium(walked: tuple[Api, str], tmp_path: Path) -> None:
    _, url = walked
    summary = _drive("walk", url, artifacts=tmp_path / "screenshots")
    assert any("knock-on removals under their cause" in check for check in summary["checks"])
    assert any("410" in check for check in summary["checks"])


def test_releases_further_apart_group_knock_on_removals_too(walked: tuple[Api, str]) -> None:
    """From release 1 to 3: the branch removed in 2 and the method removed alone in 3."""
    api, _ = walked
    changes = _changes(
        api,
        1,
        3,
        """nodes(combined: true, orderBy: KIND) { nodes { slug kinds
             knockOn { nodeCount methodCount methods(first: 10) { totalCount nodes { slug } } } } }
           methods(combined: true, kinds: [REMOVED]) { nodes { slug knockOn { treatmentCount } } }
           treatments(combined: true) { totalCount }""",
    )
    nodes = changes["nodes"]["nodes"]
    assert [(row["slug"], row["kinds"]) for row in nodes] == [
        (walk.REMOVED_NODE, ["REMOVED"]),
        (walk.MOVED_NODE, ["MOVED", "RENAMED"]),
        (walk.DESCRIBED_NODE, ["CHANGED"]),
    ]
    knock_on = nodes[0]["knockOn"]
    assert knock_on["nodeCount"] == 1
    assert knock_on["methodCount"] == knock_on["methods"]["totalCount"] == 4
    assert {row["slug"] for row in knock_on["methods"]["nodes"]} < walk.removed_branch_methods()
    alone = changes["methods"]["nodes"]
    assert [row["slug"] for row in alone] == [walk.REMOVED_ALONE]
    assert alone[0]["knockOn"]["treatmentCount"] > 0
    assert changes["treatments"]["totalCount"] == 0
