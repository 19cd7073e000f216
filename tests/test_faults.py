"""Faults: PostgreSQL cut away mid-load (through a TCP proxy the test owns, never by
stopping the shared server) fails fast with DATABASE_UNAVAILABLE and recovers by itself;
readers during a load see the old data or the new, never a mix; and a loading process
killed part-way leaves the served data exactly as before.

(A bad line 90% into the files is tests/test_loader.py's.)"""

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2 as httpx
import psutil
import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from tcp_proxy import TcpProxy

from api.commands.generate import Shape, generate
from api.ingest.load import load_directory
from api.ingest.progress import Quiet
from api.ingest.write import SEARCH_INDEX_STEP
from api.settings import DEFAULT_FIXTURES_DIR
from store.engines import make_sync_engine
from store.tables import TABLES_IN_LOAD_ORDER, table_of

from conftest import POSTGRES_URL, release_of, serve
from processes import running_server, worker_pids

TAXONOMY = Path(sys.executable).parent / "taxonomy"
CLIENTS = 8
FAIL_FAST_SECONDS = 5.0
RECOVERY_SECONDS = 5.0
PAGE = """
query($path: String!) {
  node(path: $path) {
    name counts { methodsInBranch modelsInBranch } byModel(first: 5) { totalCount }
  }
  taxonomy { nodeCount }
}"""
PAGE_VARIABLES = {"path": "optimization/training-parallelism"}
# One query, several figures that one load sets together.
FIGURES = """
{
  taxonomy { nodeCount rootCount methodCount modelCount evidenceCount checksum }
  roots { slug counts { methodsInBranch modelsInBranch } }
  methods(first: 3, orderBy: {field: MODEL_COUNT, direction: DESC}) {
    totalCount nodes { slug modelCount }
  }
}"""
FINGERPRINT = """
{
  taxonomy {
    nodeCount rootCount depth methodCount modelCount sourceCount evidenceCount
    dataVersion loadedAt checksum
  }
  roots { id slug counts { methodsInBranch modelsInBranch } children { slug } }
  methods(first: 100) { totalCount nodes { id slug modelCount strongest } }
  models(first: 100) { totalCount nodes { id slug name } }
}"""


@dataclass
class Outcome:
    started: float
    seconds: float
    status: int
    codes: list[str]


def _codes(response: httpx.Response) -> list[str]:
    body = response.json()
    return [error.get("extensions", {}).get("code", "") for error in body.get("errors") or []]


def _client(base: str) -> httpx.AsyncClient:
    """A client of one connection, for one task's requests one after another.

    Not one pool shared by every task: CI once saw a socket of such a pool dropped without
    being closed (an "unclosed transport" ResourceWarning in this process, whose only
    sockets are the test's own: the server runs in another process)."""
    return httpx.AsyncClient(base_url=base, timeout=30, limits=httpx.Limits(max_connections=1))


async def _clients(base: str, stop: asyncio.Event, outcomes: list[Outcome]) -> None:
    async def one() -> None:
        async with _client(base) as http:
            while not stop.is_set():
                started = time.monotonic()
                try:
                    response = await http.post(
                        "/graphql", json={"query": PAGE, "variables": PAGE_VARIABLES}
                    )
                    codes = _codes(response)
                    status = response.status_code
                except httpx.HTTPError as exc:
                    status, codes = 0, [type(exc).__name__]
                outcomes.append(Outcome(started, time.monotonic() - started, status, codes))
                await asyncio.sleep(0.02)

    await asyncio.gather(*(one() for _ in range(CLIENTS)))


async def _ready(http: httpx.AsyncClient) -> httpx.Response:
    return await http.get("/readyz")


