"""The taxonomy browser (DESIGN.md §6, issue 18): its pages served at their URLs under a
policy of only the server's own script and style sheet, its assets cached for good under
hashed names, its bundle's size, and the pages themselves in headless Chromium on SQLite and
PostgreSQL (browser/browser-test.mjs): the seed node's text is the seed page's, every page
type loads without console errors and passes axe-core, search works from the keyboard,
markup in the data shows as text, the method and model pages and the changes page's lists
page, and at M size no page is taller than 5,000 px.
Screenshots of each page are kept in the test's tmp_path."""

import gzip
import json
import re
import shutil
import subprocess
from collections.abc import Callable
from html import unescape
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from api.commands.generate import generate_scale
from api.commands.generate_next import next_version
from api.ingest.load import load_directory
from api.pages import browser
from api.pages.browser import ASSETS_DIR, ASSETS_URL, MANIFEST, PAGE_POLICY, browser_page
from api.settings import DEFAULT_FIXTURES_DIR

import reference_history as ref
from conftest import DATASETS, SEED_PAGE, Api, serve
from processes import drive_browser, running_server
from tiny_dataset import write_files

BROWSER = Path(__file__).resolve().parents[1] / "browser"
CHROMIUM = Path("/usr/bin/chromium")
BUILT = "the taxonomy browser is not built (api/static/browser/): run `make install`"
PAGES = [
    "/",
    "/nodes/alpha",
    "/nodes/alpha/beta/gamma",
    "/models/newest",
    "/methods/m-bravo",
    "/search?q=alpha",
    "/search?q=no+such+thing",
    "/changes?since=1",
    "/models",
    "/models?sort=release&dir=desc&org=nobody&released-from=2024-01-01&size=50",
    "/methods",
    "/methods?branch=no/such/branch&sort=models",  # the page says the branch is not there
    "/releases",
    "/releases?sort=loaded&dir=asc&q=load&loaded-from=2024-01-01",
    "/about",
]
MAX_GZIPPED_BYTES = 150_000


def assets(page: str) -> list[str]:
    return re.findall(r'(?:src|href)="(/[^"]*)"', page)


@pytest.mark.parametrize("path", PAGES)
def test_each_page_url_serves_the_browser(tiny: Api, path: str) -> None:
    assert (ASSETS_DIR / MANIFEST).is_file(), BUILT
    page = tiny.client.get(path, headers={"accept": "text/html"}, follow_redirects=False)
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert page.headers["content-security-policy"] == PAGE_POLICY
    assert page.headers["cache-control"] == "no-cache"
    loaded = assets(page.text)
    assert [url.rsplit("-", 1)[0] for url in loaded] == [
        f"{ASSETS_URL}/main",
        f"{ASSETS_URL}/main",
    ]
    assert "http" not in page.text
    for url in loaded:
        asset = tiny.client.get(url)
        assert asset.status_code == 200
        assert asset.headers["cache-control"] == "public, max-age=31536000, immutable"


@pytest.mark.parametrize(
    ("path", "title", "described"),
    [
        ("/", "Machine-learning techniques by model", "filed in a taxonomy"),
        ("/nodes/alpha/beta/gamma", "Alpha :: beta :: Gamma", "filed at this node or below it"),
        ("/models/newest", "Newest", "the documents of Newest"),
        ("/methods/m-bravo", "Bravo method", "filed at Alpha :: beta :: Gamma"),
        ("/search?q=%3Cb%3E", "Search: <b>", "match “<b>”"),
        ("/changes?since=1&until=1", "Changes from release 1 to 1", "added, removed"),
        ("/models", "Models", "Every model"),
        ("/about", "How to read these pages", "core, used and mentioned"),
        ("/nodes/no/such/node", "There is no page here", "start from its home page"),
        ("/no/such/page", "There is no page here", "start from its home page"),
    ],
)
def test_each_page_sets_its_title_and_description(
    tiny: Api, path: str, title: str, described: str
) -> None:
    """In its HTML, before any script (issue 27 item 6: a link shared in chat or mail is
    previewed from it): the page's subject in its title, a sentence about it, escaped."""
    page = tiny.client.get(path, headers={"accept": "text/html"})
    shown = re.search(r"<title>([^<]*)</title>", page.text)
    description = re.search(r'<meta name="description" content="([^"]*)">', page.text)
    assert shown, page.text
    assert description, page.text
    assert unescape(shown.group(1)).startswith(f"{title} · Taxonomy browser"), shown.group(1)
    assert described in unescape(description.group(1)), description.group(1)
    assert "<b>" not in page.text


