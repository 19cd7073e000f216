"""What a load would replace, counted inside its transaction for the shrink guard
(api.ingest.shrink)."""

from sqlalchemy import Connection, func, select
from sqlmodel import SQLModel

from store.tables import EvidenceRow, MethodRow, ModelRow, NodeRow, SourceRow, table_of

# Each kind the shrink guard compares, and the table it is served from.
SERVED: dict[str, type[SQLModel]] = {
    "nodes": NodeRow,
    "models": ModelRow,
    "sources": SourceRow,
    "methods": MethodRow,
    "evidence": EvidenceRow,
}


def served_counts(connection: Connection) -> dict[str, int]:
    """The rows of each kind the database serves now (one statement)."""
    counts = [
        select(func.count()).select_from(table_of(row_class)).scalar_subquery()
        for row_class in SERVED.values()
    ]
    row = connection.execute(select(*counts)).one()
    return dict(zip(SERVED, (int(count) for count in row), strict=True))
