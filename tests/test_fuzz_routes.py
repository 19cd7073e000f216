"""Fuzzing every route, not only /graphql: the browser's pages (with the subjects in their
paths and the query strings they read), the changes page's release numbers, the tables'
downloads, GraphQL over GET, the probes and the static assets, by any method and with any
Accept, on the tiny dataset of each database. Whatever comes: never a 5xx, and never a page
that names a subject which does not exist with a 200 (a 404 says so). Bounded in count,
derandomized so that a failure replays."""

from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from api.app import create_app
from api.settings import Settings

from conftest import Api

EXAMPLES = 300
ROUTE_SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,  # a slow example is not a failure; the count bounds the time
    database=None,  # nothing written into the checkout
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
# What a client can answer with, whatever it sent: the page, a redirect, not modified, or
# a client's error with a reason.
CLIENT_ANSWERS = {200, 301, 302, 304, 307, 308, 400, 404, 405, 406, 410, 413, 414, 415, 431}

# Any text, percent-encoded as a client would put it in a URL (slashes, NULs, controls,
# surrogate-free unicode, percent signs and dots included), or left partly raw.
_TEXT = st.text(alphabet=st.characters(codec="utf-8"), max_size=40)
_SEGMENT = st.one_of(
    _TEXT.map(lambda text: quote(text, safe="")),
    _TEXT.map(lambda text: quote(text, safe="/.%")),
    st.sampled_from(["", ".", "..", "%00", "%zz", "%", "a%2Fb", "optimization", "x" * 3000]),
)
_NUMBER = st.one_of(
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.sampled_from(["", "1", "0", "-1", "1e3", "0x10", " 1", "1" * 4301, "\uff11"]),
    _SEGMENT,
)

# A GET's `variables` or `extensions`: any text, or JSON that is not an object (JSON nested
# past Python's parser, a bare 500 before, is tried in tests/test_hostile_input.py: under
# Hypothesis the recursion limit is higher than a server's).
_JSON_PARAMETER = st.one_of(
    _SEGMENT,
    st.sampled_from(["%7B", "null", "5", "%7B%22a%22%3A%22%00%22%7D"]),
)


def _paths() -> st.SearchStrategy[str]:
    page = st.one_of(
        st.builds(lambda s: f"/nodes/{s}", _SEGMENT),
        st.builds(lambda s: f"/models/{s}", _SEGMENT),
        st.builds(lambda s: f"/methods/{s}", _SEGMENT),
        st.builds(lambda s: f"/search?q={s}", _SEGMENT),
        st.builds(lambda a, b: f"/changes?since={a}&until={b}", _NUMBER, _NUMBER),
        st.builds(lambda a: f"/changes?since={a}", _NUMBER),
        st.builds(lambda s: f"/graphql?query={s}", _SEGMENT),
        st.builds(
            lambda name, value: f"/graphql?query=%7B__typename%7D&{name}={value}",
            st.sampled_from(["variables", "extensions"]),
            _JSON_PARAMETER,
        ),
        st.builds(lambda s: f"/graphiql-assets/{s}", _SEGMENT),
        st.builds(lambda s: f"/browser-assets/{s}", _SEGMENT),
        st.builds(lambda s: f"/{s}", _SEGMENT),
        # The tables' downloads: their subjects, sorts, filters and release numbers.
        st.builds(lambda s: f"/download/nodes/{s}.csv", _SEGMENT),
        st.builds(lambda s: f"/download/models/{s}.json", _SEGMENT),
        st.builds(lambda s, t: f"/download/methods.json?sort={s}&branch={t}", _SEGMENT, _SEGMENT),
        st.builds(
            lambda a, b: f"/download/changes/nodes.csv?since={a}&until={b}", _NUMBER, _NUMBER
        ),
        st.builds(lambda s, t: f"/download/search.csv?q={s}&type={t}", _SEGMENT, _SEGMENT),
        st.sampled_from(["/", "/healthz", "/readyz", "/graphql", "/search", "/changes"]),
    )
    return page


SUBJECT_PAGES = ("/nodes/", "/models/", "/methods/")
_ACCEPT = st.sampled_from(
    ["text/html", "application/json", "*/*", "application/graphql-response+json", "", "x/y;q=oops"]
)
_METHOD = st.sampled_from(["GET", "GET", "GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS"])


@pytest.fixture
def served(api_for: Callable[[str, str], Api], backend: str, tiny_folder: Path) -> Api:
    return api_for(backend, str(tiny_folder))


@pytest.fixture
def client(served: Api) -> Iterator[TestClient]:
    """A fresh app on the tiny dataset without the response cache: every example reaches
    the routes' own checks and the database."""
    app = create_app(Settings(database_url=served.database_url, response_cache=False))
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


def _pages_that_exist(served: Api) -> set[str]:
    """The paths of every node's, model's and method's page in the tiny dataset."""
    data = served.query(
        "{ models(first: 100) { nodes { slug } } methods(first: 100) { nodes { slug } } "
        "roots { path children { path children { path children { path } } } } }"
    )
    pages = {f"/models/{m['slug']}" for m in data["models"]["nodes"]}
    pages |= {f"/methods/{m['slug']}" for m in data["methods"]["nodes"]}
    pending = list(data["roots"])
    while pending:
        node = pending.pop()
        pages.add(f"/nodes/{node['path']}")
        pending.extend(node.get("children") or [])
    return pages


def test_every_route_answers_any_request_without_a_server_error(
    client: TestClient, served: Api
) -> None:
    real = _pages_that_exist(served)
    assert any(page.startswith("/nodes/") for page in real)
    statuses: dict[int, int] = {}
    reads = {"asked": 0, "answered": 0}  # GETs and HEADs, and those answered 200

    @ROUTE_SETTINGS
    @given(method=_METHOD, path=_paths(), accept=_ACCEPT)
    def run(method: str, path: str, accept: str) -> None:
        headers = {"accept": accept} if accept else {}
        response = client.request(method, path, headers=headers)
        status = response.status_code
        statuses[status] = statuses.get(status, 0) + 1
        assert status in CLIENT_ANSWERS, (method, path, status, response.text[:300])
        # Only a subject that exists has a page (at the URL the client ended at: it drops
        # dot segments, and follows redirects).
        served_at = response.url.path
        if method == "GET" and status == 200 and served_at.startswith(SUBJECT_PAGES):
            assert served_at in real, (path, served_at)
        # A page is read, never posted to, put or deleted: the router refuses the method.
        if method not in ("GET", "HEAD") and path.startswith(SUBJECT_PAGES):
            assert status in (301, 307, 308, 404, 405), (method, path, status)
        if method in ("GET", "HEAD"):
            reads["asked"] += 1
            reads["answered"] += status == 200

    run()
    # The examples reached the pages and their checks, not only refusals: of the reads
    # (the only methods pages answer; a POST, PUT, DELETE or OPTIONS of one is a 405).
    assert reads["answered"] > reads["asked"] // 10, (reads, statuses)
    assert statuses.get(404, 0) > 0, statuses
    print(f"statuses: {dict(sorted(statuses.items()))}")
