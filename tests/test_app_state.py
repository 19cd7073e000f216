"""What the server keeps between requests hangs off the app that create_app makes
(api.app), never off a module: two apps on one database share nothing they read, and a
test gets a fresh app rather than clearing globals.

The scan finds, in api/, schema/ and store/, what a module fills as it runs: an empty
container or a cache made at import (a dict, a set, an LRU, a weak mapping...), at module
or class level, and functions memoised by functools. What is found must be in ALLOWED,
each entry with its reason; an entry that no longer matches anything must go."""

import ast
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from api.ingest.load import load_directory

from conftest import ROOT, Api, serve

LAYERS = ("api", "schema", "store")

# What may stay at module level: none of it holds data read from the database, so none of
# it goes stale with a load, and none of it tells one app from another.
ALLOWED = {
    # Statements built from code, keyed by the code's own shapes: a fixed, small set.
    "schema/refs.py:_CLASSES": "the classes registered by @refs.builds at import, a fixed set",
    "store/batches.py:_pairs_statement": "SQL per statement builder and group count (bounded)",
    "store/batches.py:_where_in": "SQL per statement builder and column, fixed by code",
    "store/history/change_lists.py:_by_kind": "SQL per kind of change and dialect, a fixed set",
    "store/treatments.py:_in_large_branch": "SQL per order of a model's methods, a fixed set",
    "store/history/change_lists.py:_knock_on_counts": (
        "SQL per kind, dialect and cause, a fixed set"
    ),
    "store/history/change_lists.py:_knock_on_firsts": (
        "SQL per kind, dialect and cause, a fixed set"
    ),
    "store/history/change_lists.py:change_list": "SQL per kind, dialect and shape, a fixed set",
    "store/evidence.py:_evidence": "one SELECT, built once",
    "store/methods.py:_with_nodes": "one SELECT, built once",
    "store/methods.py:with_stats": "one SELECT, built once",
    "store/models.py:_models": "one SELECT, built once",
    "store/models.py:_sources": "one SELECT, built once",
    "store/nodes.py:with_stats": "one SELECT, built once",
    "store/history/releases.py:_releases": "one SELECT, built once",
    "store/rows.py:record_of": "the record maker of each table model, a fixed set",
    "store/paging.py:_PREPARED": "prepared statements by listing shape, fixed by code",
    "store/history/adoption.py:_label": "period labels (a pure function of two numbers), bounded",
    # Derived from what a request sends, not from the database; bounded.
    "api/pages/browser.py:_manifest": "the built browser's asset names, by file and mtime",
    # pydantic copies a field's default for each Settings: nothing is shared.
    "api/settings.py:Settings.cors_origins": "a pydantic field's default, copied per object",
    # Keyed weakly by an object each app makes itself, so they go with the app.
    "schema/limits.py:_AS_GRAPHQL": "graphql-core's copy of each schema, weakly by schema",
    "store/engines.py:_REQUEST_SLOTS": "each engine's request turns, weakly by engine",
    # Made only where no app is: a server builds its own schema from its settings and never
    # this one (test_an_app_does_not_build_the_default_schema).
    "schema/__init__.py:default_schema": "the CLI's and the tests' schema, not a server's",
}

_CONTAINERS = {"dict", "list", "set", "bytearray"}
_STATEFUL = {
    "OrderedDict",
    "defaultdict",
    "deque",
    "Counter",
    "WeakKeyDictionary",
    "WeakValueDictionary",
    "WeakSet",
    "Cache",
    "LRUCache",
    "LFUCache",
    "FIFOCache",
    "RRCache",
    "TTLCache",
    "TLRUCache",
}
_MEMOISERS = {"cache", "lru_cache", "cached"}


def _name(node: ast.expr) -> str | None:
    """The last name of ``node`` (`functools.cache` -> `cache`; `lru_cache(8)` -> `lru_cache`)."""
    if isinstance(node, ast.Call):
        return _name(node.func)
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return None


def _stateful(value: ast.expr | None) -> bool:
    if isinstance(value, ast.Dict | ast.List | ast.Set):
        return not (value.keys if isinstance(value, ast.Dict) else value.elts)  # empty
    if isinstance(value, ast.DictComp | ast.ListComp | ast.SetComp):
        return False  # a table worked out once from constants
    if not isinstance(value, ast.Call):
        return False
    called = _name(value.func)
    if called in _CONTAINERS:
        return not value.args  # dict(x) is a copy of a table; dict() is filled later
    if called in _STATEFUL:
        return True
    # lru_cache(maxsize=8)(function), cache(function)
    return called in _MEMOISERS or (
        isinstance(value.func, ast.Call) and _name(value.func) in _MEMOISERS
    )


