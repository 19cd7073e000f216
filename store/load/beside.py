"""PostgreSQL: a load over served data builds the new release's tables beside the served
ones, in a schema of its own, and swaps them in just before it commits.

Written in place, a reload of L took 120 s: every row deleted and inserted fires the
foreign keys' checks (deleting 5,000 models alone took 14 s) and updates every index,
because dropping an index or a key would lock readers out for the whole load. Tables of
its own have no reader: the load fills them as a first load fills an empty database
(COPY with no index or key, then each index built once, each key checked with one join),
and readers go on reading the served tables meanwhile.

The new tables copy the served ones (columns, checks and defaults as the migrations left
them; keys and indexes from the table definitions, under the same names), in the schema
`taxonomy_load`, which goes first on the load's search_path:
every statement of the load (COPY, deriving, the search index) then writes to them
unchanged. Tables a load does not replace (`dataset`, releases, changes) are found in the
served schema behind it. Each new table gets the grants of the table it replaces.

The swap moves the served tables out and the new ones in (ALTER TABLE ... SET SCHEMA,
which takes their indexes, keys and sequences along) and drops the old ones, all in the
load's transaction: a load that fails leaves everything as it was. It needs ACCESS
EXCLUSIVE locks, which wait for the readers of the moment, so they are asked for with a
short lock_timeout and asked again until they are granted: readers queue behind the
swap for a few milliseconds, never behind a load, and a reader is never left deadlocked.
`dataset` is locked first: readers lock it before their snapshot begins
(store.reader), so no reader can see the old release's version with the new tables.
"""

import time

from sqlalchemy import CheckConstraint, Connection, ForeignKeyConstraint, text
from sqlalchemy.exc import OperationalError
from sqlalchemy.schema import AddConstraint

from store import search_index
from store.load.transaction import Say
from store.tables import TABLES_IN_LOAD_ORDER, table_of

LOAD_SCHEMA = "taxonomy_load"
_REPLACED_SCHEMA = "taxonomy_replaced"
_LOCK_TIMEOUT = "50ms"  # how long readers may queue behind one try at the swap's locks
_LOCK_NOT_AVAILABLE = "55P03"


def replaced_tables() -> list[str]:
    """The tables a load builds beside the served ones: the loaded and derived rows and
    the database's own search index."""
    return [
        *(table_of(row_class).name for row_class in TABLES_IN_LOAD_ORDER),
        search_index.POSTGRES_TABLE,
    ]


def why_not_beside(connection: Connection) -> str | None:
    """None if this load can build beside the served tables: it may create a schema,
    and owns every table it replaces (only an owner can move one). Else what is missing,
    for the message of a load that then writes in place."""
    row = connection.execute(
        text(
            "SELECT has_database_privilege(current_database(), 'CREATE'), "
            "bool_and(pg_has_role(c.relowner, 'USAGE')) "
            "FROM unnest(CAST(:names AS text[])) AS t(name) "
            "JOIN pg_class c ON c.oid = to_regclass(t.name)"
        ),
        {"names": replaced_tables()},
    ).one()
    can_create, owns_all = row
    if not can_create:
        return "its role may not create a schema in the database (GRANT CREATE ON DATABASE)"
    if not owns_all:
        return "its role does not own every table it replaces (load with the tables' owner)"
    return None


def build_beside(connection: Connection) -> str:
    """Create the empty new tables in LOAD_SCHEMA and put it first on the transaction's
    search_path; returns the served schema, where the swap will move them."""
    served = str(
        connection.execute(
            text("SELECT relnamespace::regnamespace FROM pg_class WHERE oid = 'dataset'::regclass")
        ).scalar_one()
    )
    connection.execute(text(f"CREATE SCHEMA {LOAD_SCHEMA}"))
    tables = [table_of(row_class) for row_class in TABLES_IN_LOAD_ORDER]
    for table in tables:
        _create_like(connection, served, table.name)
    connection.execute(
        text("SELECT set_config('search_path', :path, true)"),
        {"path": f"{LOAD_SCHEMA}, {served}"},
    )
    # Unqualified, as the migrations' DDL: keys (referring to the new tables) and indexes
    # go to LOAD_SCHEMA, first on the path, under their served names; keys that others
    # refer to first.
    keys = [key for t in tables for key in t.constraints if not isinstance(key, CheckConstraint)]
    for key in sorted(keys, key=lambda key: isinstance(key, ForeignKeyConstraint)):
        connection.execute(AddConstraint(key, isolate_from_table=False))
    for table in tables:
        for index in table.indexes:
            index.create(connection)
    for statement in search_index.create_ddl("postgresql"):
        connection.execute(text(statement))
    for name in replaced_tables():
        _copy_grants(connection, f"{served}.{name}", f"{LOAD_SCHEMA}.{name}")
    return served


