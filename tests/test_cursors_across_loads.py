"""Cursors across loads (issue 26 item 3): a cursor holds its row's sort-key values and what
they stand for (a name's rank: the name and the slug), so a load that leaves the row where
it sorts leaves the cursor valid, and the next page goes on from that row even when rows
were added or removed around it. A cursor that can no longer be honoured (its row left the
list or sorts differently, or the list's order does not outlive a load) is CURSOR_EXPIRED,
never a silently shifted page. On both databases, through HTTP."""

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from api.ingest.load import load_directory

from conftest import release_of, serve
from tiny_dataset import write_files, write_tiny

# Each list with its query (`$a`: the cursor), from pages of two.
LISTS = {
    "methods by name": "query($a: String) { methods(first: 2, after: $a) {"
    " nodes { slug } pageInfo { endCursor } } }",
    "methods by model count": "query($a: String) { methods(first: 2, after: $a,"
    " orderBy: {field: MODEL_COUNT, direction: DESC}) { nodes { slug } pageInfo { endCursor } } }",
    "models by release date": "query($a: String) { models(first: 2, after: $a,"
    " orderBy: {field: RELEASE_DATE, direction: DESC}) { nodes { slug } pageInfo { endCursor } } }",
    "models by name, backward": "query($a: String) { models(last: 2, before: $a) {"
    " nodes { slug } pageInfo { endCursor: startCursor } } }",
    "byModel": 'query($a: String) { node(slug: "alpha") { byModel(first: 2, after: $a) {'
    " nodes { slug: id } pageInfo { endCursor } } } }",
    "a method's treatments": 'query($a: String) { method(slug: "alpha") {'
    " treatmentsConnection(first: 1, after: $a) { nodes { slug: id } pageInfo { endCursor } } } }",
    "a model's treatments": 'query($a: String) { model(slug: "newest") {'
    " treatments(first: 1, after: $a) { nodes { slug: id } pageInfo { endCursor } } } }",
    # Their other orders (issue 27): by the method's node (its pre-order position, found
    # again by the node's path), by name (a rank), weakest first.
    **{
        f"a model's treatments by {field} {direction}": "query($a: String) { model(slug:"
        f' "newest") {{ treatments(first: 1, after: $a, orderBy: {{field: {field},'
        f" direction: {direction}}}) {{ nodes {{ slug: id }} pageInfo {{ endCursor }} }} }} }}"
        for field, direction in (("NODE", "ASC"), ("NODE", "DESC"), ("NAME", "DESC"))
    },
    **{
        f"a method's treatments by {field} {direction}": "query($a: String) { method(slug:"
        f' "alpha") {{ treatmentsConnection(first: 1, after: $a, orderBy: {{field: {field},'
        f" direction: {direction}}}) {{ nodes {{ slug: id }} pageInfo {{ endCursor }} }} }} }}"
        for field, direction in (("RELEASE_DATE", "ASC"), ("NAME", "DESC"), ("STRONGEST", "ASC"))
    },
    "releases": "query($a: String) { releases(first: 1, after: $a) {"
    " nodes { slug: number } pageInfo { endCursor } } }",
    "releases, oldest first, filtered": "query($a: String) { releases(first: 1, after: $a,"
    ' orderBy: {field: NUMBER, direction: ASC}, filter: {loadedFrom: "2000-01-01"}) {'
    " nodes { slug: number } pageInfo { endCursor } } }",
    # In file order (evidence, sources) and in pre-order (the tree's lists, a model's
    # branches): positions a load renumbers, found again by what they stand for.
    "a model's evidence": 'query($a: String) { model(slug: "newest") {'
    " evidence(first: 1, after: $a) { nodes { slug: id } pageInfo { endCursor } } } }",
    "a model's sources": 'query($a: String) { model(slug: "newest") {'
    " sourcesConnection(first: 1, after: $a) { nodes { slug } pageInfo { endCursor } } } }",
    "descendants": 'query($a: String) { node(slug: "alpha") {'
    " descendantsConnection(first: 1, after: $a) { nodes { slug } pageInfo { endCursor } } } }",
    "children": 'query($a: String) { node(slug: "alpha") {'
    " childrenConnection(first: 1, after: $a) { nodes { slug } pageInfo { endCursor } } } }",
    "a model's branches": 'query($a: String) { model(slug: "tie-b") {'
    " branchesConnection(level: 1, first: 1, after: $a) { nodes { slug: id }"
    " pageInfo { endCursor } } } }",
    # Ranked: offsets tied to the searchable entries (store.search_catalogue's digest).
    "search": 'query($a: String) { search(query: "method", first: 2, after: $a) {'
    " nodes { __typename ... on Method { slug } ... on Model { slug } ... on Node { slug }"
    " ... on Source { slug } } pageInfo { endCursor } } }",
    # What the second release changed (`loaded`: every name, and every treatment but one).
    **{
        f"changes: {kind}": "query($a: String) { changes(since: 1, until: 2) {"
        f" {kind}(first: 2, after: $a) {{ nodes {{ {key} }} pageInfo {{ endCursor }} }} }} }}"
        for kind, key in (
            ("nodes", "slug"),
            ("methods", "slug"),
            ("models", "slug"),
            ("treatments", "modelSlug methodSlug"),
        )
    },
    "changes: methods by kind": "query($a: String) { changes(since: 1, until: 2) {"
    " methods(first: 2, after: $a, orderBy: KIND) { nodes { slug } pageInfo { endCursor } } } }",
    "a release's changes": "query($a: String) { release(number: 2) { changes {"
    " models(first: 2, after: $a) { nodes { slug } pageInfo { endCursor } } } } }",
}
# A second document of `newest`, so that its sources have a second page.
SECOND_SOURCE = {"slug": "newest-card", "model": "newest", "title": "Card", "kind": "model_card"}


