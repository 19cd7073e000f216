"""Strawberry's GraphQL view as this API runs it: a context per request, every error coded,
and the GraphiQL page."""

from typing import Any

import orjson
from strawberry.asgi import GraphQL

from api.graphiql import with_sample_query
from schema.context import Context
from schema.errors import classified


class TaxonomyGraphQL(GraphQL[Context, None]):
    """Strawberry's ASGI app, with one Context (one session, fresh loaders) per request."""

    def __init__(self, *args: Any, report_statements: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.report_statements = report_statements

    async def get_context(self, request: Any, response: Any) -> Context:
        context = Context.for_request(request.app.state.request_engine, request, response)
        context.report_statements = self.report_statements
        context.request_id = request.scope.get("state", {}).get("request_id")
        context.data_version = request.app.state.data_version.current
        return context

    async def process_result(self, request: Any, result: Any) -> Any:
        """Every error leaves with a code. The schema's ErrorCodes extension codes what
        happens inside an operation; this catches what fails around it (a connection that
        dies while the operation is being closed), which would otherwise reach the client
        uncoded, with the driver's own words."""
        if result.errors:
            request_id = request.scope.get("state", {}).get("request_id")
            result.errors = [classified(error, request_id) for error in result.errors]
        return await super().process_result(request, result)

    def encode_json(self, data: object) -> bytes:
        # orjson: several times faster than json.dumps, and UTF-8 rather than \u escapes.
        return orjson.dumps(data)

    @property
    def graphql_ide_html(self) -> str:
        return with_sample_query(super().graphql_ide_html)
