"""The GraphQL schema of the taxonomy API."""

from collections.abc import AsyncIterator
from functools import partial

import strawberry
from graphql import GraphQLError
from strawberry.extensions import MaskErrors, SchemaExtension
from strawberry.types import ExecutionContext

from schema.errors import ClientError
from schema.query import Query


class CloseReader(SchemaExtension):
    """Returns the request's database session to the pool once the operation is done."""

    async def on_operation(self) -> AsyncIterator[None]:
        yield
        context = self.execution_context.context
        reader = getattr(context, "reader", None)
        if reader is not None:
            await reader.close()
            if context.report_statements and context.response is not None:
                context.response.headers["x-sql-statements"] = str(reader.statements)


def _is_unexpected(error: GraphQLError) -> bool:
    # Errors clients caused (and GraphQL's own validation errors) say what was wrong;
    # anything else is a fault of ours, and its text must not reach clients.
    original = error.original_error
    return original is not None and not isinstance(original, ClientError | GraphQLError)


class TaxonomySchema(strawberry.Schema):
    def process_errors(
        self, errors: list[GraphQLError], execution_context: ExecutionContext | None = None
    ) -> None:
        # A client's mistake is answered in the response; only our own faults are logged.
        unexpected = [error for error in errors if _is_unexpected(error)]
        super().process_errors(unexpected, execution_context)


def build_schema() -> strawberry.Schema:
    return TaxonomySchema(
        query=Query,
        extensions=[
            CloseReader,
            # A factory, so that every execution gets its own extension instance.
            partial(MaskErrors, should_mask_error=_is_unexpected, error_message="Internal error"),
        ],
    )


schema = build_schema()
