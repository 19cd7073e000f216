"""The load's transaction as api.ingest holds it: typed handles it passes through to
store.load's functions without reaching into them, and the settings a load runs under."""

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Connection, Engine, text

from store.engines import make_sync_engine

# The engine a load opens (store.engines.make_sync_engine) and its one transaction:
# api.ingest hands them to this package's functions, which alone run statements on them.
LoadEngine = Engine
LoadTransaction = Connection
Say = Callable[[str], None]  # how a load tells its user what it waits for or does instead


@contextmanager
def load_engine(url: str, *, foreign_keys: bool = True) -> Iterator[LoadEngine]:
    """The engine of a load (or a prune) on ``url``, disposed of when the block ends;
    without ``foreign_keys``, SQLite checks no key as rows are written
    (store.load.bulk.check_sqlite_keys checks them all at once)."""
    engine = make_sync_engine(url, foreign_keys=foreign_keys)
    try:
        yield engine
    finally:
        engine.dispose()


@contextmanager
def load_transaction(engine: LoadEngine) -> Iterator[LoadTransaction]:
    """One transaction on ``engine``, committed when the block ends (rolled back if it
    raises)."""
    with engine.begin() as connection:
        yield connection


def is_postgresql(connection: LoadTransaction | LoadEngine) -> bool:
    return connection.dialect.name == "postgresql"


def sqlite_file(engine: LoadEngine) -> Path | None:
    """The SQLite database file ``engine`` writes, None on PostgreSQL or in memory."""
    database = engine.url.database
    if engine.dialect.name != "sqlite" or not database or database == ":memory:":
        return None
    return Path(database)


def tune_for_load(connection: LoadTransaction) -> None:
    """PostgreSQL, for this transaction only: room to sort and hash in memory while
    deriving and indexing, and no JIT (compiling the few large statements of a load costs
    more than it saves)."""
    if not is_postgresql(connection):
        return
    connection.execute(text("SET LOCAL work_mem = '256MB'"))
    connection.execute(text("SET LOCAL maintenance_work_mem = '256MB'"))
    connection.execute(text("SET LOCAL jit = off"))