def _read(folder: Path, name: str) -> list[dict[str, Any]]:
    lines = (folder / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def _files(folder: Path) -> dict[str, list[dict[str, Any]]]:
    return {
        name: _read(folder, name) for name in ("nodes", "models", "sources", "methods", "evidence")
    }


@pytest.fixture
def loaded(
    backend: str, new_database: Callable[[str, str], str], tmp_path: Path
) -> Iterator[tuple[TestClient, str, Path]]:
    """A server on a database of the tiny dataset as its second release (so that
    `releases` has a page after its first), and the dataset's folder to change and load
    again. The first release had other names for every node, method and model, and only
    `mentioned` evidence, so that the second's `changes` lists have pages to follow."""
    folder = tmp_path / "tiny"
    write_tiny(folder)
    files = _files(folder)
    write_files(folder, {**files, "sources": [*files["sources"], SECOND_SOURCE]})
    earlier = _files(folder)
    for name in ("nodes", "methods", "models"):
        for record in earlier[name]:
            record["name"] = f"{record['name']} (earlier)"
    for row in earlier["evidence"]:
        row["strength"] = "mentioned"
    url = new_database(backend, "cursors")
    load_directory(write_files(tmp_path / "earlier", earlier), url)
    load_directory(folder, url)
    with serve(url, version_poll_seconds=0.05, response_cache=False) as client:
        yield client, url, folder


def _page(client: TestClient, document: str, cursor: str | None) -> dict[str, Any]:
    response = client.post("/graphql", json={"query": document, "variables": {"a": cursor}})
    body: dict[str, Any] = response.json()
    return body


def _connection(data: dict[str, Any]) -> dict[str, Any]:
    """The one connection in ``data``, however deep."""
    while "pageInfo" not in data:
        (data,) = (value for value in data.values() if isinstance(value, dict))
    return data


def _first_cursor(client: TestClient, document: str) -> tuple[str, list[Any]]:
    """The end cursor of the first page, and the page after it (read before any load)."""
    first = _connection(_page(client, document, None)["data"])
    cursor = first["pageInfo"]["endCursor"]
    following = _connection(_page(client, document, cursor)["data"])["nodes"]
    assert following, "the list must have a second page for the test to mean anything"
    return cursor, following


def _reload(client: TestClient, url: str, folder: Path) -> None:
    """Load ``folder`` and wait until the server serves the new release."""
    before = client.post("/graphql", json={"query": "{ taxonomy { dataVersion } }"}).json()
    load_directory(folder, url)
    old = before["data"]["taxonomy"]["dataVersion"]
    for _ in range(200):
        now = client.post("/graphql", json={"query": "{ taxonomy { dataVersion } }"}).json()
        if now["data"]["taxonomy"]["dataVersion"] != old:
            assert release_of(now["data"]["taxonomy"]["dataVersion"]) == release_of(old) + 1
            return
        time.sleep(0.02)
    raise AssertionError("the server did not move to the new release")


def test_every_cursor_outlives_a_load_of_the_same_data(
    loaded: tuple[TestClient, str, Path],
) -> None:
    client, url, folder = loaded
    before = {name: _first_cursor(client, document) for name, document in LISTS.items()}
    _reload(client, url, folder)
    for name, document in LISTS.items():
        cursor, following = before[name]
        body = _page(client, document, cursor)
        assert "errors" not in body, (name, body)
        assert _connection(body["data"])["nodes"] == following, name


def test_rows_added_and_removed_around_a_cursor_do_not_shift_its_next_page(
    loaded: tuple[TestClient, str, Path],
) -> None:
    """Methods by name, a page of two: alpha method, Bravo method | Charlie method, Delta
    method... Two methods added before the cursor's row (Bravo) and one removed after it
    renumber every rank from the start; the next page still starts right after Bravo, as
    the whole list read after the load says."""
    client, url, folder = loaded
    document = LISTS["methods by name"]
    cursor, following = _first_cursor(client, document)
    assert [m["slug"] for m in following] == ["m-charlie", "m-delta"]
    files = _files(folder)
    files["methods"] += [
        {"slug": "m-aardvark", "name": "Aardvark method", "node": "gamma"},
        {"slug": "m-abacus", "name": "abacus method", "node": "delta"},
    ]
    files["methods"] = [m for m in files["methods"] if m["slug"] != "m-charlie"]
    files["evidence"] = [e for e in files["evidence"] if e["method"] != "m-charlie"]
    _reload(client, url, write_files(folder.parent / "changed", files))
    whole = client.post("/graphql", json={"query": "{ methods(first: 100) { nodes { slug } } }"})
    order = [m["slug"] for m in whole.json()["data"]["methods"]["nodes"]]
    assert order[:4] == ["m-aardvark", "m-abacus", "alpha", "m-bravo"]
    body = _page(client, document, cursor)
    assert "errors" not in body, body
    assert [m["slug"] for m in _connection(body["data"])["nodes"]] == order[4:6]
    assert order[4:6] == ["m-delta", "m-lonely"]


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ("renamed", "no longer in the list with the values it had"),
        ("removed", "no longer in the list with the values it had"),
    ],
)
def test_a_cursor_whose_row_moved_or_left_is_expired(
    loaded: tuple[TestClient, str, Path], change: str, why: str
) -> None:
    client, url, folder = loaded
    document = LISTS["methods by name"]
    first = _connection(_page(client, document, None)["data"])
    cursor = first["pageInfo"]["endCursor"]
    last_slug = first["nodes"][-1]["slug"]
    files = _files(folder)
    if change == "renamed":
        for method in files["methods"]:
            if method["slug"] == last_slug:
                method["name"] = "Zzz renamed"
    else:
        files["methods"] = [m for m in files["methods"] if m["slug"] != last_slug]
        files["evidence"] = [e for e in files["evidence"] if e["method"] != last_slug]
    changed = write_files(folder.parent / change, files)
    _reload(client, url, changed)
    body = _page(client, document, cursor)
    (error,) = body["errors"]
    assert error["extensions"]["code"] == "CURSOR_EXPIRED", error
    assert why in error["message"]
    assert "start again from the first page" in error["message"]
    assert body["data"] == {"methods": None}


