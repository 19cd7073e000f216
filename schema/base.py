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

    def row_id(self) -> int:
        """The row's database id (never shown to clients), for loaders and queries."""
        row_id = self.row.id
        assert isinstance(row_id, int)  # rows read from the database always have one
        return row_id


@strawberry.type
class Slugged(RowBacked):
    """An object with a slug: its ID is derived from the slug, so it survives reloads."""

    @strawberry.field(description="Stable, opaque ID; refetch the object with `entity(id:)`.")
    def id(self) -> strawberry.ID:
        return strawberry.ID(encode_id(type(self).__name__, self.row.slug))

    @strawberry.field(description="Unique, URL-safe key of the object, stable across loads.")
    def slug(self) -> str:
        return str(self.row.slug)
