"""What the object types share: being built from one table row, and a slug-based ID."""

from typing import Any, Self

import strawberry

from schema.ids import encode_id


@strawberry.type
class RowBacked:
    """A GraphQL object over one database row (never exposed as a type of its own)."""

    row: strawberry.Private[Any]

    @classmethod
    def from_row(cls, row: Any) -> Self:
        return cls(row=row)


@strawberry.type
class Slugged(RowBacked):
    """An object with a slug: its ID is derived from the slug, so it survives reloads."""

    @strawberry.field(description="Stable, opaque ID; refetch the object with `entity(id:)`.")
    def id(self) -> strawberry.ID:
        return strawberry.ID(encode_id(type(self).__name__, self.row.slug))

    @strawberry.field(description="Unique, URL-safe key of the object, stable across loads.")
    def slug(self) -> str:
        return str(self.row.slug)