def test_a_search_cursor_expires_when_the_load_changes_what_is_searched(
    loaded: tuple[TestClient, str, Path],
) -> None:
    """A search's cursor holds its offset in the ranked hits: after a load of the same data
    it goes on (LISTS); after a load that renames a method, whose hits may now rank
    otherwise, it has expired, never a page shifted."""
    client, url, folder = loaded
    document = LISTS["search"]
    cursor, _ = _first_cursor(client, document)
    files = _files(folder)
    files["methods"] = [
        m | {"name": "Zz method"} if m["slug"] == "m-zed" else m for m in files["methods"]
    ]
    _reload(client, url, write_files(folder.parent / "changed", files))
    (error,) = _page(client, document, cursor)["errors"]
    assert error["extensions"]["code"] == "CURSOR_EXPIRED", error
    assert "start again from the first page" in error["message"]


@pytest.mark.parametrize(
    ("node", "change"),
    [
        ("beta", {"name": "Zbeta"}),  # renamed: now listed after Delta
        ("beta", {"parent": "zeta"}),  # moved out of the branch
        ("delta", {"parent": "beta"}),  # moved within the branch
    ],
    ids=["renamed", "moved-out", "moved-within"],
)
def test_a_cursor_in_pre_order_whose_node_was_renamed_or_moved_is_expired(
    loaded: tuple[TestClient, str, Path], node: str, change: dict[str, str]
) -> None:
    """Alpha's descendants in pre-order: beta, Gamma, Delta. A cursor at a node whose names
    path or slug path changed would go on from wherever the node now sorts: expired."""
    client, url, folder = loaded
    document = LISTS["descendants"]
    cursor = None
    while True:
        page = _connection(_page(client, document, cursor)["data"])
        cursor = page["pageInfo"]["endCursor"]
        if page["nodes"][0]["slug"] == node:
            break
    files = _files(folder)
    files["nodes"] = [n | change if n["slug"] == node else n for n in files["nodes"]]
    _reload(client, url, write_files(folder.parent / "changed", files))
    body = _page(client, document, cursor)
    (error,) = body["errors"]
    assert error["extensions"]["code"] == "CURSOR_EXPIRED", error
    assert "no longer in the list with the values it had" in error["message"]


def test_a_cursor_in_file_order_expires_when_lines_before_it_change(
    loaded: tuple[TestClient, str, Path],
) -> None:
    """Newest's evidence in file order: a line added at the top of evidence.jsonl moves
    every line down, so the cursor's item is no longer at its line: expired, where going on
    from the item's new line could repeat or skip rows."""
    client, url, folder = loaded
    document = LISTS["a model's evidence"]
    cursor, _ = _first_cursor(client, document)
    files = _files(folder)
    first = {"model": "tie-a", "method": "m-zed", "strength": "used", "source": "tie-a-report"}
    files["evidence"] = [first, *files["evidence"]]
    _reload(client, url, write_files(folder.parent / "changed", files))
    (error,) = _page(client, document, cursor)["errors"]
    assert error["extensions"]["code"] == "CURSOR_EXPIRED", error
