"""Engines for the two databases: URLs, SQLite's pragmas, and read snapshots."""

import asyncio
import sqlite3
import weakref
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import ConnectionPoolEntry, NullPool

from store.file_kinds import A_FILE, NOTHING, kind_of

# The engines the server holds (api.app, schema.context): its own, asynchronous, and the
# one requests read through (make_request_engine): SQLite's synchronous one, or on
# PostgreSQL the same asynchronous one.
ServerEngine = AsyncEngine
RequestEngine = Engine | AsyncEngine
# What SQLite says of a file whose pages are not a database's (its header is checked
# before it is opened: check_sqlite_file).
SQLITE_DAMAGED = ("database disk image is malformed", "file is not a database")


class DatabaseUrlError(ValueError):
    pass


def parse_url(url: str) -> URL:
    """Accept the URLs people write (``postgres://``, ``postgresql://``, ``sqlite:///``)."""
    try:
        parsed = make_url(url)
    except Exception as exc:
        raise DatabaseUrlError(
            f"{url!r} is not a database URL; use sqlite:///path/to/file.db or "
            "postgresql://user@host:5432/dbname"
        ) from exc
    backend = parsed.get_backend_name()
    if backend == "postgres":
        parsed = parsed.set(drivername="postgresql")
    elif backend not in ("postgresql", "sqlite"):
        raise DatabaseUrlError(
            f"unsupported database {backend!r} in {url!r}: use sqlite or postgresql"
        )
    return parsed


def is_sqlite(url: str | URL) -> bool:
    return (make_url(url) if isinstance(url, str) else url).get_backend_name() == "sqlite"


def sync_url(url: str) -> URL:
    parsed = parse_url(url)
    return parsed.set(drivername="sqlite" if is_sqlite(parsed) else "postgresql+psycopg")


def shown_url(url: str) -> str:
    """``url`` as the load's and export's engines see it, password hidden: for messages."""
    return sync_url(url).render_as_string(hide_password=True)


def async_url(url: str) -> URL:
    parsed = parse_url(url)
    return parsed.set(
        drivername="sqlite+aiosqlite" if is_sqlite(parsed) else "postgresql+psycopg_async"
    )


