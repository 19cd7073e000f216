"""The `Source` type: a document of a model's that evidence quotes."""

from collections.abc import Awaitable
from datetime import date

import strawberry

from api.tables import SourceRow
from schema.base import Slugged, direct_field, row_field
from schema.context import Info
from schema.enums import SourceKind
from schema.follow import model_at
from schema.refs import ModelRef


@strawberry.type(description="A document of a model's: technical report, model card, post...")
class Source(Slugged):
    row: strawberry.Private[SourceRow]

    title: str = row_field("The document's title.")

    kind: SourceKind = row_field("What kind of document it is.", convert=SourceKind)

    url: str | None = row_field("Where the document is published, when known.")

    published_on: date | None = row_field("When the document was published, when known.")

    @direct_field("The model the document describes.", graphql_type=ModelRef)
    def model(self, info: Info) -> "ModelRef | Awaitable[ModelRef]":
        return model_at(info, self.row.model_id)
