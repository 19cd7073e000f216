"""What the object types share: being built from table rows, a slug-based ID, and the
`Entity` interface of every type with an ID."""

from collections.abc import Callable
from typing import Any, Self, TypeVar, cast

import strawberry
from strawberry.types.field import StrawberryField

from schema.ids import encode_id

T = TypeVar("T")


class RowField(StrawberryField):
    """A field whose value is read off the object itself, by ``read`` (or, without one,
    as the row's attribute of the field's name).

    A field without a resolver is answered on Strawberry's basic-field path, which calls
    `get_result` alone: no Info object, no argument parsing, no resolver call, several
    times cheaper than a resolver that returns ``self.row.name``; a page of a few hundred
    objects has thousands of these.
    """

    def __init__(self, *args: Any, read: Callable[[Any], Any] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.init = False  # not a constructor argument: the object's rows hold the value
        self.read = read

    def __copy__(self) -> Self:  # Strawberry copies fields into subclasses
        copied = super().__copy__()
        copied.read = self.read
        return copied

    def get_result(self, source: Any, info: Any, args: list[Any], kwargs: Any) -> Any:
        if self.read is None:
            return getattr(source.row, self.python_name)
        return self.read(source)


def row_field(
    description: str,
    read: Callable[[Any], Any] | None = None,
    *,
    deprecation_reason: str | None = None,
) -> Any:
    """Declare ``name: type = row_field("...")`` on a RowBacked type: its value is
    ``row.name``, or ``read(object)``."""
    return RowField(description=description, read=read, deprecation_reason=deprecation_reason)


def id_field(description: str, key: Callable[[Any], str] = lambda source: source.row.slug) -> Any:
    """Declare ``id: strawberry.ID = id_field("...")``: an ID that survives reloads, made
    of the type's name and the object's stable ``key`` (its slug unless given)."""

    def read(source: Any) -> strawberry.ID:
        return strawberry.ID(encode_id(type(source).__name__, key(source)))

    return RowField(description=description, read=read)


def optional_input(
    kind: Callable[..., T], description: str, deprecation_reason: str | None = None
) -> T | None:
    """An input's optional field of type ``kind``, null by default (typed, as Strawberry
    types its fields, as the value the field holds)."""
    field = strawberry.field(
        default=None, description=description, deprecation_reason=deprecation_reason
    )
    return cast(T | None, field)


def declared(field: object) -> StrawberryField:
    """What ``strawberry.field(...)`` makes, as what it is: Strawberry types it as its
    resolver's value, for a class body to annotate with the field's Python type; a field
    declared by a function (``history = history_field(...)``) is a StrawberryField."""
    assert isinstance(field, StrawberryField)
    return field


@strawberry.interface(
    description="Any object of this API that has an ID: refetch one with `entity(id:)`, "
    "many with `entities(ids:)`. Every type with an `id` implements it, so a normalized "
    "client cache (Apollo, urql, Relay) keys them all by `id`."
)
class Entity:
    id: strawberry.ID = strawberry.field(
        description="Stable, opaque ID: the same across reloads of the same data, unique "
        "across types."
    )


@strawberry.type
class RowBacked:
    """A GraphQL object over one database row (never exposed as a type of its own)."""

    row: strawberry.Private[Any]

    def row_id(self) -> int:
        """The row's database id (never shown to clients), for loaders and queries."""
        row_id = self.row.id
        assert isinstance(row_id, int)  # rows read from the database always have one
        return row_id


@strawberry.type
class Slugged(RowBacked, Entity):
    """An object with a slug: its ID is derived from the slug, so it survives reloads."""

    id: strawberry.ID = id_field("Stable, opaque ID; refetch the object with `entity(id:)`.")

    slug: str = row_field("Unique, URL-safe key of the object, stable across loads.")
