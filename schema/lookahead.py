"""Looking ahead at what a query selects below a field, to fetch it with the field.

A list resolver that knows each item's sub-list will be asked for fetches those sub-lists
for the whole page at once, before returning: each item's field then finds its rows at
hand (`schema.dataloaders.Batched`) instead of awaiting a loader, which spares a
coroutine and a turn of the event loop per item. Fetching is the same one statement
either way (the loader batches); only the awaiting differs.
"""

from collections.abc import Iterable, Iterator

from graphql.pyutils import Path
from strawberry.types.nodes import FragmentSpread, InlineFragment, SelectedField, Selection

from schema.context import FieldOfQuery, Info


def selects(info: Info, *path: str) -> bool:
    """Whether the query selects ``path`` (field names as in the schema, outermost first)
    below the field being resolved, through any fragments. A field skipped by a directive
    counts as selected: looking ahead only decides what to fetch early, never what is
    answered."""
    return bool(selected_at(info, *path))


def selected_at(info: Info, *path: str) -> list[SelectedField]:
    """Every selection of ``path`` below the field being resolved, through any fragments
    (the same field may be selected several times, under aliases)."""
    fields = list(_fields(selected_fields(info)))
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


def selected_fields(info: Info) -> list[Selection]:
    """``info.selected_fields``, converted once per field of the query. The items of a list
    share the fields selected below them, which Strawberry converts again for each item:
    each row of a By-model page looks ahead at its methods (25 conversions of the same
    selections, about a twentieth of the page's processor time)."""
    # Kept with the execution's operation and variables, which decide the selections: the
    # operations of one batched request share a context.
    execution = (info.operation, info.variable_values)
    key = _field_of(info)
    known = info.context.selections
    found = known.get(key)
    if found is None or found[0] is not execution[0] or found[1] is not execution[1]:
        found = known[key] = (*execution, info.selected_fields)
    return found[2]


def _field_of(info: Info) -> FieldOfQuery:
    """The field being resolved as one field of the query: its response path without list
    indices, each step with its parent type (fields of two types at one place, in
    fragments on a union's members, select apart)."""
    steps = []
    path: Path | None = info.path
    while path is not None:
        if isinstance(path.key, str):
            steps.append((path.key, path.typename))
        path = path.prev
    return tuple(steps)