@pytest.mark.parametrize(
    "path",
    [
        "/nodes/no/such/node",
        "/nodes/alpha/gamma",
        "/models/nobody",
        "/methods/nothing",
        "/changes?since=9",
        # Keys that cannot name anything (issue 25 item 4: each was a 200 or a 500).
        "/nodes/%00",
        "/models/%00",
        "/methods/x%00y",
        "/changes?since=-1",
        "/changes?since=1&until=9",
        "/changes?since=" + "9" * 4301,  # more digits than int() reads
        "/changes?since=99999999999",  # over GraphQL's Int
    ],
)
def test_an_unknown_subjects_page_is_a_404(tiny: Api, path: str) -> None:
    """Its script says so in words (the browser test reads it); a crawler or a link checker
    learns it from the status."""
    page = tiny.client.get(path, headers={"accept": "text/html"})
    assert page.status_code == 404
    assert page.headers["content-security-policy"] == PAGE_POLICY
    assert assets(page.text)


@pytest.mark.parametrize("query", ["since=abc", "since=1.5", "since=1&until=x", "since=%00"])
def test_a_release_that_is_not_a_number_is_a_400(tiny: Api, query: str) -> None:
    page = tiny.client.get(f"/changes?{query}", headers={"accept": "text/html"})
    assert page.status_code == 400
    assert assets(page.text)  # the page itself, whose script says what is wrong


@pytest.mark.parametrize(
    ("path", "said"),
    [
        ("/models?after=garbage&from=26", "`after` is not a place in a list"),
        ("/methods?before=eyJ4Ijox", "`before` is not a place in a list"),  # {"x":1
        ("/changes?since=1&nodes=%00&nodes-from=11", "`nodes` is not a place in a list"),
        ("/models?after=WyJtb2RlbHMiLCJhIl0&from=x", "`from` should be a row's position"),
        ("/changes?since=1&models-from=0", "`models-from` should be a row's position"),
        ("/search?q=a&size=abc", "page size should be a number of rows"),
        ("/methods?size=100000", "page size should be a number of rows"),
        ("/nodes/alpha?size=-5", "page size should be a number of rows"),
    ],
)
def test_a_place_in_a_list_that_is_none_is_a_400(tiny: Api, path: str, said: str) -> None:
    """Issue 27 item 6: a bad parameter gets a friendly page with its status; a cursor cut
    short or typed by hand was a 200 whose script then said the page was gone."""
    page = tiny.client.get(path, headers={"accept": "text/html"})
    assert page.status_code == 400
    assert assets(page.text)  # the page itself, whose script shows the list from its start
    description = re.search(r'<meta name="description" content="([^"]*)">', page.text)
    assert description, page.text
    assert said in unescape(description.group(1))


@pytest.mark.parametrize(
    ("path", "said"),
    [
        ("/nodes/alpha?sort=sideways", "`sort` must be one of newest, name, strongest, methods"),
        ("/nodes/alpha?sort=name&dir=down", "`dir` must be one of asc, desc; got 'down'"),
        ("/nodes/alpha?columns=price", "`columns` must be one or more of org, date, separated"),
        ("/nodes/alpha?columns=org,,date", "separated by commas; got 'org,,date'"),
        ("/nodes/alpha?columns=org%20date", "separated by commas; got 'org date'"),
        ("/models?sort=__proto__", "`sort` must be one of name, release; got '__proto__'"),
        ("/models?sort=release&dir=up", "`dir` must be one of asc, desc; got 'up'"),
        ("/models?released-from=2024-02-30", "`released-from` must be a day written YYYY-MM-DD"),
        ("/methods?strength=strong", "`strength` must be one of core, used, mentioned"),
        ("/releases?sort=size", "`sort` must be one of release, loaded; got 'size'"),
        ("/releases?sort=loaded&dir=up", "`dir` must be one of asc, desc; got 'up'"),
        ("/releases?loaded-to=2026-02-30", "`loaded-to` must be a day written YYYY-MM-DD"),
        (
            "/releases?loaded-from=2026-03-02&loaded-to=2026-03-01",
            "`loaded-from` (2026-03-02) is after `loaded-to` (2026-03-01)",
        ),
        ("/models/newest?strength=strong", "`strength` must be one of core, used, mentioned"),
        ("/models/newest?sort=sideways", "`sort` must be one of strongest, name, node"),
        ("/models/newest?sort=node&dir=up", "`dir` must be one of asc, desc; got 'up'"),
        ("/methods/alpha?sort=node", "`sort` must be one of strongest, name, release"),
        ("/methods/alpha?sort=release&dir=older", "`dir` must be one of asc, desc"),
        ("/search?q=adam&type=papers", "`type` must be one of nodes, methods, models, sources"),
        ("/changes?since=1&kind=deleted", "`kind` must be one of added, removed, moved"),
        ("/changes?since=1&type=edges", "`type` must be one of nodes, methods, models, treatments"),
    ],
)
def test_a_word_the_list_does_not_take_is_a_400_that_says_which(
    tiny: Api, path: str, said: str
) -> None:
    """Issue 27 item 6: an order, a direction, a day, a kind or a type that the page's list
    does not take was a 200 whose script quietly showed the list in its first order, or
    every kind. Now it is a 400 that says which word, in its download's words (the same
    reading: api.download.tables), in the page's description and in its body, which its
    script shows (`data-refused`) with a link to the list as it starts."""
    page = tiny.client.get(path, headers={"accept": "text/html"})
    assert page.status_code == 400, path
    assert assets(page.text)
    description = re.search(r'<meta name="description" content="([^"]*)">', page.text)
    refused = re.search(r'<main data-refused="([^"]*)">', page.text)
    assert description, page.text
    assert refused, page.text
    assert said in unescape(description.group(1))
    assert unescape(refused.group(1)) == unescape(description.group(1))
    assert f'<a href="{path.split("?")[0]}">Open the list as it starts</a>' in page.text
    download = tiny.client.get(f"/download{path.split('?')[0]}.csv?{path.split('?')[1]}")
    if not path.startswith("/changes?"):  # (the changes page's download is one list's)
        assert download.status_code == 400
        assert said in download.text


