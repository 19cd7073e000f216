"""Writing a load's release and its change rows, last in the load's transaction: a load
that fails records nothing."""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from sqlalchemy import Connection, delete, insert, text

from store.history.treatment_changes import record_treatment_changes
from store.load.bulk import write_rows
from store.tables import CHANGE_TABLES, DatasetRow, ReleaseRow, table_of


@dataclass(frozen=True)
class Release:
    number: int
    identity: str
    checksum: str
    loaded_at: datetime
    note: str | None
    counts: dict[str, int]  # nodes, methods, models, sources, evidence


_FIELDS = ("before_fields", "after_fields")  # store.history.field_values
# (release, slug, before name, after name[, before place, after place], before fields,
# after fields)
ChangeRow = tuple[object, ...]


def write_dataset(connection: Connection, *, release: Release, source_dir: Path) -> None:
    """The one `dataset` row: what is served now, and where it was loaded from."""
    connection.execute(delete(table_of(DatasetRow)))
    connection.execute(
        insert(table_of(DatasetRow)).values(
            id=1,
            version=release.number,
            identity=release.identity,
            checksum=release.checksum,
            loaded_at=release.loaded_at,
            source_dir=str(source_dir.resolve()),
        )
    )


def write_release(
    connection: Connection,
    *,
    release: Release,
    changes: dict[str, Sequence[ChangeRow]],
    compare: bool,
    served: str | None = None,
) -> int:
    """The release row, then its change rows: ``changes`` by kind (node, method, model,
    as api.ingest.changes compared them), then the treatments', compared in SQL unless
    ``compare`` is false (nothing was served before; ``served``, on PostgreSQL: the schema
    that still holds the release before, see store.history.treatment_changes); returns how many
    change rows."""
    connection.execute(
        insert(table_of(ReleaseRow)).values(
            number=release.number,
            identity=release.identity,
            checksum=release.checksum,
            loaded_at=release.loaded_at,
            note=release.note,
            **release.counts,
        )
    )
    written = 0
    places = ("before_parent", "after_parent"), ("before_node", "after_node"), ()
    for kind, place in zip(("node", "method", "model"), places, strict=True):
        rows = changes[kind]
        columns = ("release", "slug", "before_name", "after_name", *place, *_FIELDS)
        written += write_rows(connection, f"{kind}_change", columns, rows)
    if compare:
        written += record_treatment_changes(connection, release.number, served)
    if written and connection.dialect.name == "postgresql":
        # Fresh statistics, so that paging the changes (store.history.change_lists) gets plans
        # that read from the page's cursor on: with none, the planner misjudges the
        # tables' sizes and reads every change row of the releases compared.
        names = ", ".join(table_of(row).name for row in CHANGE_TABLES)
        connection.execute(text(f"ANALYZE {names}"))
    return written
