"""`taxonomy load` as a function: migrate, then read, check and replace in one transaction."""

from pathlib import Path

from api import migrate
from api.ingest.dataset import check_directory
from api.ingest.progress import Meter
from api.ingest.write import LoadSummary, replace_data
from store.engines import make_sync_engine


def load_directory(
    directory: Path,
    database_url: str,
    *,
    meter: Meter | None = None,
    allow_shrink: bool = True,
) -> LoadSummary:
    """Load ``directory`` into the database; raises DatasetError and changes nothing if
    any line is bad, and ShrinkError if not ``allow_shrink`` and the load would wipe what
    is served. (`taxonomy load` refuses to shrink by default; code that loads on purpose,
    the server's first load and the tests, replaces whatever is there.)"""
    check_directory(directory)  # before anything touches the database
    migrate.upgrade(database_url)
    engine = make_sync_engine(database_url)
    try:
        return replace_data(engine, directory, meter=meter, allow_shrink=allow_shrink)
    finally:
        engine.dispose()
