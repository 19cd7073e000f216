"""`taxonomy export`: the served data written back out in the interchange format.

Rows are streamed from one snapshot in the order they were loaded (row ids follow file
order), so loading the export gives the same answers and the same IDs, evidence repeats
included. The files are written into a temporary folder that is renamed into place at
the end: a failed export leaves nothing half-written behind."""

import json
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, text

from api.ingest.files import FILES
from api.migrate import current_revision
from store.engines import make_sync_engine
from store.file_kinds import refusal_as_new_folder
from store.reader import LOCK_BEFORE_SNAPSHOT

_QUERIES = {
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


class ExportError(Exception):
    pass


def _plain(name: str, value: Any) -> Any:
    if name in _JSON_COLUMNS and isinstance(value, str):  # SQLite hands JSON back as text
        return json.loads(value)
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value


def _rows(connection: Connection, file: str) -> Iterator[dict[str, Any]]:
    columns, query = _QUERIES[file]
    result = connection.execution_options(stream_results=True, yield_per=10_000).execute(
        text(query)
    )
    for row in result:
        yield {name: _plain(name, value) for name, value in zip(columns, row, strict=True)}


def export_directory(database_url: str, directory: Path) -> dict[str, int]:
    """Write the database's data into ``directory`` (new or empty); returns rows per file.
    Nothing is created on disk unless the database can be read and holds the tables."""
    refusal = refusal_as_new_folder(directory)
    if refusal is not None:
        raise ExportError(refusal)
    engine = make_sync_engine(database_url)
    counts = {}
    try:
        with engine.connect() as connection:
            if current_revision(connection) is None:
                shown = engine.url.render_as_string(hide_password=True)
                raise ExportError(
                    f"the database at {shown} holds no taxonomy tables; fix the URL, or load "
                    "data into it first (taxonomy load DIR --db URL)"
                )
        with engine.connect() as connection:
            if connection.dialect.name == "postgresql":
                # One snapshot for every file; `dataset` locked before it begins, as a
                # request's reader does (store.reader), so that a load's swap of its new
                # tables (api.ingest.beside) cannot leave this snapshot reading them.
                connection.execute(text("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ"))
                connection.execute(LOCK_BEFORE_SNAPSHOT)
            directory.parent.mkdir(parents=True, exist_ok=True)
            staging = Path(tempfile.mkdtemp(prefix=f".{directory.name}-", dir=directory.parent))
            try:
                for file in FILES:
                    counts[file] = _write_file(connection, file, staging / file)
                if directory.exists():
                    directory.rmdir()
                staging.rename(directory)
            except BaseException:
                shutil.rmtree(staging, ignore_errors=True)
                raise
    finally:
        engine.dispose()
    return counts


def _write_file(connection: Connection, file: str, path: Path) -> int:
    count = 0
    with path.open("w", encoding="utf-8") as handle:
        for row in _rows(connection, file):
            handle.write(json.dumps(row, ensure_ascii=False))
            handle.write("\n")
            count += 1
    return count
