"""Errors and their `extensions.code`.

Errors a client causes say what was wrong and what to do. Our own faults are masked: the
client gets `INTERNAL` and a request id; the log gets the whole story under that id."""

import logging
import re
from collections.abc import Iterator

from graphql import GraphQLError, ValueNode
from strawberry.extensions import SchemaExtension

from store.database_errors import FAULTS_LOGGER, PoolTimeout, connection_lost
from store.paging import ExpiredPositionError, PositionError
from store.reader import StatementTimeoutError

log = logging.getLogger(FAULTS_LOGGER)


class ClientError(GraphQLError):
    code = "BAD_USER_INPUT"

    def __init__(self, message: str, **extensions: object) -> None:
        super().__init__(message, extensions={"code": self.code, **extensions})


class BadUserInputError(ClientError):
    code = "BAD_USER_INPUT"


class NotFoundError(ClientError):
    """A well-formed key given to narrow a list or to bound a range names nothing (an ID,
    a node's slug or path, a release number); a lookup by key answers null instead, and
    a malformed key is BAD_USER_INPUT (docs/api-guide.md, "Missing things")."""

    code = "NOT_FOUND"


class CursorExpiredError(ClientError):
    """A cursor from before a load that cannot be honoured after it: its item left the
    list or changed how it sorts, or the list's order does not outlive a load
    (docs/api-guide.md, "Cursors across loads")."""

    code = "CURSOR_EXPIRED"


def expired_message(argument: str, why: str) -> str:
    return (
        f"`{argument}` cursor was made before the data was reloaded, and {why}; "
        f"start again from the first page, without `{argument}`"
    )


def time_limit_message(seconds: float) -> str:
    return (
        f"the query ran over the limit `request_timeout_seconds` of {seconds:g} s "
        "and was stopped; ask for less"
    )


class LimitError(ClientError):
    code = "QUERY_TOO_COMPLEX"

    def __init__(
        self, message: str, *, limit: str, value: int, extra: dict[str, object] | None = None
    ) -> None:
        super().__init__(message, limit=limit, limitValue=value, **(extra or {}))


# Strawberry's own limiters word their refusals their way; these name the setting too.
_LIMIT_MESSAGES = [
    (re.compile(r"exceeds maximum operation depth of (\d+)"), "max_depth", "query depth"),
    (re.compile(r"(\d+) aliases found\. Allowed: (\d+)"), "max_aliases", "aliases"),
    (re.compile(r"Document contains more than (\d+) tokens"), "max_tokens", "tokens"),
]


def _limit(error: GraphQLError) -> tuple[str, str, int] | None:
    """(message, setting, value) when ``error`` is a refusal by one of the limiters."""
    for pattern, setting, what in _LIMIT_MESSAGES:
        match = pattern.search(error.message)
        if match:
            value = int(match.groups()[-1])
            message = (
                f"{what} over the limit `{setting}` of {value} ({error.message}); "
                "split the query or ask for less"
            )
            return message, setting, value
    return None


def _with_code(
    error: GraphQLError, code: str, message: str | None = None, **extra: object
) -> GraphQLError:
    return GraphQLError(
        message if message is not None else error.message,
        nodes=error.nodes,
        source=error.source,
        positions=error.positions,
        path=error.path,
        extensions={**(error.extensions or {}), "code": code, **extra},
    )


# Originals that are not a fault of ours: the client's (a document's or a value's), the
# request's time or a busy pool.
_NOT_OURS = (
    GraphQLError,
    StatementTimeoutError,
    PositionError,
    ExpiredPositionError,
    PoolTimeout,
)


def is_unexpected(error: GraphQLError) -> bool:
    """A fault of ours (not the client's, not the database's absence): log it whole."""
    original = error.original_error
    return (
        original is not None
        and not isinstance(original, _NOT_OURS)
        and not connection_lost(original)
    )


def _at_a_value(original: Exception | None) -> bool:
    """Whether ``original`` is graphql-core's error placed at values of the document (an
    argument's), not at a field: its other errors on a field (a list field that returned
    no list) are not the client's."""
    return (
        isinstance(original, GraphQLError)
        and bool(original.nodes)
        and all(isinstance(node, ValueNode) for node in original.nodes or ())
    )


def classified(error: GraphQLError, request_id: str | None) -> GraphQLError:
    """``error`` with its `extensions.code`; our own faults masked."""
    if error.extensions and "code" in error.extensions:
        return error  # a ClientError, raised by us with its code
    original = error.original_error
    if isinstance(original, StatementTimeoutError):
        # The request ran out of time in the middle of a statement, which was stopped.
        seconds = original.seconds
        return _with_code(
            error,
            "TIMEOUT",
            time_limit_message(seconds),
            limit="request_timeout_seconds",
            limitValue=seconds,
        )
    if isinstance(original, PositionError):
        return _with_code(
            error,
            "BAD_USER_INPUT",
            f"`{original.bound}` cursor is damaged; start again without it",
        )
    if isinstance(original, ExpiredPositionError):
        return _with_code(
            error, CursorExpiredError.code, expired_message(original.bound, str(original))
        )
    if isinstance(original, PoolTimeout):
        # Every pooled connection stayed busy: this server is overloaded, the database is
        # not at fault (requests take their turn first: store.engines.request_slots).
        return _with_code(
            error,
            "OVERLOADED",
            "the server is busy: no database connection came free in time; retry in a few seconds",
        )
    if connection_lost(original):
        return _with_code(
            error,
            "DATABASE_UNAVAILABLE",
            "the database is unavailable right now; try again in a few seconds",
        )
    if is_unexpected(error):
        return _with_code(
            error,
            "INTERNAL",
            "internal error; if it persists, report it with its request id",
            requestId=request_id,
        )
    limit = _limit(error)
    if limit is not None:
        message, setting, value = limit
        return _with_code(error, "QUERY_TOO_COMPLEX", message, limit=setting, limitValue=value)
    if error.path is not None and _at_a_value(original):
        # A value in the field's arguments that their type cannot take, refused as the
        # field ran (schema.argument_values): graphql-core places it at the value.
        return _with_code(error, "BAD_USER_INPUT")
    if error.message.startswith("Syntax Error"):
        return _with_code(error, "GRAPHQL_PARSE_FAILED")
    return _with_code(error, "GRAPHQL_VALIDATION_FAILED")


class ErrorCodes(SchemaExtension):
    """Gives every error its `extensions.code` and masks our own faults (an extension, so
    that it runs on every result)."""

    def on_operation(self) -> Iterator[None]:
        yield
        context = self.execution_context
        result = context.result
        if result is not None and result.errors:
            request_id = getattr(context.context, "request_id", None)
            result.errors = [classified(error, request_id) for error in result.errors]


REQUEST_ERROR_CODES = frozenset(
    {"GRAPHQL_PARSE_FAILED", "GRAPHQL_VALIDATION_FAILED", "QUERY_TOO_COMPLEX", "BAD_REQUEST"}
)
