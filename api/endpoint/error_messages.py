"""What the HTTP layer changes in an answer's errors before they leave: graphql-core's
cap on validation errors named as a limit, and its suggestions left out when the schema
is not to be explored."""

import re

from graphql import GraphQLError

# graphql-core stops validating a document at this many errors (`validate`'s default
# max_errors, which Strawberry keeps) and adds an error of its own that says only this.
MAX_VALIDATION_ERRORS = 100
VALIDATION_ABORTED = "Too many validation errors, error limit reached. Validation aborted."
# "Cannot query field 'nodeCounts' on type 'Taxonomy'. Did you mean 'nodeCount'?": names
# of fields, arguments, types and enum values the client did not know.
_SUGGESTION = re.compile(r" ?Did you mean [^?]*\?")


def for_clients(errors: list[GraphQLError], *, suggestions: bool) -> list[GraphQLError]:
    """``errors`` as the client gets them; without ``suggestions`` (introspection off)
    no message names a part of the schema the client did not name itself."""
    return [_for_client(error, suggestions=suggestions) for error in errors]


def _for_client(error: GraphQLError, *, suggestions: bool) -> GraphQLError:
    if error.message == VALIDATION_ABORTED:
        return _reworded(
            error,
            f"validation stopped after {MAX_VALIDATION_ERRORS} errors, the limit "
            "`max_validation_errors` (graphql-core's); fix those and send the query again",
            limit="max_validation_errors",
            limitValue=MAX_VALIDATION_ERRORS,
        )
    if not suggestions and "Did you mean" in error.message:
        return _reworded(error, _SUGGESTION.sub("", error.message))
    return error


def _reworded(error: GraphQLError, message: str, **extensions: object) -> GraphQLError:
    return GraphQLError(
        message,
        nodes=error.nodes,
        source=error.source,
        positions=error.positions,
        path=error.path,
        original_error=error.original_error,
        extensions={**(error.extensions or {}), **extensions},
    )
