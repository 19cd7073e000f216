"""Test harness: fresh databases on SQLite (always) and PostgreSQL (when
TEST_DATABASE_URL is set), datasets loaded once per session, and an `Api` that speaks
GraphQL to the ASGI app."""

import os
import re
import shutil
import subprocess
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any
from unittest.mock import patch

import pytest
from sqlalchemy import Connection, create_engine, text
from sqlalchemy.engine import make_url
from starlette.testclient import TestClient

from api.app import create_app
from api.ingest.load import load_directory
from api.settings import DEFAULT_FIXTURES_DIR, Settings
from schema import default_schema
from schema.context import Context
from store import turns

from tiny_dataset import write_tiny

ROOT = Path(__file__).resolve().parents[1]
TS_CLIENT = ROOT / "clients" / "typescript"
TESTDATA = Path(__file__).resolve().parents[2] / "shared" / "testdata"
if not TESTDATA.is_dir():  # a checkout beside ../shared, or the shared folder elsewhere
    TESTDATA = Path(os.environ.get("TAXONOMY_TESTDATA", "/work/shared/testdata"))
SEED_PAGE = TESTDATA.parent / "seed" / "training-parallelism-node.txt"

POSTGRES_URL = os.environ.get("TEST_DATABASE_URL")
BACKENDS = ["sqlite", *(["postgresql"] if POSTGRES_URL else [])]

DATASETS = {
    "fixtures": DEFAULT_FIXTURES_DIR,
    "pwc": TESTDATA / "pwc-methods",
    "go": TESTDATA / "go-pombase",
}


# What current GraphQL clients (graphql-request, urql, Apollo Client 4) send: GraphQL over
# HTTP's media type first. Tests of clients that predate it say so (`accept` of their own).
GRAPHQL_CLIENT_HEADERS = {"accept": "application/graphql-response+json, application/json"}


def release_of(data_version: str) -> int:
    """The load's number in a data version (`7-<32 hex digits>`: its number and the load's
    random identity), checking its form."""
    assert re.fullmatch(r"[1-9][0-9]*-[0-9a-f]{32}", data_version), data_version
    return int(data_version.split("-")[0])


def versioned(answer: Any) -> Any:
    """An answer (or a batch's answers) without its `extensions.dataVersion`, which is
    checked to be there and well-formed (api.edge.freshness): the rest is then compared whole."""
    if isinstance(answer, list):
        return [versioned(one) for one in answer]
    rest = dict(answer)
    release_of(rest.pop("extensions")["dataVersion"])
    return rest


UNLIMITED = 2**62


class GraphQLResponseError(AssertionError):
    pass


class Api:
    """GraphQL over HTTP through the ASGI app, plus `schema.execute` on the same engine."""

    def __init__(self, client: TestClient, database_url: str) -> None:
        self.client = client
        self.database_url = database_url

    def post(self, document: str, variables: dict[str, Any] | None = None) -> dict[str, Any]:
        response = self.client.post("/graphql", json={"query": document, "variables": variables})
        body: dict[str, Any] = response.json()
        return body

    def query(self, document: str, variables: dict[str, Any] | None = None) -> dict[str, Any]:
        """The `data` of a query that must succeed; fails on any error."""
        body = self.post(document, variables)
        if body.get("errors"):
            raise GraphQLResponseError(body["errors"])
        data: dict[str, Any] = body["data"]
        return data

    def errors(
        self, document: str, variables: dict[str, Any] | None = None
    ) -> list[dict[str, Any]]:
        """The errors of a query that must fail."""
        body = self.post(document, variables)
        assert body.get("errors"), f"expected errors, got {body}"
        errors: list[dict[str, Any]] = body["errors"]
        return errors

    def query_whole(self, document: str, variables: dict[str, Any] | None = None) -> Any:
        """The `data` of a query a test reads whole data with (every model's treatments...),
        in process and with no cost limit: what it checks is not the cost rule."""
        answer = self.execute(document, variables, cost_limit=UNLIMITED)
        if answer.errors:
            raise GraphQLResponseError(answer.errors)
        return answer.data

    def count_statements(self, document: str, variables: dict[str, Any] | None = None) -> int:
        """The SQL statements the request ran, as the server counts them for this request
        alone (not the data-version poll that may run meanwhile); the answer must be fresh,
        not from the response cache."""
        # What is counted is the query's plan. A request that holds the event loop past its
        # first slice gives it back (store.turns), and its DataLoaders' batches may then
        # split into more statements; the slice is the loop thread's time, whoever spends
        # it (a full collection of this process's garbage, the search catalogue read after
        # a new data version, a busy machine's slower cores): so the counted request has a
        # first slice it cannot outlast. tests/test_loop_turns.py tests the turns.
        with patch.object(turns, "FIRST_SLICE", 3600.0):
            response = self.client.post(
                "/graphql", json={"query": document, "variables": variables}
            )
        assert not response.json().get("errors"), response.json()
        assert response.headers["x-cache"] == "miss"
        return int(response.headers["x-sql-statements"])

    def execute(
        self,
        document: str,
        variables: dict[str, Any] | None = None,
        *,
        cost_limit: int | None = None,
    ) -> Any:
        """Run ``document`` through `schema.execute` directly, not over HTTP (under
        ``cost_limit`` instead of the schema's `max_cost` when given)."""
        engine = self.client.app.state.request_engine  # type: ignore[attr-defined]

        async def run() -> Any:
            context = Context.for_request(engine)
            context.cost_limit = cost_limit
            return await default_schema().execute(
                document, variable_values=variables, context_value=context
            )

        assert self.client.portal is not None
        return self.client.portal.call(run)