def test_the_words_each_list_takes_are_a_200(tiny: Api) -> None:
    for path in (
        "/nodes/alpha?sort=strongest",
        "/nodes/alpha?columns=org,date&sort=newest&dir=asc",
        "/nodes/alpha?columns=date",
        "/nodes/alpha?columns=date,org",
        "/nodes/alpha?columns=",
        "/models?sort=release&dir=asc&released-from=2024-01-01",
        "/methods?sort=models&strength=core",
        "/releases?sort=release&dir=asc&q=load&loaded-from=2024-01-01&loaded-to=2024-01-01",
        "/search?q=adam&type=methods",
        "/changes?since=1&kind=changed&type=methods",
        "/models/newest",
        "/models/newest?sort=node&dir=desc&strength=used",
        "/methods/alpha?sort=release&dir=asc&strength=core",
    ):
        page = tiny.client.get(path, headers={"accept": "text/html"})
        assert page.status_code == 200, path
        assert "data-refused" not in page.text


def test_the_by_model_organizations_are_asked_only_for_their_column(api: Api) -> None:
    """Issue 27 item 2: the node page's By-model table shows each model's organization and
    release date when asked (`?columns=org,date`). BrowserNode asks the organizations only
    then (`withOrganization`): the seed page's answer has none, and asking them costs no
    statement more (the model's row has them). Its release dates it always read."""
    document = (BROWSER / "operations" / "BrowserNode.graphql").read_text(encoding="utf-8")
    # (`first: 7`: a request no other test makes, so that each count misses the cache.)
    plain = {"path": "optimization/training-parallelism", "first": 7}
    asked = {**plain, "withOrganization": True}

    def models(variables: dict[str, Any]) -> list[dict[str, Any]]:
        answer = api.execute(document, variables)
        assert not answer.errors, answer.errors
        return [row["model"] for row in answer.data["node"]["byModel"]["nodes"]]

    assert len(models(plain)) == 7
    assert all("organization" not in model and "releaseDate" in model for model in models(plain))
    organizations = [model["organization"] for model in models(asked)]
    assert len(organizations) == 7
    assert all(isinstance(name, str) and name for name in organizations), organizations
    # Both counted as a worker runs the page once it has read this data version's releases
    # (store.history.releases.KnownReleases), which the first page it serves reads.
    api.count_statements(document, {**plain, "first": 6})
    assert api.count_statements(document, asked) == api.count_statements(document, plain)


def test_a_place_from_an_answer_is_a_200(tiny: Api) -> None:
    """The cursors the API gives, with their positions and a page size, are places."""
    answer = tiny.post("{ models(first: 1) { pageInfo { endCursor } } }")
    cursor = answer["data"]["models"]["pageInfo"]["endCursor"]
    for path in (
        f"/models?after={cursor}&from=2&size=50",
        f"/models?before={cursor}&from=1",
        f"/changes?since=1&models={cursor}&models-from=11&size=10",
    ):
        assert tiny.client.get(path, headers={"accept": "text/html"}).status_code == 200, path


@pytest.mark.parametrize("query", ["", "since=1", "since=01", "since=1&until=1"])
def test_a_release_that_exists_is_a_200(tiny: Api, query: str) -> None:
    """`since` left out: the page asks for it."""
    assert tiny.client.get(f"/changes?{query}").status_code == 200


