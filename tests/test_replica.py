"""Scale-out on PostgreSQL (docs/scale-out.md): stateless servers read a hot-standby
replica while loads go to its primary.

A throwaway primary cluster and a streaming hot standby of it are made with PostgreSQL's
own tools (`pg_config --bindir`: initdb, pg_ctl, pg_basebackup), as the `postgres` user
when the tests run as root, in a fresh folder and on free ports of their own: never the
machine's own cluster. Both are stopped and their folder deleted at the end, pass or fail.
On when the PostgreSQL tests are (TEST_DATABASE_URL), and when the tools are installed."""

import os
import pwd
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

import httpx2 as httpx
import psycopg
import pytest
from server_stream import (
    SWITCH_WITHIN_SECONDS,
    Stream,
    renamed_method,
    start_servers,
    taxonomy_cli,
)

from api.commands.cli import prepare_database
from api.commands.generate_next import next_version
from api.ingest.load import load_directory
from api.settings import DEFAULT_FIXTURES_DIR, Settings

from conftest import POSTGRES_URL, release_of, serve
from processes import free_port

TOOLS = ("initdb", "pg_ctl", "pg_basebackup")


def _bindir() -> Path | None:
    """Where PostgreSQL's server tools are, if they all are."""
    pg_config = shutil.which("pg_config")
    if pg_config is None:
        return None
    found = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True, check=False)
    bindir = Path(found.stdout.strip())
    return bindir if all((bindir / tool).is_file() for tool in TOOLS) else None


def _missing() -> str | None:
    """Why the clusters cannot be made here, if they cannot."""
    if POSTGRES_URL is None:
        return "PostgreSQL only (TEST_DATABASE_URL)"
    if BINDIR is None:
        return f"PostgreSQL's server tools ({', '.join(TOOLS)}) not found by pg_config --bindir"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root, and there is no `postgres` user to run PostgreSQL as"
        if shutil.which("runuser") is None:
            return "running as root, and there is no runuser to run PostgreSQL as `postgres`"
    return None


BINDIR = _bindir()
MISSING = _missing()
pytestmark = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")


def _as_postgres(*command: str | Path) -> list[str]:
    """``command`` as the `postgres` user when we are root (PostgreSQL refuses root)."""
    assert BINDIR is not None
    tool = [str(BINDIR / str(command[0])), *map(str, command[1:])]
    return ["runuser", "-u", "postgres", "--", *tool] if os.geteuid() == 0 else tool


def _run(*command: str | Path) -> None:
    done = subprocess.run(_as_postgres(*command), capture_output=True, text=True, check=False)
    assert done.returncode == 0, f"{command[0]} failed:\n{done.stdout}{done.stderr}"


def _postgresql_conf(port: int, sockets: Path) -> str:
    return (
        f"\nport = {port}\nlisten_addresses = '127.0.0.1'\n"
        f"unix_socket_directories = '{sockets}'\n"
        # A throwaway cluster: nothing to keep across a crash of the machine.
        "fsync = off\nshared_buffers = 32MB\n"
    )


