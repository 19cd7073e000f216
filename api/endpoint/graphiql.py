"""The GraphiQL page, opened on a query that shows the seed page.

GraphiQL's scripts and styles come from this project, not a CDN: `graphiql/` pins the npm
packages and bundles them into ASSETS_DIR (`make install` builds it), which the app serves at
ASSETS_URL. Without a build, the page says how to make one and loads nothing.
"""

from html import escape
from pathlib import Path

from api.endpoint.operations import operation
from api.pages.html_page import html_page

ASSETS_DIR = Path(__file__).resolve().parents[1] / "static" / "graphiql"
ASSETS_URL = "/graphiql-assets"


def sample_query() -> str:
    """The seed page's query (examples/operations/NodePage.graphql); without the repository
    beside this package, a query of the taxonomy's size that says where that one is."""
    try:
        page = operation("NodePage")
    except FileNotFoundError:
        return (
            "# The seed page's query is examples/operations/NodePage.graphql in the\n"
            "# repository, which this install does not have. Open the docs for every type.\n"
            "{ taxonomy { nodeCount methodCount modelCount depth } }\n"
        )
    return (
        f"# Press the run button (or Ctrl-Enter); open the docs for every type and field.\n{page}"
    )


SAMPLE_QUERY = sample_query()

_TITLE = "GraphiQL · taxonomy-api"
_BODY = """\
    <div id="graphiql">{body}</div>
    <pre id="graphiql-query"{attributes}>{query}</pre>"""

_MISSING = """\
<div style="font: 16px/1.5 system-ui, sans-serif; max-width: 46em; margin: 2em auto">
      <h1>GraphiQL is not built</h1>
      <p>This install has no GraphiQL assets ({path} is missing), and this page loads nothing
      from the internet. Run <code>make install</code> (it runs <code>npm ci</code> and the
      build in <code>graphiql/</code>), then reload. The API itself works: POST GraphQL to
      <code>/graphql</code>. The sample query:</p>
    </div>"""


# The one style GraphiQL writes into the page itself: react-remove-scroll-bar's, when a
# dialog or a menu opens (always the same text: the page never has a scroll bar, page.css).
# Allowed by its hash, so that no other inline style applies; tests/test_graphiql_browser.py
# opens a dialog, so a GraphiQL build whose style differs fails it.
_SCROLL_LOCK_STYLE = "'sha256-nzTgYzXYDNe6BAHiiI7NNlfK8n/auuOAhh2t92YvuXo='"
# What the built page may load: its own script and style sheet (no inline script, no inline
# style but that one), the fonts and icons its style sheet carries as data: URLs, and
# /graphql to fetch from.
PAGE_POLICY = (
    f"default-src 'none'; script-src 'self'; style-src 'self' {_SCROLL_LOCK_STYLE}; "
    "font-src 'self' data:; img-src 'self' data:; connect-src 'self'; base-uri 'none'; "
    "form-action 'none'; frame-ancestors 'none'"
)
# The page without a build: no script at all, and its few inline styles.
MISSING_POLICY = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; "
    "form-action 'none'; frame-ancestors 'none'"
)


def page_policy() -> str:
    """The Content-Security-Policy of the page graphiql_page() writes."""
    return PAGE_POLICY if (ASSETS_DIR / "main.js").is_file() else MISSING_POLICY


def graphiql_page() -> str:
    """The GraphiQL page: only same-origin assets, opened on SAMPLE_QUERY (kept as text in
    #graphiql-query); without built assets, a page that says to run `make install`."""
    script = ASSETS_DIR / "main.js"
    query = escape(SAMPLE_QUERY, quote=False)
    try:
        version = f"{script.stat().st_mtime_ns:x}"
    except FileNotFoundError:
        body = _MISSING.format(path=escape(str(script.relative_to(ASSETS_DIR.parents[2]))))
        attributes = ' style="max-width: 46em; margin: 0 auto 2em"'
        return html_page(_TITLE, "", _BODY.format(body=body, attributes=attributes, query=query))
    head = (
        f'    <link rel="stylesheet" href="{ASSETS_URL}/main.css?v={version}">\n'
        f'    <script type="module" src="{ASSETS_URL}/main.js?v={version}"></script>'
    )
    body = _BODY.format(body="Loading GraphiQL…", attributes=" hidden", query=query)
    return html_page(_TITLE, head, body)


def with_sample_query(page: str) -> str:
    """The page for GET /graphql from a browser, in place of Strawberry's `page`, whose
    GraphiQL loads from a CDN."""
    del page
    return graphiql_page()
