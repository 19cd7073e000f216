"""A database with no tables, given the newest schema in one step: the way Alembic's
cookbook builds an up-to-date database from scratch ("create_all, then stamp head";
api.commands.migrate stamps it).

Walking every migration from the first instead rebuilds tables one change at a time
(SQLite's batch mode copies a table to alter it): 0.3-0.4 s of a first load of the
fixtures, against a few hundredths for the tables themselves. What the migrations build
and what this builds are checked to be the same, object by object and row by row, on both
databases (tests/test_migrations.py)."""

from sqlalchemy import Connection, insert, inspect, text

from store import search_saved
from store.history.net_changes import KIND_ORDER
from store.revision import VERSION_TABLE
from store.search_index import create_ddl
from store.tables import ChangeKindRow, metadata, table_of


def create_if_empty(connection: Connection) -> bool:
    """In the transaction of ``connection``: if the database has no table (but Alembic's
    own, left empty by a downgrade to the start), create every table, the full-text index
    and the rows the migrations write, and say True; else change nothing and say
    False."""
    if set(inspect(connection).get_table_names()) - {VERSION_TABLE}:
        return False
    metadata.create_all(connection)
    for statement in create_ddl(connection.dialect.name):
        connection.execute(text(statement))
    # The rows migrations write: every kind of change, by rank (0010 and 0012), and the
    # search catalogue of no data (0011), which a server reads before any load.
    connection.execute(
        insert(table_of(ChangeKindRow)),
        [{"rank": rank, "name": name} for rank, name in enumerate(KIND_ORDER)],
    )
    search_saved.write(connection)
    return True
