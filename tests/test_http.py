"""HTTP through the ASGI app: GraphQL by POST and GET, GraphiQL, /healthz and /readyz."""

from collections.abc import Callable
from html import escape
from pathlib import Path

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import DBAPIError

from api import migrate
from api.ingest.load import load_directory
from api.operations import operation

from conftest import Api, release_of, serve


def test_post_and_get(tiny: Api) -> None:
    posted = tiny.client.post(
        "/graphql",
        json={
            "query": "query($s: String!) { node(slug: $s) { name } }",
            "variables": {"s": "beta"},
        },
    )
    assert posted.status_code == 200
    assert posted.json() == {"data": {"node": {"name": "beta"}}}
    got = tiny.client.get("/graphql", params={"query": "{ taxonomy { rootCount } }"})
    assert got.status_code == 200
    assert got.json() == {"data": {"taxonomy": {"rootCount": 2}}}


def test_graphiql_opens_on_the_seed_page_query(tiny: Api) -> None:
    page = tiny.client.get("/graphql", headers={"Accept": "text/html"})
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert escape(operation("NodePage"), quote=False) in page.text
    assert "Welcome to GraphiQL" not in page.text
    assert tiny.client.get("/", follow_redirects=False).headers["location"] == "/graphql"


def test_health_and_readiness(tiny: Api) -> None:
    assert tiny.client.get("/healthz").json() == {"status": "ok"}
    ready = tiny.client.get("/readyz")
    assert ready.status_code == 200
    body = ready.json()
    assert release_of(body.pop("dataVersion")) == 1
    assert body == {"status": "ready", "migration": migrate.head_revision()}


def test_not_ready_until_migrated_and_loaded(
    backend: str, new_database: Callable[[str, str], str], tiny_folder: Path
) -> None:
    url = new_database(backend, "readiness")
    with serve(url) as client:
        bare = client.get("/readyz")
        assert bare.status_code == 503
        assert "run `taxonomy migrate`" in bare.json()["reason"]
        migrate.upgrade(url)
        empty = client.get("/readyz")
        assert empty.status_code == 503
        assert empty.json()["reason"] == "no data loaded: run `taxonomy load DIR`"
        load_directory(tiny_folder, url)
        assert client.get("/readyz").status_code == 200


def test_not_ready_when_the_database_is_unreachable() -> None:
    # Nothing listens on port 1; the app starts anyway and says why it is not ready.
    with serve("postgresql://nobody@127.0.0.1:1/nothing") as client:
        response = client.get("/readyz")
        assert response.status_code == 503
        assert response.json()["reason"].startswith("database unreachable")
        assert client.get("/healthz").status_code == 200


def test_the_serving_engine_cannot_write(tiny: Api) -> None:
    """Least privilege: the server opens SQLite read-only and runs read-only transactions
    on PostgreSQL, so no bug or injection in a request can change the data."""
    state = tiny.client.app.state  # type: ignore[attr-defined]
    engine = state.engine
    # What requests read through: the same engine on PostgreSQL, SQLite's synchronous one.
    request_engine = state.request_engine

    async def write() -> None:
        async with engine.begin() as connection:
            await connection.execute(text("DELETE FROM node_stats"))

    assert tiny.client.portal is not None
    with pytest.raises(DBAPIError, match=r"(?i)read-?only"):
        tiny.client.portal.call(write)
    if isinstance(request_engine, Engine):
        with pytest.raises(DBAPIError, match=r"(?i)read-?only"), request_engine.begin() as sync:
            sync.execute(text("DELETE FROM node_stats"))
    assert tiny.query("{ taxonomy { nodeCount } }") == {"taxonomy": {"nodeCount": 5}}
