"""Which operation of a document a request runs.

A document may hold several operations, and the request names the one to run in
`operationName`. Without it, Strawberry runs the first (where graphql-core would refuse),
so a client that forgot the name gets an answer to a question it may not have asked: such
a request is refused instead, naming the operations to choose from."""

from graphql import DocumentNode, OperationDefinitionNode


def operation_names(document: DocumentNode | None) -> tuple[str | None, ...]:
    """The names of the document's operations (None for an anonymous one); none at all
    for a document that does not parse (None: the schema's own parse says what is wrong)."""
    if document is None:
        return ()
    return tuple(
        definition.name.value if definition.name else None
        for definition in document.definitions
        if isinstance(definition, OperationDefinitionNode)
    )


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
