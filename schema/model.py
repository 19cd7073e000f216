"""The `Model` type: an AI model whose documents describe methods."""

from datetime import date
from typing import Annotated, Any

import strawberry
from sqlalchemy import func, select
from sqlmodel import col

from api.tables import MethodRow, ModelRow, TreatmentRow
from schema.base import Slugged, row_field
from schema.context import Info
from schema.enums import ModelOrderField, OrderDirection, Strength, max_rank
from schema.errors import BadUserInputError
from schema.inputs import EvidenceFilterArgument, ModelFilter, ModelOrder, contains, in_branch
from schema.lookup import row_for_id
from schema.pagination import After, Connection, First, SortKey, connection_of, counter, keyset_page
from schema.refs import EvidenceRef, MethodTreatmentRef, ModelTreatmentRef, SourceRef


@strawberry.type(description="An AI model whose own documents describe methods.")
class Model(Slugged):
    row: strawberry.Private[ModelRow]

    name: str = row_field("Display name, e.g. `Kimi K3`.")

    organization: str | None = row_field("Who made the model, when known.")

    release_date: date | None = row_field("When the model was released, when known.")

    @strawberry.field(description="The model's documents.")
    async def sources(self, info: Info) -> list[SourceRef]:
        from schema.source import Source

        rows = await info.context.loaders.sources_by_model_id.load(self.row_id())
        return [Source.from_row(row) for row in rows]

    @strawberry.field(
        description="The methods the model treats, one per method, strongest first, then by "
        "method name."
    )
    async def treatments(
        self,
        info: Info,
        within: Annotated[
            strawberry.ID | None,
            strawberry.argument(description="Only methods in the branch of this node (a Node ID)."),
        ] = None,
        min_strength: Annotated[
            Strength | None,
            strawberry.argument(description="Only treatments at least this strong."),
        ] = None,
        first: First = None,
        after: After = None,
    ) -> Connection[MethodTreatmentRef]:
        from schema.treatment import MethodTreatment

        statement = (
            select(TreatmentRow, MethodRow)
            .join(MethodRow, col(MethodRow.id) == col(TreatmentRow.method_id))
            .where(
                col(TreatmentRow.model_id) == self.row_id(),
                col(TreatmentRow.strength_rank) <= max_rank(min_strength),
            )
        )
        if within is not None:
            node = await row_for_id(info, "Node", within, "within")
            statement = statement.where(in_branch(col(TreatmentRow.node_pre), node))
        keys = [SortKey(col(TreatmentRow.strength_rank)), SortKey(col(MethodRow.name_rank))]
        reader = info.context.reader
        page = await keyset_page(
            info, statement, keys, list_name="treatments", first=first, after=after
        )
        info.context.loaders.prime_methods([method for _, method in page.rows])
        items = [MethodTreatment.from_row(row) for row, _ in page.rows]
        return connection_of(page, items, counter(reader, statement))

    @strawberry.field(
        description="The model's profile: its strongest treatment in each branch at `level` "
        "where it has evidence, in tree order."
    )
    async def branches(
        self,
        info: Info,
        level: Annotated[
            int, strawberry.argument(description="Which level's branches (1: the roots).")
        ] = 1,
    ) -> list[ModelTreatmentRef]:
        from schema.treatment import ModelTreatment

        if level < 1:
            raise BadUserInputError(f"`level` must be at least 1, got {level}")
        rows = await info.context.loaders.branches_by_model_level.load((self.row_id(), level))
        return [ModelTreatment.from_row(row) for row in rows]

    @strawberry.field(description="The model's evidence, strongest first.")
    async def evidence(
        self,
        info: Info,
        first: First = None,
        after: After = None,
        filter: EvidenceFilterArgument = None,
    ) -> Connection[EvidenceRef]:
        from schema.evidence import evidence_connection

        return await evidence_connection(
            info, model_id=self.row_id(), first=first, after=after, filter=filter
        )


async def models_connection(
    info: Info,
    *,
    first: int | None,
    after: str | None,
    filter: ModelFilter | None,
    order_by: ModelOrder | None,
) -> Connection[Model]:
    statement: Any = select(ModelRow)
    if filter is not None:
        if filter.name_contains:
            statement = statement.where(contains(ModelRow.name, filter.name_contains))
        if filter.organization is not None:
            statement = statement.where(
                func.lower(col(ModelRow.organization)) == filter.organization.lower()
            )
        if filter.released_after is not None:
            statement = statement.where(col(ModelRow.release_date) >= filter.released_after)
        if filter.released_before is not None:
            statement = statement.where(col(ModelRow.release_date) <= filter.released_before)
    order = order_by or ModelOrder(field=ModelOrderField.NAME)
    descending = order.direction is OrderDirection.DESC
    if order.field is ModelOrderField.NAME:
        keys = [SortKey(col(ModelRow.name_rank), descending=descending)]
    else:
        # Stored newest first, so DESC (newest first) is the rank's ascending order.
        keys = [SortKey(col(ModelRow.recency_rank), descending=not descending)]
    reader = info.context.reader
    page = await keyset_page(
        info,
        statement,
        keys,
        list_name=f"models:{order.field.value}:{order.direction.value}",
        first=first,
        after=after,
    )
    items = [Model.from_row(row) for (row,) in page.rows]
    return connection_of(page, items, counter(reader, statement))
