"""The ASGI application: the taxonomy browser's pages (/, /nodes/..., /models/..., /methods/...,
/search, /changes and the indexes /models, /methods and /releases), their tables' downloads
(/download/...), GraphQL at /graphql (with GraphiQL), /healthz and /readyz."""

import gc
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial
from typing import Any

from sqlalchemy import Engine, select, text
from sqlalchemy.exc import DBAPIError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncEngine
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, request_response
from starlette.staticfiles import StaticFiles

from api import browser, fault_log, migrate
from api.download.routes import download_routes
from api.freshness import Freshness
from api.graphiql import ASSETS_DIR, ASSETS_URL
from api.http_guards import BodyLimit, GraphQLOverHTTP, RequestId, TimeLimit, UrlLimit
from api.persisted_queries import PersistedQueries, QueryStore, load_allowlist
from api.readiness import BoundedCheck, CheckTimeoutError
from api.request_log import RequestLog
from api.response_cache import LRU, ResponseCache
from api.security_headers import secured
from api.settings import Settings
from api.view import TaxonomyGraphQL
from schema import build_schema
from store import search_cache
from store.data_version import DataVersion, data_version
from store.engines import (
    SqliteFileWatch,
    is_sqlite,
    make_async_engine,
    make_request_engine,
    sqlite_path,
)
from store.reader import Reader
from store.tables import DatasetRow, table_of

# Where the schema logs our faults (schema.TaxonomySchema), each under its request id.
FAULTS_LOGGER = "taxonomy.errors"
# What a readiness probe waits for at most (a load balancer's own timeout is a few seconds).
READY_WITHIN_SECONDS = 2.0
# A check still running this long is given up and the next probe starts a new one: a
# database that answers again is seen ready within this and a probe's wait.
READY_CHECK_STALE_SECONDS = 3.0


async def healthz(_: Request) -> Response:
    """The process is up and answering; says nothing about the database."""
    return JSONResponse({"status": "ok"})


async def _database_state(engine: AsyncEngine, head: str | None) -> tuple[str | None, Any]:
    """The database's migration and, when it is at ``head``, its data version. A check
    cut short (cancelled when stale: api.readiness) lets its connection go at once, with
    no rollback to wait for on a connection that may hang."""
    connection = await engine.connect()
    try:
        await connection.execute(text("SELECT 1"))
        revision = await connection.run_sync(migrate.current_revision)
        version = None
        if revision == head:
            dataset = table_of(DatasetRow)
            row = (await connection.execute(select(dataset.c.version, dataset.c.identity))).first()
            version = None if row is None else data_version(*row)
    except BaseException:
        await connection.invalidate()
        raise
    finally:
        await connection.close()
    return revision, version


async def _checked_state(engine: AsyncEngine) -> tuple[str | None, str | None, Any]:
    """This code's head, the database's migration and its data version."""
    head = migrate.HEAD_REVISION
    try:
        return head, *await _database_state(engine, head)
    except DBAPIError as exc:
        if not exc.connection_invalidated:
            raise
        # A pooled connection the database dropped while idle; the pool has retired
        # it and its like, so a second try reads through a new one (as requests do:
        # store.reader.AsyncReader).
        return head, *await _database_state(engine, head)


async def readyz(request: Request) -> Response:
    """Ready when the database answers, is migrated to this code's head, and holds data;
    answered within READY_WITHIN_SECONDS even while the database hangs."""
    try:
        head, revision, version = await request.app.state.readiness.run()
    except CheckTimeoutError as exc:
        return JSONResponse(
            {
                "status": "unavailable",
                "reason": f"the database did not answer within {exc.within:g} s",
            },
            status_code=503,
        )
    except (SQLAlchemyError, OSError) as exc:
        path = (
            sqlite_path(request.app.state.database_url)
            if is_sqlite(request.app.state.database_url)
            else None
        )
        reason = (
            f"no database at {path}: run `taxonomy migrate` or `taxonomy load DIR`"
            if path is not None and not path.exists()
            else f"database unreachable: {type(exc).__name__}"
        )
        return JSONResponse({"status": "unavailable", "reason": reason}, status_code=503)
    if revision != head:
        return JSONResponse(
            {
                "status": "unavailable",
                "reason": f"database at migration {revision}, this code needs {head}: "
                "run `taxonomy migrate`",
            },
            status_code=503,
        )
    if version is None:
        return JSONResponse(
            {"status": "unavailable", "reason": "no data loaded: run `taxonomy load DIR`"},
            status_code=503,
        )
    return JSONResponse({"status": "ready", "migration": revision, "dataVersion": str(version)})


def _freeze_long_lived_objects() -> None:
    """Keep the cyclic garbage collector off what lives as long as the process (the schema,
    the mappers, the modules: over 100,000 objects that every full collection would walk
    again). Measured on the seed page query in-process: 0.42 ms of collection per request
    before, 0.33 ms after. (A higher threshold saved a little more, but let a busy worker's
    memory grow further between full collections.)"""
    gc.collect()
    gc.freeze()


