"""Downloads of the browser's tables (issue 27 item 2: api.download), through the ASGI app on
both databases: every route's rows are the API's own, in the order and filter its page's
URL gives, as CSV and as JSON; CSV's quoting and formula guard; a bad parameter is a 400
and an unknown subject a 404; a load mid-download ends the stream with a marker, as does
the download's time limit; the answer streams (its first rows leave before the next chunk
is read)."""

import asyncio
import csv
import io
import json
import logging
import time
from collections.abc import Callable, Iterator, MutableMapping
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from api.commands.generate_next import next_version
from api.download import writers
from api.download.tables import MissingError, Params
from api.edge.request_log import LOGGER
from api.ingest.load import load_directory
from api.settings import DEFAULT_FIXTURES_DIR
from schema import TaxonomySchema
from schema.context import Context

from conftest import SEED_PAGE, Api, release_of, serve
from tiny_dataset import EVIDENCE, MODELS, write_files, write_tiny

PAGE_INFO = "pageInfo { hasNextPage endCursor }"
BY_MODEL = (
    "query($path: String!, $orderBy: ModelTreatmentOrder, $filter: ModelFilter,"
    " $after: String) { node(path: $path) {"
    " byModel(first: 100, after: $after, orderBy: $orderBy, filter: $filter) {"
    f" {PAGE_INFO} nodes {{ model {{ slug name }} strongest methodCount }} }} }} }}"
)
METHOD_MODELS = (
    "query($slug: String!, $minStrength: Strength, $after: String,"
    " $orderBy: TreatmentsOfMethodOrder) { method(slug: $slug) {"
    " treatmentsConnection(first: 100, after: $after, minStrength: $minStrength,"
    f" orderBy: $orderBy) {{ {PAGE_INFO}"
    " nodes { strength model { slug } } } } }"
)
MODEL_METHODS = (
    "query($slug: String!, $minStrength: Strength, $after: String,"
    " $orderBy: TreatmentsOfModelOrder) { model(slug: $slug) {"
    f" treatments(first: 100, after: $after, minStrength: $minStrength, orderBy: $orderBy) {{"
    f" {PAGE_INFO} nodes {{ strength method {{ slug }} }} }} }} }}"
)
MODELS_LIST = (
    "query($filter: ModelFilter, $orderBy: ModelOrder, $after: String) {"
    f" models(first: 100, after: $after, filter: $filter, orderBy: $orderBy) {{ {PAGE_INFO}"
    " nodes { slug } } }"
)
METHODS_LIST = (
    "query($filter: MethodFilter, $orderBy: MethodOrder, $after: String) {"
    f" methods(first: 100, after: $after, filter: $filter, orderBy: $orderBy) {{ {PAGE_INFO}"
    " nodes { slug } } }"
)
RELEASES_LIST = (
    "query($after: String, $filter: ReleaseFilter, $orderBy: ReleaseOrder) {"
    f" releases(first: 25, after: $after, filter: $filter, orderBy: $orderBy) {{ {PAGE_INFO}"
    " nodes { number loadedAt } } }"
)
SEARCH_LIST = (
    "query($query: String!, $types: [SearchType!], $after: String) {"
    f" search(query: $query, first: 100, after: $after, types: $types) {{ {PAGE_INFO}"
    " nodes { __typename ... on Node { name } ... on Method { name } ... on Model { name }"
    " ... on Source { name } } } }"
)


def changes_list(list_name: str) -> str:
    key = "modelSlug methodSlug" if list_name == "treatments" else "slug"
    return (
        "query($since: Int!, $kinds: [ChangeKind!], $after: String) { changes(since: $since) {"
        f" {list_name}(first: 100, after: $after, kinds: $kinds) {{ {PAGE_INFO}"
        f" nodes {{ kind {key} }} }} }} }}"
    )


def walk(api: Api, document: str, variables: dict[str, Any]) -> list[dict[str, Any]]:
    """Every node of the one connection ``document`` asks for, page after page over HTTP."""
    rows: list[dict[str, Any]] = []
    after = None
    while True:
        found: Any = api.query(document, {**variables, "after": after})
        while "pageInfo" not in found:
            (found,) = found.values()
        rows += found["nodes"]
        if not found["pageInfo"]["hasNextPage"]:
            return rows
        after = found["pageInfo"]["endCursor"]


