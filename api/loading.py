"""`taxonomy load` as a function: migrate, read and check, then replace in one transaction."""

from pathlib import Path

from api import migrate
from api.db import make_sync_engine
from api.loader.dataset import read_dataset
from api.loader.write import LoadSummary, replace_data


def load_directory(directory: Path, database_url: str) -> LoadSummary:
    """Load ``directory`` into the database; raises DatasetError and changes nothing if
    any line is bad."""
    dataset = read_dataset(directory)
    migrate.upgrade(database_url)
    engine = make_sync_engine(database_url)
    try:
        return replace_data(engine, dataset, directory)
    finally:
        engine.dispose()
