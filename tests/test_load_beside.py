"""PostgreSQL: a load over served data builds its tables beside the served ones and swaps
them in as it commits (store.load.beside). What users must not notice: the tables are as
they were defined (columns in the migrations' order, keys, indexes, grants), no reader
sees a mix of releases even when it queues behind the swap, and a loader that may not
build beside the served tables still loads, in place, and says why it is slower.

(Readers during many loads, on both databases: tests/test_faults.py.)
"""

import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url

from api.ingest.load import load_directory
from api.ingest.progress import Quiet
from api.settings import DEFAULT_FIXTURES_DIR
from store.load.beside import replaced_tables

from conftest import POSTGRES_URL, Api, autocommit, serve

pytestmark = pytest.mark.skipif(POSTGRES_URL is None, reason="needs TEST_DATABASE_URL")

FIGURES = "{ taxonomy { methodCount evidenceCount dataVersion } roots { slug } }"
SWAP_STEP = "swapping the new tables in"


@pytest.fixture
def served(new_database: Callable[[str, str], str], tiny_folder: Path) -> str:
    url = new_database("postgresql", "beside")
    load_directory(tiny_folder, url)
    return url


@pytest.fixture
def role(served: str) -> Iterator[str]:
    """A login role of the test's own, dropped with whatever it was granted."""
    name = f"taxonomy_role_{uuid.uuid4().hex[:8]}"
    with autocommit(served) as connection:
        connection.execute(text(f"CREATE ROLE {name} LOGIN"))
    try:
        yield name
    finally:
        with autocommit(served) as connection:
            connection.execute(text(f"DROP OWNED BY {name}"))
            connection.execute(text(f"DROP ROLE {name}"))


def _definitions(url: str) -> dict[str, Any]:
    """What defines each replaced table: columns in order, keys, indexes, grants, owner;
    and the schemas of the database."""
    found: dict[str, Any] = {}
    with autocommit(url) as connection:
        for name in replaced_tables():
            found[name] = {
                "columns": connection.execute(
                    text(
                        "SELECT attname, format_type(atttypid, atttypmod), attnotnull, "
                        "pg_get_expr(d.adbin, d.adrelid) FROM pg_attribute a "
                        "LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum "
                        "WHERE a.attrelid = CAST(:t AS regclass) AND a.attnum > 0 "
                        "AND NOT a.attisdropped ORDER BY a.attnum"
                    ),
                    {"t": name},
                ).all(),
                "constraints": connection.execute(
                    text(
                        "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
                        "WHERE conrelid = CAST(:t AS regclass) ORDER BY conname"
                    ),
                    {"t": name},
                ).all(),
                "indexes": connection.execute(
                    text(
                        "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = :t ORDER BY 1"
                    ),
                    {"t": name},
                ).all(),
                "grants and owner": connection.execute(
                    text(
                        "SELECT CAST(relacl AS text), pg_get_userbyid(relowner) FROM pg_class "
                        "WHERE oid = CAST(:t AS regclass)"
                    ),
                    {"t": name},
                ).all(),
            }
        found["schemas"] = connection.execute(
            text("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'taxonomy%' ORDER BY 1")
        ).all()
    return found


def test_a_reload_leaves_the_tables_as_they_were_defined_and_granted(
    served: str, role: str, tiny_folder: Path
) -> None:
    with autocommit(served) as connection:
        connection.execute(text(f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {role}"))
        connection.execute(text(f"GRANT INSERT ON evidence TO {role} WITH GRANT OPTION"))
    before = _definitions(served)
    assert role in str(before["evidence"]["grants and owner"])
    steps = _Steps()
    load_directory(DEFAULT_FIXTURES_DIR, served, meter=steps)
    load_directory(tiny_folder, served, meter=steps, allow_shrink=True)
    assert steps.seen.count(SWAP_STEP) == 2, steps.seen  # both loads built beside
    assert _definitions(served) == before
    with autocommit(served) as connection:  # a column's own sequence went with its table
        assert connection.execute(text("SELECT nextval('evidence_id_seq')")).scalar()


class _Steps(Quiet):
    def __init__(self) -> None:
        self.seen: list[str] = []

    def step(self, what: str, seconds: float) -> None:
        self.seen.append(what)


class _ReadDuringSwap(Quiet):
    """At the swap (the load holds its locks and has not committed): a request starts,
    and the load holds on for a second before it commits."""

    def __init__(self, read: Callable[[], dict[str, Any]]) -> None:
        self.read = read
        self.answer: dict[str, Any] = {}
        self.waited = 0.0
        self.thread: threading.Thread | None = None

    def step(self, what: str, seconds: float) -> None:
        if what != SWAP_STEP:
            return

        def request() -> None:
            started = time.perf_counter()
            self.answer = self.read()
            self.waited = time.perf_counter() - started

        self.thread = threading.Thread(target=request)
        self.thread.start()
        time.sleep(1.0)


def test_a_reader_queued_behind_the_swap_reads_the_new_release_whole(served: str) -> None:
    """A snapshot begun while the swap holds its locks would read the old release's
    version and find the new tables empty: readers lock `dataset` before it begins."""
    with serve(served, response_cache=False) as client:
        api = Api(client, served)

        def read() -> dict[str, Any]:
            return api.query(FIGURES)

        old = read()
        meter = _ReadDuringSwap(read)
        load_directory(DEFAULT_FIXTURES_DIR, served, meter=meter)
        assert meter.thread is not None, "the load did not swap"
        meter.thread.join(timeout=30)
        new = read()
    assert new != old
    assert meter.waited > 0.5, "the request did not queue behind the swap"
    assert meter.answer == new


def test_a_loader_that_may_not_create_a_schema_loads_in_place_and_says_why(
    served: str, role: str, new_database: Callable[[str, str], str], tiny_folder: Path
) -> None:
    with autocommit(served) as connection:
        for grant in (
            f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {role}",
            f"GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO {role}",
        ):
            connection.execute(text(grant))
    said: list[str] = []
    steps = _Steps()
    as_role = make_url(served).set(username=role).render_as_string(hide_password=False)
    summary = load_directory(DEFAULT_FIXTURES_DIR, as_role, meter=steps, say=said.append)
    assert SWAP_STEP not in steps.seen
    assert "clearing the served rows" in steps.seen
    assert [line for line in said if "writes over the served rows" in line] == [
        "this load writes over the served rows, which is slower: its role may not create "
        "a schema in the database (GRANT CREATE ON DATABASE)"
    ]
    with serve(served, response_cache=False) as client:
        body = client.post("/graphql", json={"query": FIGURES}).json()
    assert body["data"]["taxonomy"]["methodCount"] == summary.counts["methods"]
    # The same loads by the owner, beside: the same changes recorded.
    beside = new_database("postgresql", "beside_too")
    load_directory(tiny_folder, beside)
    load_directory(DEFAULT_FIXTURES_DIR, beside)
    assert _treatment_changes(served) == _treatment_changes(beside) != []


def _treatment_changes(url: str) -> list[Any]:
    with autocommit(url) as connection:
        return list(
            connection.execute(
                text(
                    "SELECT release, model_slug, method_slug, before_rank, after_rank "
                    "FROM treatment_change ORDER BY 1, 2, 3"
                )
            ).all()
        )