def downloaded(api: Api, url: str) -> tuple[list[dict[str, Any]], list[dict[str, str]]]:
    """``url``'s rows as JSON and as CSV (``url`` without its extension), each checked to
    be a whole, well-formed answer of its type."""
    path, _, query = url.partition("?")
    suffix = f"?{query}" if query else ""
    as_json = api.client.get(f"{path}.json{suffix}")
    as_csv = api.client.get(f"{path}.csv{suffix}")
    for response, media in ((as_json, "application/json"), (as_csv, "text/csv")):
        assert response.status_code == 200, (url, response.text)
        assert response.headers["content-type"].startswith(media)
        disposition = response.headers["content-disposition"]
        assert disposition.startswith('attachment; filename="')
        assert disposition.endswith(f'.{media.split("/")[1]}"')
        release_of(response.headers["data-version"])
        assert response.headers["cache-control"] == "no-store"
    assert as_csv.headers["content-type"] == "text/csv; charset=utf-8; header=present"
    rows = json.loads(as_json.text)
    lines = as_json.text.splitlines()  # `[`, an object a line, `]`
    assert (lines[0], lines[-1], len(lines)) == ("[", "]", len(rows) + 2)
    table = list(csv.DictReader(io.StringIO(as_csv.text, newline="")))
    assert as_csv.text.endswith("\r\n")
    assert writers.INCOMPLETE not in as_csv.text
    assert len(table) == len(rows)
    assert [list(row) for row in table[:1]] == [list(row) for row in rows[:1]]
    return rows, table


def as_cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return "; ".join(value)
    return str(value)


# Each download (its URL without the extension), the API's list it must equal (document and
# variables), and how a row is known in each: the download's columns, the API's fields.
Case = tuple[str, str, dict[str, Any], tuple[str, ...], Callable[[dict[str, Any]], tuple[Any, ...]]]
SEED = "optimization/training-parallelism"
by_model_key = ("model_slug", "strongest", "method_count")


def _by_model(row: dict[str, Any]) -> tuple[Any, ...]:
    return (row["model"]["slug"], row["strongest"].lower(), row["methodCount"])


def _treatment(other: str) -> Callable[[dict[str, Any]], tuple[Any, ...]]:
    return lambda row: (row[other]["slug"], row["strength"].lower())


def _slug(row: dict[str, Any]) -> tuple[Any, ...]:
    return (row["slug"],)


def _order(field: str, direction: str) -> dict[str, str]:
    return {"field": field, "direction": direction}


