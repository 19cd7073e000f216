"""Writing many rows fast inside the load's transaction: COPY on PostgreSQL, batched
executemany on SQLite, both straight through the driver."""

import json
from collections.abc import Iterable, Sequence
from datetime import date
from itertools import islice
from typing import Any

from sqlalchemy import Connection

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
