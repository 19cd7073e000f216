"""`taxonomy export`: the served data written back out in the interchange format.

Rows are streamed from one snapshot in the order they were loaded (row ids follow file
order), so loading the export gives the same answers and the same IDs, evidence repeats
included. The files are written into a temporary folder that is renamed into place at
the end: a failed export leaves nothing half-written behind."""

import json
import shutil
import tempfile
from pathlib import Path

from api.ingest.files import FILES
from store.engines import shown_url
from store.export import Snapshot, export_snapshot, exported_rows
from store.file_kinds import refusal_as_new_folder
from store.revision import database_revision


class ExportError(Exception):
    pass


def export_directory(database_url: str, directory: Path) -> dict[str, int]:
    """Write the database's data into ``directory`` (new or empty); returns rows per file.
    Nothing is created on disk unless the database can be read and holds the tables."""
    refusal = refusal_as_new_folder(directory)
    if refusal is not None:
        raise ExportError(refusal)
    if database_revision(database_url) is None:
        raise ExportError(
            f"the database at {shown_url(database_url)} holds no taxonomy tables; fix the "
            "URL, or load data into it first (taxonomy load DIR --db URL)"
        )
    counts = {}
    with export_snapshot(database_url) as connection:
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
    return counts


def _write_file(connection: Snapshot, file: str, path: Path) -> int:
    count = 0
    with path.open("w", encoding="utf-8") as handle:
        for row in exported_rows(connection, file=file):
            handle.write(json.dumps(row, ensure_ascii=False))
            handle.write("\n")
            count += 1
    return count