@pytest.mark.skipif(POSTGRES_URL is None, reason="PostgreSQL only (TEST_DATABASE_URL)")
def test_postgresql_cut_away_and_back(
    new_database: Callable[[str, str], str], tiny_folder: Path, tmp_path: Path
) -> None:
    url = new_database("postgresql", "cut")
    load_directory(DEFAULT_FIXTURES_DIR, url)
    direct = make_url(url)
    with TcpProxy(direct.host or "127.0.0.1", direct.port or 5432) as proxy:
        proxied = direct.set(host="127.0.0.1", port=proxy.port).render_as_string(
            hide_password=False
        )
        with running_server(proxied, workers=2, response_cache="false") as base:
            pids = worker_pids(base)
            timeline = asyncio.run(_scenario(base, proxy))
            assert worker_pids(base) == pids, "a worker died or was restarted"
    outcomes, cut_at, restored_at, recovered_at, ready_while_cut = timeline
    report = (
        f"cut: {len(outcomes)} requests; recovered {recovered_at - restored_at:.2f} s after "
        f"the database came back; /readyz while cut: {ready_while_cut}"
    )
    print(report)
    (tmp_path / "cut.txt").write_text(report + "\n", encoding="utf-8")

    for outcome in outcomes:
        # Fail fast, as DATABASE_UNAVAILABLE: never a hang, a 5xx other than 503, INTERNAL,
        # nor (for requests in flight at the cut) the driver's own uncoded words.
        assert outcome.seconds < FAIL_FAST_SECONDS, outcome
        assert outcome.status in (200, 503), outcome
        assert set(outcome.codes) <= {"DATABASE_UNAVAILABLE"}, outcome
    before = [o for o in outcomes if o.started + o.seconds < cut_at]
    during = [
        o for o in outcomes if cut_at + 0.5 < o.started and o.started + o.seconds < restored_at
    ]
    after = [o for o in outcomes if o.started > recovered_at]
    assert before
    assert during
    assert after
    assert all(not o.codes for o in before)
    # Each field that reached the database fails on its own: `node` and `taxonomy` may both
    # report it (which one fails first decides whether the other's error is still
    # collected), so one error or two, every one of them DATABASE_UNAVAILABLE.
    unavailable = [o for o in during if o.codes and set(o.codes) == {"DATABASE_UNAVAILABLE"}]
    assert unavailable == during, [o for o in during if o not in unavailable]
    assert all(not o.codes and o.status == 200 for o in after)
    assert ready_while_cut[0] == 503
    assert str(ready_while_cut[1]).startswith("database unreachable")
    assert recovered_at - restored_at < RECOVERY_SECONDS


