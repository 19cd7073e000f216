"""Looking ahead at what a query selects below a field, to fetch it with the field.

A list resolver that knows each item's sub-list will be asked for fetches those sub-lists
for the whole page at once, before returning: each item's field then finds its rows at
hand (`schema.loaders.now_or_later`) instead of awaiting a loader, which spares a
coroutine and a turn of the event loop per item. Fetching is the same one statement
either way (the loader batches); only the awaiting differs.
"""

from collections.abc import Iterable, Mapping

from graphql import (
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    InlineFragmentNode,
    SelectionNode,
)

from schema.context import Info


def selects(info: Info, *path: str) -> bool:
    """Whether the query selects ``path`` (field names as in the schema, outermost first)
    below the field being resolved, through any fragments. A field skipped by a directive counts as
    selected: looking ahead only decides what to fetch early, never what is answered.

    Read off the document itself (graphql-core's nodes): Strawberry's `selected_fields`
    builds an object for every selection below the field first, on every call."""
    raw = info._raw_info
    return any(
        node.selection_set is not None
        and _selects(node.selection_set.selections, path, raw.fragments)
        for node in raw.field_nodes  # the field itself
    )


def _selects(
    selections: Iterable[SelectionNode],
    path: tuple[str, ...],
    fragments: Mapping[str, FragmentDefinitionNode],
) -> bool:
    if not path:
        return True
    name, rest = path[0], path[1:]
    for selection in selections:
        if isinstance(selection, FieldNode):
            if selection.name.value != name:
                continue
            if not rest or (
                selection.selection_set is not None
                and _selects(selection.selection_set.selections, rest, fragments)
            ):
                return True
        elif isinstance(selection, FragmentSpreadNode):
            fragment = fragments.get(selection.name.value)
            if fragment is not None and _selects(
                fragment.selection_set.selections, path, fragments
            ):
                return True
        elif isinstance(selection, InlineFragmentNode) and _selects(
            selection.selection_set.selections, path, fragments
        ):
            return True
    return False
