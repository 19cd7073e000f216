"""Text arguments that hold a NUL character (U+0000), refused on the field that holds them.

No name, slug, ID or search of this API holds a NUL, and PostgreSQL cannot even compare
text with one (SQLite can, and would answer as if the key were unknown): a field given one
is answered with BAD_USER_INPUT at its own path, and its siblings are answered, on both
databases. The check is a resolve hook, which graphql-core would run on every field of every
request; so it lives in a twin of the schema that only requests that may hold a NUL are
sent to (schema.TaxonomySchema.execute). What every other request pays is may_hold_nul:
two one-character searches of its document and a walk of its variables (0.7 microseconds
for the node page's operation, of a request's milliseconds; the check it replaced, which
refused the whole request, took 2.9).
"""

import re
from collections.abc import Callable, Mapping

from graphql import GraphQLID, GraphQLResolveInfo, get_named_type
from strawberry.extensions import SchemaExtension

from schema.errors import BadUserInputError

# The escapes that write a NUL in a GraphQL string (`\u0000`, or `\u{0}` with any number of
# zeros); a NUL may also be written as itself inside a string (the lexer refuses it anywhere
# else). A match in a comment or a block string only costs the request the field checks.
_NUL_ESCAPE = re.compile(r"\\u(?:0000|\{0+\})")


def has_nul(value: object) -> bool:
    """Whether any string in ``value`` (JSON-like values: variables, argument values)
    holds a NUL. Walked with a stack of its own, not by recursion: variables may nest as
    deep as JSON parsers read (hundreds of levels), past Python's recursion limit."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, dict):
            pending.extend(item.values())
        elif isinstance(item, list | tuple):
            pending.extend(item)
    return False


def may_hold_nul(query: str | None, variables: Mapping[str, object] | None) -> bool:
    """Whether a request may bring a NUL to an argument: in its variables, or written in
    its document."""
    if query is not None and (
        # A backslash is rare in a document, and a one-character search is the fastest.
        "\x00" in query or ("\\" in query and _NUL_ESCAPE.search(query) is not None)
    ):
        return True
    return has_nul(variables)


def _is_id(info: GraphQLResolveInfo[object], argument: str) -> bool:
    """Whether ``argument`` takes IDs, which schema.ids refuses with a NUL in their key
    (and a batch's entry by entry, the others answered: docs/api-guide.md)."""
    field = info.parent_type.fields[info.field_name]
    return get_named_type(field.args[argument].type) is GraphQLID


class RefuseNul(SchemaExtension):
    """Refuses a field whose arguments hold a NUL, with BAD_USER_INPUT on the field, before
    its resolver (and so its statements) run."""

    def resolve(
        self,
        _next: Callable[..., object],
        root: object,
        info: GraphQLResolveInfo[object],
        *args: str,
        **kwargs: object,
    ) -> object:
        for name, value in kwargs.items():
            if has_nul(value) and not _is_id(info, name):
                raise BadUserInputError(
                    f"argument `{name}` of `{info.field_name}` contains a NUL character "
                    "(\\u0000), which no name, slug, ID or search here has; remove it",
                    argument=name,
                )
        return _next(root, info, *args, **kwargs)