def create_app(settings: Settings | None = None) -> Starlette:
    settings = settings or Settings()
    fault_log.guard(logging.getLogger(FAULTS_LOGGER))

    engine = make_async_engine(
        settings.database_url,
        pool_size=settings.pool_size,
        prepared_statements=settings.prepared_statements,
    )
    request_engine = make_request_engine(
        settings.database_url, engine, pool_size=settings.pool_size
    )
    # Each new data version starts this process's search catalogue building at once, so
    # that the first search after a load does not wait for it (store.search_cache).
    version = DataVersion(
        engine,
        settings.version_poll_seconds,
        on_change=lambda seen: search_cache.prepare(Reader.of(request_engine), seen),
        # A SQLite file replaced on disk is read anew within a poll interval.
        before_read=SqliteFileWatch(settings.database_url, [engine, request_engine]).check,
    )
    # Readiness reads through connections of its own, each new: a pooled connection can
    # hang while the database answers new ones, and the check must see the database.
    readiness_engine = (
        engine
        if is_sqlite(settings.database_url)
        else make_async_engine(
            settings.database_url, prepared_statements=settings.prepared_statements, pooled=False
        )
    )
    readiness = BoundedCheck(
        partial(_checked_state, readiness_engine),
        READY_WITHIN_SECONDS,
        stale_after=READY_CHECK_STALE_SECONDS,
    )

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        app.state.engine = engine
        app.state.request_engine = request_engine
        app.state.database_url = settings.database_url
        app.state.data_version = version
        app.state.readiness = readiness
        await version.start()
        _freeze_long_lived_objects()
        try:
            yield
        finally:
            await version.stop()
            await search_cache.stop(Reader.of(request_engine).database)
            await engine.dispose()
            if readiness_engine is not engine:
                await readiness_engine.dispose()
            if isinstance(request_engine, Engine):  # SQLite's own, beside the async one
                request_engine.dispose()

    schema = build_schema(
        max_depth=settings.max_depth,
        max_aliases=settings.max_aliases,
        max_tokens=settings.max_tokens,
        max_cost=settings.max_cost,
        introspection=settings.introspection,
        batching_max_operations=settings.batching_max_operations,
        document_cache_bytes=settings.document_cache_megabytes << 20,
    )
    graphql = TaxonomyGraphQL(
        schema,
        graphql_ide="graphiql" if settings.graphiql else None,
        report_statements=settings.statement_header,
        suggestions=settings.introspection,
        max_tokens=settings.max_tokens,
    )
    store = (
        LRU(settings.response_cache_entries, settings.response_cache_megabytes << 20)
        if settings.response_cache and settings.response_cache_entries > 0
        else None
    )
    # The taxonomy browser's own operations are always known: beside an allowlist, and
    # registered up front without one (a page's first view is then one GET).
    browser_documents = browser.persisted_documents()
    allowlist = (
        load_allowlist(settings.persisted_queries_allowlist) | browser_documents
        if settings.persisted_queries_allowlist
        else None
    )
    queries = QueryStore(
        settings.persisted_queries_entries, allowlist, settings.persisted_queries_megabytes << 20
    )
    for digest, document in browser_documents.items():
        queries.put(digest, document)
    endpoint = Freshness(
        TimeLimit(
            BodyLimit(
                PersistedQueries(
                    ResponseCache(
                        GraphQLOverHTTP(graphql, settings.batching_max_operations), store
                    ),
                    queries,
                ),
                settings.max_body_bytes,
            ),
            settings.request_timeout_seconds,
        ),
        version,
        settings.cache_max_age_seconds,
    )
    middleware = [
        Middleware(RequestId),
        *([Middleware(RequestLog)] if settings.request_log else []),
        Middleware(secured),
        Middleware(UrlLimit, max_bytes=settings.max_url_bytes),
    ]
    if settings.cors_origins:
        middleware.append(
            Middleware(
                CORSMiddleware,
                allow_origins=settings.cors_origins,
                allow_methods=["GET", "POST"],
                allow_headers=["content-type", "accept", "x-request-id", "if-none-match"],
                expose_headers=["etag", "x-request-id", "data-version"],
            )
        )
    page = TimeLimit(
        request_response(browser.page_endpoint(schema)), settings.request_timeout_seconds
    )
    return Starlette(
        middleware=middleware,
        routes=[
            # A page asks the database whether its subject exists: under the same time
            # limit (and so the same statement timeout) as /graphql.
            *(Route(path, page) for path in browser.PAGE_PATHS),
            # Each table's rows, streamed: each chunk under the same time limit as /graphql.
            *download_routes(
                schema,
                chunk_seconds=settings.request_timeout_seconds,
                download_seconds=settings.download_timeout_seconds,
            ),
            Route("/graphql", endpoint, methods=["GET", "POST"]),
            Route("/healthz", healthz),
            Route("/readyz", readyz),
            Mount(ASSETS_URL, StaticFiles(directory=ASSETS_DIR, check_dir=False)),
            Mount(browser.ASSETS_URL, browser.immutable_assets()),
        ],
        # A path that is no page: the browser's friendly 404 page.
        exception_handlers={404: browser.no_page},
        lifespan=lifespan,
    )
