"""The ASGI application: the taxonomy browser's pages (/, /nodes/..., /models/..., /methods/...,
/search, /changes and the indexes /models, /methods and /releases), their tables' downloads
(/download/...), GraphQL at /graphql (with GraphiQL), /healthz and /readyz.

Everything the app keeps between requests is made here and hangs off it (`app.state`):
its engines, the data version, the readiness check, the caches (store.caches, the
response cache and the persisted queries). Nothing is kept at module level
(tests/test_app_state.py holds that), so two apps never share what they read."""

import gc
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.routing import Mount, Route
from starlette.types import StatelessLifespan

from api.download.routes import download_routes
from api.edge import fault_log
from api.edge.after_answer import CloseAfterAnswer
from api.edge.freshness import Freshness
from api.edge.http_guards import BodyLimit, GraphQLOverHTTP, RequestId, TimeLimit, UrlLimit
from api.edge.idle_collection import IdleCollection, make_full_collections_rare
from api.edge.persisted_queries import PersistedQueries, QueryStore, load_allowlist
from api.edge.precompressed import precompressed_files
from api.edge.readiness import database_check, healthz, readyz
from api.edge.request_log import RequestLog
from api.edge.response_cache import LRU, AnswerStore, ResponseCache
from api.edge.security_headers import secured
from api.edge.shared_answers import MachineAnswers, SharedAnswersError, open_shared_answers
from api.endpoint.graphiql import ASSETS_DIR, ASSETS_URL
from api.endpoint.view import TaxonomyGraphQL
from api.pages import browser
from api.settings import Settings
from schema import TaxonomySchema, build_schema
from store.caches import Caches
from store.data_version import DataVersion
from store.database_errors import FAULTS_LOGGER
from store.engines import (
    RequestEngine,
    ServerEngine,
    SqliteFileWatch,
    is_sqlite,
    make_async_engine,
    make_request_engine,
)
from store.reader import Reader
from store.readiness import ReadinessEngine


def _freeze_long_lived_objects() -> None:
    """Keep the cyclic garbage collector off what lives as long as the process (the schema,
    the mappers, the modules: over 100,000 objects that every full collection would walk
    again). Measured on the seed page query in-process: 0.42 ms of collection per request
    before, 0.33 ms after. (A higher threshold saved a little more, but let a busy worker's
    memory grow further between full collections.)"""
    gc.collect()
    gc.freeze()


@dataclass
class Engines:
    """The app's engines: its own (the data version's), the one requests read through
    (SQLite's synchronous one: store.engines), and readiness's."""

    main: ServerEngine
    requests: RequestEngine
    readiness: ReadinessEngine

    @classmethod
    def of(cls, settings: Settings) -> "Engines":
        url, prepared = settings.database_url, settings.prepared_statements
        main = make_async_engine(url, pool_size=settings.pool_size, prepared_statements=prepared)
        requests = make_request_engine(url, main, pool_size=settings.pool_size)
        # Readiness reads through connections of its own, each new: a pooled connection can
        # hang while the database answers new ones, and the check must see the database.
        readiness = (
            main
            if is_sqlite(url)
            else make_async_engine(url, prepared_statements=prepared, pooled=False)
        )
        return cls(main, requests, readiness)

    async def dispose(self) -> None:
        await self.main.dispose()
        if self.readiness is not self.main:
            await self.readiness.dispose()
        if not isinstance(self.requests, ServerEngine):  # SQLite's own, beside the async one
            self.requests.dispose()