def _create_like(connection: Connection, served: str, name: str) -> None:
    """An empty copy of the served table's columns, in their order (which the migrations
    set, not the table definitions), with their defaults and checks. A column's own
    sequence (SERIAL) is made anew: the served one goes with the table it belongs to."""
    new = f"{LOAD_SCHEMA}.{name}"
    connection.execute(
        text(
            f"CREATE TABLE {new} (LIKE {served}.{name} INCLUDING DEFAULTS INCLUDING "
            "CONSTRAINTS INCLUDING GENERATED INCLUDING IDENTITY INCLUDING STORAGE)"
        )
    )
    serial = connection.execute(
        text(
            "SELECT a.attname FROM pg_attribute a WHERE a.attrelid = to_regclass(:served) "
            "AND a.attnum > 0 AND NOT a.attisdropped "
            "AND pg_get_serial_sequence(:served, a.attname) IS NOT NULL AND a.attidentity = ''"
        ),
        {"served": f"{served}.{name}"},
    ).scalars()
    for column in serial:
        sequence = f"{LOAD_SCHEMA}.{name}_{column}_seq"
        connection.execute(text(f"CREATE SEQUENCE {sequence} OWNED BY {new}.{column}"))
        connection.execute(
            text(f"ALTER TABLE {new} ALTER COLUMN {column} SET DEFAULT nextval('{sequence}')")
        )


def _copy_grants(connection: Connection, served: str, new: str) -> None:
    grants = connection.execute(
        text(
            "SELECT a.privilege_type, "
            "CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(r.rolname) END, "
            "a.is_grantable "
            "FROM pg_class c CROSS JOIN LATERAL aclexplode(c.relacl) a "
            "LEFT JOIN pg_roles r ON r.oid = a.grantee "
            "WHERE c.oid = to_regclass(:served) AND a.grantee <> c.relowner"
        ),
        {"served": served},
    ).all()
    for privilege, grantee, grantable in grants:
        option = " WITH GRANT OPTION" if grantable else ""
        connection.execute(text(f"GRANT {privilege} ON {new} TO {grantee}{option}"))


def swap_in(connection: Connection, served: str, say: Say) -> None:
    """Move the new tables into ``served`` in place of its tables, which are dropped."""
    names = replaced_tables()
    _lock(connection, [f"{served}.dataset", *(f"{served}.{name}" for name in names)], say)
    connection.execute(text(f"CREATE SCHEMA {_REPLACED_SCHEMA}"))
    for name in names:
        connection.execute(text(f"ALTER TABLE {served}.{name} SET SCHEMA {_REPLACED_SCHEMA}"))
    for name in names:
        connection.execute(text(f"ALTER TABLE {LOAD_SCHEMA}.{name} SET SCHEMA {served}"))
    connection.execute(text(f"DROP SCHEMA {_REPLACED_SCHEMA} CASCADE"))
    connection.execute(text(f"DROP SCHEMA {LOAD_SCHEMA}"))
    connection.execute(text("SELECT set_config('search_path', :path, true)"), {"path": served})


def _lock(connection: Connection, tables: list[str], say: Say) -> None:
    """ACCESS EXCLUSIVE locks on ``tables``, in their order, each try bounded by
    _LOCK_TIMEOUT so that readers wait for no more than that; tried until granted."""
    previous = connection.execute(text("SELECT current_setting('lock_timeout')")).scalar_one()
    statement = text(f"LOCK TABLE {', '.join(tables)} IN ACCESS EXCLUSIVE MODE")
    waited_since = time.monotonic()
    said = False
    while True:
        try:
            with connection.begin_nested():
                connection.execute(
                    text("SELECT set_config('lock_timeout', :value, true)"),
                    {"value": _LOCK_TIMEOUT},
                )
                connection.execute(statement)
            break
        except OperationalError as exc:
            if getattr(exc.orig, "sqlstate", None) != _LOCK_NOT_AVAILABLE:
                raise
        if not said and time.monotonic() - waited_since > 5:
            say("waiting for long-running reads of the served tables to end, to swap them")
            said = True
        time.sleep(0.01)  # readers queued behind the try go first
    connection.execute(text("SELECT set_config('lock_timeout', :value, true)"), {"value": previous})