@pytest.mark.parametrize("path", ["/releases/1", "/models/a/b", "/indexes", "/no/such/page"])
def test_a_path_that_is_no_page_is_a_404(tiny: Api, path: str) -> None:
    """The indexes are /models, /methods and /releases themselves; nothing lives below
    /releases (a release's changes are /changes?since=). The 404 is the browser's page,
    whose HTML says so in plain words before its script runs (which says the same)."""
    page = tiny.client.get(path, headers={"accept": "text/html"})
    assert page.status_code == 404
    assert page.headers["content-type"].startswith("text/html")
    assert page.headers["content-security-policy"] == PAGE_POLICY
    assert "There is no page here" in page.text
    assert "Not Found" not in page.text
    assert assets(page.text)


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", "/no/such/page"),
        ("GET", f"{ASSETS_URL}/main-OLD.js"),
        ("GET", "/graphiql-assets/x"),
    ],
)
def test_a_missing_file_or_a_post_is_a_plain_404(tiny: Api, method: str, path: str) -> None:
    """Not a page: a script tag or an API client gets the plain 404 it always did (an API
    client's GET of no page too: tests/test_http_edges.py, `/nowhere`)."""
    answer = tiny.client.request(method, path)
    assert answer.status_code == 404
    assert answer.text == "Not Found"


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH"])
@pytest.mark.parametrize("path", ["/", "/nodes/optimization", "/search", "/changes", "/models"])
def test_a_page_is_only_read(tiny: Api, method: str, path: str) -> None:
    """A page answers GET and HEAD; any other method is the router's 405 naming them (it
    was a 200 with the page until the pages' routes were declared with their middleware,
    ce37a43)."""
    answer = tiny.client.request(method, path, headers={"accept": "text/html"})
    assert answer.status_code == 405
    assert set(answer.headers["allow"].split(", ")) == {"GET", "HEAD"}


def test_a_trailing_slash_still_redirects(tiny: Api) -> None:
    """The friendly 404 comes after Starlette's own redirect of /search/ to /search."""
    answer = tiny.client.get("/search/", follow_redirects=False)
    assert answer.status_code == 307
    assert answer.headers["location"].endswith("/search")


def test_the_indexes_are_pages_of_their_own() -> None:
    """/models and /methods are served beside /models/<slug> and /methods/<slug>, which ask
    whether their subject exists; the indexes have no subject."""
    for path in ("/models", "/methods", "/releases"):
        assert path in browser.PAGE_PATHS


def test_graphiql_stays_at_graphql(tiny: Api) -> None:
    page = tiny.client.get("/graphql", headers={"accept": "text/html"})
    assert "<title>GraphiQL" in page.text


def test_an_asset_not_there_is_not_cached(tiny: Api) -> None:
    missing = tiny.client.get(f"{ASSETS_URL}/main-OLDHASH.js")
    assert missing.status_code == 404
    assert "immutable" not in missing.headers.get("cache-control", "")


def test_the_pages_load_only_the_servers_own_scripts_and_styles() -> None:
    directives = dict(part.strip().split(" ", 1) for part in PAGE_POLICY.split(";"))
    assert directives["default-src"] == "'none'"
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["connect-src"] == "'self'"
    assert "unsafe" not in PAGE_POLICY


def test_without_a_build_each_page_says_run_make_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(browser, "ASSETS_DIR", tmp_path / "api" / "static" / "browser")
    page, policy = browser_page()
    assert "The taxonomy browser is not built" in page
    assert "make install" in page
    assert "<script" not in page
    assert "script-src" not in policy


def test_the_bundle_is_at_most_150_kb_gzipped() -> None:
    manifest = json.loads((ASSETS_DIR / MANIFEST).read_text(encoding="utf-8"))
    sizes = {
        name: len(gzip.compress((ASSETS_DIR / manifest[name]).read_bytes(), compresslevel=9))
        for name in ("script", "style")
    }
    print(f"the taxonomy browser gzipped: {sizes} bytes, {sum(sizes.values())} in all")
    assert sum(sizes.values()) <= MAX_GZIPPED_BYTES


def test_the_sources_never_write_html() -> None:
    """Preact sets every value as text or as an attribute; none of the ways around that
    (which would parse API values as HTML) appears in the browser's sources."""
    sources = sorted((BROWSER / "src").rglob("*.ts*"))
    assert sources
    for source in sources:
        text = source.read_text(encoding="utf-8")
        found = re.findall(r"dangerouslySetInnerHTML|innerHTML|outerHTML|insertAdjacentHTML", text)
        assert not found, f"{source}: {found}"


def test_the_browsers_operations_are_known_from_the_start(tiny: Api, tmp_path: Path) -> None:
    """Registered at start (a first view is one GET), and run beside an allowlist."""
    documents = browser.persisted_documents()
    assert len(documents) == len(list((BROWSER / "operations").glob("*.graphql")))
    digest = next(d for d, text in documents.items() if "query BrowserHome" in text)
    get = {
        "operationName": "BrowserHome",
        "extensions": json.dumps({"persistedQuery": {"version": 1, "sha256Hash": digest}}),
    }
    assert tiny.client.get("/graphql", params=get).json()["data"]["roots"]
    allowlist = tmp_path / "allowlist.json"
    allowlist.write_text(json.dumps(["query Other { taxonomy { nodeCount } }"]), "utf-8")
    with serve(tiny.database_url, persisted_queries_allowlist=str(allowlist)) as client:
        assert client.get("/graphql", params=get).json()["data"]["roots"]
        refused = client.post("/graphql", json={"query": "{ roots { id } }"})
        assert refused.json()["errors"][0]["extensions"]["code"] == "PERSISTED_QUERY_NOT_ALLOWED"