@contextmanager
def autocommit(url: str) -> Iterator[Connection]:
    """A connection to the PostgreSQL database of ``url`` committing each statement (DDL,
    roles, grants, as its owner would run them)."""
    engine = create_engine(
        make_url(url).set(drivername="postgresql+psycopg"), isolation_level="AUTOCOMMIT"
    )
    try:
        with engine.connect() as connection:
            yield connection
    finally:
        engine.dispose()


@pytest.fixture(scope="session")
def new_database(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[str, str], str]]:
    """Makes an empty database of a backend; PostgreSQL ones are dropped at the end."""
    created: list[str] = []
    admin_url = make_url(POSTGRES_URL) if POSTGRES_URL else None

    def make(backend: str, name: str) -> str:
        if backend == "sqlite":
            return f"sqlite:///{tmp_path_factory.mktemp(name)}/taxonomy.db"
        assert admin_url is not None
        database = f"taxonomy_test_{uuid.uuid4().hex[:10]}_{name}"[:63].replace("-", "_")
        with autocommit(admin_url.render_as_string(hide_password=False)) as connection:
            connection.execute(text(f'CREATE DATABASE "{database}"'))
            # A test's database is thrown away after the run, so its commits need not wait
            # for the WAL to reach the disk: a committing load or migration waited ~2 ms per
            # commit for fsync here, and PostgreSQL's tests ran 35-60 s instead of 78-88 s.
            # What a commit makes visible, and when, is unchanged; only a crash of the
            # PostgreSQL server itself could lose the last commits, which no test does.
            connection.execute(text(f'ALTER DATABASE "{database}" SET synchronous_commit TO off'))
        created.append(database)
        return admin_url.set(database=database).render_as_string(hide_password=False)

    yield make

    if created and admin_url is not None:
        admin = admin_url.render_as_string(hide_password=False)
        # All at once, each on a connection of its own: PostgreSQL 15 ends every DROP
        # DATABASE with a checkpoint it waits for, and drops waiting together share one.
        # One after the other, 8 drops took 10.3 s here; together, 1.5 s (a worker of the
        # suite drops dozens as its last step).
        with ThreadPoolExecutor(max_workers=16) as droppers:
            list(droppers.map(partial(_drop_database, admin), created))


def _drop_database(admin_url: str, database: str) -> None:
    with autocommit(admin_url) as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)'))


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="session")
def api_for(new_database: Callable[[str, str], str]) -> Iterator[Callable[[str, str], Api]]:
    """`api_for(backend, dataset)`: a served database with that dataset, made once."""
    apis: dict[tuple[str, str], Api] = {}
    clients: list[TestClient] = []

    def get(backend: str, dataset: str) -> Api:
        """``dataset``: a name in DATASETS or a folder."""
        if (backend, dataset) not in apis:
            folder = Path(DATASETS.get(dataset, dataset))
            url = new_database(backend, folder.name)
            load_directory(folder, url)
            client = TestClient(
                create_app(Settings(database_url=url, statement_header=True)),
                headers=GRAPHQL_CLIENT_HEADERS,
            )
            client.__enter__()
            clients.append(client)
            apis[(backend, dataset)] = Api(client, url)
        return apis[(backend, dataset)]

    yield get
    for client in clients:
        client.__exit__(None, None, None)


def serve(database_url: str, **settings: Any) -> TestClient:
    """A client of a fresh app on ``database_url``; use as a context manager."""
    return TestClient(
        create_app(Settings(database_url=database_url, **settings)), headers=GRAPHQL_CLIENT_HEADERS
    )


@pytest.fixture(scope="session")
def tiny_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("tiny")
    write_tiny(folder)
    return folder


@pytest.fixture
def tiny(api_for: Callable[[str, str], Api], backend: str, tiny_folder: Path) -> Api:
    """The hand-worked dataset of tiny_dataset.py, served from each backend."""
    return api_for(backend, str(tiny_folder))


@pytest.fixture
def api(api_for: Callable[[str, str], Api], backend: str) -> Api:
    """The default fixtures, served from each backend."""
    return api_for(backend, "fixtures")


@pytest.fixture(scope="session")
def node_modules() -> Path:
    """clients/typescript's pinned packages (and gql-tada/'s), installed by `npm ci` when
    missing or older than package-lock.json (what `make clients` and .ci/schema-check do too).
    Skips the test when node or npm is not installed."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node and npm are not installed: the TypeScript client is not checked")
    for project in (TS_CLIENT, TS_CLIENT / "gql-tada"):
        installed = project / "node_modules" / ".package-lock.json"
        lock = project / "package-lock.json"
        if not installed.exists() or installed.stat().st_mtime < lock.stat().st_mtime:
            # .ci/retry: a reset connection to the npm registry is not a failure of the client.
            npm_ci = ["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"]
            result = subprocess.run(
                [str(ROOT / ".ci" / "retry"), *npm_ci], cwd=project, capture_output=True, text=True
            )
            assert result.returncode == 0, f"npm ci in {project}: {result.stdout}{result.stderr}"
    return TS_CLIENT / "node_modules"
