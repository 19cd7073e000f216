"""The taxonomy browser's pages (DESIGN.md §6): the same small HTML at each of its URLs, which
loads the browser's one script and style sheet; the script reads the URL and fetches the
page's data from /graphql.

The browser lives in `browser/` (TypeScript and Preact on the generated client), and
`make install` bundles it into ASSETS_DIR with content-hashed names, listed by
manifest.json; the app serves them at ASSETS_URL as never changing (a new build has new
names). Without a build, each page says how to make one and loads nothing."""

import json
import re
from collections.abc import Awaitable, Callable
from functools import lru_cache
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import quote, quote_plus

from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from strawberry import Schema

from api.download.tables import (
    METHOD_MODELS,
    METHODS,
    MODEL_METHODS,
    MODELS,
    NODE_BY_MODEL,
    RELEASES,
    BadParameterError,
    Params,
    changes_words,
    search_words,
)
from api.edge.persisted_queries import load_allowlist
from api.endpoint import graphiql
from api.pages.html_page import html_page
from api.pages.page_meta import NO_PAGE, PageMeta, page_meta
from schema.context import Context
from schema.pagination import cursor_parts

ASSETS_DIR = Path(__file__).resolve().parents[1] / "static" / "browser"
ASSETS_URL = "/browser-assets"
MANIFEST = "manifest.json"
# The browser's operations by sha256, written by the build: registered at start.
PERSISTED = "persisted-queries.json"
# The built pages' URLs (DESIGN.md §6); the script tells them apart.
PAGE_PATHS = (
    "/",
    "/nodes/{path:path}",
    "/models/{slug}",
    "/methods/{slug}",
    "/search",
    "/changes",
    # The indexes: paged, sortable and filterable tables of every model, method and release.
    "/models",
    "/methods",
    "/releases",
    # Help for newcomers: what the strengths and the counts mean.
    "/about",
)


# Whether a page's subject exists, asked as any client would; an unknown one's page is a 404
# (its script says so in words). By kind (the URL's first segment): the query, and where the
# key is: a path parameter, or (the changes page) the release number in the query string.
# What the page's title and description say of its subject comes with it (api/pages/page_meta.py).
SUBJECTS = {
    "nodes": (
        """query PageSubject($key: String!) { subject: node(path: $key) {
          id path counts { methodsInBranch modelsInBranch } } }""",
        "path",
    ),
    "models": (
        "query PageSubject($key: String!) { subject: model(slug: $key) { id name organization } }",
        "slug",
    ),
    "methods": (
        """query PageSubject($key: String!) { subject: method(slug: $key) {
          id name modelCount node { path } } }""",
        "slug",
    ),
    "changes": ("query PageSubject($key: Int!) { subject: release(number: $key) { id } }", "since"),
}

# What was at a page's subject that is not there now (by kind, as SUBJECTS): a moved node's
# new place, or a removed record's name and the release that removed it.
FORMER = {
    "nodes": """query PageFormer($key: String!) {
      former: formerNode(path: $key) {
        name path kind changedIn { number } node { slugPath } } }""",
    "models": """query PageFormer($key: String!) {
      former: formerModel(slug: $key) { name path removedIn { number } } }""",
    "methods": """query PageFormer($key: String!) {
      former: formerMethod(slug: $key) { name path removedIn { number } } }""",
}
_RECORD = {"nodes": "node", "models": "model", "methods": "method"}

# What a page may load: its own script and style sheet (no inline script or style), and
# /graphql to fetch from. Its search form and links go to this server only.
PAGE_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
# The page without a build: nothing to load or run.
MISSING_POLICY = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
# Hashed names never change content: a year, and no revalidation.
IMMUTABLE = "public, max-age=31536000, immutable"

_TITLE = "Taxonomy browser"
_COLOR_SCHEME = '    <meta name="color-scheme" content="light dark">'
_APP = '    <div id="app">{body}</div>'

_LOADING = '<main><p role="status">Loading the taxonomy browser…</p></main>'
# An unknown path's page before its script runs (or without it): the same words.
_NO_PAGE = """<main>
      <h1>There is no page here</h1>
      <p>The link may be mistyped, or it may be old: the taxonomy is updated from time to
      time. Start from <a href="/">the home page</a>, <a href="/search">search</a>, or see every
      <a href="/models">model</a>, <a href="/methods">method</a> and
      <a href="/releases">release</a>.</p>
    </main>"""

