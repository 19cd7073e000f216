"""The `Evidence` type: one model's document describing one method, with a strength."""

from collections.abc import Awaitable
from typing import Any

import strawberry
from sqlalchemy import case, select
from sqlmodel import col

from api.tables import EvidenceRow, MethodRow
from schema.base import RowBacked, direct_field, id_field, row_field
from schema.context import Info
from schema.enums import Strength
from schema.follow import method_at, model_at
from schema.inputs import EvidenceFilter, branch_node_ids
from schema.lookup import row_for_id
from schema.pagination import Connection, SortKey, connection_of, counter, keyset_page
from schema.refs import MethodRef, ModelRef, SourceRef

# Evidence stores its strength by name; ordering and filtering need its rank (1 = core).
STRENGTH_RANK = case(
    (col(EvidenceRow.strength) == Strength.CORE.value, 1),
    (col(EvidenceRow.strength) == Strength.USED.value, 2),
    else_=3,
)


@strawberry.type(description="One model's document describing one method, with a strength.")
class Evidence(RowBacked):
    row: strawberry.Private[EvidenceRow]

    id: strawberry.ID = id_field(
        "Stable, opaque ID; refetch the evidence with `entity(id:)`.", column="key"
    )

    @direct_field("The model whose document this is.", graphql_type=ModelRef)
    def model(self, info: Info) -> "ModelRef | Awaitable[ModelRef]":
        return model_at(info, self.row.model_id)

    @direct_field("The method the document describes.", graphql_type=MethodRef)
    def method(self, info: Info) -> "MethodRef | Awaitable[MethodRef]":
        return method_at(info, self.row.method_id)

    @strawberry.field(description="The document, when the pipeline recorded it.")
    async def source(self, info: Info) -> SourceRef | None:
        from schema.source import Source

        if self.row.source_id is None:
            return None
        row = await info.context.loaders.source_by_id.load(self.row.source_id)
        return Source.from_row(row) if row else None

    strength: Strength = row_field("How strongly the document treats the method.", convert=Strength)

    quote: str | None = row_field("The document's own words, when recorded.")

    locator: str | None = row_field("Where in the document, e.g. a section or page.")


async def evidence_connection(
    info: Info,
    *,
    method_id: int | None = None,
    model_id: int | None = None,
    first: int | None,
    after: str | None,
    filter: EvidenceFilter | None,
) -> Connection[Evidence]:
    """A page of a method's or a model's evidence, strongest first, then in file order."""
    statement = select(EvidenceRow)
    if method_id is not None:
        statement = statement.where(col(EvidenceRow.method_id) == method_id)
    if model_id is not None:
        statement = statement.where(col(EvidenceRow.model_id) == model_id)
    if filter is not None:
        statement = await _filtered(info, statement, filter)
    keys = [SortKey(STRENGTH_RANK), SortKey(col(EvidenceRow.id))]
    reader = info.context.reader
    page = await keyset_page(info, statement, keys, list_name="evidence", first=first, after=after)
    items = [Evidence.from_row(row) for (row,) in page.rows]
    return connection_of(page, items, counter(reader, statement))


async def _filtered(info: Info, statement: Any, filter: EvidenceFilter) -> Any:
    if filter.min_strength is not None:
        statement = statement.where(filter.min_strength.rank >= STRENGTH_RANK)
    if filter.model is not None:
        model = await row_for_id(info, "Model", filter.model, "filter.model")
        statement = statement.where(col(EvidenceRow.model_id) == model.id)
    if filter.method is not None:
        method = await row_for_id(info, "Method", filter.method, "filter.method")
        statement = statement.where(col(EvidenceRow.method_id) == method.id)
    if filter.source is not None:
        source = await row_for_id(info, "Source", filter.source, "filter.source")
        statement = statement.where(col(EvidenceRow.source_id) == source.id)
    if filter.within is not None:
        node = await row_for_id(info, "Node", filter.within, "filter.within")
        in_branch = select(col(MethodRow.id)).where(
            col(MethodRow.node_id).in_(branch_node_ids(node))
        )
        statement = statement.where(col(EvidenceRow.method_id).in_(in_branch))
    return statement
