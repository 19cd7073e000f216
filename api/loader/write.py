"""Replacing the database's data with a checked dataset, in one transaction."""

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, delete, insert, select, text

from api import search_index
from api.derive import derive_read_model
from api.loader.dataset import Dataset
from api.loader.records import FILES
from api.tables import (
    TABLES_IN_LOAD_ORDER,
    DatasetRow,
    EvidenceRow,
    MethodRow,
    ModelRow,
    NodeClosureRow,
    NodeRow,
    SourceRow,
    table_of,
)

_BATCH = 5000


@dataclass(frozen=True)
class LoadSummary:
    version: int
    counts: dict[str, int]


def checksum(directory: Path) -> str:
    digest = hashlib.sha256()
    for name in FILES:
        with (directory / name).open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()


def _ranks(keys: Iterable[tuple[Any, ...]]) -> dict[int, int]:
    """Position of each item (by index) when sorted by its key."""
    ordered = sorted(enumerate(keys), key=lambda pair: pair[1])
    return {index: rank for rank, (index, _) in enumerate(ordered)}


def _recency_key(release_date: date | None, name: str, slug: str) -> tuple[Any, ...]:
    # Newest first, undated after every dated model, then by name case-insensitively.
    return (
        release_date is None,
        -(release_date.toordinal() if release_date else 0),
        name.casefold(),
        slug,
    )


def _insert(connection: Connection, row_class: type, rows: list[dict[str, Any]]) -> None:
    table = table_of(row_class)
    for start in range(0, len(rows), _BATCH):
        connection.execute(insert(table), rows[start : start + _BATCH])


def replace_data(engine: Engine, dataset: Dataset, directory: Path) -> LoadSummary:
    """Swap the served data for ``dataset``: readers see the old data or the new, never a mix."""
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            # One load at a time; readers are not blocked.
            connection.execute(text("LOCK TABLE dataset IN SHARE ROW EXCLUSIVE MODE"))
        previous = connection.execute(select(table_of(DatasetRow).c.version)).scalar()
        for row_class in reversed(TABLES_IN_LOAD_ORDER):
            connection.execute(delete(table_of(row_class)))
        _write_rows(connection, dataset)
        derive_read_model(connection)
        search_index.rebuild(connection)
        version = (previous or 0) + 1
        connection.execute(delete(table_of(DatasetRow)))
        connection.execute(
            insert(table_of(DatasetRow)).values(
                id=1,
                version=version,
                checksum=checksum(directory),
                loaded_at=datetime.now(UTC),
                source_dir=str(directory.resolve()),
            )
        )
    return LoadSummary(
        version=version,
        counts={
            "nodes": len(dataset.nodes),
            "models": len(dataset.models),
            "sources": len(dataset.sources),
            "methods": len(dataset.methods),
            "evidence": len(dataset.evidence),
        },
    )


def _write_rows(connection: Connection, dataset: Dataset) -> None:
    # Row ids are assigned here, in file (or tree) order, so that they are the same on
    # every load of the same files; clients never see them (their IDs come from slugs).
    node_id = {placed.record.slug: placed.pre + 1 for placed in dataset.nodes}
    _insert(
        connection,
        NodeRow,
        [
            {
                "id": placed.pre + 1,
                "slug": placed.record.slug,
                "name": placed.record.name,
                "description": placed.record.description,
                "parent_id": node_id[placed.record.parent] if placed.record.parent else None,
                "matching_aids": placed.record.matching_aids,
                "level": placed.level,
                "path": placed.path,
                "slug_path": placed.slug_path,
                "path_key": placed.path.casefold(),
                "pre": placed.pre,
                "last": placed.last,
            }
            for placed in dataset.nodes
        ],
    )
    _insert(connection, NodeClosureRow, list(_closure(dataset, node_id)))

    models = dataset.models
    model_id = {model.slug: index + 1 for index, model in enumerate(models)}
    by_name = _ranks((model.name.casefold(), model.slug) for model in models)
    by_recency = _ranks(_recency_key(m.release_date, m.name, m.slug) for m in models)
    _insert(
        connection,
        ModelRow,
        [
            {
                "id": index + 1,
                "slug": model.slug,
                "name": model.name,
                "organization": model.organization,
                "release_date": model.release_date,
                "name_rank": by_name[index],
                "recency_rank": by_recency[index],
            }
            for index, model in enumerate(models)
        ],
    )

    source_id = {source.slug: index + 1 for index, source in enumerate(dataset.sources)}
    _insert(
        connection,
        SourceRow,
        [
            {
                "id": index + 1,
                "slug": source.slug,
                "model_id": model_id[source.model],
                "title": source.title,
                "kind": source.kind,
                "url": source.url,
                "published_on": source.published_on,
            }
            for index, source in enumerate(dataset.sources)
        ],
    )

    methods = dataset.methods
    method_id = {method.slug: index + 1 for index, method in enumerate(methods)}
    method_rank = _ranks((method.name.casefold(), method.slug) for method in methods)
    _insert(
        connection,
        MethodRow,
        [
            {
                "id": index + 1,
                "slug": method.slug,
                "name": method.name,
                "description": method.description,
                "aliases": method.aliases,
                "node_id": node_id[method.node],
                "name_rank": method_rank[index],
            }
            for index, method in enumerate(methods)
        ],
    )

    _insert(
        connection,
        EvidenceRow,
        [
            {
                "id": index + 1,
                "key": key,
                "model_id": model_id[item.model],
                "method_id": method_id[item.method],
                "source_id": source_id[item.source] if item.source else None,
                "strength": item.strength,
                "quote": item.quote,
                "locator": item.locator,
            }
            for index, (key, item) in enumerate(dataset.evidence)
        ],
    )


def _closure(dataset: Dataset, node_id: dict[str, int]) -> Iterable[dict[str, int]]:
    ancestors: dict[str, list[int]] = {}
    for placed in dataset.nodes:  # pre-order: a parent's chain is known before its children
        parent = placed.record.parent
        chain = [*ancestors[parent], node_id[parent]] if parent else []
        ancestors[placed.record.slug] = chain
        own = node_id[placed.record.slug]
        yield {"ancestor_id": own, "descendant_id": own, "depth": 0}
        for depth, ancestor in enumerate(reversed(chain), start=1):
            yield {"ancestor_id": ancestor, "descendant_id": own, "depth": depth}
