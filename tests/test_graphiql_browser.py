"""GraphiQL without a CDN: the page loads only this project's assets (built by `make install`
from graphiql/), and in headless Chromium, with every request beyond this machine blocked,
GraphiQL opens, its docs list the types, and the sample query runs and shows its result."""

import re
from html import escape
from pathlib import Path

import pytest

from api.endpoint import graphiql, operations
from api.endpoint.graphiql import ASSETS_DIR, ASSETS_URL, graphiql_page
from api.endpoint.operations import operation

from processes import drive_browser

GRAPHIQL = Path(__file__).resolve().parents[1] / "graphiql"
CHROMIUM = Path("/usr/bin/chromium")
BUILT = "GraphiQL's assets are not built (api/static/graphiql/): run `make install`"


def urls(page: str) -> list[str]:
    return re.findall(r'(?:src|href)="([^"]*)"', page)


def test_the_page_loads_only_same_origin_assets() -> None:
    assert (ASSETS_DIR / "main.js").is_file(), BUILT
    page = graphiql_page()
    assert escape(operation("NodePage"), quote=False) in page
    assert sorted(url.split("?")[0] for url in urls(page) if url != "data:,") == [
        f"{ASSETS_URL}/main.css",
        f"{ASSETS_URL}/main.js",
    ]
    assert "http" not in page


def test_without_assets_the_page_says_run_make_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(graphiql, "ASSETS_DIR", tmp_path / "api" / "static" / "graphiql")
    page = graphiql_page()
    assert "GraphiQL is not built" in page
    assert "make install" in page
    assert escape(operation("NodePage"), quote=False) in page
    assert urls(page) == ["data:,"]
    assert "<script" not in page


def test_without_the_examples_the_page_opens_on_a_query_that_says_where_they_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(operations, "OPERATIONS_DIR", tmp_path)  # as in an installed wheel
    query = graphiql.sample_query()
    assert "examples/operations/NodePage.graphql" in query
    assert "{ taxonomy { nodeCount" in query


@pytest.mark.skipif(
    not CHROMIUM.exists(), reason="no /usr/bin/chromium: `make browser` installs Debian's"
)
def test_graphiql_in_headless_chromium(tmp_path: Path) -> None:
    assert (ASSETS_DIR / "main.js").is_file(), BUILT
    assert (GRAPHIQL / "node_modules" / "playwright-core").is_dir(), BUILT
    screenshot = tmp_path / "graphiql.png"
    drive_browser(
        GRAPHIQL / "browser-test.mjs", f"sqlite:///{tmp_path}/taxonomy.db", str(screenshot)
    )
    print(f"GraphiQL screenshot: {screenshot}")
    assert screenshot.stat().st_size > 10_000