def module_state(source: str) -> Iterator[str]:
    """The names, at module or class level, of what ``source`` fills as it runs."""

    def scan(body: list[ast.stmt], prefix: str) -> Iterator[str]:
        for statement in body:
            if isinstance(statement, ast.ClassDef):
                yield from scan(statement.body, f"{prefix}{statement.name}.")
            elif isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
                if any(_name(d) in _MEMOISERS for d in statement.decorator_list):
                    yield prefix + statement.name
            elif isinstance(statement, ast.Assign | ast.AnnAssign) and _stateful(statement.value):
                targets = (
                    statement.targets if isinstance(statement, ast.Assign) else [statement.target]
                )
                yield from (prefix + t.id for t in targets if isinstance(t, ast.Name))

    yield from scan(ast.parse(source).body, "")


def found_in_layers() -> set[str]:
    found = set()
    for layer in LAYERS:
        for path in sorted((ROOT / layer).rglob("*.py")):
            where = path.relative_to(ROOT).as_posix()
            found |= {f"{where}:{name}" for name in module_state(path.read_text())}
    return found


def test_no_module_keeps_state_beyond_the_allowed() -> None:
    found = found_in_layers()
    assert not found - set(ALLOWED), "module-level state: make it the app's (api.app)"
    assert not set(ALLOWED) - found, "allowed entries that match nothing any more"
    assert all(reason.strip() for reason in ALLOWED.values())


def test_the_scan_finds_each_kind_of_state() -> None:
    source = """
import functools
from collections import OrderedDict
from functools import cache, lru_cache
import weakref
from cachetools import LRUCache

TABLE = {"a": 1}
NAMES = ("x", "y")
COPY = dict(TABLE)
_empty = {}
_listed: list[int] = []
_made = dict()
_ordered = OrderedDict()
_weak = weakref.WeakKeyDictionary()
_lru: LRUCache[str, int] = LRUCache(maxsize=8)
_wrapped = lru_cache(maxsize=4)(len)

@cache
def memo(x): return x

@functools.lru_cache(maxsize=2)
def memo2(x): return x

def plain(): return {}

class Holder:
    kept = set()
    limit = 3
"""
    assert set(module_state(source)) == {
        "_empty",
        "_listed",
        "_made",
        "_ordered",
        "_weak",
        "_lru",
        "_wrapped",
        "memo",
        "memo2",
        "Holder.kept",
    }


SEARCH = '{ search(query: "alpha", first: 1) { totalCount } }'


def test_two_apps_on_one_database_keep_separate_caches(tiny: Api) -> None:
    with serve(tiny.database_url) as first, serve(tiny.database_url) as second:
        one, two = first.app.state.caches, second.app.state.caches  # type: ignore[attr-defined]
        assert one is not two
        assert one.searchers is not two.searchers
        assert one.comparisons is not two.comparisons
        assert one.release_trees is not two.release_trees
        assert one.releases is not two.releases
        answer = first.post("/graphql", json={"query": SEARCH}).json()
        assert answer["data"]["search"]["totalCount"] >= 1, answer
        assert second.post("/graphql", json={"query": SEARCH}).json() == answer
        # Each app read the catalogue for itself, and keeps its own.
        assert one.searchers._current is not None
        assert two.searchers._current is not None
        assert one.searchers._current is not two.searchers._current


def test_a_new_app_reads_anew(tiny: Api) -> None:
    with serve(tiny.database_url) as client:
        client.post("/graphql", json={"query": SEARCH})
        before = client.app.state.caches.searchers._current  # type: ignore[attr-defined]
        assert before is not None
    with serve(tiny.database_url) as client:
        client.post("/graphql", json={"query": SEARCH})
        after = client.app.state.caches.searchers._current  # type: ignore[attr-defined]
        assert after is not None
        assert after is not before


# The range of releases and two release rows: what most pages read of the releases.
CHANGES = "{ %s: changes(since: 1) { from { number } to { number } } }"


