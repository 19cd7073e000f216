"""Writing many rows fast inside the load's transaction: COPY on PostgreSQL, batched
executemany on SQLite, both straight through the driver."""

import json
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import date
from itertools import islice
from typing import Any

from sqlalchemy import Connection, Table, text
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


@contextmanager
def checks_deferred(connection: Connection, *tables: Table, served: bool) -> Iterator[None]:
    """Drop the tables' secondary indexes (and, on PostgreSQL, keys) for a bulk
    insert and build them again afterwards: building an index once, or checking a foreign
    key with one join, is far cheaper than doing either row by row. Both databases roll
    this DDL back with the transaction if the load fails. (SQLite cannot drop a foreign
    key; its checks are cheap index lookups.)

    On PostgreSQL, dropping an index or a key locks its table against every reader until
    the load commits. So this is done only when the database serves no data yet
    (``served`` false, a first load); a load over ``served`` data keeps indexes and keys,
    writes through them (slower), and readers go on reading the old data meanwhile.
    SQLite's readers keep their snapshot, schema included, so it always defers."""
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
            # A primary key no foreign key refers to goes too: one sorted build beats a
            # million insertions.
            if table not in referenced:
                constraints.append(table.primary_key)
    for key in constraints:
        connection.execute(DropConstraint(key))
    for index in indexes:
        index.drop(connection)
    yield
    for index in indexes:
        index.create(connection)
    for key in reversed(constraints):  # primary keys before the foreign keys on them
        connection.execute(AddConstraint(key))
    if postgresql:
        # Fresh statistics, so that deriving the read model gets good plans.
        for table in tables:
            connection.execute(text(f"ANALYZE {table.name}"))