def test_the_browser_type_checks() -> None:
    tsc = BROWSER / "node_modules" / ".bin" / "tsc"
    assert tsc.exists(), BUILT
    run = subprocess.run(
        [str(tsc), "--noEmit", "-p", str(BROWSER)], capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stdout + run.stderr


# Names, quotes and URLs made of markup and script: the pages must show them as text.
MARKS = '<script>window.__pwned = 1</script> <img src=x onerror="window.__pwned = 2"> <b>bold</b>'
HOSTILE: dict[str, list[dict[str, Any]]] = {
    "nodes": [
        {
            "slug": "evil",
            "name": f"evil {MARKS}",
            "parent": None,
            "description": MARKS,
            "matching_aids": [MARKS],
        }
    ],
    "models": [
        {"slug": "evil-model", "name": f"evil model {MARKS}", "organization": MARKS},
    ],
    "sources": [
        {
            "slug": "evil-source",
            "model": "evil-model",
            "title": f"source {MARKS}",
            "kind": "paper",
            "url": "javascript:window.__pwned=3",
        }
    ],
    "methods": [
        {
            "slug": "evil-method",
            "name": f"evil method {MARKS}",
            "node": "evil",
            # A description is markdown: its link to a javascript: URL shows as its text.
            "description": f"{MARKS}\n\n[click me](javascript:window.__pwned=4)",
            "aliases": [MARKS],
        }
    ],
    "evidence": [
        {
            "model": "evil-model",
            "method": "evil-method",
            "strength": "core",
            "source": "evil-source",
            "quote": MARKS,
            "locator": MARKS,
        }
    ],
}


def _drive(
    mode: str, database_url: str, *arguments: str, artifacts: Path, **settings: str
) -> dict[str, Any]:
    """browser/browser-test.mjs in ``mode`` on a server of ``database_url``: it passes, and
    its screenshots (listed in its last line) are in ``artifacts``; its summary."""
    assert (ASSETS_DIR / MANIFEST).is_file(), BUILT
    assert (BROWSER / "node_modules" / "playwright-core").is_dir(), BUILT
    artifacts.mkdir(exist_ok=True)
    script = BROWSER / "browser-test.mjs"
    output = drive_browser(script, database_url, mode, *arguments, str(artifacts), **settings)
    print(f"screenshots: {artifacts}")
    summary: dict[str, Any] = json.loads(output.strip().splitlines()[-1])
    if "seedLcpMs" in summary:
        print(f"the seed page's largest contentful paint: {summary['seedLcpMs']} ms")
    for screenshot in summary["screenshots"]:
        assert Path(screenshot).stat().st_size > 5_000, screenshot
    return summary


chromium = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="no /usr/bin/chromium: `make browser` installs Debian's"
)


@chromium
def test_the_browser_in_headless_chromium(
    backend: str, new_database: Callable[[str, str], str], tmp_path: Path
) -> None:
    url = new_database(backend, "browser")
    load_directory(DEFAULT_FIXTURES_DIR, url)
    _drive("fixtures", url, str(SEED_PAGE), artifacts=tmp_path / "screenshots")
    for name in ("home", "node", "model", "method", "search", "unknown node"):
        assert (tmp_path / "screenshots" / f"{name}.png").is_file()
    for name in ("models", "models-filtered", "methods", "releases", "releases-390px"):
        assert (tmp_path / "screenshots" / f"{name}.png").is_file()
    for name in ("help", "help-390px", "unknown path", "method-390px", "architecture-390px"):
        assert (tmp_path / "screenshots" / f"{name}.png").is_file()
    # Each page kind at 390 px wide, where axe-core ran too (browser-test.mjs, checkNarrow).
    for name in ("home", "search", "unknown path", "refused word", "unknown node"):
        assert (tmp_path / "screenshots" / f"{name}-390px.png").is_file()


def _deepest_node(folder: Path) -> str:
    """The slug path of the deepest node of a dataset folder (the first of the deepest)."""
    nodes = [json.loads(line) for line in (folder / "nodes.jsonl").read_text("utf-8").splitlines()]
    parents = {node["slug"]: node["parent"] for node in nodes if node}

    def path(slug: str) -> list[str]:
        parent = parents[slug]
        return [*path(parent), slug] if parent else [slug]

    deepest: list[str] = max((path(slug) for slug in parents), key=len)
    return "/".join(deepest)


# A Papers with Code method whose description has bold, links and paragraphs in markdown.
PWC_MARKDOWN_METHOD = "qhadam"


@chromium
def test_the_real_datasets_in_headless_chromium(
    new_database: Callable[[str, str], str], tmp_path: Path
) -> None:
    """The Gene Ontology's deepest node (level 13): its breadcrumb folds and unfolds, and
    nothing scrolls sideways at 390 px; a Papers with Code method's markdown description is
    rendered (bold, http(s) links); its 1,919 methods and 1,365 models show as such. On
    SQLite only: the page does not depend on the database."""
    go, pwc = new_database("sqlite", "browser_go"), new_database("sqlite", "browser_pwc")
    load_directory(DATASETS["go"], go)
    load_directory(DATASETS["pwc"], pwc)
    deepest = _deepest_node(DATASETS["go"])
    assert deepest.count("/") >= 10, deepest
    with running_server(pwc) as pwc_base:
        _drive(
            "datasets",
            go,
            pwc_base,
            deepest,
            PWC_MARKDOWN_METHOD,
            artifacts=tmp_path / "screenshots",
        )


