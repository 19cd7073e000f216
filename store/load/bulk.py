"""Writing many rows fast inside the load's transaction: COPY on PostgreSQL, batched
executemany on SQLite, both straight through the driver."""

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date
from itertools import islice

from sqlalchemy import Connection, Constraint, Index, Table, text
from sqlalchemy.schema import AddConstraint, DropConstraint

_BATCH = 10_000


def _as_text(value: object) -> object:
    """A list as JSON text, a date as ISO text: as both drivers take them in bulk."""
    if isinstance(value, list):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, date):
        return value.isoformat()
    return value


def write_rows(
    connection: Connection,
    table: str,
    columns: Sequence[str],
    rows: Iterable[Sequence[object]],
    *,
    as_text: Sequence[str] = (),
) -> int:
    """Insert ``rows`` (tuples in the order of ``columns``) into ``table``; returns how many.
    The columns named in ``as_text`` hold lists or dates, written as text; every other
    value is written as it is (a string, a number or None): a million evidence rows are
    not worth a conversion call per value."""
    driver = connection.connection.driver_connection
    assert driver is not None  # a connection inside a transaction is always open
    names = ", ".join(columns)
    if as_text:
        rows = _with_text(rows, [columns.index(name) for name in as_text])
    written = 0
    if connection.dialect.name == "postgresql":
        with driver.cursor() as cursor, cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
                written += 1
        return written
    statement = f"INSERT INTO {table} ({names}) VALUES ({', '.join('?' for _ in columns)})"
    cursor = driver.cursor()
    iterator = iter(rows)
    while batch := list(islice(iterator, _BATCH)):
        cursor.executemany(statement, batch)
        written += len(batch)
    cursor.close()
    return written


def _with_text(rows: Iterable[Sequence[object]], positions: list[int]) -> Iterator[list[object]]:
    for row in rows:
        values = list(row)
        for position in positions:
            values[position] = _as_text(values[position])
        yield values


@dataclass(frozen=True)
class DeferredChecks:
    """The tables' secondary indexes (and, on PostgreSQL, keys), dropped for a bulk
    insert and built again afterwards: building an index once, or checking a foreign key
    with one join, is far cheaper than doing either row by row, and so is emptying a
    table with no index to update for each row it deletes (SQLite's DELETE visits every
    row of a table with foreign keys: 12.5 s for L's evidence with its four indexes).
    Both databases roll this DDL back with the transaction if the load fails. (SQLite
    cannot drop a foreign key; its checks are cheap index lookups.)

    On PostgreSQL, dropping an index or a key locks its table against every reader until
    the load commits. So this is done only when the database serves no data yet
    (``served`` false, a first load); a load over ``served`` data keeps indexes and keys,
    writes through them (slower), and readers go on reading the old data meanwhile.
    SQLite's readers keep their snapshot, schema included, so it always defers."""

    connection: Connection
    tables: tuple[Table, ...]
    indexes: tuple[Index, ...]
    constraints: tuple[Constraint, ...]

    @classmethod
    def drop(cls, connection: Connection, *tables: Table, served: bool) -> "DeferredChecks":
        postgresql = connection.dialect.name == "postgresql"
        defer = not (postgresql and served)
        indexes = [index for table in tables for index in table.indexes] if defer else []
        constraints: list[Constraint] = []
        if postgresql and defer:
            referenced = {
                key.referred_table
                for table in tables[0].metadata.tables.values()
                for key in table.foreign_key_constraints
            }
            for table in tables:
                constraints += table.foreign_key_constraints
                # A primary key no foreign key refers to goes too: one sorted build beats
                # a million insertions.
                if table not in referenced:
                    constraints.append(table.primary_key)
        for key in constraints:
            connection.execute(DropConstraint(key))
        for index in indexes:
            index.drop(connection)
        return cls(connection, tables, tuple(indexes), tuple(constraints))

    def restore(self) -> None:
        for index in self.indexes:
            index.create(self.connection)
        for key in reversed(self.constraints):  # primary keys before the foreign keys on them
            # Not isolated: the table's CREATE TABLE keeps the key (store.load.beside).
            self.connection.execute(AddConstraint(key, isolate_from_table=False))
        if self.connection.dialect.name == "postgresql":
            # Fresh statistics, so that deriving the read model gets good plans.
            for table in self.tables:
                self.connection.execute(text(f"ANALYZE {table.name}"))


class BrokenKeysError(RuntimeError):
    pass


def check_sqlite_keys(connection: Connection, tables: Iterable[Table]) -> None:
    """SQLite: every foreign key of the rows of ``tables``, all at once, before the load
    commits. A load writes with SQLite's checks off (store.engines): checked row by row as
    they are written, they added a third to the evidence's insertion and to deriving,
    where one pass over each table at the end costs 1.4 s at L. Only the tables the load
    rewrote: the history's tables grow with every release, and their rows of this one
    refer to the release just written. The dataset's references were checked line by
    line already, so a broken key here is a bug of the load's own."""
    broken = [
        row
        for table in tables
        for row in connection.exec_driver_sql(f"PRAGMA foreign_key_check({table.name})").all()
    ]
    if broken:
        table_name, rowid, parent, _ = broken[0]
        raise BrokenKeysError(
            f"{len(broken):,} rows refer to rows that do not exist (first: {table_name} row "
            f"{rowid}, referring to {parent}); nothing was loaded. Please report this."
        )
