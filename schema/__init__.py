"""The GraphQL schema of the taxonomy API, with its limits and error handling."""

import logging
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cache, partial
from typing import Any

import strawberry
from cachetools import LRUCache
from graphql import (
    ASTValidationRule,
    DocumentNode,
    FieldNode,
    GraphQLError,
    OperationDefinitionNode,
    parse,
)
from strawberry.extensions import (
    AddValidationRules,
    DisableIntrospection,
    MaxTokensLimiter,
    SchemaExtension,
)
from strawberry.schema.config import StrawberryConfig
from strawberry.types import ExecutionContext, ExecutionResult
from strawberry.types.graphql import OperationType

from schema.argument_values import ArgumentValuesOnTheirField
from schema.errors import ErrorCodes, is_unexpected
from schema.limits import cost_limiter, shape_limits
from schema.nul_guard import RefuseNul, may_hold_nul
from schema.query import Query
from schema.scalars import SCALAR_MAP
from store.database_errors import FAULTS_LOGGER
from store.reader import close_quietly

log = logging.getLogger(FAULTS_LOGGER)


class CloseReader(SchemaExtension):
    """Returns the request's database connection to the pool once the operation is done,
    unless the request's edge does once the answer is sent (api.edge.after_answer)."""

    async def on_operation(self) -> AsyncIterator[None]:
        try:
            yield
        finally:  # also when the request is cancelled (over its time limit) mid-operation
            await self.close_reader()

    async def close_reader(self) -> None:
        context = self.execution_context.context
        reader = getattr(context, "reader", None)
        if reader is None:
            return
        if not context.closed_after_answer:
            await close_quietly(reader, context.request_id)
        if context.report_statements and context.response is not None:
            context.response.headers["x-sql-statements"] = str(reader.statements)


def _reads_data(context: ExecutionContext) -> bool:
    """Whether the operation asks for more than introspection (`__typename`, `__schema`,
    `__type` at its top, which read no data and need no snapshot)."""
    document = context.graphql_document
    if document is None:
        return True
    name = context.operation_name
    for definition in document.definitions:
        if not isinstance(definition, OperationDefinitionNode):
            continue
        if name is not None and (definition.name is None or definition.name.value != name):
            continue
        return any(
            not isinstance(selection, FieldNode) or not selection.name.value.startswith("__")
            for selection in definition.selection_set.selections
        )
    return True


class SnapshotVersion(SchemaExtension):
    """Labels a request with the data version of the snapshot it reads, not the version the
    process last polled (store.data_version), which lags a load by up to a poll interval:
    the snapshot begins before the first field is resolved, so cursors are checked against
    the data the page will be read from, and the answer (`extensions.dataVersion`, the
    Data-Version header, the ETag and the response cache's key: api.endpoint.view passes it on to
    api.edge.freshness and api.edge.response_cache) names the data it holds."""

    async def on_execute(self) -> AsyncIterator[None]:
        context = self.execution_context.context
        request = getattr(context, "request", None)
        if request is not None and _reads_data(self.execution_context):
            try:
                version = await context.reader.open_snapshot()
            except Exception:  # the database is away: the fields' statements fail, coded
                version = context.data_version
            context.data_version = version
        yield


# A parsed document takes 34-51 times the size of its text (measured on the example
# operations with tracemalloc), a document of comments about its text's size: counted at
# this many bytes a character, a cache's byte bound holds for every kind.
BYTES_PER_CHARACTER = 64


@dataclass
class Prepared:
    """A document's parse (None: it does not parse) and, once it has been validated, its
    validation errors."""

    document: DocumentNode | None
    size: int  # what it is counted as (BYTES_PER_CHARACTER)
    errors: list[GraphQLError] | None = None


class DocumentStore:
    """Parsed and validated documents by their text, least recent out first, at most
    ``max_bytes`` as counted by their text's length (BYTES_PER_CHARACTER). One per schema:
    its validation rules make the errors, and its token limit (``max_tokens``, the one its
    MaxTokensLimiter sets) bounds each parse."""

    def __init__(self, max_bytes: int, max_tokens: int) -> None:
        self._entries: LRUCache[str, Prepared] = LRUCache(
            max_bytes, getsizeof=lambda prepared: prepared.size
        )
        self.max_tokens = max_tokens

    def parsed(self, query: str) -> Prepared:
        """The document's parse: the one kept, or made now (and kept, if it can ever fit).
        One that does not parse is kept too, as such, so that neither the view nor the
        schema parses it again: Strawberry's own parser then says what is wrong, through
        the error extensions."""
        prepared = self._entries.get(query)
        if prepared is None:
            document: DocumentNode | None
            try:
                document = parse(query, max_tokens=self.max_tokens)
            except GraphQLError:
                document = None
            prepared = Prepared(document, BYTES_PER_CHARACTER * len(query) + 1024)
            if prepared.size <= self._entries.maxsize:  # one that can never fit is not kept
                self._entries[query] = prepared
        return prepared


