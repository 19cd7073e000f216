"""Which operation of a document a request runs.

A document may hold several operations, and the request names the one to run in
`operationName`. Without it, Strawberry runs the first (where graphql-core would refuse),
so a client that forgot the name gets an answer to a question it may not have asked: such
a request is refused instead, naming the operations to choose from."""

from functools import lru_cache

from graphql import GraphQLError, OperationDefinitionNode, parse

# Documents up to this size keep their operations' names (the cache holds the text);
# a longer one is parsed again each time, which its size limits make bounded.
_CACHED_UP_TO = 20_000


def operation_names(document: str, max_tokens: int) -> tuple[str | None, ...]:
    """The names of the document's operations (None for an anonymous one); none at all
    for a document that does not parse (the schema's own parse says what is wrong)."""
    if len(document) <= _CACHED_UP_TO:
        return _cached_names(document, max_tokens)
    return _names(document, max_tokens)


def _names(document: str, max_tokens: int) -> tuple[str | None, ...]:
    try:
        parsed = parse(document, no_location=True, max_tokens=max_tokens)
    except GraphQLError:
        return ()
    return tuple(
        definition.name.value if definition.name else None
        for definition in parsed.definitions
        if isinstance(definition, OperationDefinitionNode)
    )


_cached_names = lru_cache(maxsize=1024)(_names)


def unchosen(names: tuple[str | None, ...], operation_name: object) -> str | None:
    """Why a request for a document with operations ``names`` does not say which to run;
    None when it does (it names one, or the document has one)."""
    if operation_name is not None or len(names) < 2:
        return None
    listed = ", ".join(name or "(anonymous)" for name in names)
    return (
        f"the document has {len(names)} operations ({listed}) and the request names none: "
        "say which to run in `operationName`"
    )