def _edited_fixtures(folder: Path) -> Path:
    """The fixtures with node `serving` renamed and a method added: release 2's changes."""
    shutil.copytree(DEFAULT_FIXTURES_DIR, folder)
    nodes = (folder / "nodes.jsonl").read_text(encoding="utf-8").splitlines()
    renamed = [json.loads(line) for line in nodes if line.strip()]
    for node in renamed:
        if node["slug"] == "serving":
            node["name"] = "model serving"
    (folder / "nodes.jsonl").write_text("".join(json.dumps(n) + "\n" for n in renamed), "utf-8")
    added = {"slug": "fresh-method", "name": "Fresh Method", "node": "training-parallelism"}
    with (folder / "methods.jsonl").open("a", encoding="utf-8") as methods:
        methods.write(json.dumps(added) + "\n")
    return folder


@chromium
def test_the_changes_between_releases_in_headless_chromium(
    backend: str, new_database: Callable[[str, str], str], tmp_path: Path
) -> None:
    url = new_database(backend, "changes")
    load_directory(DEFAULT_FIXTURES_DIR, url, note="the fixtures")
    load_directory(_edited_fixtures(tmp_path / "edited"), url, note="Edited copy: serving renamed")
    _drive("changes", url, artifacts=tmp_path / "screenshots")
    assert (tmp_path / "screenshots" / "changes.png").is_file()
    assert (tmp_path / "screenshots" / "releases-filtered.png").is_file()


def _quoted(value: str | None) -> str:
    """A field's value as a change's words quote it: cut at 200 characters with "…"."""
    if value is None:
        return "none"
    return f"“{value[:200]}…”" if len(value) > 200 else f"“{value}”"


def _details(how: str | None, fields: tuple[ref.FieldChange, ...]) -> str:
    """A change's details cell: a rename's or move's words, then each changed field in
    words ("description: “A” → “B”", a list's items added and removed), after "; "."""
    parts = [] if how is None else [how]
    for field, from_value, to_value, from_items, to_items in fields:
        label = re.sub("[A-Z]", lambda letter: f" {letter.group().lower()}", field)
        if from_items is not None and to_items is not None:
            added = [f"+“{item}”" for item in to_items if item not in from_items]
            removed = [f"\u2212“{item}”" for item in from_items if item not in to_items]
            parts.append(f"{label}: {' '.join(added + removed) or 'reordered'}")
        else:
            before, after = (_quoted(value) for value in (from_value, to_value))
            parts.append(f"{label}: {before} → {after}")
    return "; ".join(parts)


def _shown_changes(earlier: Path, later: Path, newest: Path) -> dict[str, list[list[str]]]:
    """The reference's net changes between two dataset folders (tests/reference_history.py),
    as the changes page's rows read: each cell's text; one row per record (a move with a
    rename is one row, "moved, renamed"); renames and moves in words; no knock-on removals
    (the page names them under their cause, not as rows); a treatment's model and method by
    their names as served in the newest folder, else as they were last (a record gone is
    named as it was); its strengths from before to after, and its evidence's edits."""
    before, after, now = ref.Snapshot(earlier), ref.Snapshot(later), ref.Snapshot(newest)

    def named(changes: set[ref.NamedChange], record: str) -> list[list[str]]:
        by_slug: dict[str, list[ref.NamedChange]] = {}
        for change in changes:
            if change[0] == "REMOVED" and ref.knocked_on(before, after, record, change[1]):
                continue
            by_slug.setdefault(change[1], []).append(change)
        rows = []
        order = ["ADDED", "REMOVED", "MOVED", "RENAMED", "CHANGED"]
        for kinds in by_slug.values():
            kinds.sort(key=lambda change: order.index(change[0]))
            kind, _slug, name, from_path, to_path, from_name, _to_name, fields = kinds[0]
            detail = {"RENAMED": f"from “{from_name}”", "MOVED": f"from {from_path} to {to_path}"}
            words = ", ".join(change[0].lower() for change in kinds)
            rows.append([name, words, _details(detail.get(kind), fields)])
        return rows

    def name(record: str, slug: str) -> str:
        for snapshot in (now, after, before):
            records = getattr(snapshot, record)
            if slug in records:
                return str(records[slug]["name"])
        return slug

    treatments = [
        [
            name("models", model),
            name("methods", method),
            kind.lower(),
            " → ".join(strength.lower() for strength in (old, new) if strength),
            _details(None, fields),
        ]
        for kind, model, method, old, new, fields in ref.treatment_changes(before, after)
        if not (kind == "REMOVED" and ref.knocked_on(before, after, "treatments", (model, method)))
    ]
    return {
        "nodes": named(ref.node_changes(before, after), "nodes"),
        "methods": named(ref.method_changes(before, after), "methods"),
        "models": [
            [
                name,
                kind.lower(),
                _details(f"from “{from_name}”" if kind == "RENAMED" else None, fields),
            ]
            for kind, _, name, from_name, _, fields in ref.model_changes(before, after)
        ],
        "treatments": treatments,
    }


