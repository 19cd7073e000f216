"""`taxonomy load` as a function: migrate, then read, check and replace in one transaction."""

from pathlib import Path

from api import migrate
from api.ingest.dataset import check_directory
from api.ingest.progress import Meter
from api.ingest.write import LoadSummary, replace_data
from store.engines import make_sync_engine


def load_directory(
    directory: Path, database_url: str, *, meter: Meter | None = None
) -> LoadSummary:
    """Load ``directory`` into the database; raises DatasetError and changes nothing if
    any line is bad."""
    check_directory(directory)  # before anything touches the database
    migrate.upgrade(database_url)
    engine = make_sync_engine(database_url)
    try:
        return replace_data(engine, directory, meter=meter)
    finally:
        engine.dispose()
