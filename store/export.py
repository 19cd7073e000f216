"""The served data read back for `taxonomy export` (api.commands.export): each file's rows, from
one snapshot, in the order they were loaded (row ids follow file order)."""

import json
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Connection, text

from store.engines import make_sync_engine
from store.reader import LOCK_BEFORE_SNAPSHOT

Snapshot = Connection  # what api.commands.export holds and hands back to exported_rows

EXPORTED = {
    "nodes.jsonl": (
        ("slug", "name", "parent", "description", "matching_aids"),
        "SELECT n.slug, n.name, p.slug, n.description, n.matching_aids "
        "FROM node n LEFT JOIN node p ON p.id = n.parent_id ORDER BY n.id",
    ),
    "models.jsonl": (
        ("slug", "name", "organization", "release_date"),
        "SELECT slug, name, organization, release_date FROM model ORDER BY id",
    ),
    "sources.jsonl": (
        ("slug", "model", "title", "kind", "url", "published_on"),
        "SELECT s.slug, m.slug, s.title, s.kind, s.url, s.published_on "
        "FROM source s JOIN model m ON m.id = s.model_id ORDER BY s.id",
    ),
    "methods.jsonl": (
        ("slug", "name", "node", "description", "aliases"),
        "SELECT x.slug, x.name, n.slug, x.description, x.aliases "
        "FROM method x JOIN node n ON n.id = x.node_id ORDER BY x.id",
    ),
    "evidence.jsonl": (
        ("model", "method", "strength", "source", "quote", "locator"),
        "SELECT m.slug, x.slug, e.strength, s.slug, e.quote, e.locator FROM evidence e "
        "JOIN model m ON m.id = e.model_id JOIN method x ON x.id = e.method_id "
        "LEFT JOIN source s ON s.id = e.source_id ORDER BY e.id",
    ),
}
_JSON_COLUMNS = {"matching_aids", "aliases"}


@contextmanager
def export_snapshot(database_url: str) -> Iterator[Snapshot]:
    """One snapshot of the database for every file of an export."""
    engine = make_sync_engine(database_url)
    try:
        with engine.connect() as connection:
            if connection.dialect.name == "postgresql":
                # `dataset` locked before the snapshot begins, as a request's reader does
                # (store.reader), so that a load's swap of its new tables
                # (store.load.beside) cannot leave this snapshot reading them.
                connection.execute(text("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ"))
                connection.execute(LOCK_BEFORE_SNAPSHOT)
            yield connection
    finally:
        engine.dispose()


def _plain(name: str, value: object) -> object:
    if name in _JSON_COLUMNS and isinstance(value, str):  # SQLite hands JSON back as text
        return json.loads(value)
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value


def exported_rows(connection: Snapshot, *, file: str) -> Iterator[dict[str, object]]:
    columns, query = EXPORTED[file]
    result = connection.execution_options(stream_results=True, yield_per=10_000).execute(
        text(query)
    )
    for row in result:
        yield {name: _plain(name, value) for name, value in zip(columns, row, strict=True)}