_MISSING = """<main>
      <h1>The taxonomy browser is not built</h1>
      <p>This install has no browser assets ({path} is missing), and this page loads nothing
      from the internet. Run <code>make install</code> (it runs <code>npm ci</code> and the
      build in <code>browser/</code>), then reload. The API itself works: GraphiQL is at
      <a href="/graphql">/graphql</a>.</p>
    </main>"""


@lru_cache(maxsize=4)
def _manifest(path: Path, modified_ns: int) -> dict[str, str]:
    del modified_ns  # part of the cache key only: a rebuild is read again
    data = json.loads(path.read_text(encoding="utf-8"))
    return {"script": str(data["script"]), "style": str(data["style"])}


def built_assets() -> dict[str, str] | None:
    """The built script's and style sheet's file names; None without a build."""
    path = ASSETS_DIR / MANIFEST
    try:
        return _manifest(path, path.stat().st_mtime_ns)
    except FileNotFoundError:
        return None


def persisted_documents() -> dict[str, str]:
    """The browser's documents by their sha256 (checked), for the persisted-query store:
    its pages' first views then need no second round trip, and they run beside an
    allowlist. None without a build."""
    path = ASSETS_DIR / PERSISTED
    return load_allowlist(path) if path.is_file() else {}


def browser_page(body: str = _LOADING, meta: PageMeta | None = None) -> tuple[str, str]:
    """The page's HTML (``body`` in it until the script runs; ``meta``: its title and
    description) and its Content-Security-Policy."""
    assets = built_assets()
    if assets is None:
        missing = escape(str((ASSETS_DIR / MANIFEST).relative_to(ASSETS_DIR.parents[2])))
        body = _APP.format(body=_MISSING.format(path=missing))
        return html_page(_TITLE, _COLOR_SCHEME, body), MISSING_POLICY
    described = (
        f'    <meta name="description" content="{escape(meta.description)}">\n' if meta else ""
    )
    head = (
        f"{described}{_COLOR_SCHEME}\n"
        f'    <link rel="stylesheet" href="{ASSETS_URL}/{escape(assets["style"])}">\n'
        f'    <script type="module" src="{ASSETS_URL}/{escape(assets["script"])}"></script>'
    )
    title = escape(meta.title) if meta else _TITLE
    return html_page(title, head, _APP.format(body=body)), PAGE_POLICY


async def _subject(
    schema: Schema, request: Request, document: str, key: str | int
) -> tuple[bool | None, dict[str, Any] | None]:
    """Whether the subject ``key`` names exists, asked as any client would, and what the API
    says of it: False when the API answers null or refuses the key as malformed
    (BAD_USER_INPUT: `/nodes/%00` names no node); None when it gives no answer (the page
    then says what the API says)."""
    context = Context.for_request(request.app.state.request_engine, request)
    result = await schema.execute(document, variable_values={"key": key}, context_value=context)
    if result.errors:
        codes = {(error.extensions or {}).get("code") for error in result.errors}
        return (False if codes == {"BAD_USER_INPUT"} else None), None
    found: dict[str, Any] | None = (result.data or {}).get("subject")
    return result.data is not None and found is not None, found


# A release number as a URL gives it: digits, perhaps signed; anything else is no number.
_RELEASE_NUMBER = re.compile(r"[+-]?[0-9]+")
_LARGEST_INT = 2**31 - 1  # GraphQL's Int


async def _releases_status(schema: Schema, request: Request) -> int:
    """The changes page's status: 400 for a `since` or `until` that is not a number, 404
    for a number that names no release (negative, huge or beyond the last one)."""
    document = SUBJECTS["changes"][0]
    for parameter in ("since", "until"):
        given = request.query_params.get(parameter)
        if given is None:
            continue  # without `since` the page asks for it; without `until`: the newest
        if not (given.isascii() and _RELEASE_NUMBER.fullmatch(given)):
            return 400
        # Compared as text first: int() refuses strings of over 4,300 digits.
        digits = given.lstrip("+-").lstrip("0") or "0"
        if given.startswith("-") or len(digits) > 10 or int(digits) > _LARGEST_INT:
            return 404
        exists, _ = await _subject(schema, request, document, int(digits))
        if exists is False:
            return 404
    return 200