@dataclass
class Clusters:
    """A primary and its hot standby, by port (the same databases on both)."""

    primary_port: int
    standby_port: int

    def url(self, port: int, database: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{port}/{database}"

    def create(self, database: str) -> tuple[str, str]:
        """A new database on the primary, once the standby has it too: (primary, standby)."""
        with psycopg.connect(self.url(self.primary_port, "postgres"), autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{database}"')
        self.wait_replayed()
        return self.url(self.primary_port, database), self.url(self.standby_port, database)

    def wait_replayed(self, timeout: float = 20) -> float:
        """When (time.monotonic()) the standby had replayed all the primary had written."""
        with psycopg.connect(self.url(self.primary_port, "postgres"), autocommit=True) as primary:
            written = primary.execute("SELECT pg_current_wal_lsn()").fetchone()
        assert written is not None
        deadline = time.monotonic() + timeout
        with psycopg.connect(self.url(self.standby_port, "postgres"), autocommit=True) as standby:
            while True:
                row = standby.execute(
                    "SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", (str(written[0]),)
                ).fetchone()
                if row is not None and row[0]:
                    return time.monotonic()
                assert time.monotonic() < deadline, f"the standby did not reach {written[0]}"
                time.sleep(0.01)


@pytest.fixture(scope="module")
def clusters() -> Iterator[Clusters]:
    top = Path(tempfile.mkdtemp(prefix="taxonomy-replica-"))
    try:
        if os.geteuid() == 0:
            shutil.chown(top, "postgres", "postgres")
        primary, standby = top / "primary", top / "standby"
        primary_port = free_port()
        standby_port = free_port()
        while standby_port == primary_port:
            standby_port = free_port()
        with ExitStack() as running:
            _run("initdb", "-D", primary, "-U", "postgres", "--auth=trust", "--no-sync")
            with (primary / "postgresql.conf").open("a") as conf:
                conf.write(_postgresql_conf(primary_port, top))
            _run("pg_ctl", "-D", primary, "-l", top / "primary.log", "-w", "start")
            running.callback(_stop, primary)
            _run(
                "pg_basebackup", "-D", standby, "-h", "127.0.0.1", "-p", str(primary_port),
                "-U", "postgres", "--write-recovery-conf", "--wal-method=stream",
                "--checkpoint=fast",
            )  # fmt: skip
            with (standby / "postgresql.conf").open("a") as conf:
                conf.write(f"\nport = {standby_port}\n")  # the last setting counts
            _run("pg_ctl", "-D", standby, "-l", top / "standby.log", "-w", "start")
            running.callback(_stop, standby)
            made = Clusters(primary_port, standby_port)
            with psycopg.connect(made.url(standby_port, "postgres")) as check:
                row = check.execute("SELECT pg_is_in_recovery()").fetchone()
                assert row == (True,), "the standby is not a hot standby"
            yield made
    finally:
        shutil.rmtree(top, ignore_errors=True)


def _stop(data: Path) -> None:
    stopped = subprocess.run(
        _as_postgres("pg_ctl", "-D", data, "-m", "immediate", "-w", "stop"),
        capture_output=True,
        check=False,
    )
    assert stopped.returncode == 0, stopped.stderr


def _first_seen(standby: str, release: int, seen: list[float], stop: threading.Event) -> None:
    """Appends when (time.monotonic()) the standby first shows ``release``: polled every
    5 ms, the moment its replay made the load's commit visible."""
    with psycopg.connect(standby, autocommit=True) as connection:
        while not stop.wait(0.005):
            row = connection.execute("SELECT version FROM dataset").fetchone()
            if row is not None and row[0] == release:
                seen.append(time.monotonic())
                return


def test_servers_on_a_standby_serve_each_load_of_the_primary(
    clusters: Clusters, tmp_path: Path
) -> None:
    """Two `taxonomy serve` on the standby answer; a load on the primary, under a steady
    stream of queries, reaches every server within 2 s of the standby's replay, with no
    request failing and every answer's data that of the version it names: its
    `taxonomy.dataVersion` (read in the answer's own snapshot) and a method the load
    renames. The stream repeats one query, so most answers come from each server's
    response cache, kept by data version; the next test shows the uncached answer's case."""
    primary, standby = clusters.create("taxonomy")
    following = tmp_path / "next"
    next_version(DEFAULT_FIXTURES_DIR, following, seed=1)
    slug, names = renamed_method(DEFAULT_FIXTURES_DIR, following)

    with ExitStack() as servers:
        # The servers start while the first load runs: on a standby that has no data yet,
        # a server serves, unready, until the primary's load reaches it (/readyz waits).
        with ThreadPoolExecutor(1) as pool:
            first_load = pool.submit(taxonomy_cli, "load", DEFAULT_FIXTURES_DIR, "--db", primary)
            bases = start_servers(servers, standby, 2)
            first_load.result()
        for base in bases:
            ready = httpx.get(f"{base}/readyz", timeout=5).json()
            assert ready["status"] == "ready", ready
            assert release_of(ready["dataVersion"]) == 1

        seen: list[float] = []
        stop_watching = threading.Event()
        watcher = threading.Thread(target=_first_seen, args=(standby, 2, seen, stop_watching))
        with Stream(bases, slug) as stream:
            # Under way, every server answering release 1.
            assert stream.all_serve(1, within=10), stream.answers[-4:]
            watcher.start()
            started = time.monotonic()
            try:
                taxonomy_cli("load", following, "--db", primary)
                caught_up = clusters.wait_replayed()
                watcher.join(timeout=5)
            finally:
                stop_watching.set()
                watcher.join()
            assert seen, "the standby never showed release 2"
            replayed = seen[0]
            deadline = replayed + SWITCH_WITHIN_SECONDS + 1
            while not all(stream.first(base, 2) for base in bases):
                assert time.monotonic() < deadline, stream.answers[-4:]
                time.sleep(0.02)
            time.sleep(0.3)  # and still serving it
        answers = stream.answers

    failures = [answer for answer in answers if answer.failure]
    assert not failures, failures[:5]
    for answer in answers:
        release = release_of(answer.version)
        assert answer.read_version == answer.version, answer  # one version per answer
        assert answer.name == names[release], answer
    switches = {}
    for base in bases:
        mine = [answer for answer in answers if answer.server == base]
        releases = [release_of(answer.version) for answer in mine]
        assert releases == sorted(releases), f"{base} went back to release 1"
        first_new = next(answer for answer in mine if release_of(answer.version) == 2)
        switches[base] = first_new.received - replayed
        assert switches[base] <= SWITCH_WITHIN_SECONDS, switches
    during = [answer for answer in answers if answer.received >= started]
    print(
        f"replayed {replayed - started:.2f} s into the load, all WAL {caught_up - replayed:.3f} s "
        "later; each server's first answer of the new release after the replay: "
        + ", ".join(f"{seconds:.3f} s" for seconds in switches.values())
        + f"; {len(answers)} requests ({len(during)} from the load on), {len(failures)} failed"
    )


def test_a_server_on_a_standby_writes_nothing_and_waits_for_the_primary(
    clusters: Clusters, tiny_folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`taxonomy serve` on a standby whose primary is neither migrated nor loaded does not
    try to migrate it or load the default fixtures into it (a standby refuses every write;
    the server once stopped there, with a traceback): it serves, not ready, until the
    primary is migrated and loaded, then ready with no restart."""
    primary, standby = clusters.create("empty")
    prepare_database(Settings(database_url=standby))
    assert "read-only hot standby" in capsys.readouterr().err
    with serve(standby) as client:
        waiting = client.get("/readyz")
        assert waiting.status_code == 503
        assert "run `taxonomy migrate`" in waiting.json()["reason"]
        load_directory(tiny_folder, primary)
        clusters.wait_replayed()
        ready = client.get("/readyz")
        assert ready.status_code == 200, ready.json()
        assert release_of(ready.json()["dataVersion"]) == 1
        answer = client.post("/graphql", json={"query": "{ taxonomy { nodeCount } }"}).json()
        assert answer["data"] == {"taxonomy": {"nodeCount": 5}}
    # The primary itself is prepared as before (already migrated and loaded: nothing to do).
    prepare_database(Settings(database_url=primary))
    assert "standby" not in capsys.readouterr().err


def test_an_answer_read_after_a_replay_names_the_version_it_read(
    clusters: Clusters, tiny_folder: Path
) -> None:
    """Made certain: the poll is slowed to a minute and the response cache is off, so the
    first answer after the replay is read from the new data before the poll sees it. (The
    same on one database without a replica, right after a load commits.)"""
    primary, standby = clusters.create("tagged")
    load_directory(tiny_folder, primary)
    clusters.wait_replayed()
    with serve(standby, version_poll_seconds=60, response_cache=False) as client:
        load_directory(tiny_folder, primary)
        clusters.wait_replayed()
        answer = client.post("/graphql", json={"query": "{ taxonomy { dataVersion } }"}).json()
    assert answer["data"]["taxonomy"]["dataVersion"] == answer["extensions"]["dataVersion"]
