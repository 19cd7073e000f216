"""Strawberry's GraphQL view as this API runs it: a context per request, every error coded
(and worded for clients), the operation a request runs chosen without guessing, and the
GraphiQL page with its own Content-Security-Policy."""

from typing import Any

import orjson

# Strawberry's own refusal of an unreadable request (its views raise it; strawberry pins it).
from cross_web import AsyncHTTPRequestAdapter, HTTPException
from graphql import GraphQLError
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.websockets import WebSocket
from strawberry.asgi import GraphQL
from strawberry.http import GraphQLHTTPResponse, GraphQLRequestData
from strawberry.http.types import QueryParams
from strawberry.types import ExecutionResult

from api.edge.after_answer import hand_over
from api.edge.freshness import data_version_of
from api.edge.http_guards import is_request_error
from api.edge.request_log import record
from api.endpoint.error_messages import for_clients
from api.endpoint.graphiql import page_policy, with_sample_query
from api.endpoint.operation_choice import operation_names, unchosen
from schema import DocumentStore
from schema.context import Context
from schema.errors import classified
from store.json_value import JSONValue


class TaxonomyGraphQL(GraphQL[Context, None]):
    """Strawberry's ASGI app, with one Context (one session, fresh loaders) per request."""

    def __init__(
        self,
        *args: Any,
        report_statements: bool,
        documents: DocumentStore,
        suggestions: bool = True,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.report_statements = report_statements
        self.suggestions = suggestions  # off with introspection: api.endpoint.error_messages
        # The schema's parsed documents: a request's document is parsed once, here or by
        # the schema, and its operations read from that parse.
        self.documents = documents

    async def get_context(
        self, request: Request | WebSocket, response: Response | WebSocket
    ) -> Context:
        # Over HTTP only (the app serves no subscriptions): the response's headers.
        answer = response if isinstance(response, Response) else None
        context = Context.for_request(request.app.state.request_engine, request, answer)
        context.report_statements = self.report_statements
        context.request_id = request.scope.get("state", {}).get("request_id")
        context.closed_after_answer = hand_over(request.scope, context.reader)
        context.data_version = data_version_of(request.scope)
        record(request.scope, reader=context.reader)  # its statements, once it is done
        return context

    async def process_result(
        self, request: Request, result: ExecutionResult
    ) -> GraphQLHTTPResponse:
        """Every error leaves with a code. The schema's ErrorCodes extension codes what
        happens inside an operation; this catches what fails around it (a connection that
        dies while the operation is being closed), which would otherwise reach the client
        uncoded, with the driver's own words."""
        if result.errors:
            request_id = request.scope.get("state", {}).get("request_id")
            result.errors = for_clients(
                [classified(error, request_id) for error in result.errors],
                suggestions=self.suggestions,
            )
        version = data_version_of(request.scope)
        if version is not None:  # the answer says which data it was read from
            result.extensions = {**(result.extensions or {}), "dataVersion": version}
        answer = await super().process_result(request, result)
        codes = {str((error.extensions or {}).get("code")) for error in result.errors or []}
        if result.data is None and is_request_error(codes):
            answer.pop("data", None)  # never ran: GraphQL over HTTP's request error
        return answer

    async def execute_single(
        self,
        request: Request,
        request_adapter: AsyncHTTPRequestAdapter,
        sub_response: Response,
        context: Context,
        root_value: None,
        request_data: GraphQLRequestData,
    ) -> ExecutionResult:
        """Runs the operation the request names, refusing one that leaves the choice
        between several open (api.endpoint.operation_choice)."""
        document = request_data.query
        parsed = self.documents.parsed(document).document if isinstance(document, str) else None
        names = operation_names(parsed)
        chosen = request_data.operation_name
        if chosen is not None and not isinstance(chosen, str):
            # GraphQL over HTTP: `operationName` is a string. A malformed request, as a
            # body that is not JSON is: 400 whatever the media type (5 was looked up).
            raise HTTPException(
                400,
                f"`operationName` is {type(chosen).__name__} ({chosen!r}), not a string: "
                "send the name of the operation to run, or leave it out",
            )
        record(
            request.scope, operation=chosen if chosen is not None or len(names) != 1 else names[0]
        )
        reason = unchosen(names, chosen)
        if reason is not None:
            refusal = GraphQLError(
                reason, extensions={"code": "BAD_REQUEST", "operations": list(names)}
            )
            return ExecutionResult(data=None, errors=[refusal])
        result = await super().execute_single(
            request, request_adapter, sub_response, context, root_value, request_data
        )
        # The version of the snapshot the operation read (schema.SnapshotVersion), for the
        # answer's label, its headers and the response cache (api.edge.freshness).
        request.scope.setdefault("state", {})["data_version"] = context.data_version
        return result

    def parse_query_params(self, params: QueryParams) -> dict[str, JSONValue]:
        """A GET's parameters, its `variables` and `extensions` read as JSON. Strawberry
        refuses either, when it is not JSON, as an unreadable request *body* (a GET has
        none); its parser let JSON nested deeper than Python recurses reach the client
        as a bare 500, and a lone surrogate (`\\ud800`, which no database can store)
        reach the database as INTERNAL. Read with orjson, as a POST's body is: each is
        refused by the parameter's name, with what is wrong."""
        parsed: dict[str, JSONValue] = dict(params)
        for name in ("variables", "extensions"):
            value = params.get(name)
            if not value:
                continue
            try:
                parsed[name] = orjson.loads(value)
            except orjson.JSONDecodeError as exc:
                raise HTTPException(
                    400,
                    f"the URL's `{name}` parameter is not JSON ({exc.msg} at character "
                    f"{exc.pos}); send a JSON object, URL-encoded",
                ) from None
        return parsed

    def encode_json(self, data: object) -> bytes:
        # orjson: several times faster than json.dumps, and UTF-8 rather than \u escapes.
        return orjson.dumps(data)

    @property
    def graphql_ide_html(self) -> str:
        return with_sample_query(super().graphql_ide_html)

    async def render_graphql_ide(self, request: Request) -> Response:
        # The page's own policy: api.edge.security_headers gives every other response its own.
        return HTMLResponse(
            self.graphql_ide_html, headers={"content-security-policy": page_policy()}
        )
