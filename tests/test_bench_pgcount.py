"""The benchmark's statement counter (`bench/pgcount.py`): what it counts on the wire, and
that stopping it ends every connection it still forwards (the peer's are open then)."""

import asyncio

import psycopg
import pytest
from sqlalchemy.engine import make_url

from bench.pgcount import StatementCounter, counts

from conftest import POSTGRES_URL


def test_transaction_control_is_not_counted() -> None:
    assert counts("SELECT 1; SELECT 2") == 2
    assert counts("BEGIN ISOLATION LEVEL REPEATABLE READ; SELECT 1; ROLLBACK") == 1
    assert counts("set search_path = x;  ") == 0


@pytest.mark.skipif(POSTGRES_URL is None, reason="PostgreSQL only (TEST_DATABASE_URL)")
def test_statements_are_counted_and_stop_leaves_nothing_running() -> None:
    url = make_url(POSTGRES_URL or "")
    counter = StatementCounter(url.host or "127.0.0.1", url.port or 5432)
    port = counter.start()
    connection = psycopg.connect(
        host="127.0.0.1", port=port, user=url.username, dbname=url.database
    )
    try:
        connection.execute("SELECT 1; SELECT 2")  # simple protocol: two statements
        connection.execute("SELECT %s::int", (3,))  # extended protocol: Parse, Bind, Execute
        connection.rollback()  # psycopg's BEGIN and this ROLLBACK are not counted
        assert counter.count == 3
        loop = counter._loop
        assert loop is not None
        counter.stop()  # while the connection is still open
        assert loop.is_closed()
        assert not asyncio.all_tasks(loop)
        with pytest.raises(psycopg.OperationalError):
            connection.execute("SELECT 1")  # its proxy is gone
    finally:
        connection.close()
