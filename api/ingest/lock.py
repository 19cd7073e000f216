"""One load at a time, on either database: the load's transaction, once it holds the
database's load lock (a lock file on SQLite, a table lock on PostgreSQL)."""

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path

from sqlalchemy import Connection, Engine

from api.ingest.lock_file import lock_file
from api.ingest.lock_postgres import take_table_lock
from api.ingest.turns import Say


@contextmanager
def one_load_at_a_time(engine: Engine, *, wait: bool, say: Say) -> Iterator[Connection]:
    """A transaction on ``engine`` that holds the load lock, committed when the block
    ends (rolled back if it raises). Another load holding the lock is waited for, with
    messages through ``say``; or, if not ``wait``, LoadBusyError is raised."""
    with _sqlite_lock(engine, wait=wait, say=say), engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            take_table_lock(connection, wait=wait, say=say)
        yield connection
    # The SQLite lock is let go only here, after the commit: `with` exits right to left.


def _sqlite_lock(engine: Engine, *, wait: bool, say: Say) -> AbstractContextManager[None]:
    database = engine.url.database
    if engine.dialect.name != "sqlite" or not database or database == ":memory:":
        return nullcontext()  # nobody else can load into a database in memory
    return lock_file(Path(database), wait=wait, say=say)