def create_app(settings: Settings | None = None) -> Starlette:
    settings = settings or Settings()
    fault_log.guard(logging.getLogger(FAULTS_LOGGER))
    engines, caches = Engines.of(settings), Caches()
    # Each new data version starts the app's search catalogue building at once, so that
    # the first search after a load does not wait for it (store.search_cache).
    version = DataVersion(
        engines.main,
        settings.version_poll_seconds,
        on_change=lambda seen: caches.searchers.prepare(Reader.of(engines.requests), seen),
        # A SQLite file replaced on disk is read anew within a poll interval.
        before_read=SqliteFileWatch(settings.database_url, [engines.main, engines.requests]).check,
    )
    schema = _schema(settings)
    seconds = settings.request_timeout_seconds
    answers = _response_store(settings)
    # /graphql's own middleware, outermost first: closing the reader once the answer is
    # sent (around those that hold an answer back until it is whole), the data version an
    # answer is read from, the time limit, the body's size, the response cache, persisted
    # queries, and GraphQL over HTTP's status codes and media types. The cache comes
    # before persisted queries, so that a hit is found by the few bytes the client sent (a
    # hash and variables): a hit on the browser's node page, keyed by its document put back
    # into the URL, cost 0.3 ms more (encoding the 3.9 kB document, and decoding it again
    # for the key).
    graphql = [
        Middleware(CloseAfterAnswer),
        Middleware(Freshness, version, settings.cache_max_age_seconds),
        Middleware(TimeLimit, seconds),
        Middleware(BodyLimit, settings.max_body_bytes),
        Middleware(ResponseCache, answers),
        Middleware(PersistedQueries, _persisted_queries(settings)),
        Middleware(GraphQLOverHTTP, settings.batching_max_operations),
    ]
    app = Starlette(
        middleware=_middleware(settings),
        routes=[
            # A page asks the database whether its subject exists: under the same time
            # limit (and so the same statement timeout) as /graphql.
            *(
                Route(
                    path, browser.page_endpoint(schema), middleware=[Middleware(TimeLimit, seconds)]
                )
                for path in browser.PAGE_PATHS
            ),
            # Each table's rows, streamed: each chunk under the same time limit as /graphql.
            *download_routes(
                schema, chunk_seconds=seconds, download_seconds=settings.download_timeout_seconds
            ),
            Route(
                "/graphql", _graphql(settings, schema), methods=["GET", "POST"], middleware=graphql
            ),
            Route("/healthz", healthz),
            Route("/readyz", readyz),
            Mount(ASSETS_URL, precompressed_files(ASSETS_DIR, extra_headers={})),
            # Each found one never changes: a new build gets new names (an old name's miss
            # is not cached).
            Mount(
                browser.ASSETS_URL,
                precompressed_files(
                    browser.ASSETS_DIR, extra_headers={"cache-control": browser.IMMUTABLE}
                ),
            ),
        ],
        # A path that is no page: the browser's friendly 404 page.
        exception_handlers={404: browser.no_page},
        lifespan=_lifespan(engines, version, caches, answers),
    )
    app.state.engine, app.state.request_engine = engines.main, engines.requests
    app.state.database_url, app.state.data_version = settings.database_url, version
    app.state.readiness, app.state.caches = database_check(engines.readiness), caches
    return app


def _lifespan(
    engines: Engines, version: DataVersion, caches: Caches, answers: AnswerStore | None
) -> StatelessLifespan[Starlette]:
    @asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        await version.start()
        _freeze_long_lived_objects()
        restore_collector = make_full_collections_rare()
        try:
            yield
        finally:
            restore_collector()
            await version.stop()
            await caches.stop()
            await engines.dispose()
            if isinstance(answers, MachineAnswers):
                answers.close()

    return lifespan


def _middleware(settings: Settings) -> list[Middleware]:
    """The middleware every request passes through, outermost first."""
    cors = Middleware(
        CORSMiddleware,
        allow_origins=settings.cors_origins,
        allow_methods=["GET", "POST"],
        allow_headers=["content-type", "accept", "x-request-id", "if-none-match"],
        expose_headers=["etag", "x-request-id", "data-version"],
    )
    return [
        # Outermost: it sees every request in flight (full collections when none is).
        Middleware(IdleCollection),
        Middleware(RequestId),
        *([Middleware(RequestLog)] if settings.request_log else []),
        Middleware(secured),
        Middleware(UrlLimit, max_bytes=settings.max_url_bytes),
        *([cors] if settings.cors_origins else []),
    ]


def _schema(settings: Settings) -> TaxonomySchema:
    return build_schema(
        max_depth=settings.max_depth,
        max_aliases=settings.max_aliases,
        max_tokens=settings.max_tokens,
        max_cost=settings.max_cost,
        introspection=settings.introspection,
        batching_max_operations=settings.batching_max_operations,
        document_cache_bytes=settings.document_cache_megabytes << 20,
    )


def _graphql(settings: Settings, schema: TaxonomySchema) -> TaxonomyGraphQL:
    return TaxonomyGraphQL(
        schema,
        graphql_ide="graphiql" if settings.graphiql else None,
        report_statements=settings.statement_header,
        documents=schema.documents,
        suggestions=settings.introspection,
    )


def _response_store(settings: Settings) -> AnswerStore | None:
    """The response cache's answers; None when it is off (ETags and 304s work either way).
    With a shared directory, the process's own answers and then its machine's."""
    if not settings.keeps_answers:
        return None
    own = LRU(settings.response_cache_entries, settings.response_cache_megabytes << 20)
    if settings.response_cache_dir is None:
        return own
    try:
        shared = open_shared_answers(
            settings.response_cache_dir,
            settings.response_cache_shared_megabytes,
            # Where it listens does not shape answers: servers on one machine may share.
            settings.model_dump_json(exclude={"host", "port", "workers"}),
        )
    except SharedAnswersError as exc:
        # `taxonomy serve` checks the directory before it starts workers; a server started
        # otherwise still serves, each process with its own answers.
        logging.getLogger(__name__).warning("%s; each process keeps its own answers", exc)
        return own
    return MachineAnswers(own, shared)


def _persisted_queries(settings: Settings) -> QueryStore:
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
    return queries