CASES: list[Case] = [
    (f"/download/nodes/{SEED}", BY_MODEL, {"path": SEED}, by_model_key, _by_model),
    (
        "/download/nodes/optimization?sort=name",
        BY_MODEL,
        {"path": "optimization", "orderBy": _order("NAME", "ASC")},
        by_model_key,
        _by_model,
    ),
    (
        "/download/nodes/optimization?sort=strongest",
        BY_MODEL,
        {"path": "optimization", "orderBy": _order("STRONGEST", "DESC")},
        by_model_key,
        _by_model,
    ),
    (
        "/download/nodes/optimization?sort=methods",
        BY_MODEL,
        {"path": "optimization", "orderBy": _order("METHOD_COUNT", "DESC")},
        by_model_key,
        _by_model,
    ),
    # The page's heads turn an order round (`&dir=`); its filter box narrows by organization.
    (
        "/download/nodes/optimization?sort=name&dir=desc&org=deepseek",
        BY_MODEL,
        {
            "path": "optimization",
            "orderBy": _order("NAME", "DESC"),
            "filter": {"organization": "deepseek"},
        },
        by_model_key,
        _by_model,
    ),
    (
        f"/download/nodes/{SEED}?sort=newest&dir=asc",
        BY_MODEL,
        {"path": SEED, "orderBy": _order("RELEASE_DATE", "ASC")},
        by_model_key,
        _by_model,
    ),
    (
        "/download/methods/expert-parallelism",
        METHOD_MODELS,
        {"slug": "expert-parallelism"},
        ("model_slug", "strength"),
        _treatment("model"),
    ),
    # The method page's filter box: its models at least this strong.
    (
        "/download/methods/multi-token-prediction?strength=used",
        METHOD_MODELS,
        {"slug": "multi-token-prediction", "minStrength": "USED"},
        ("model_slug", "strength"),
        _treatment("model"),
    ),
    (
        "/download/models/kimi-k3",
        MODEL_METHODS,
        {"slug": "kimi-k3"},
        ("method_slug", "strength"),
        _treatment("method"),
    ),
    # The model page's filter box: its methods at least this strong.
    (
        "/download/models/chinchilla-70b?strength=used",
        MODEL_METHODS,
        {"slug": "chinchilla-70b", "minStrength": "USED"},
        ("method_slug", "strength"),
        _treatment("method"),
    ),
    (
        "/download/models/kimi-k3?strength=core",
        MODEL_METHODS,
        {"slug": "kimi-k3", "minStrength": "CORE"},
        ("method_slug", "strength"),
        _treatment("method"),
    ),
    # The pages' heads order them (`?sort=`, `&dir=`), with the filter box.
    (
        "/download/models/kimi-k3?sort=name&dir=desc",
        MODEL_METHODS,
        {"slug": "kimi-k3", "orderBy": _order("NAME", "DESC")},
        ("method_slug", "strength"),
        _treatment("method"),
    ),
    (
        "/download/models/llama-3-1-405b?sort=node&strength=used",
        MODEL_METHODS,
        {"slug": "llama-3-1-405b", "orderBy": _order("NODE", "ASC"), "minStrength": "USED"},
        ("method_slug", "strength"),
        _treatment("method"),
    ),
    (
        "/download/models/llama-3-1-405b?sort=strongest&dir=asc",
        MODEL_METHODS,
        {"slug": "llama-3-1-405b", "orderBy": _order("STRONGEST", "ASC")},
        ("method_slug", "strength"),
        _treatment("method"),
    ),
    (
        "/download/methods/sparse-mixture-of-experts?sort=release&dir=asc",
        METHOD_MODELS,
        {"slug": "sparse-mixture-of-experts", "orderBy": _order("RELEASE_DATE", "ASC")},
        ("model_slug", "strength"),
        _treatment("model"),
    ),
    (
        "/download/methods/sparse-mixture-of-experts?sort=name&strength=used",
        METHOD_MODELS,
        {
            "slug": "sparse-mixture-of-experts",
            "orderBy": _order("NAME", "ASC"),
            "minStrength": "USED",
        },
        ("model_slug", "strength"),
        _treatment("model"),
    ),
    ("/download/models", MODELS_LIST, {}, ("model_slug",), _slug),
    (
        "/download/models?sort=release&dir=asc&org=deepseek",
        MODELS_LIST,
        {"filter": {"organization": "deepseek"}, "orderBy": _order("RELEASE_DATE", "ASC")},
        ("model_slug",),
        _slug,
    ),
    (
        "/download/models?sort=release&q=e&released-from=2025-01-01&released-to=2026-04-30",
        MODELS_LIST,
        {
            "filter": {
                "nameContains": "e",
                "releasedAfter": "2025-01-01",
                "releasedBefore": "2026-04-30",
            },
            "orderBy": _order("RELEASE_DATE", "DESC"),
        },
        ("model_slug",),
        _slug,
    ),
    # 161 methods: two chunks of the API's 100.
    ("/download/methods", METHODS_LIST, {}, ("method_slug",), _slug),
    (
        "/download/methods?sort=models&strength=used&branch=optimization",
        METHODS_LIST,
        {
            "filter": {"minStrength": "USED", "branch": {"path": "optimization"}},
            "orderBy": _order("MODEL_COUNT", "DESC"),
        },
        ("method_slug",),
        _slug,
    ),
    (
        "/download/methods?sort=strongest&dir=asc&q=parallel",
        METHODS_LIST,
        {"filter": {"nameContains": "parallel"}, "orderBy": _order("STRONGEST", "ASC")},
        ("method_slug",),
        _slug,
    ),
    (
        "/download/search?q=parallel",
        SEARCH_LIST,
        {"query": "parallel"},
        ("type", "name"),
        lambda row: (row["__typename"].lower(), row["name"]),
    ),
    (
        "/download/search?q=deepseek&type=models",
        SEARCH_LIST,
        {"query": "deepseek", "types": ["MODELS"]},
        ("type", "name"),
        lambda row: (row["__typename"].lower(), row["name"]),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[case[0] for case in CASES])
def test_each_download_has_the_api_rows_in_its_order_and_filter(api: Api, case: Case) -> None:
    url, document, variables, columns, api_key = case
    expected = [api_key(node) for node in walk(api, document, variables)]
    assert expected, f"{url}: the API's list is empty, nothing to compare"
    rows, table = downloaded(api, url)
    assert [tuple(row[name] for name in columns) for row in rows] == expected
    assert [tuple(row[name] for name in columns) for row in table] == [
        tuple(as_cell(value) for value in key) for key in expected
    ]
    assert [{name: as_cell(value) for name, value in row.items()} for row in rows] == table


def test_the_seed_nodes_by_model_download_is_the_seed_pages_table(api: Api) -> None:
    """The seed page's rows, in its order, each with all its methods and strengths."""
    seed = SEED_PAGE.read_text(encoding="utf-8").splitlines()
    header = seed.index("Model\ttechniques")
    lines = seed[header + 1 : seed.index("training parallelism", header)]
    lines = [line for line in lines if line]
    rows, table = downloaded(api, f"/download/nodes/{SEED}")
    shown = [
        f"{row['model']} {row['strongest']}\t"
        + "".join(method.replace(" (", " ").rstrip(")") for method in row["methods"])
        + "\u2014"
        for row in rows
    ]
    assert shown == lines
    assert table[0]["methods"] == (
        "Communication-Computation Overlap (core); Load-Balanced Image Sharding (used); "
        "Pipeline Payload Extensions (used)"
    )


@pytest.fixture(scope="module")
def history(
    new_database: Callable[[str, str], str], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Callable[[str], Api]]:
    """A server per backend on the fixtures and an edited next version of them (two
    releases, with changes of every kind)."""
    made: dict[str, Api] = {}

    def get(backend: str) -> Api:
        if backend not in made:
            second = tmp_path_factory.mktemp("next")
            next_version(DEFAULT_FIXTURES_DIR, second, seed=18, each=20)
            url = new_database(backend, "downloads")
            load_directory(DEFAULT_FIXTURES_DIR, url)
            load_directory(second, url)
            client = serve(url)
            client.__enter__()
            made[backend] = Api(client, url)
        return made[backend]

    yield get
    for api in made.values():
        api.client.__exit__(None, None, None)


@pytest.mark.parametrize("list_name", ["nodes", "methods", "models", "treatments"])
@pytest.mark.parametrize("kind", [None, "removed", "renamed", "changed"])
def test_each_changes_list_downloads_as_the_api_lists_it(
    history: Callable[[str], Api], backend: str, list_name: str, kind: str | None
) -> None:
    api = history(backend)
    variables = {"since": 1, "kinds": None if kind is None else [kind.upper()]}
    expected = walk(api, changes_list(list_name), variables)
    url = f"/download/changes/{list_name}?since=1" + (f"&kind={kind}" if kind else "")
    rows, _ = downloaded(api, url)
    keys = ("model_slug", "method_slug") if list_name == "treatments" else ("slug",)
    fields = ("modelSlug", "methodSlug") if list_name == "treatments" else ("slug",)
    assert [(row["kind"], *(row[k] for k in keys)) for row in rows] == [
        (change["kind"].lower(), *(change[f] for f in fields)) for change in expected
    ]
    if kind is None or (kind == "changed" and list_name == "methods"):
        # (CHANGED: an edited description or document; a download refused it with a 400.)
        assert rows, f"the second release has no {kind or ''} {list_name}: nothing compared"


def test_the_releases_download_lists_each_release_with_its_changes(
    history: Callable[[str], Api], backend: str
) -> None:
    api = history(backend)
    rows, table = downloaded(api, "/download/releases")
    assert [row["release"] for row in rows] == [
        release["number"] for release in walk(api, RELEASES_LIST, {})
    ]
    newest, first = rows
    assert newest["compared_with"] == first["release"] == newest["release"] - 1
    total = api.query("{ changes(since: 1) { summary { total } } }")["changes"]["summary"]
    assert newest["changes"] == total["total"] > 0
    assert first["changes"] is None
    assert table[1]["changes"] == ""


@pytest.mark.parametrize(
    ("query", "variables"),
    [
        ("sort=release&dir=asc", {"orderBy": {"field": "NUMBER", "direction": "ASC"}}),
        ("sort=loaded", {"orderBy": {"field": "NUMBER", "direction": "DESC"}}),
        ("sort=loaded&dir=asc&q=nothing", {"filter": {"noteContains": "nothing"}}),
        ("loaded-to=2000-01-01", {"filter": {"loadedTo": "2000-01-01"}}),
    ],
)
def test_the_releases_download_follows_the_pages_order_and_filter(
    history: Callable[[str], Api], backend: str, query: str, variables: dict[str, Any]
) -> None:
    """`?sort=release|loaded` (both by number) and `&dir=`, `?q=` (the note), `?loaded-from=`
    and `?loaded-to=`, as /releases reads them: the API's rows in the API's order."""
    api = history(backend)
    expected = [release["number"] for release in walk(api, RELEASES_LIST, variables)]
    rows, _ = downloaded(api, f"/download/releases?{query}")
    assert [row["release"] for row in rows] == expected
    whole = [release["number"] for release in walk(api, RELEASES_LIST, {})]
    assert len(whole) == 2
    if "dir=asc" in query and "q=" not in query:
        assert expected == whole[::-1]


def test_csv_quotes_as_rfc_4180_says_and_guards_formulas() -> None:
    writer = writers.CsvWriter()
    hostile = ["=1+2", "+3", "-4", "@SUM(A1)", "\tx", "\rx", 'say "hi", then\nleave', "plain"]
    body = writer.start(["a", "b"]) + writer.rows([{"a": text, "b": 5} for text in hostile])
    assert body.startswith(b"a,b\r\n")
    parsed = list(csv.reader(io.StringIO(body.decode(), newline="")))[1:]
    assert [row[0] for row in parsed] == [
        "'=1+2",
        "'+3",
        "'-4",
        "'@SUM(A1)",
        "'\tx",
        "'\rx",
        'say "hi", then\nleave',
        "plain",
    ]
    assert b'"say ""hi"", then\nleave",5\r\n' in body
    assert writers.cell(None) == ""
    assert writers.cell(["a", "=b"]) == "a; =b"
    assert writers.cell(["=a", "b"]) == "'=a; b"
    assert writers.cell(-3) == "-3"


def test_names_that_look_like_formulas_download_as_text(
    backend: str, new_database: Callable[[str, str], str], tmp_path: Path
) -> None:
    """Through the app, on a dataset whose names are formulas and have commas and quotes:
    CSV guards and quotes them, JSON keeps them as they are."""
    names = {"newest": '=HYPERLINK("http://x","y")', "tie-b": '-1, "minus"', "tie-a": "@a"}
    models = [{**model, "name": names.get(model["slug"], model["name"])} for model in MODELS]
    folder = tmp_path / "hostile"
    write_tiny(folder)
    sources = [json.loads(line) for line in (folder / "sources.jsonl").read_text().splitlines()]
    evidence = [
        {"model": model, "method": method, "strength": strength, "source": f"{model}-report"}
        for model, method, strength in EVIDENCE
    ]
    write_files(folder, {"models": models, "sources": sources, "evidence": evidence})
    url = new_database(backend, "hostile")
    load_directory(folder, url)
    with serve(url) as client:
        rows, table = downloaded(Api(client, url), "/download/models")
    by_slug = {row["model_slug"]: row["model"] for row in table}
    assert {slug: by_slug[slug] for slug in names} == {
        slug: f"'{name}" for slug, name in names.items()
    }
    assert {row["model_slug"]: row["model"] for row in rows if row["model_slug"] in names} == names


BAD = [
    (
        "/download/methods.csv?sort=size",
        "`sort` must be one of name, strongest, models; got 'size'",
    ),
    ("/download/methods.json?dir=up", "`dir` must be one of asc, desc; got 'up'"),
    ("/download/methods.csv?strength=strong", "`strength` must be one of core, used, mentioned"),
    ("/download/methods.csv?branch=no/such/branch", "no node has the path 'no/such/branch'"),
    ("/download/models.csv?released-from=2025-02-30", "`released-from` must be a day"),
    ("/download/models.json?released-to=yesterday", "`released-to` must be a day"),
    (f"/download/nodes/{SEED}.csv?sort=oldest", "`sort` must be one of newest, name"),
    (f"/download/nodes/{SEED}.json?dir=oldest", "`dir` must be one of asc, desc"),
    ("/download/methods/expert-parallelism.csv?strength=strong", "`strength` must be one of core"),
    ("/download/models/kimi-k3.json?strength=weak", "`strength` must be one of core, used"),
    ("/download/models/kimi-k3.csv?sort=size", "`sort` must be one of strongest, name, node"),
    ("/download/models/kimi-k3.json?sort=node&dir=up", "`dir` must be one of asc, desc"),
    (
        "/download/methods/expert-parallelism.json?sort=node",
        "`sort` must be one of strongest, name, release",
    ),
    ("/download/methods/expert-parallelism.csv?dir=down", "`dir` must be one of asc, desc"),
    ("/download/changes/nodes.csv", "`since` is required"),
    ("/download/changes/models.json?since=one", "`since` must be a release number"),
    ("/download/changes/treatments.csv?since=1&kind=grown", "`kind` must be one of added"),
    ("/download/releases.csv?sort=size", "`sort` must be one of release, loaded; got 'size'"),
    ("/download/releases.json?loaded-to=tomorrow", "`loaded-to` must be a day"),
    (
        "/download/releases.csv?loaded-from=2026-01-02&loaded-to=2026-01-01",
        "`loaded-from` (2026-01-02) is after `loaded-to` (2026-01-01)",
    ),
    ("/download/search.csv", "`q` is required"),
    ("/download/search.json?q=adam&type=people", "`type` must be one of nodes, methods"),
]


@pytest.mark.parametrize(("url", "says"), BAD, ids=[url for url, _ in BAD])
def test_a_bad_parameter_is_a_400_that_says_what_is_wrong(api: Api, url: str, says: str) -> None:
    response = api.client.get(url)
    assert response.status_code == 400, response.text
    if ".json" in url:
        assert response.headers["content-type"] == "application/json"
        error = response.json()["error"]
        assert error["code"] in ("BAD_REQUEST", "NOT_FOUND")
        assert says in error["message"]
    else:
        assert response.headers["content-type"].startswith("text/plain")
        assert says in response.text
    assert "content-disposition" not in response.headers


MISSING = [
    (
        "/download/nodes/optimization/no-such-node.csv",
        "there is no node 'optimization/no-such-node'",
    ),
    ("/download/methods/no-such-method.json", "there is no method 'no-such-method'"),
    ("/download/models/no-such-model.csv", "there is no model 'no-such-model'"),
    ("/download/changes/nodes.csv?since=99", "there is no release 99"),
    ("/download/changes/methods.json?since=1&until=77", "there is no release 77"),
    ("/download/changes/models.csv?since=-3", "there is no release -3"),
    ("/download/changes/models.csv?since=1&until=99999999999", "there is no release 99999999999"),
    # A NUL no key holds: no such subject, as its page says (it was a 400, then a 400
    # without the field's path on either database).
    ("/download/nodes/optimization/a%00b.csv", "there is no node 'optimization/a\\x00b'"),
    ("/download/methods/%00.json", "there is no method '\\x00'"),
    ("/download/models/m%00.csv", "there is no model 'm\\x00'"),
]


@pytest.mark.parametrize(("url", "says"), MISSING, ids=[url for url, _ in MISSING])
def test_an_unknown_subject_is_a_404(api: Api, url: str, says: str) -> None:
    response = api.client.get(url)
    assert response.status_code == 404, response.text
    assert says in (response.json()["error"]["message"] if ".json" in url else response.text)


def test_a_path_that_is_no_download_is_a_404(api: Api) -> None:
    for url in ("/download/methods.xlsx", "/download/unknown.csv", "/download/changes/x.csv"):
        assert api.client.get(url).status_code == 404, url


class Sent:
    """What a download sent, as the ASGI app sent it: each part of its body, and how many
    GraphQL executions had run when it left."""

    def __init__(self) -> None:
        self.start: dict[str, Any] = {}
        self.parts: list[tuple[bytes, int]] = []

    @property
    def body(self) -> bytes:
        return b"".join(part for part, _ in self.parts)


# The operations the schema has executed (their documents), in order, while `executions` counts.
EXECUTED: list[str] = []


@pytest.fixture
def executions(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The operations every schema executes during the test (their documents), in order."""
    EXECUTED.clear()
    execute = TaxonomySchema.execute

    async def counted(self: TaxonomySchema, query: str | None, *args: Any, **kwargs: Any) -> Any:
        EXECUTED.append(query or "")
        return await execute(self, query, *args, **kwargs)

    monkeypatch.setattr(TaxonomySchema, "execute", counted)
    return EXECUTED


async def asgi_get(
    app: Any, url: str, on_part: Callable[[bytes], object] = lambda part: None
) -> Sent:
    """GET ``url`` from ``app`` itself (ASGI, no client buffering in between), calling
    ``on_part`` with each part of the body as it is sent."""
    path, _, query = url.partition("?")
    sent = Sent()
    scope = {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.4"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": query.encode(),
        "headers": [(b"host", b"testserver")],
        "client": ("127.0.0.1", 1),
        "server": ("testserver", 80),
    }
    requested = False

    async def receive() -> dict[str, Any]:
        nonlocal requested
        if not requested:
            requested = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()  # the client stays
        raise AssertionError("unreachable")

    async def send(message: MutableMapping[str, Any]) -> None:
        if message["type"] == "http.response.start":
            sent.start = dict(message)
        elif message["type"] == "http.response.body" and message.get("body"):
            sent.parts.append((message["body"], len(EXECUTED)))
            on_part(message["body"])

    await app(scope, receive, send)
    return sent


def drive(
    client: TestClient, url: str, after_first_part: Callable[[], object] = lambda: None
) -> Sent:
    """GET ``url`` as `asgi_get` does, calling ``after_first_part`` once the first part of
    the body has been sent."""
    parts: list[bytes] = []

    def on_part(part: bytes) -> None:
        parts.append(part)
        if len(parts) == 1:
            after_first_part()

    assert client.portal is not None
    sent: Sent = client.portal.call(asgi_get, client.app, url, on_part)
    return sent


@pytest.fixture
def fresh(backend: str, new_database: Callable[[str, str], str]) -> tuple[str, str]:
    """A database of its own with the fixtures loaded, for tests that load again."""
    url = new_database(backend, "download-loads")
    load_directory(DEFAULT_FIXTURES_DIR, url)
    return url, backend


def test_the_first_rows_leave_before_the_next_chunk_is_read(
    fresh: tuple[str, str], executions: list[str]
) -> None:
    url, _ = fresh
    with serve(url) as client:
        sent = drive(client, "/download/methods.json")
    assert sent.start["status"] == 200
    rows = json.loads(sent.body)
    assert len(rows) == 161
    # The header and the first chunk's 100 rows, sent after one execution; then the rest.
    (first, ran_then), (_, ran_after) = sent.parts[0], sent.parts[1]
    assert ran_then == 1
    assert first.count(b"\n") == 100
    assert ran_after == 2
    assert len(executions) == 2
    assert all("DownloadMethods" in document for document in executions)


@pytest.mark.parametrize("extension", ["csv", "json"])
def test_a_load_mid_download_ends_it_with_a_marker_not_a_mix(
    fresh: tuple[str, str], executions: list[str], extension: str
) -> None:
    url, _ = fresh
    with serve(url) as client:
        sent = drive(
            client,
            f"/download/methods.{extension}?sort=models",
            after_first_part=lambda: load_directory(DEFAULT_FIXTURES_DIR, url),
        )
    assert sent.start["status"] == 200
    text = sent.body.decode()
    if extension == "json":
        *rows, last = json.loads(text)
        assert last["error"]["code"] == "DATA_RELOADED"
        message = last["error"]["message"]
    else:
        *lines, last_line = list(csv.reader(io.StringIO(text, newline="")))
        rows = lines[1:]
        assert len(last_line) == 1
        assert last_line[0].startswith(f"{writers.INCOMPLETE} (DATA_RELOADED)")
        message = last_line[0]
    assert len(rows) == 100
    assert "only the first 100 rows were written" in message
    assert "reloaded during the download (release 1, now 2)" in message
    assert "download again" in message


def test_the_download_stops_at_its_own_time_limit_with_a_marker(
    fresh: tuple[str, str], executions: list[str]
) -> None:
    url, _ = fresh
    with serve(url, download_timeout_seconds=1.0) as client:
        sent = drive(client, "/download/methods.csv", lambda: time.sleep(1.2))
    last = sent.body.decode().rstrip("\r\n").rsplit("\r\n", 1)[-1]
    assert last.startswith(f"{writers.INCOMPLETE} (TIMEOUT)")
    assert "`download_timeout_seconds` of 1 s" in last
    assert len(executions) == 1  # the second chunk was never started


def test_each_chunk_reads_within_the_request_time_limit(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every execution gets a deadline of `request_timeout_seconds` (10) as /graphql's
    requests do, which bounds its statements (store.reader)."""
    given: list[float] = []
    made = Context.for_request

    def spied(*args: Any, **kwargs: Any) -> Context:
        if kwargs.get("deadline") is not None:
            given.append(kwargs["deadline"].at - time.monotonic())
        return made(*args, **kwargs)

    monkeypatch.setattr(Context, "for_request", spied)
    assert api.client.get("/download/methods.csv").status_code == 200
    assert len(given) == 2
    assert all(9 < left <= 10 for left in given)


def test_a_first_chunk_over_its_time_is_a_503_to_retry(
    fresh: tuple[str, str],
) -> None:
    url, _ = fresh
    with serve(url, download_timeout_seconds=1e-9) as client:
        response = client.get("/download/models.json")
    assert response.status_code == 503
    assert response.headers["retry-after"] == "2"
    error = response.json()["error"]
    assert error["code"] == "TIMEOUT"
    assert "download_timeout_seconds" in error["message"]


def test_release_numbers_are_read_as_the_changes_page_reads_them() -> None:
    def read(value: str) -> int | None:
        return Params({}, {"since": value}).release("since", required=True)

    assert [read(v) for v in ("1", "+2", "007", "-1", "0")] == [1, 2, 7, -1, 0]
    for beyond in ("9" * 12, "2147483648", "1" * 5000):
        with pytest.raises(MissingError, match="there is no release"):
            read(beyond)


def test_other_requests_are_answered_between_a_downloads_chunks(
    fresh: tuple[str, str], executions: list[str]
) -> None:
    """On SQLite a chunk's statements run in the event loop without ever suspending: the
    download yields between its chunks, so a request that comes meanwhile is answered
    before the download's end, not after it (and a client gone is heard)."""
    url, _ = fresh
    order: list[str] = []

    async def both(app: Any) -> None:
        async def download() -> None:
            await asgi_get(app, "/download/methods.csv", lambda part: order.append("part"))
            order.append("download done")

        async def probe() -> None:
            answer = await asgi_get(app, "/healthz")
            assert answer.start["status"] == 200
            order.append("probe answered")

        await asyncio.gather(download(), probe())

    with serve(url) as client:
        assert client.portal is not None
        client.portal.call(both, client.app)
    assert len(executions) == 2
    assert order.count("part") >= 2
    assert order.index("probe answered") < len(order) - 2, order


def test_a_head_reads_only_the_first_chunk(api: Api, executions: list[str]) -> None:
    """A HEAD says what a GET would (status, type, file name) from the first chunk alone."""
    response = api.client.head("/download/methods.csv?sort=models")
    assert response.status_code == 200
    assert response.headers["content-disposition"] == 'attachment; filename="methods.csv"'
    assert response.content == b""
    assert len(executions) == 1
    assert api.client.head("/download/methods/no-such-method.json").status_code == 404


@pytest.mark.parametrize(
    "url", ["/download/methods.csv?sort=models", "/download/models.json", "/download/releases.csv"]
)
def test_a_head_carries_the_gets_headers_and_no_wrong_length(api: Api, url: str) -> None:
    """A GET's rows stream, their length unknown until the end: its HEAD claimed
    `content-length: 0` for a file of thousands of bytes."""
    get = api.client.get(url)
    head = api.client.head(url)
    assert get.status_code == head.status_code == 200
    assert len(get.content) > 100
    assert "content-length" not in get.headers
    assert "content-length" not in head.headers, head.headers

    def same(headers: Any) -> dict[str, str]:
        return {name: value for name, value in headers.items() if name != "x-request-id"}

    assert same(head.headers) == same(get.headers)


def test_a_download_is_under_the_apis_cost_limit(fresh: tuple[str, str]) -> None:
    """Each chunk is an execution of the public schema, refused as /graphql would refuse
    it: under a lower `max_cost`, the By-model table's chunk (50 rows of 100 methods) is."""
    url, _ = fresh
    with serve(url, max_cost=20_000) as client:
        refused = client.get(f"/download/nodes/{SEED}.json")
        allowed = client.get("/download/methods.json")
    assert refused.status_code == 400
    error = refused.json()["error"]
    assert error["code"] == "QUERY_TOO_COMPLEX"
    assert "exceeds the limit `max_cost` of 20,000" in error["message"]
    assert allowed.status_code == 200


def test_the_request_log_names_a_downloads_operation_and_statements(
    api: Api, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger=LOGGER)
    assert api.client.get("/download/methods.csv").status_code == 200
    (line,) = [
        json.loads(entry.getMessage())
        for entry in caplog.records
        if entry.name == LOGGER and "/download/" in entry.getMessage()
    ]
    assert line["path"] == "/download/methods.csv"
    assert line["operation"] == "DownloadMethods"
    assert line["status"] == 200
    assert line["statements"] >= 2  # two chunks, each at least its page
