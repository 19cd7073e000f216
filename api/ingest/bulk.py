"""Writing many rows fast inside the load's transaction: COPY on PostgreSQL, batched
executemany on SQLite, both straight through the driver."""

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from itertools import islice
from typing import Any

from sqlalchemy import Connection, Index, Table, text
from sqlalchemy.schema import AddConstraint, DropConstraint

_BATCH = 10_000


def _plain(value: Any) -> Any:
    """Values as both drivers take them in bulk: lists as JSON text, dates as ISO text."""
    if isinstance(value, list):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, date):
        return value.isoformat()
    return value


def write_rows(
    connection: Connection, table: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]
) -> int:
    """Insert ``rows`` (tuples in the order of ``columns``) into ``table``; returns how many."""
    driver = connection.connection.driver_connection
    assert driver is not None  # a connection inside a transaction is always open
    names = ", ".join(columns)
    written = 0
    if connection.dialect.name == "postgresql":
        with driver.cursor() as cursor, cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row([_plain(value) for value in row])
                written += 1
        return written
    statement = f"INSERT INTO {table} ({names}) VALUES ({', '.join('?' for _ in columns)})"
    cursor = driver.cursor()
    iterator = iter(rows)
    while batch := [tuple(_plain(value) for value in row) for row in islice(iterator, _BATCH)]:
        cursor.executemany(statement, batch)
        written += len(batch)
    cursor.close()
    return written


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
    constraints: tuple[Any, ...]

    @classmethod
    def drop(cls, connection: Connection, *tables: Table, served: bool) -> "DeferredChecks":
        postgresql = connection.dialect.name == "postgresql"
        defer = not (postgresql and served)
        indexes = [index for table in tables for index in table.indexes] if defer else []
        constraints: list[Any] = []
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
            # Not isolated: the table's CREATE TABLE keeps the key (api.ingest.beside).
            self.connection.execute(AddConstraint(key, isolate_from_table=False))
        if self.connection.dialect.name == "postgresql":
            # Fresh statistics, so that deriving the read model gets good plans.
            for table in self.tables:
                self.connection.execute(text(f"ANALYZE {table.name}"))
