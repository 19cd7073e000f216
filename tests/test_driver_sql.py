"""Prepared statements run by the driver itself (`schema.driver_sql`, `Reader.run`): the
same rows as SQLAlchemy gives, one snapshot per request, and SQLAlchemy's errors."""

import asyncio
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest
from sqlalchemy import Engine, func, join, select, text, true
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import aliased
from sqlmodel import col

from api.db import make_async_engine, make_request_engine, make_sync_engine
from api.loading import load_directory
from api.tables import DatasetRow, ModelRow, NodeClosureRow, NodeRow
from schema.errors import RequestTimeoutError
from schema.loaders import ANCESTORS, NEAR_DESCENDANTS
from schema.reader import Deadline, Reader
from schema.records import Prepared, keys

from conftest import POSTGRES_URL

T = TypeVar("T")

MODELS = Prepared.of(
    select(ModelRow).where(col(ModelRow.id).in_(keys())).order_by(col(ModelRow.id))
)
VERSION = Prepared.of(select(col(DatasetRow.version)))
NO_SUCH_COLUMN = Prepared.of(select(col(ModelRow.id)).where(text("no_such_column = 1")))


def _tiny_database(new_database: Callable[[str, str], str], backend: str, folder: Path) -> str:
    url = new_database(backend, "driver_sql")
    load_directory(folder, url)
    return url


@pytest.fixture
def url(new_database: Callable[[str, str], str], backend: str, tiny_folder: Path) -> str:
    """A fresh database of each backend holding the tiny dataset."""
    return _tiny_database(new_database, backend, tiny_folder)


@pytest.fixture
def sqlite_url(new_database: Callable[[str, str], str], tiny_folder: Path) -> str:
    """A fresh SQLite database holding the tiny dataset."""
    return _tiny_database(new_database, "sqlite", tiny_folder)


def reading(url: str, use: Callable[[Callable[[], Reader]], Coroutine[Any, Any, T]]) -> T:
    """``use(new_reader)``, where new_reader opens a reader of ``url`` as a request does."""

    async def main() -> T:
        serving = make_async_engine(url)
        engine = make_request_engine(url, serving)
        try:
            return await use(lambda: Reader.of(engine, Deadline.after(10)))
        finally:
            await serving.dispose()
            if isinstance(engine, Engine):
                engine.dispose()

    return asyncio.run(main())


async def _both_ways(reader: Reader, prepared: Prepared, params: dict[str, Any]) -> list[Any]:
    """The rows of ``prepared`` by the driver; asserts SQLAlchemy gives the same."""
    by_driver = [prepared.row_of(row) for row in await reader.run(prepared, params)]
    result = await reader.execute(prepared.statement, params)
    assert by_driver == [prepared.row_of(row) for row in result.all()]
    return by_driver


def test_the_driver_gives_the_rows_sqlalchemy_gives(url: str) -> None:
    async def use(new_reader: Callable[[], Reader]) -> None:
        reader = new_reader()
        try:
            ids = [row[0].id for row in await reader.rows(Prepared.of(select(ModelRow)))]
            assert len(ids) >= 3
            # A list of each length (each its own shape of the SQL), the empty one too.
            for length in (0, 1, 3, 2, 1):
                models = await _both_ways(reader, MODELS, {"keys": ids[:length]})
                assert [model.id for (model,) in models] == ids[:length]
            # Dates come back as dates (text on SQLite, converted as SQLAlchemy does).
            dated = [model for (model,) in await _both_ways(reader, MODELS, {"keys": ids})]
            assert any(model.release_date is not None for model in dated)
            assert all(
                model.release_date is None or type(model.release_date).__name__ == "date"
                for model in dated
            )
            # A value fixed in the statement (depth > 0) beside the caller's.
            leaves = await reader.records(
                Prepared.of(select(NodeRow).where(col(NodeRow.level) == 3))
            )
            ancestors = await _both_ways(reader, ANCESTORS, {"keys": [leaves[0].id]})
            assert [node.level for node, _ in ancestors] == [1, 2]
            root = ancestors[0][0].id
            near = await _both_ways(reader, NEAR_DESCENDANTS, {"keys": [root], "max_depth": 1})
            assert near
            assert {node.level for node, _ in near} == {2}
        finally:
            await reader.close()

    reading(url, use)