async def _former(schema: Schema, request: Request, kind: str, key: str) -> dict[str, Any] | None:
    """What was at the subject ``key`` of a ``kind`` page (nodes, models, methods) in an
    earlier release, asked as any client would; None when nothing was, or no answer."""
    context = Context.for_request(request.app.state.request_engine, request)
    result = await schema.execute(FORMER[kind], variable_values={"key": key}, context_value=context)
    if result.errors or not result.data:
        return None
    former: dict[str, Any] | None = result.data["former"]
    return former


# A removed record's page before its script runs (or without it): what it was, when it went.
_GONE = """<main>
      <h1>{title}</h1>
      <p>{what} was in this taxonomy until release {last}; release {removed} removed it
      ({changes}). Start from <a href="/">the home page</a>, or
      <a href="/search?q={query}">search for it</a>.</p>
    </main>"""


# A page whose URL has a word or a place its list does not take (HTTP 400). Its script
# reads the reason from `data-refused` and shows it in the same words while the reader is
# at this URL (browser/src/main.tsx): the page then never quietly shows another order or
# another list than the link asked for.
_REFUSED_TITLE = "Not a page of this list"
_REFUSED = """<main data-refused="{reason}">
      <h1>{title}</h1>
      <p>{reason}</p>
      <p><a href="{path}">Open the list as it starts</a>, or start from
      <a href="/">the home page</a> or <a href="/search">search</a>.</p>
    </main>"""


def _refused_page(request: Request, reason: str) -> tuple[str, PageMeta]:
    """The body of the 400 page of a URL whose list does not take what it says (``reason``),
    and its title and description."""
    body = _REFUSED.format(
        reason=escape(reason), title=_REFUSED_TITLE, path=escape(quote(request.url.path))
    )
    return body, PageMeta(_REFUSED_TITLE, reason)


def _gone_page(kind: str, former: dict[str, Any]) -> tuple[str, PageMeta]:
    """The body of the 410 page of the removed ``kind`` record ``former``, and its title
    and description."""
    removed = int((former.get("changedIn") or former.get("removedIn") or {})["number"])
    record = _RECORD[kind]
    title = f"The {record} “{former['name']}” was removed"
    meta = PageMeta(title, f"{title} from the taxonomy by release {removed}.")
    name = escape(str(former["name"]))
    place = f" at {escape(str(former['path']))}" if former.get("path") else ""
    body = _GONE.format(
        title=escape(title),
        what=f"The {record} “{name}”{place}",
        last=removed - 1,
        removed=removed,
        changes=f'<a href="/changes?since={removed - 1}&amp;until={removed}">what it changed</a>',
        query=escape(quote_plus(str(former["name"]))),
    )
    return body, meta


# The parameters of a page's place in a list, as the browser writes them (browser/src/
# router.ts): cursors (`after`, `before`; on the changes page each list's own, `nodes`,
# `nodes-before`, ...), the position of the page's first row (`from`, `nodes-from`, ...),
# and the page size.
_LISTS = ("nodes", "methods", "models", "treatments")
_CURSORS = {"after", "before", *_LISTS, *(f"{name}-before" for name in _LISTS)}
_POSITIONS = {"from", *(f"{name}-from" for name in _LISTS)}
_POSITION = re.compile(r"[1-9][0-9]{0,8}")
_SIZE = re.compile(r"[1-9][0-9]{0,2}")
_LARGEST_PAGE = 100


def _bad_place(request: Request) -> str | None:
    """What is wrong with a page's place in its URL, in a reader's words: a cursor that is
    no cursor of this API (a link cut short or typed by hand), a position or a page size
    that is no number; None when nothing is. A cursor from before a load is well formed:
    the page itself says that its list has moved on."""
    for name, value in request.query_params.multi_items():
        if name in _CURSORS and cursor_parts(value) is None:
            return f"The link's `{name}` is not a place in a list: it was cut short or changed."
        if name in _POSITIONS and not _POSITION.fullmatch(value):
            return f"The link's `{name}` should be a row's position (1, 26, ...), not {value!r}."
        if name == "size" and not (_SIZE.fullmatch(value) and int(value) <= _LARGEST_PAGE):
            return f"The link's page size should be a number of rows up to 100, not {value!r}."
    return None