def _sqlite_connection_setup(
    engine: Engine, *, writer: bool = True, foreign_keys: bool = True
) -> None:
    """Foreign keys on (unless not ``foreign_keys``), WAL so readers keep their snapshot
    during a load, explicit BEGIN.

    pysqlite does not begin a transaction before a SELECT; without our own BEGIN, the
    statements of one request could read across a concurrent load's commit. Only writers
    set the journal mode (it is stored in the file; a read-only connection cannot).
    """

    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection: sqlite3.Connection, _record: ConnectionPoolEntry) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA foreign_keys = {'ON' if foreign_keys else 'OFF'}")
        cursor.execute("PRAGMA busy_timeout = 5000")
        if writer:
            cursor.execute("PRAGMA journal_mode = WAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(connection: Connection) -> None:
        connection.exec_driver_sql("BEGIN")


def make_sync_engine(url: str, *, foreign_keys: bool = True) -> Engine:
    """The engine of loads, migrations and exports. On SQLite it opens the file for
    writing, creating it if missing (but never its folder): check_sqlite_file first.
    Without ``foreign_keys``, SQLite does not check each row's keys as it is written (a
    load, which checks them all at once before it commits: store.load.bulk)."""
    engine = create_engine(sync_url(url), poolclass=NullPool)
    if is_sqlite(url):
        _sqlite_connection_setup(engine, foreign_keys=foreign_keys)

        @event.listens_for(engine, "connect")
        def bulk_friendly(
            dbapi_connection: sqlite3.Connection, _record: ConnectionPoolEntry
        ) -> None:
            # A large page cache keeps a load's index updates in memory (256 MB at most),
            # and sorts for new indexes stay in memory too.
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA cache_size = -262144")
            cursor.execute("PRAGMA temp_store = MEMORY")
            cursor.close()

    return engine


def is_hot_standby(connection: Connection) -> bool:
    """Whether ``connection`` reads a PostgreSQL hot standby: a read-only replica that
    replays its primary's changes, so that nothing can be migrated or loaded there."""
    if connection.dialect.name != "postgresql":
        return False
    return bool(connection.execute(text("SELECT pg_is_in_recovery()")).scalar())


class SqliteFileWatch:
    """Notices when the SQLite file at a URL's path is another file than the one the
    engines opened (a new database moved over the old path with `mv`): their pooled
    connections still read the old one, replaced on disk but held open, forever. On such
    a change the engines' pools are emptied, so that new connections open the new file
    (requests under way finish on the old one). Checked with each data-version poll."""

    def __init__(self, url: str, engines: "list[Engine | AsyncEngine]") -> None:
        self._path = sqlite_path(url) if is_sqlite(url) else None
        self._engines = engines
        self._identity = self._read()

    def _read(self) -> tuple[int, int] | None:
        if self._path is None:
            return None
        try:
            found = self._path.stat()
        except OSError:
            return None  # gone for now: keep what is open until a file is there again
        return found.st_dev, found.st_ino

    async def check(self) -> bool:
        """Whether the file was replaced since the last check (the pools are then new)."""
        identity = self._read()
        if identity is None or identity == self._identity:
            return False
        self._identity = identity
        for engine in self._engines:
            if isinstance(engine, AsyncEngine):
                await engine.dispose()
            else:
                engine.dispose()
        return True


def sqlite_path(url: str) -> Path | None:
    database = parse_url(url).database
    return Path(database) if database and database != ":memory:" else None


class DatabaseFileError(Exception):
    """A SQLite database path that names no database to read, or a folder that does not
    exist."""


# The first 16 bytes of every SQLite database file (an empty file is an empty database).
SQLITE_HEADER = b"SQLite format 3\x00"


def check_sqlite_file(url: str, *, existing: bool) -> None:
    """On SQLite, refuse a path whose folder does not exist and, if ``existing`` (the
    database is only read), a file that does not exist: SQLite would create an empty
    file for a mistyped path, and nothing here creates folders. Refuse what is no SQLite
    database file (a folder, a pipe, a dangling link, a file of something else) before
    SQLite opens it: it would wait on a pipe, and fail on any other file with a
    traceback. Only the path's metadata and a file's first 16 bytes are read."""
    path = sqlite_path(url) if is_sqlite(url) else None
    if path is None:
        return
    kind = kind_of(path)
    if kind not in (A_FILE, NOTHING):
        raise DatabaseFileError(f"{path} is {kind}, not a database file: fix the database URL")
    if kind == A_FILE and not _holds_sqlite(path):
        raise DatabaseFileError(
            f"{path} is not a SQLite database (it does not begin with SQLite's header), and "
            "was left as it is: name a SQLite database file, or a path where there is no "
            "file yet to make a new database there"
        )
    if existing and kind == NOTHING:
        raise DatabaseFileError(
            f"the database file {path} does not exist: fix the database URL, or load data "
            "into it first"
        )
    if not path.parent.is_dir():
        raise DatabaseFileError(
            f"the folder {path.parent} does not exist, so the database file {path.name} "
            "cannot be made there: create the folder first, or fix the database URL"
        )


def _holds_sqlite(path: Path) -> bool:
    try:
        with path.open("rb") as file:
            head = file.read(len(SQLITE_HEADER))
    except OSError:
        return True  # unreadable: SQLite says why when it opens it (api.commands.cli words it)
    return head in (b"", SQLITE_HEADER)


def _read_only_sqlite_url(url: str, driver: str) -> URL:
    path = sqlite_path(url)
    if path is None:
        return parse_url(url).set(drivername=driver)
    return make_url(f"{driver}:///file:{path.resolve()}?mode=ro&uri=true")


def _open_before_aiosqlite(engine: AsyncEngine) -> None:
    """A file that cannot be opened fails here, in SQLite's own words, before aiosqlite
    starts a thread for it. aiosqlite (0.22, omnilib/aiosqlite#241) does not wait for the
    thread of a connection that failed to open: that thread later hands its last result
    to the event loop, and raises "Event loop is closed" when the server has stopped
    meanwhile. Opening a local file costs microseconds, once per pooled connection."""

    @event.listens_for(engine.sync_engine, "do_connect")
    def open_first(
        _dialect: object, _record: ConnectionPoolEntry, cargs: list[str], cparams: dict[str, object]
    ) -> None:
        # The file opens: aiosqlite goes on, with the same arguments.
        sqlite3.connect(cargs[0], uri=bool(cparams.get("uri"))).close()


# Connections a PostgreSQL pool opens beyond its size when busy.
_MAX_OVERFLOW = 10
_REQUEST_SLOTS: "weakref.WeakKeyDictionary[AsyncEngine, asyncio.Semaphore]" = (
    weakref.WeakKeyDictionary()
)


def request_slots(engine: AsyncEngine) -> asyncio.Semaphore | None:
    """The turns requests take for ``engine``'s connections (None: no turns to take)."""
    return _REQUEST_SLOTS.get(engine)


# How long PostgreSQL keeps a serving session that sits idle inside a transaction.
IDLE_IN_TRANSACTION_SECONDS = 60


def make_async_engine(
    url: str, *, pool_size: int = 5, prepared_statements: bool = True, pooled: bool = True
) -> AsyncEngine:
    """The serving engine, which cannot write (least privilege: the file is opened
    read-only on SQLite, every transaction is read-only on PostgreSQL); every request
    reads one consistent snapshot of the data. Not ``pooled`` (PostgreSQL): every use
    opens a connection of its own and closes it after, so that no use inherits a
    connection left hanging by another (readiness: api.app)."""
    if is_sqlite(url):
        engine = create_async_engine(
            _read_only_sqlite_url(url, "sqlite+aiosqlite"), pool_size=pool_size, max_overflow=10
        )
        _sqlite_connection_setup(engine.sync_engine, writer=False)
        _open_before_aiosqlite(engine)
        return engine
    # No ping before each checkout (a round trip on every request): a connection the
    # database dropped is replaced when a request's first statement finds it dead
    # (store.reader.AsyncReader). Fail fast when the database is away (connecting gives
    # up after 3 s), but let a busy server's requests wait their turn for a connection,
    # up to about the request time limit, rather than call a busy database away.
    pool: dict[str, Any] = (
        {"pool_size": pool_size, "max_overflow": _MAX_OVERFLOW, "pool_timeout": 10}
        if pooled
        else {"poolclass": NullPool}
    )
    engine = create_async_engine(
        async_url(url),
        **pool,
        connect_args={
            # Requests give up connecting to a silent database after 3 s. A readiness
            # check is bounded by its own clock (api.edge.readiness), which says the database
            # did not answer; its connect gives up only after the check is given up.
            "connect_timeout": 3 if pooled else 10,
            # Read-only; and a transaction left idle (its client gone, or cut off from
            # the database mid-request) is ended by PostgreSQL, never kept: a request's
            # transaction is never idle for long, and ends within its time limit.
            "options": "-c default_transaction_read_only=on "
            f"-c idle_in_transaction_session_timeout={IDLE_IN_TRANSACTION_SECONDS}s",
            # psycopg's own default (5 runs before preparing), or never.
            "prepare_threshold": 5 if prepared_statements else None,
            # A connection whose peer went silent (a cut network, a frozen host) is found
            # dead by the kernel in about 5 + 2 x 2 s, rather than never.
            "keepalives": 1,
            "keepalives_idle": 5,
            "keepalives_interval": 2,
            "keepalives_count": 2,
        },
        # One snapshot for all of a request's statements, so no answer mixes two loads:
        # a reader begins it itself, with its LOCK in the same round trip (store.reader:
        # BEGIN_AND_LOCK), where psycopg would send its own BEGIN first. A single read
        # (the data version's poll, readiness) needs no transaction, nor its round trips.
        isolation_level="AUTOCOMMIT",
    )
    # Requests take their turn for a connection in arrival order: the pool's own wait is
    # not first come, first served, and under load some requests waited past its timeout
    # while later ones were served. One connection is left over for the data version's
    # poll and /readyz.
    if pooled:
        _REQUEST_SLOTS[engine] = asyncio.Semaphore(pool_size + _MAX_OVERFLOW - 1)
    return engine


def make_request_engine(
    url: str, async_engine: AsyncEngine, *, pool_size: int = 5
) -> RequestEngine:
    """What requests read through (store.reader.Reader.of): on PostgreSQL the serving
    ``async_engine`` itself; on SQLite a synchronous engine on the same file, read-only,
    whose statements run straight from the event loop.

    Every request holds one connection (its snapshot) while it awaits other work, and a
    pool that made the loop's thread wait for a free connection would wait forever, so
    the pool never blocks: beyond ``pool_size`` idle connections it opens more (a SQLite
    connection is a file handle, opened in microseconds).
    """
    if not is_sqlite(url):
        return async_engine
    engine = create_engine(
        _read_only_sqlite_url(url, "sqlite"),
        pool_size=pool_size,
        max_overflow=-1,
        # Opened in the loop's thread; a test client's portal may be another thread.
        connect_args={"check_same_thread": False},
    )
    _sqlite_connection_setup(engine, writer=False)
    return engine