class DocumentCache(SchemaExtension):
    """Parsed and validated documents kept by their text: parsing and validating one costs
    more than running most queries, and the same documents come again and again. A
    document that does not parse is left to Strawberry's own parser, whose error then goes
    through the error extensions (reaching the client with its code)."""

    def __init__(self, documents: "DocumentStore") -> None:
        super().__init__()
        self.documents = documents
        self.prepared: Prepared | None = None

    def on_parse(self) -> Iterator[None]:
        context = self.execution_context
        if context.query is not None:
            prepared = self.documents.parsed(context.query)
            if prepared.document is not None:
                self.prepared = prepared
                context.graphql_document = prepared.document
        yield

    def on_validate(self) -> Iterator[None]:
        context = self.execution_context
        prepared = self.prepared
        if prepared is not None and prepared.errors is not None:
            context.pre_execution_errors = prepared.errors  # Strawberry then validates nothing
        yield
        if prepared is not None and prepared.errors is None:
            prepared.errors = context.pre_execution_errors


class TaxonomySchema(strawberry.Schema):
    # Its parsed documents, shared by its twin and by the HTTP view, which reads a
    # document's operations from the same parse (api.endpoint.operation_choice).
    documents: DocumentStore
    # Makes (once) this schema's twin that refuses NUL arguments on their fields
    # (schema.nul_guard); None in the twin itself.
    nul_guarded: Callable[[], "TaxonomySchema"] | None = None

    async def execute(
        self,
        query: str | None,
        variable_values: dict[str, object] | None = None,
        context_value: object | None = None,
        root_value: object | None = None,
        operation_name: str | None = None,
        allowed_operation_types: Iterable[OperationType] | None = None,
        operation_extensions: dict[str, object] | None = None,
    ) -> ExecutionResult:
        """Runs a request that may hold a NUL in the twin, whose fields check their
        arguments; every other request runs without that check on each field."""
        twin = self.nul_guarded
        runner = twin() if twin is not None and may_hold_nul(query, variable_values) else None
        execute = super().execute if runner is None else runner.execute
        return await execute(
            query,
            variable_values,
            context_value,
            root_value,
            operation_name,
            allowed_operation_types,
            operation_extensions,
        )

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
    document_cache_bytes: int = 64 << 20,
) -> TaxonomySchema:
    """The schema with these limits (each extension is given as a class or a factory, so
    every execution gets its own instance)."""
    # The limits' validation rules are made once, so that validated documents stay in
    # the validation cache across requests (its key holds the rules).
    limit_rules: list[type[ASTValidationRule]] = [
        shape_limits(max_depth, max_aliases),
    ]
    documents = DocumentStore(document_cache_bytes, max_tokens)
    extensions: list[Any] = [
        # Parsing and validating a document costs more than running most queries; the same
        # documents come again and again (one store for the schema and its twin).
        partial(DocumentCache, documents),
        CloseReader,
        SnapshotVersion,
        partial(AddValidationRules, limit_rules),
        ArgumentValuesOnTheirField,
        partial(MaxTokensLimiter, max_token_count=max_tokens),
        cost_limiter(max_cost),
        ErrorCodes,
    ]
    if not introspection:
        extensions.append(DisableIntrospection)
    config = StrawberryConfig(
        scalar_map=SCALAR_MAP,
        batching_config={"max_operations": batching_max_operations}
        if batching_max_operations > 0
        else None,
    )
    built = TaxonomySchema(query=Query, extensions=extensions, config=config)
    built.documents = documents
    # Built on the first request that needs it (some 70 ms), not with every schema.
    built.nul_guarded = cache(
        partial(TaxonomySchema, query=Query, extensions=[*extensions, RefuseNul], config=config)
    )
    return built


@cache
def default_schema() -> TaxonomySchema:
    """The schema with the default limits: what `taxonomy schema` prints, `releases` and
    `changes` run and tests execute. Built when first asked for, not on import: a server
    builds its own from its settings, and never uses this one (`serve` until `/readyz`:
    1.54 s before, 1.43 s after, on a slow evening: bench/RESULTS.md)."""
    return build_schema()
