"""The ASGI application: GraphQL at /graphql (with GraphiQL), /healthz and /readyz."""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy import select, text
from sqlalchemy.exc import SQLAlchemyError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route
from strawberry.asgi import GraphQL

from api import migrate
from api.db import make_async_engine
from api.graphiql import with_sample_query
from api.settings import Settings
from api.tables import DatasetRow, table_of
from schema import schema
from schema.context import Context


class TaxonomyGraphQL(GraphQL[Context, None]):
    """Strawberry's ASGI app, with one Context (one session, fresh loaders) per request."""

    async def get_context(self, request: Any, response: Any) -> Context:
        return Context.for_request(request.app.state.engine, request, response)

    @property
    def graphql_ide_html(self) -> str:
        return with_sample_query(super().graphql_ide_html)


async def healthz(_: Request) -> Response:
    """The process is up and answering; says nothing about the database."""
    return JSONResponse({"status": "ok"})


async def readyz(request: Request) -> Response:
    """Ready when the database answers, is migrated to this code's head, and holds data."""
    engine = request.app.state.engine
    head = migrate.head_revision()
    try:
        async with engine.connect() as connection:
            await connection.execute(text("SELECT 1"))
            revision = await connection.run_sync(migrate.current_revision)
            version = None
            if revision == head:
                version = (
                    await connection.execute(select(table_of(DatasetRow).c.version))
                ).scalar()
    except (SQLAlchemyError, OSError) as exc:
        return JSONResponse(
            {"status": "unavailable", "reason": f"database unreachable: {type(exc).__name__}"},
            status_code=503,
        )
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


def create_app(settings: Settings | None = None) -> Starlette:
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        app.state.engine = make_async_engine(settings.database_url, pool_size=settings.pool_size)
        try:
            yield
        finally:
            await app.state.engine.dispose()

    graphql = TaxonomyGraphQL(schema, graphql_ide="graphiql" if settings.graphiql else None)
    return Starlette(
        routes=[
            Route("/", lambda _: RedirectResponse("/graphql")),
            Route("/graphql", graphql, methods=["GET", "POST"]),
            Route("/healthz", healthz),
            Route("/readyz", readyz),
        ],
        lifespan=lifespan,
    )
