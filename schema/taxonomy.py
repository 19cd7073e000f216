"""`taxonomy`: the whole dataset's totals and which load is being served."""

from datetime import datetime
from typing import Any

import strawberry
from sqlalchemy import func, select
from sqlmodel import col

from api.tables import DatasetRow, EvidenceRow, MethodRow, ModelRow, NodeRow, SourceRow
from schema.context import Info


@strawberry.type(description="Totals of the whole taxonomy and the load that is being served.")
class TaxonomySummary:
    node_count: int = strawberry.field(description="All nodes.")
    root_count: int = strawberry.field(description="Nodes at level 1.")
    depth: int = strawberry.field(description="The deepest level of the tree (0 when empty).")
    method_count: int = strawberry.field(description="All methods.")
    model_count: int = strawberry.field(description="All models.")
    source_count: int = strawberry.field(description="All sources.")
    evidence_count: int = strawberry.field(description="All pieces of evidence.")
    data_version: str = strawberry.field(
        description="Changes with every load (even of the same files); `0` before the first."
    )
    loaded_at: datetime | None = strawberry.field(
        description="When the served data was loaded (UTC); null before the first load."
    )
    checksum: str | None = strawberry.field(
        description="SHA-256 of the loaded files, to tell whether two loads had the same data."
    )


def _count(column: Any) -> Any:
    return select(func.count(column)).scalar_subquery()


async def taxonomy_summary(info: Info) -> TaxonomySummary:
    statement = select(
        _count(col(NodeRow.id)),
        select(func.count(col(NodeRow.id)))
        .where(col(NodeRow.parent_id).is_(None))
        .scalar_subquery(),
        select(func.coalesce(func.max(col(NodeRow.level)), 0)).scalar_subquery(),
        _count(col(MethodRow.id)),
        _count(col(ModelRow.id)),
        _count(col(SourceRow.id)),
        _count(col(EvidenceRow.id)),
        select(col(DatasetRow.version)).scalar_subquery(),
        select(col(DatasetRow.loaded_at)).scalar_subquery(),
        select(col(DatasetRow.checksum)).scalar_subquery(),
    )
    row = (await info.context.reader.execute(statement)).one()
    nodes, roots, depth, methods, models, sources, evidence, version, loaded_at, checksum = row
    return TaxonomySummary(
        node_count=nodes,
        root_count=roots,
        depth=depth,
        method_count=methods,
        model_count=models,
        source_count=sources,
        evidence_count=evidence,
        data_version=str(version or 0),
        loaded_at=loaded_at,
        checksum=checksum,
    )
