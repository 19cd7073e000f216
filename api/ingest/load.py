"""`taxonomy load` as a function: migrate, then read, check and replace in one transaction."""

from pathlib import Path
from typing import Unpack

from api.commands import migrate
from api.ingest.dataset import check_directory
from api.ingest.lock_postgres import loader_url
from api.ingest.write import LoadOptions, LoadSummary, replace_data
from store.load.transaction import load_engine


def load_directory(
    directory: Path, database_url: str, **options: Unpack[LoadOptions]
) -> LoadSummary:
    """Load ``directory`` into the database; raises DatasetError and changes nothing if
    any line is bad, and ShrinkError if not ``allow_shrink`` and the load would wipe what
    is served. (`taxonomy load` refuses to shrink by default; code that loads on purpose,
    the server's first load and the tests, replaces whatever is there.) Another load
    running is waited for, saying so through ``say``; or, if not ``wait``, LoadBusyError
    is raised. Without ``history``, the release records no changes (the benchmark's
    measure of what recording them costs, bench/history_cost.py)."""
    check_directory(directory)  # before anything touches the database
    migrate.upgrade(database_url)
    # Named after this process on PostgreSQL, so that another load can say who holds the
    # lock, and tell whether its process still runs.
    with load_engine(loader_url(database_url), foreign_keys=False) as engine:
        return replace_data(engine, directory, **options)
