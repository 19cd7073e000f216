"""The whole dataset's totals and which load is being served, in one statement."""

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, SQLColumnExpression, func, select
from sqlmodel import col

from store.reader import Reader
from store.rows import Prepared
from store.tables import (
    DatasetRow,
    EvidenceRow,
    MethodRow,
    ModelRow,
    NodeRow,
    ReleaseRow,
    SourceRow,
)


@dataclass(frozen=True)
class Summary:
    node_count: int
    root_count: int
    depth: int
    method_count: int
    model_count: int
    source_count: int
    evidence_count: int
    version: int | None
    identity: str | None
    loaded_at: datetime | None
    checksum: str | None


def recorded_count(
    column: SQLColumnExpression[int | None], recorded: SQLColumnExpression[int]
) -> ColumnElement[int]:
    """The number of rows of ``column``'s table: as the served release recorded it at load
    time (``recorded``, its column of that count), counted only when that row is not there
    (counting a million pieces of evidence took 170 ms at size L, for one figure)."""
    served = select(recorded).where(
        col(ReleaseRow.number) == select(col(DatasetRow.version)).scalar_subquery()
    )
    return func.coalesce(served.scalar_subquery(), select(func.count(column)).scalar_subquery())


_SUMMARY = Prepared.of(
    select(
        recorded_count(col(NodeRow.id), col(ReleaseRow.nodes)),
        select(func.count(col(NodeRow.id)))
        .where(col(NodeRow.parent_id).is_(None))
        .scalar_subquery(),
        select(func.coalesce(func.max(col(NodeRow.level)), 0)).scalar_subquery(),
        recorded_count(col(MethodRow.id), col(ReleaseRow.methods)),
        recorded_count(col(ModelRow.id), col(ReleaseRow.models)),
        recorded_count(col(SourceRow.id), col(ReleaseRow.sources)),
        recorded_count(col(EvidenceRow.id), col(ReleaseRow.evidence)),
        select(col(DatasetRow.version)).scalar_subquery(),
        select(col(DatasetRow.identity)).scalar_subquery(),
        select(col(DatasetRow.loaded_at)).scalar_subquery(),
        select(col(DatasetRow.checksum)).scalar_subquery(),
    ),
    Summary,
)


async def summary(reader: Reader) -> Summary:
    (row,) = await reader.rows(_SUMMARY)
    return row