@chromium
def test_the_changes_page_lists_page_by_page_in_headless_chromium(
    backend: str, new_database: Callable[[str, str], str], tmp_path: Path
) -> None:
    """Three releases: the fixtures, a next version with 30 changes of each kind (more than a
    page of 50 in some lists), and one after that. /changes?since=1&until=2 shows 10 rows a
    list, each list saying where it is ("1-10 of 90 nodes", an en dash), one list's next
    page leaving the others where they are; at 50 a list (its size link: that list alone),
    each list walked by its own "Next" links shows exactly the reference's
    changes from the first folder to the second (not to the newest), each once, in full
    pages but the last, each page saying which rows it shows."""
    url = new_database(backend, "paging")
    second, third = tmp_path / "second", tmp_path / "third"
    next_version(DEFAULT_FIXTURES_DIR, second, seed=18, each=30)
    next_version(second, third, seed=19, each=3)
    for folder in (DEFAULT_FIXTURES_DIR, second, third):
        load_directory(folder, url)
    summary = _drive("paging", url, artifacts=tmp_path / "screenshots")
    expected = _shown_changes(DEFAULT_FIXTURES_DIR, second, third)
    assert max(len(rows) for rows in expected.values()) > 100  # three pages at least
    assert _shown_changes(DEFAULT_FIXTURES_DIR, third, third) != expected  # until=2 matters
    for kind, pages in summary["pages"].items():
        rows = [row for page in pages for row in page]
        assert sorted(rows) == sorted(expected[kind]), kind
        assert len({json.dumps(row) for row in rows}) == len(rows), f"{kind}: a row twice"
        assert all(len(page) == 50 for page in pages[:-1]), (kind, [len(p) for p in pages])
        assert 0 < len(pages[-1]) <= 50 or not expected[kind], kind
        total = len(expected[kind])
        assert summary["positions"][kind] == _positions(total, 50, kind), kind
        if total:
            assert summary["firstPositions"][kind] == _positions(total, 10, kind)[0], kind
    assert summary["newest"] == 3


def _positions(total: int, size: int, noun: str) -> list[str]:
    """What a list's pager says on each of its pages: "51-100 of 120 nodes" (an en dash; a
    whole list on one page: "7 nodes"), with thousands separators."""
    if total <= size:
        return [f"{total:,} {noun if total > 1 else noun.removesuffix('s')}"] if total else []
    return [
        f"{start:,}{EN_DASH}{min(start + size - 1, total):,} of {total:,} {noun}"
        for start in range(1, total + 1, size)
    ]


EN_DASH = "\u2013"  # between the pager's positions: "26-50 of 60 models" with it
PAGED_METHOD = "sparse-mixture-of-experts"  # 10 models in the fixtures, 60 with these
PAGED_MODEL = "paging-model-01"


