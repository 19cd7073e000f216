"""The GraphQL schema of the taxonomy API, with its limits and error handling."""

import contextlib
import logging
from collections.abc import AsyncIterator, Iterator
from functools import partial
from typing import Any

import strawberry
from graphql import ASTValidationRule, GraphQLError
from strawberry.extensions import (
    AddValidationRules,
    DisableIntrospection,
    MaxTokensLimiter,
    ParserCache,
    SchemaExtension,
    ValidationCache,
)
from strawberry.extensions.max_aliases import create_validator as aliases_rule
from strawberry.extensions.query_depth_limiter import create_validator as depth_rule
from strawberry.schema.config import StrawberryConfig
from strawberry.types import ExecutionContext

from schema.base import answer_directly
from schema.errors import ErrorCodes, is_unexpected
from schema.execution import TaxonomyExecutor
from schema.limits import cost_limiter
from schema.query import Query

log = logging.getLogger("taxonomy.errors")


class CloseReader(SchemaExtension):
    """Returns the request's database connection to the pool once the operation is done."""

    async def on_operation(self) -> AsyncIterator[None]:
        try:
            yield
        finally:  # also when the request is cancelled (over its time limit) mid-operation
            await self._close()

    async def _close(self) -> None:
        context = self.execution_context.context
        reader = getattr(context, "reader", None)
        if reader is not None:
            try:
                await reader.close()
            except Exception as exc:  # the connection died under us; the pool replaces it
                log.warning(
                    "request %s: closing its connection failed: %s",
                    getattr(context, "request_id", None),
                    type(exc).__name__,
                )
            if context.report_statements and context.response is not None:
                context.response.headers["x-sql-statements"] = str(reader.statements)


class DocumentCache(ParserCache):
    """Strawberry's parser cache, except that a document that does not parse is left to
    Strawberry's own parser, whose error then goes through the error extensions (the
    cache's would bypass them and reach the client without a code)."""

    def on_parse(self) -> Iterator[None]:
        context = self.execution_context
        with contextlib.suppress(GraphQLError):
            context.graphql_document = self.cached_parse_document(
                context.query, **context.parse_options
            )
        yield


class TaxonomySchema(strawberry.Schema):
    def process_errors(
        self, errors: list[GraphQLError], execution_context: ExecutionContext | None = None
    ) -> None:
        # A client's mistake is answered in the response; only our own faults are logged,
        # with the request id the client is given.
        context = execution_context.context if execution_context else None
        request_id = getattr(context, "request_id", None)
        for error in errors:
            if is_unexpected(error):
                log.error(
                    "request %s: %s", request_id, error.message, exc_info=error.original_error
                )


def build_schema(
    *,
    max_depth: int = 10,
    max_aliases: int = 30,
    max_tokens: int = 5_000,
    max_cost: int = 50_000,
    introspection: bool = True,
    batching_max_operations: int = 0,
) -> strawberry.Schema:
    """The schema with these limits (each extension is given as a class or a factory, so
    every execution gets its own instance)."""
    # The limits' validation rules are made once, so that validated documents stay in
    # the validation cache across requests (its key holds the rules).
    limit_rules: list[type[ASTValidationRule]] = [
        depth_rule(max_depth, None, None),
        aliases_rule(max_aliases),
    ]
    extensions: list[Any] = [
        # Parsing and validating a document costs more than running most queries; the same
        # documents come again and again.
        partial(DocumentCache, maxsize=1024),
        partial(ValidationCache, maxsize=1024),
        CloseReader,
        partial(AddValidationRules, limit_rules),
        partial(MaxTokensLimiter, max_token_count=max_tokens),
        cost_limiter(max_cost),
        ErrorCodes,
    ]
    if not introspection:
        extensions.append(DisableIntrospection)
    config = StrawberryConfig(
        batching_config={"max_operations": batching_max_operations}
        if batching_max_operations > 0
        else None
    )
    built = TaxonomySchema(
        query=Query,
        extensions=extensions,
        config=config,
        execution_context_class=TaxonomyExecutor,
    )
    answer_directly(built)
    return built


# The schema with the default limits: what `taxonomy schema` prints and tests execute.
schema = build_schema()
