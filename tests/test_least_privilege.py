"""docs/operations.md's read-only role, created as written: the server runs as it and answers,
and nothing it runs can write."""

import re
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from api.ingest.load import load_directory
from api.settings import DEFAULT_FIXTURES_DIR

from conftest import POSTGRES_URL, Api, serve

README = Path(__file__).resolve().parents[1] / "docs" / "operations.md"
ROLE_SQL = re.findall(r"```sql\n(.*?)```", README.read_text(encoding="utf-8"), re.S)[0]

pytestmark = pytest.mark.skipif(POSTGRES_URL is None, reason="needs TEST_DATABASE_URL")


@pytest.fixture
def reader_url(new_database: Callable[[str, str], str], tiny_folder: Path) -> Iterator[str]:
    owner_url = new_database("postgresql", "privilege")
    load_directory(tiny_folder, owner_url)
    role = f"taxonomy_reader_{uuid.uuid4().hex[:8]}"
    database = make_url(owner_url).database
    statements = (
        ROLE_SQL.replace("taxonomy_reader", role)
        .replace("DATABASE taxonomy", f'DATABASE "{database}"')
        .split(";")
    )
    owner = create_engine(
        make_url(owner_url).set(drivername="postgresql+psycopg"), isolation_level="AUTOCOMMIT"
    )
    with owner.connect() as connection:
        for statement in statements:
            if statement.strip():
                connection.execute(text(statement))
    try:
        yield (
            make_url(owner_url)
            .set(username=role, password="change-me")
            .render_as_string(hide_password=False)
        )
    finally:
        with owner.connect() as connection:
            connection.execute(text(f"DROP OWNED BY {role}"))
            connection.execute(text(f"DROP ROLE {role}"))
        owner.dispose()


def test_the_server_runs_as_the_read_only_role(reader_url: str) -> None:
    with serve(reader_url) as client:
        api = Api(client, reader_url)
        assert api.query("{ taxonomy { nodeCount } }") == {"taxonomy": {"nodeCount": 5}}
    reader = create_engine(make_url(reader_url).set(drivername="postgresql+psycopg"))
    try:
        with reader.begin() as connection:
            # Even with its read-only default switched off, the role has no right to write.
            connection.execute(text("SET TRANSACTION READ WRITE"))
            with pytest.raises(DBAPIError, match="permission denied"):
                connection.execute(text("DELETE FROM node_stats"))
    finally:
        reader.dispose()


def test_the_read_only_role_reads_each_new_release(reader_url: str, tiny_folder: Path) -> None:
    """A load over served data swaps in new tables (store.load.beside): they carry the
    served tables' grants, so the reader goes on reading, the new release."""
    assert POSTGRES_URL is not None
    admin = make_url(POSTGRES_URL)
    owner_url = make_url(reader_url).set(username=admin.username, password=admin.password)
    summary = load_directory(DEFAULT_FIXTURES_DIR, owner_url.render_as_string(hide_password=False))
    with serve(reader_url) as client:
        api = Api(client, reader_url)
        nodes = api.query("{ taxonomy { nodeCount } }")["taxonomy"]["nodeCount"]
    assert nodes == summary.counts["nodes"] != 5
