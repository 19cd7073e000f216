"""docs/operations.md's read-only role, created as written: the server runs as it and answers,
and nothing it runs can write."""

import json
import re
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from api.commands.cli import main
from api.ingest.load import load_directory
from api.settings import DEFAULT_FIXTURES_DIR

from conftest import POSTGRES_URL, Api, autocommit, serve

README = Path(__file__).resolve().parents[1] / "docs" / "operations.md"
ROLE_SQL = re.findall(r"```sql\n(.*?)```", README.read_text(encoding="utf-8"), re.S)[0]

pytestmark = pytest.mark.skipif(POSTGRES_URL is None, reason="needs TEST_DATABASE_URL")


@contextmanager
def _login_role(owner_url: str, grants: str) -> Iterator[str]:
    """A role of the test's own, made by ``grants`` (SQL naming it taxonomy_reader and
    the database taxonomy, as docs/operations.md does), as a URL; dropped afterwards with
    whatever it was granted."""
    role = f"taxonomy_reader_{uuid.uuid4().hex[:8]}"
    database = make_url(owner_url).database
    statements = (
        grants.replace("taxonomy_reader", role)
        .replace("DATABASE taxonomy", f'DATABASE "{database}"')
        .split(";")
    )
    with autocommit(owner_url) as connection:
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
        with autocommit(owner_url) as connection:
            connection.execute(text(f"DROP OWNED BY {role}"))
            connection.execute(text(f"DROP ROLE {role}"))


@pytest.fixture
def owner_url(new_database: Callable[[str, str], str], tiny_folder: Path) -> str:
    url = new_database("postgresql", "privilege")
    load_directory(tiny_folder, url)
    return url


@pytest.fixture
def reader_url(owner_url: str) -> Iterator[str]:
    """docs/operations.md's read-only role, created as written."""
    with _login_role(owner_url, ROLE_SQL) as url:
        yield url


# A role that may connect and nothing more.
STRANGER_SQL = (
    "CREATE ROLE taxonomy_reader LOGIN PASSWORD 'change-me';"
    "GRANT CONNECT ON DATABASE taxonomy TO taxonomy_reader"
)


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


REFUSED = "refused the role this command connects as"


def _refusal(result: Result) -> str:
    """The `Error: ...` line of a command refused, which did not crash."""
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), f"crashed: {result.exception!r}"
    assert "Traceback" not in result.output
    (line,) = [line for line in result.output.splitlines() if line.startswith("Error: ")]
    assert REFUSED in line, line
    assert '(docs/operations.md, "Least privilege")' in line, line
    assert "change-me" not in line  # the URL is shown without its password
    return line


def _releases(url: str) -> list[dict[str, object]]:
    found = CliRunner().invoke(main, ["releases", "--json", "--db", url])
    assert found.exit_code == 0, found.output
    return [json.loads(line) for line in found.output.splitlines()]


@pytest.mark.parametrize("command", [["load", str(DEFAULT_FIXTURES_DIR)], ["prune", "--keep", "1"]])
def test_a_command_that_writes_run_as_the_read_only_role_names_the_role_to_use(
    owner_url: str, reader_url: str, command: list[str]
) -> None:
    """It was a traceback (permission denied for table alembic_version): the server's
    role is the one a user has at hand when a load goes wrong."""
    before = _releases(owner_url)
    line = _refusal(CliRunner().invoke(main, [*command, "--db", reader_url]))
    assert "nothing was changed: connect as a role that owns the taxonomy's tables" in line
    assert "permission denied" in line  # what the database said
    assert _releases(owner_url) == before


@pytest.mark.parametrize("command", [["export", "OUT"], ["releases"], ["changes", "--since", "1"]])
def test_a_command_that_reads_run_as_a_role_that_may_not_read_names_the_role_to_use(
    owner_url: str, command: list[str], tmp_path: Path
) -> None:
    """releases and changes said "internal error" (through the schema); export was a
    traceback."""
    out = tmp_path / "out"
    arguments = [str(out) if part == "OUT" else part for part in command]
    with _login_role(owner_url, STRANGER_SQL) as stranger_url:
        line = _refusal(CliRunner().invoke(main, [*arguments, "--db", stranger_url]))
    assert "connect as a role that may read the taxonomy's tables" in line
    assert not out.exists()


def test_a_first_load_by_a_role_that_may_not_create_tables_leaves_the_database_empty(
    new_database: Callable[[str, str], str],
) -> None:
    """The newest schema is built in one step (store.schema_at_head): the role's refusal
    of the first table rolls the whole of it back."""
    empty_url = new_database("postgresql", "no_create")
    with _login_role(empty_url, STRANGER_SQL) as stranger_url:
        line = _refusal(
            CliRunner().invoke(main, ["load", str(DEFAULT_FIXTURES_DIR), "--db", stranger_url])
        )
    assert "(permission denied for schema public); nothing was changed" in line
    with autocommit(empty_url) as connection:
        assert inspect(connection).get_table_names() == []


def test_a_server_run_as_a_role_that_may_not_read_says_so_at_readyz(owner_url: str) -> None:
    """/readyz said "database unreachable: ProgrammingError"; the database is reachable,
    it refuses the role."""
    with _login_role(owner_url, STRANGER_SQL) as stranger_url, serve(stranger_url) as client:
        response = client.get("/readyz")
    assert response.status_code == 503
    reason = response.json()["reason"]
    assert reason.startswith("the database refused the server's role (permission denied"), reason
    assert reason.endswith('(docs/operations.md, "Least privilege")'), reason
