"""`taxonomy load` as a function: migrate, then read, check and replace in one transaction."""

import logging
from datetime import date
from pathlib import Path

from api.commands import migrate
from api.ingest.dataset import check_directory
from api.ingest.lock_postgres import loader_url
from api.ingest.progress import Meter
from api.ingest.turns import Say
from api.ingest.write import LoadSummary, replace_data
from store.load.transaction import load_engine

log = logging.getLogger("taxonomy.load")


def load_directory(
    directory: Path,
    database_url: str,
    *,
    meter: Meter | None = None,
    allow_shrink: bool = True,
    wait: bool = True,
    say: Say = log.warning,
    note: str | None = None,
    history: bool = True,
    unknown_release_date: date | None = None,
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
        return replace_data(
            engine,
            directory,
            meter=meter,
            allow_shrink=allow_shrink,
            wait=wait,
            say=say,
            note=note,
            history=history,
            unknown_release_date=unknown_release_date,
        )