# Each page's words (an order and its direction, a filter, a kind or a type of record) are
# read as the download of its table reads them (api.download.tables: the same parameters),
# so that a word the page does not take is a 400 that says which, not a page that quietly
# shows something else. By kind (the URL's first segment) and whether it names a subject.
_WORDS: dict[tuple[str, bool], Callable[[Params], object]] = {
    ("nodes", True): NODE_BY_MODEL.variables,
    ("models", True): MODEL_METHODS.variables,
    ("methods", True): METHOD_MODELS.variables,
    ("models", False): MODELS.variables,
    ("methods", False): METHODS.variables,
    ("releases", False): RELEASES.variables,
    ("search", False): search_words,
    ("changes", False): changes_words,
}


def _bad_word(request: Request, kind: str) -> str | None:
    """What is wrong with a word of the page's URL that its list does not take (a sort, a
    direction, a day, a kind or a type), in its download's words; None when nothing is."""
    words = _WORDS.get((kind, bool(request.path_params)))
    if words is None:
        return None
    try:
        words(Params(request.path_params, request.query_params))
    except BadParameterError as exc:
        return f"The link's {exc}."
    return None


def _meta(request: Request, status: int, subject: dict[str, Any] | None) -> PageMeta:
    """The title and description of a page that is there (``status`` 200), or says what
    is wrong: no such subject (404), a release that is no number (400)."""
    if status == 400:
        return PageMeta("Not a release number", "A release is a whole number: /changes?since=1.")
    return page_meta(request, subject) if status == 200 else NO_PAGE


def page_endpoint(schema: Schema) -> Callable[[Request], Awaitable[Response]]:
    """Any of the browser's pages (the script finds the page's subject in the URL); 404
    when it names a node, model, method or release (`/changes?since=&until=`) that does
    not exist, asked of ``schema``, and 400 for a release that is not a number. A node
    that moved (or a node above it) answers 301 to its new place; a node, model or method
    that a release removed, 410, with what it was and which release removed it."""

    async def page(request: Request) -> Response:
        kind = request.url.path.split("/")[1]
        status = 200
        subject = former = None
        wrong = _bad_place(request) or _bad_word(request, kind)
        if wrong is not None:
            status = 400
        elif kind == "changes":
            status = await _releases_status(schema, request)
        elif kind in SUBJECTS and SUBJECTS[kind][1] in request.path_params:
            # (/models, /methods and /releases, the indexes, have no subject: always there.)
            document, parameter = SUBJECTS[kind]
            key = request.path_params[parameter]
            exists, subject = await _subject(schema, request, document, key)
            if exists is False:
                status = 404
                former = await _former(schema, request, kind, key)
                now = (former or {}).get("node")
                if now is not None:
                    target = "/nodes/" + "/".join(
                        quote(part) for part in now["slugPath"].split("/")
                    )
                    query = request.url.query
                    return RedirectResponse(
                        f"{target}?{query}" if query else target,
                        status_code=301,
                        headers={"cache-control": "no-cache"},
                    )
        if former is not None:
            status = 410
            html, policy = browser_page(*_gone_page(kind, former))
        elif wrong is not None:
            html, policy = browser_page(*_refused_page(request, wrong))
        else:
            html, policy = browser_page(meta=_meta(request, status, subject))
        return HTMLResponse(
            html,
            status_code=status,
            headers={
                "content-security-policy": policy,
                # The HTML names the current build's assets: always ask for it again.
                "cache-control": "no-cache",
            },
        )

    return page


# Where a 404 is a missing file, not a missing page: answered as plain as before.
_FILES = (f"{ASSETS_URL}/", f"{graphiql.ASSETS_URL}/")


async def no_page(request: Request, exc: Exception) -> Response:
    """The app's 404 (a path no route takes, or a file not there): to a browser's GET or
    HEAD (it accepts text/html) of a path outside the asset folders, the browser's page,
    which says in plain words that there is no page here and links on (its script does,
    and its HTML before the script runs); else, to API clients and scripts, the plain 404
    it was, under the API's strict security policy."""
    del exc  # a 404 says all there is to say
    asks_for_a_page = "text/html" in request.headers.get("accept", "").lower()
    if (
        request.method not in ("GET", "HEAD")
        or request.url.path.startswith(_FILES)
        or not asks_for_a_page
    ):
        return PlainTextResponse("Not Found", status_code=404)
    html, policy = browser_page(_NO_PAGE, NO_PAGE)
    return HTMLResponse(
        html,
        status_code=404,
        headers={"content-security-policy": policy, "cache-control": "no-cache"},
    )
