"""The whole dataset's totals and which load is being served, in one statement."""

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlmodel import col

from store.reader import Reader
from store.rows import Prepared
from store.tables import DatasetRow, EvidenceRow, MethodRow, ModelRow, NodeRow, SourceRow


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


def _count(column: Any) -> Any:
    return select(func.count(column)).scalar_subquery()


_SUMMARY = Prepared.of(
    select(
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
        select(col(DatasetRow.identity)).scalar_subquery(),
        select(col(DatasetRow.loaded_at)).scalar_subquery(),
        select(col(DatasetRow.checksum)).scalar_subquery(),
    )
)


async def summary(reader: Reader) -> Summary:
    (row,) = await reader.rows(_SUMMARY)
    return Summary(*row)
