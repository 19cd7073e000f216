"""The `Source` type: a document of a model's that evidence quotes."""

from datetime import date

import strawberry

from api.tables import SourceRow
from schema.base import Slugged
from schema.context import Info
from schema.enums import SourceKind
from schema.loaders import required
from schema.refs import ModelRef


@strawberry.type(description="A document of a model's: technical report, model card, post...")
class Source(Slugged):
    row: strawberry.Private[SourceRow]

    @strawberry.field(description="The document's title.")
    def title(self) -> str:
        return self.row.title

    @strawberry.field(description="What kind of document it is.")
    def kind(self) -> SourceKind:
        return SourceKind(self.row.kind)

    @strawberry.field(description="Where the document is published, when known.")
    def url(self) -> str | None:
        return self.row.url

    @strawberry.field(description="When the document was published, when known.")
    def published_on(self) -> date | None:
        return self.row.published_on

    @strawberry.field(description="The model the document describes.")
    async def model(self, info: Info) -> ModelRef:
        from schema.model import Model

        return Model.from_row(await required(info.context.loaders.model_by_id, self.row.model_id))