def test_the_releases_are_read_once_a_data_version(
    new_database: Callable[[str, str], str], backend: str, tiny_folder: Path
) -> None:
    """The retained range and the release rows are kept by data version (store.history.
    releases.KnownReleases): a second page reads neither again, and a load's new version
    reads them anew."""
    url = new_database(backend, "known-releases")
    for _ in range(2):
        load_directory(tiny_folder, url)  # releases 1 and 2
    with serve(url, statement_header=True) as client:
        api = Api(client, url)
        read = api.count_statements(CHANGES % "first")
        known = api.count_statements(CHANGES % "second")
        # Read: the range, then release 1's row and release 2's (each asked on its own).
        assert (read, known) == (3, 0)
        assert api.query(CHANGES % "third") == {
            "third": {"from": {"number": 1}, "to": {"number": 2}}
        }
        load_directory(tiny_folder, url)  # release 3, a new data version
        assert api.count_statements(CHANGES % "fourth") == read
        assert api.query(CHANGES % "fifth") == {
            "fifth": {"from": {"number": 1}, "to": {"number": 3}}
        }


def test_a_known_release_or_one_outside_the_range_is_answered_without_a_statement(
    new_database: Callable[[str, str], str], backend: str, tiny_folder: Path
) -> None:
    """Once a worker knows a data version's releases, a request whose first read is a
    release by number reads nothing (it opens its snapshot to know its version first),
    and a number outside the retained range is no release without a read: a page's
    "the release before the first" asks for release 0 on every view."""
    url = new_database(backend, "releases-outside")
    load_directory(tiny_folder, url)  # release 1
    with serve(url, statement_header=True) as client:
        api = Api(client, url)
        assert api.count_statements(CHANGES % "first") > 0  # the range and release 1
        one = "{ one: release(number: 1) { number } }"
        assert api.count_statements(one) == 0
        assert api.query(one) == {"one": {"number": 1}}
        outside = "{ before: release(number: 0) { number } after: release(number: 9) { number } }"
        assert api.count_statements(outside) == 0
        assert api.query(outside) == {"before": None, "after": None}


LATEST = """query ($first: Int!) { releases(first: $first) {
  nodes { number version } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }"""


def test_the_first_page_of_releases_is_answered_from_the_known_rows(
    new_database: Callable[[str, str], str], backend: str, tiny_folder: Path
) -> None:
    """Every page of the browser asks for the latest release: once a worker has read the
    newest releases, the first page of the list (newest first) reads nothing, and is the
    same answer, cursors and all, as the read one; a longer page than is known is read."""
    url = new_database(backend, "releases-first-page")
    for _ in range(3):
        load_directory(tiny_folder, url)  # releases 1 to 3
    with serve(url, statement_header=True, response_cache=False) as client:
        api = Api(client, url)
        for first in (0, 1, 2, 3, 5):
            read = api.query(LATEST, {"first": first})
            assert [r["number"] for r in read["releases"]["nodes"]] == [3, 2, 1][:first]
            assert read["releases"]["pageInfo"]["hasNextPage"] is (first < 3)
            assert api.count_statements(LATEST, {"first": first}) == 0
            assert api.query(LATEST, {"first": first}) == read
        # The next page, from the cached page's cursor, is read (and goes on where it ends).
        after = api.query(LATEST, {"first": 1})["releases"]["pageInfo"]["endCursor"]
        rest = api.query(
            "query ($a: String) { releases(first: 5, after: $a) { nodes { number } } }",
            {"a": after},
        )
        assert rest == {"releases": {"nodes": [{"number": 2}, {"number": 1}]}}


def test_the_layers_exist() -> None:
    # The scan reads these folders: were one renamed, the first test would pass on nothing.
    assert all((ROOT / layer / "__init__.py").is_file() for layer in LAYERS)
    assert len(found_in_layers()) == len(ALLOWED)
    assert Path(__file__).name == "test_app_state.py"


def test_an_app_does_not_build_the_default_schema(tiny: Api) -> None:
    """A server builds one schema, from its settings: the default one (the CLI's and the
    tests') is built only when asked for, not when the app's modules are imported. A fresh
    interpreter, since this one's tests have built it."""
    code = (
        "import os\n"
        f"os.environ['DATABASE_URL'] = {tiny.database_url!r}\n"
        "from api.app import create_app\n"
        "from starlette.testclient import TestClient\n"
        "from schema import default_schema\n"
        "with TestClient(create_app()) as client:\n"
        "    answer = client.post('/graphql', json={'query': '{ taxonomy { nodeCount } }'})\n"
        "    assert answer.json()['data']['taxonomy']['nodeCount'] > 0, answer.text\n"
        "print(default_schema.cache_info().currsize)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "0", done.stdout
