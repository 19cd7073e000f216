"""Looking ahead at what a query selects below a field, to fetch it with the field.

A list resolver that knows each item's sub-list will be asked for fetches those sub-lists
for the whole page at once, before returning: each item's field then finds its rows at
hand (`schema.dataloaders.Batched`) instead of awaiting a loader, which spares a
coroutine and a turn of the event loop per item. Fetching is the same one statement
either way (the loader batches); only the awaiting differs.
"""

from collections.abc import Iterable, Iterator

from strawberry.types.nodes import FragmentSpread, InlineFragment, SelectedField, Selection

from schema.context import Info


def selects(info: Info, *path: str) -> bool:
    """Whether the query selects ``path`` (field names as in the schema, outermost first)
    below the field being resolved, through any fragments. A field skipped by a directive
    counts as selected: looking ahead only decides what to fetch early, never what is
    answered."""
    return bool(selected_at(info, *path))


def selected_at(info: Info, *path: str) -> list[SelectedField]:
    """Every selection of ``path`` below the field being resolved, through any fragments
    (the same field may be selected several times, under aliases)."""
    fields = list(_fields(info.selected_fields))
    for name in path:
        fields = [
            child for field in fields for child in _fields(field.selections) if child.name == name
        ]
    return fields


def _fields(selections: Iterable[Selection]) -> Iterator[SelectedField]:
    """The fields of ``selections``, those of fragments spread in them included."""
    for selection in selections:
        if isinstance(selection, SelectedField):
            yield selection
        elif isinstance(selection, FragmentSpread | InlineFragment):
            yield from _fields(selection.selections)