def test_a_request_reads_one_snapshot(url: str) -> None:
    """A load committed between two of a request's statements is not seen by the second;
    the next request sees it."""
    writer = make_sync_engine(url)

    def bump() -> None:
        with writer.begin() as connection:
            connection.execute(text("UPDATE dataset SET version = version + 1"))

    async def use(new_reader: Callable[[], Reader]) -> tuple[int, int, int]:
        reader = new_reader()
        try:
            first = (await reader.rows(VERSION))[0][0]
            bump()
            second = (await reader.rows(VERSION))[0][0]
        finally:
            await reader.close()
        later = new_reader()
        try:
            third = (await later.rows(VERSION))[0][0]
        finally:
            await later.close()
        return first, second, third

    try:
        first, second, third = reading(url, use)
    finally:
        writer.dispose()
    assert (second, third) == (first, first + 1)


def test_a_driver_error_is_sqlalchemys(url: str) -> None:
    """The error of a statement the driver ran is raised as SQLAlchemy raises it (what
    `schema.errors` classifies), and the statement is counted once."""

    async def use(new_reader: Callable[[], Reader]) -> None:
        reader = new_reader()
        try:
            with pytest.raises(DBAPIError, match="no_such_column"):
                await reader.rows(NO_SUCH_COLUMN)
            assert reader.statements == 1
        finally:
            await reader.close()
        # The connection went back to the pool in order: the next request reads.
        after = new_reader()
        try:
            assert (await after.rows(VERSION))[0][0] == 1
        finally:
            await after.close()

    reading(url, use)


def test_a_statement_past_the_deadline_is_stopped(sqlite_url: str) -> None:
    """On SQLite the driver's statement is stopped at the request's deadline, as
    SQLAlchemy's is (`InLoopReader`): the request hears its time is up. (PostgreSQL's
    statements are awaited, and stopped by the request's asyncio time limit.)"""
    first, *others = [aliased(NodeClosureRow) for _ in range(4)]
    joined: Any = first
    for other in others:
        joined = join(joined, other, true())  # every row with every row
    pairs = Prepared.of(select(func.count()).select_from(joined))

    async def use(new_reader: Callable[[], Reader]) -> None:
        on_time = new_reader()
        try:
            assert (await on_time.rows(pairs))[0][0] > 5000  # enough work to be stopped
        finally:
            await on_time.close()
        late = new_reader()
        late._deadline = Deadline.after(-1)  # type: ignore[attr-defined]
        try:
            with pytest.raises(RequestTimeoutError):
                await late.rows(pairs)
        finally:
            await late.close()

    reading(sqlite_url, use)


@pytest.mark.skipif(POSTGRES_URL is None, reason="PostgreSQL only (TEST_DATABASE_URL)")
def test_a_connection_dropped_before_its_commit_goes_back_and_is_retired(
    new_database: Callable[[str, str], str], tiny_folder: Path
) -> None:
    """A request's transaction ends with a COMMIT (schema.reader.AsyncReader.close); when
    the database dropped the connection first, the COMMIT fails, the connection still
    leaves the request (none stays checked out) and the next request reads."""
    url = _tiny_database(new_database, "postgresql", tiny_folder)
    admin = make_sync_engine(url)

    async def main() -> None:
        engine = make_async_engine(url)
        try:
            reader = Reader.of(engine)
            pid = (await reader.execute(text("SELECT pg_backend_pid()"))).scalar()
            with admin.connect() as connection:
                connection.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
            # The COMMIT fails, and so does the pool's rollback after it (CloseReader logs
            # this and the answer, already made, goes out).
            with pytest.raises(DBAPIError, match="connection is lost"):
                await reader.close()
            assert engine.pool.checkedout() == 0  # type: ignore[attr-defined]
            after = Reader.of(engine)
            try:
                assert (await after.rows(VERSION))[0][0] == 1
            finally:
                await after.close()
        finally:
            await engine.dispose()

    try:
        asyncio.run(main())
    finally:
        admin.dispose()