def _more_models(folder: Path) -> Path:
    """The fixtures and 50 more models that treat PAGED_METHOD (mentioned, so they follow
    the fixtures' own): its page has 60 models, three pages at 25 a page. The first of them
    has 5 pieces of evidence of it (3 shown, "2 more") and treats 30 other methods: its
    page has 31 methods, two pages."""
    shutil.copytree(DEFAULT_FIXTURES_DIR, folder)
    methods = [
        json.loads(line)["slug"]
        for line in (folder / "methods.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    others = [slug for slug in methods if slug != PAGED_METHOD][:30]
    models, evidence = [], []
    for number in range(1, 51):
        slug = f"paging-model-{number:02}"
        models.append({"slug": slug, "name": f"Paging Model {number:02}", "release_date": None})
        pieces = 5 if slug == PAGED_MODEL else 1
        for piece in range(pieces):
            evidence.append(
                {
                    "model": slug,
                    "method": PAGED_METHOD,
                    "strength": "mentioned",
                    "source": None,
                    "quote": f"Quote {piece + 1} of {slug}.",
                    "locator": f"§{piece + 1}",
                }
            )
    for method in others:
        evidence.append({"model": PAGED_MODEL, "method": method, "strength": "mentioned"})
    for name, records in (("models", models), ("evidence", evidence)):
        with (folder / f"{name}.jsonl").open("a", encoding="utf-8") as lines:
            lines.writelines(json.dumps(record) + "\n" for record in records)
    return folder


@chromium
def test_the_method_page_pages_in_headless_chromium(
    backend: str, new_database: Callable[[str, str], str], tmp_path: Path
) -> None:
    """A method with 60 models: its page lists them 25 a page by cursor, says where it is
    ("26-50 of 60 models", with an en dash), pages by its next and previous links and at
    10 a page by its size link, every page the API's rows and its URL a page of its own
    (reload, back); a model with 31 methods pages the same way, and in another order by a
    head of its table (browser/browser-test.mjs, method-paging)."""
    url = new_database(backend, "method_paging")
    load_directory(_more_models(tmp_path / "more"), url)
    summary = _drive(
        "method-paging", url, PAGED_METHOD, PAGED_MODEL, artifacts=tmp_path / "screenshots"
    )
    shown = [position.replace(EN_DASH, "-") for position in summary["positions"]]
    assert shown[:4] == [
        "1-25 of 60 models",
        "26-50 of 60 models",
        "26-50 of 60 models",
        "51-60 of 60 models",
    ]
    assert [position for position in shown if position.startswith(("1-10 ", "11-"))] == [
        "1-10 of 60 models",
        "1-10 of 60 models",
        "11-20 of 60 models",
        "11-35 of 60 models",
    ]
    assert shown[-7:] == [
        "1-25 of 31 methods",
        "26-31 of 31 methods",
        "26-31 of 31 methods",
        "1-25 of 31 methods",
        # By name, Z to A (the Method head): forward, and back.
        "1-25 of 31 methods",
        "26-31 of 31 methods",
        "1-25 of 31 methods",
    ]
    assert all(EN_DASH in position for position in summary["positions"])


@chromium
def test_markup_in_the_data_shows_as_text(
    backend: str, new_database: Callable[[str, str], str], tmp_path: Path
) -> None:
    url = new_database(backend, "hostile")
    load_directory(write_files(tmp_path / "hostile", HOSTILE), url)
    # A server that keeps no persisted query: each page's GET by hash is answered
    # PersistedQueryNotFound, and the page falls back to POSTing its document.
    _drive("hostile", url, artifacts=tmp_path / "screenshots", persisted_queries_entries="0")


@pytest.fixture(scope="module")
def m_releases(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A generated M-size set (about 20,000 methods, 100,000 pieces of evidence) and its
    next version."""
    folder = tmp_path_factory.mktemp("m-size")
    first, second = folder / "first", folder / "second"
    generate_scale(first, "M", fixtures=DEFAULT_FIXTURES_DIR)
    next_version(first, second, seed=27, each=30)
    return first, second


@chromium
def test_pages_at_m_size_in_headless_chromium(
    new_database: Callable[[str, str], str], m_releases: tuple[Path, Path], tmp_path: Path
) -> None:
    """Issue 27's short pages at size, on one server: every page kind at its biggest (the
    node with the most methods, the root with the most sub-branches, the method with the
    most models, the changes of a release with hundreds), and each paged list at the
    largest page size its pager offers, is at most 5,000 px tall at 1280 x 800 and does not
    scroll sideways at 390 px; at its default size each passes axe-core at 1280 and at
    390 px wide (the 404, 400 and 410 pages too); each page's HTML
    carries its title and description; the seed page is still exactly the seed's; the
    changes page shows 10 rows a list and says where each is; a changed method's and a
    changed model's history say which field changed; the root with the most sub-branches
    lists them all under their own heading, before its By-model table.

    On SQLite only, as the real datasets' run: a page's height and layout follow from the
    API's answers, which are the same on both databases (tests/test_reference.py and the
    other tests of answers hold that on each), and the page routes' own reads (404, 410,
    301) are tried on both by the tests above. Loading the two M releases and driving
    Chromium took about a minute a database."""
    backend = "sqlite"
    url = new_database(backend, "m_size")
    for folder in m_releases:
        load_directory(folder, url)
    summary = _drive("sizes", url, str(SEED_PAGE), artifacts=tmp_path / "screenshots")
    print(f"page heights at M on {backend}: {summary['heights']}")
    assert max(summary["heights"].values()) <= 5_000
    # Each paged list's largest page size was measured: lists of tall rows (By-model rows,
    # a method's models, a model's methods) offer 10 or 25 rows, one-line lists up to 100,
    # the changes page 50 (one list alone: past 10, four lists would pass 5,000 px).
    largest = summary["largest"]
    offered = {
        "node with the most methods filed": [10, 25],
        "root with the most sub-branches": [10, 25],
        "method with the most models": [10, 25],
        "model": [10, 25],
        "search": [25, 50, 100],
        "models": [25, 50, 100],
        "methods": [25, 50, 100],
        "changes": [10, 25, 50],
    }
    for name, sizes in offered.items():
        assert largest[name]["sizes"] == sizes, (name, largest[name])
        for path in largest[name]["pages"]:
            assert summary["heights"][path] <= 5_000, (name, path)
    assert all(
        "size=100" in path
        for name in ("search", "models", "methods")
        for path in largest[name]["pages"]
    )
    changes = largest["changes"]["pages"]
    assert {parse_qs(urlsplit(path).query)["type"][0] for path in changes} == {
        "nodes",
        "methods",
        "models",
        "treatments",
    }
    assert all("size=50" in path for path in changes)
    assert set(summary["changesPositions"]) == {"nodes", "methods", "models", "treatments"}