def _end_connections(url: str) -> int:
    """End every connection to ``url``'s database but this one, as a restart of
    PostgreSQL would; the number ended."""
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            ended = connection.execute(
                text(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
            ).scalar_one()
    finally:
        engine.dispose()
    return int(ended)


@pytest.mark.skipif(POSTGRES_URL is None, reason="PostgreSQL only (TEST_DATABASE_URL)")
def test_connections_dropped_while_idle_are_replaced(
    new_database: Callable[[str, str], str],
) -> None:
    """PostgreSQL ended the server's pooled connections while it sat idle (a restart,
    say): the next request and the next /readyz still answer, without a ping on every
    request; each finds its connection dead, and reads again through a new one."""
    url = new_database("postgresql", "dropped")
    load_directory(DEFAULT_FIXTURES_DIR, url)
    with serve(url, response_cache=False) as client:
        for check in ("graphql", "readyz"):
            assert client.post("/graphql", json={"query": PAGE, "variables": PAGE_VARIABLES})
            assert client.get("/readyz").status_code == 200
            assert _end_connections(url) >= 1
            if check == "graphql":
                page = client.post("/graphql", json={"query": PAGE, "variables": PAGE_VARIABLES})
                assert page.status_code == 200, page.text
                assert "errors" not in page.json(), page.json()
                assert page.json()["data"]["node"]["name"] == "training parallelism"
            else:
                ready = client.get("/readyz")
                assert ready.status_code == 200, ready.json()


async def _scenario(
    base: str, proxy: TcpProxy
) -> tuple[list[Outcome], float, float, float, tuple[int, Any]]:
    outcomes: list[Outcome] = []
    stop = asyncio.Event()
    load = asyncio.create_task(_clients(base, stop, outcomes))
    async with _client(base) as http:
        # Until the clients are answered (a warm-up: on a busy machine the new server's
        # first answers take seconds), and a while more.
        warm_until = time.monotonic() + 30
        while not any(o.status == 200 and not o.codes for o in outcomes):
            assert time.monotonic() < warm_until, outcomes[-3:]
            await asyncio.sleep(0.1)
        await asyncio.sleep(1)
        cut_at = time.monotonic()
        await asyncio.to_thread(proxy.cut)
        await asyncio.sleep(2)
        ready = await _ready(http)
        ready_while_cut = (ready.status_code, ready.json().get("reason"))
        await asyncio.sleep(1)
        restored_at = time.monotonic()
        await asyncio.to_thread(proxy.restore)
        recovered_at = float("inf")
        while time.monotonic() < restored_at + 3 * RECOVERY_SECONDS:
            ready = await _ready(http)
            page = await http.post("/graphql", json={"query": PAGE, "variables": PAGE_VARIABLES})
            if ready.status_code == 200 and page.status_code == 200 and not _codes(page):
                recovered_at = time.monotonic()
                break
            await asyncio.sleep(0.1)
        await asyncio.sleep(2)
    stop.set()
    await load
    return outcomes, cut_at, restored_at, recovered_at, ready_while_cut


def test_readers_during_loads_see_old_or_new_never_a_mix(
    backend: str, new_database: Callable[[str, str], str], tiny_folder: Path
) -> None:
    url = new_database(backend, "mix")
    datasets = [tiny_folder, DEFAULT_FIXTURES_DIR]
    answers = []
    with serve(url, response_cache=False) as client:

        def read() -> dict[str, Any]:
            response = client.post("/graphql", json={"query": FIGURES})
            assert response.status_code == 200, response.text
            body: dict[str, Any] = response.json()
            assert "errors" not in body, body
            data: dict[str, Any] = body["data"]
            return data

        for folder in datasets:
            load_directory(folder, url)
            answers.append(read())
        assert answers[0] != answers[1]

        seen: list[dict[str, Any]] = []
        failures: list[BaseException] = []
        done = threading.Event()

        def reader() -> None:
            try:
                while not done.is_set():
                    seen.append(read())
            except BaseException as exc:  # reported by the test's thread
                failures.append(exc)

        thread = threading.Thread(target=reader)
        thread.start()
        try:
            for turn in range(6):
                load_directory(datasets[turn % 2], url)
        finally:
            done.set()
            thread.join(timeout=30)
    assert failures == []
    mixed = [answer for answer in seen if answer not in answers]
    assert mixed == [], f"{len(mixed)} of {len(seen)} answers mix two loads: {mixed[0]}"
    assert all(answer in seen for answer in answers), "the reader did not see both datasets"


def _fingerprint(url: str) -> dict[str, Any]:
    with serve(url, response_cache=False) as client:
        assert client.get("/readyz").status_code == 200
        response = client.post("/graphql", json={"query": FINGERPRINT})
        body: dict[str, Any] = response.json()
        assert "errors" not in body, body
        data: dict[str, Any] = body["data"]
        return data


def _writing(url: str, backend: str) -> bool:
    """Whether a load is writing into the database now."""
    if backend == "sqlite":
        # A writer holds SQLite's write lock from its first write until it commits.
        lite = sqlite3.connect(make_url(url).database or "", timeout=0)
        try:
            lite.execute("BEGIN IMMEDIATE")
            lite.rollback()
            return False
        except sqlite3.OperationalError as exc:
            return "locked" in str(exc)
        finally:
            lite.close()
    engine = create_engine(make_url(url).set(drivername="postgresql+psycopg"))
    try:
        with engine.connect() as connection:
            locks = connection.execute(
                text(
                    "SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation "
                    "WHERE c.relname = 'dataset' AND l.mode = 'ShareRowExclusiveLock' "
                    "AND l.granted"
                )
            ).scalar()
        return bool(locks)
    finally:
        engine.dispose()


def _row_counts(url: str, *, wait_for_locks: bool = True) -> dict[str, int]:
    """Each table's rows, read from a connection of its own; without ``wait_for_locks``,
    a table locked for more than a second (PostgreSQL) is an error."""
    engine = make_sync_engine(url)
    try:
        with engine.connect() as connection:
            if connection.dialect.name == "postgresql" and not wait_for_locks:
                connection.execute(text("SET lock_timeout = '1s'"))
            counts = {}
            for row_class in TABLES_IN_LOAD_ORDER:
                name = table_of(row_class).name
                count = connection.execute(text(f"SELECT count(*) FROM {name}")).scalar()
                counts[name] = int(count or 0)
            return counts
    finally:
        engine.dispose()


class ReadsBeforeCommit(Quiet):
    """A load's meter that, at the load's last step before it commits (every table
    written, every index built), counts each table's rows without waiting for locks."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.counts: dict[str, int] = {}

    def step(self, what: str, seconds: float) -> None:
        if what == SEARCH_INDEX_STEP:
            self.counts = _row_counts(self.url, wait_for_locks=False)


def test_a_load_over_served_data_does_not_block_readers(
    backend: str, new_database: Callable[[str, str], str], tiny_folder: Path
) -> None:
    """Readers read the old data, at once, while a load is about to commit the new. (On
    PostgreSQL a first load, into an empty database, drops and rebuilds indexes and keys,
    which locks readers out until it commits; a load over served data must not.)"""
    url = new_database(backend, "unblocked")
    load_directory(tiny_folder, url)
    old = _row_counts(url)
    meter = ReadsBeforeCommit(url)
    load_directory(DEFAULT_FIXTURES_DIR, url, meter=meter)  # a lock timeout would fail it
    assert meter.counts == old
    new = _row_counts(url)
    assert new["evidence"] > old["evidence"]


@pytest.fixture(scope="module")
def big_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("big")
    generate(
        folder,
        Shape(nodes=400, methods=20_000, models=300, evidence=120_000, depth=5),
        base=DEFAULT_FIXTURES_DIR,
    )
    return folder


def test_a_killed_load_leaves_the_data_as_it_was(
    backend: str, new_database: Callable[[str, str], str], tiny_folder: Path, big_folder: Path
) -> None:
    url = new_database(backend, "killed")
    load_directory(tiny_folder, url)
    before = _fingerprint(url)
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    process = subprocess.Popen(
        [str(TAXONOMY), "load", str(big_folder), "--db", url],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    children: list[psutil.Process] = []
    try:
        deadline = time.monotonic() + 60
        # Killed while writing the evidence, which a child process reads and checks.
        while not (_writing(url, backend) and children):
            assert process.poll() is None, "the load finished before it could be killed"
            assert time.monotonic() < deadline, "the load never started writing evidence"
            time.sleep(0.05)
            children = psutil.Process(process.pid).children(recursive=True)
        time.sleep(0.2)  # into the write
        assert process.poll() is None, "the load finished before it could be killed"
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)
        # The child finds its parent gone and stops: nothing of the load lives on.
        _, alive = psutil.wait_procs(children, timeout=10)
        for orphan in alive:
            orphan.kill()
    assert process.returncode == -signal.SIGKILL
    assert alive == [], "the load's child process outlived it"
    assert _fingerprint(url) == before

    # The next load works, and serves its data.
    done = subprocess.run(
        [str(TAXONOMY), "load", str(DEFAULT_FIXTURES_DIR), "--db", url],
        env=env,
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    after = _fingerprint(url)
    assert after["taxonomy"]["checksum"] != before["taxonomy"]["checksum"]
    assert release_of(after["taxonomy"]["dataVersion"]) > release_of(
        before["taxonomy"]["dataVersion"]
    )
