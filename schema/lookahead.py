"""Looking ahead at what a query selects below a field, to fetch it with the field.

A list resolver that knows each item's sub-list will be asked for fetches those sub-lists
for the whole page at once, before returning: each item's field then finds its rows at
hand (`schema.dataloaders.Batched`) instead of awaiting a loader, which spares a
coroutine and a turn of the event loop per item. Fetching is the same one statement
either way (the loader batches); only the awaiting differs.
"""

from collections.abc import Iterable

from strawberry.types.nodes import FragmentSpread, InlineFragment, SelectedField, Selection

from schema.context import Info


def selects(info: Info, *path: str) -> bool:
    """Whether the query selects ``path`` (field names as in the schema, outermost first)
    below the field being resolved, through any fragments. A field skipped by a directive
    counts as selected: looking ahead only decides what to fetch early, never what is
    answered."""
    return any(_selects(field.selections, path) for field in info.selected_fields)


def _selects(selections: Iterable[Selection], path: tuple[str, ...]) -> bool:
    if not path:
        return True
    name, rest = path[0], path[1:]
    for selection in selections:
        if isinstance(selection, SelectedField):
            if selection.name == name and _selects(selection.selections, rest):
                return True
        elif isinstance(selection, FragmentSpread | InlineFragment) and _selects(
            selection.selections, path
        ):
            return True
    return False
