"""The `Source` type: a document of a model's that evidence quotes."""

from datetime import date

import strawberry

from schema import refs
from schema.base import Slugged, row_field
from schema.context import Info
from schema.enums import SourceKind
from schema.refs import ModelRef
from store.tables import SourceRow


@refs.builds
@strawberry.type(description="A document of a model's: technical report, model card, post...")
class Source(Slugged):
    row: strawberry.Private[SourceRow]

    name: str = row_field(
        "The document's title: its `name`, as every other type calls it.",
        lambda source: source.row.title,
    )
    title: str = row_field(
        "The document's title.",
        deprecation_reason="Use `name`, as on every other type: the same value.",
    )

    kind: SourceKind = row_field(
        "What kind of document it is.", lambda source: SourceKind(source.row.kind)
    )

    url: str | None = row_field("Where the document is published, when known.")

    published_on: date | None = row_field("When the document was published, when known.")

    @strawberry.field(description="The model the document describes.")
    async def model(self, info: Info) -> ModelRef:
        row = await info.context.loaders.model_by_id.load(self.row.model_id)
        assert row is not None  # a foreign key guarantees it
        return refs.model(row)
