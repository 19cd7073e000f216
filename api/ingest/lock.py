"""One load at a time, on either database: the load's transaction, once it holds the
database's load lock (a lock file on SQLite, a table lock on PostgreSQL)."""

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext

from api.ingest.lock_file import lock_file
from api.ingest.lock_postgres import take_table_lock
from api.ingest.turns import Say
from store.load.transaction import (
    LoadEngine,
    LoadTransaction,
    is_postgresql,
    load_transaction,
    sqlite_file,
)


@contextmanager
def one_load_at_a_time(engine: LoadEngine, *, wait: bool, say: Say) -> Iterator[LoadTransaction]:
    """A transaction on ``engine`` that holds the load lock, committed when the block
    ends (rolled back if it raises). Another load holding the lock is waited for, with
    messages through ``say``; or, if not ``wait``, LoadBusyError is raised."""
    with _sqlite_lock(engine, wait=wait, say=say), load_transaction(engine) as connection:
        if is_postgresql(connection):
            take_table_lock(connection, wait=wait, say=say)
        yield connection
    # The SQLite lock is let go only here, after the commit: `with` exits right to left.


def _sqlite_lock(engine: LoadEngine, *, wait: bool, say: Say) -> AbstractContextManager[None]:
    database = sqlite_file(engine)
    if database is None:
        return nullcontext()  # PostgreSQL, or in memory, where nobody else can load
    return lock_file(database, wait=wait, say=say)
