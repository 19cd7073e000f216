"""Loads at the same time (issue 15, item 7): the second says which load is running and
since when, and waits for it in the open, or with `--no-wait` fails at once; on both
databases. A killed loader never holds up the next load: on SQLite the kernel drops its
lock file's flock; on PostgreSQL the backend it left running with the lock is found and
ended, and the load says so.
"""

import fcntl
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

import psycopg
import pytest
from sqlalchemy import text
from test_loader import (
    NewDatabase,
    assert_loaded,
    evidence_lines,
    load,
    table_rows,
    write_dataset,
    write_lines,
)

from api.ingest import lock_postgres
from api.ingest.load import load_directory
from api.ingest.lock import one_load_at_a_time
from api.ingest.lock_file import lock_path
from api.ingest.lock_postgres import application_name, loader_url
from store.engines import make_sync_engine, sync_url

from conftest import POSTGRES_URL
from processes import TAXONOMY

HOST = socket.gethostname()
postgresql_only = pytest.mark.skipif(POSTGRES_URL is None, reason="PostgreSQL only")
# The first of two real loads: big enough that it is still loading when it is stopped.
EVIDENCE_OF_THE_FIRST = 20_000


@pytest.fixture
def loaded(tmp_path: Path, new_database: NewDatabase, backend: str) -> str:
    url = new_database(backend, "concurrent")
    assert_loaded(load(write_dataset(tmp_path / "small"), url), 4)
    return url


@contextmanager
def another_load(url: str) -> Iterator[threading.Event]:
    """This process holds the load lock, as a load does, in a thread, until the event
    it yields is set (or the block ends)."""
    taken, done = threading.Event(), threading.Event()
    failures: list[BaseException] = []

    def hold() -> None:
        engine = make_sync_engine(loader_url(url))
        try:
            with one_load_at_a_time(engine, wait=False, say=print):
                taken.set()
                done.wait(60)
        except BaseException as exc:  # reported by the test's thread
            failures.append(exc)
            taken.set()
        finally:
            engine.dispose()

    thread = threading.Thread(target=hold)
    thread.start()
    taken.wait(30)
    assert not failures, failures
    try:
        yield done
    finally:
        done.set()
        thread.join(30)
    assert not failures, failures


def test_a_second_load_says_who_is_loading_and_waits_for_it(tmp_path: Path, loaded: str) -> None:
    folder = write_dataset(tmp_path / "again")
    with another_load(loaded) as done:
        threading.Timer(2.0, done.set).start()
        started = time.monotonic()
        result = load(folder, loaded)
        waited = time.monotonic() - started
    assert_loaded(result, 4)
    assert waited >= 1.5
    lines = result.stderr.splitlines()
    waiting = [line for line in lines if "waiting for it to finish" in line]
    assert len(waiting) == 1, lines
    assert waiting[0].startswith(f"another load is running (pid {os.getpid()} on {HOST}")
    assert " since 20" in waiting[0]
    assert " s ago); waiting for it to finish (--no-wait to fail at once instead)" in waiting[0]
    assert any(line.startswith("the other load is done; waited ") for line in lines), lines


def test_no_wait_fails_at_once_and_changes_nothing(tmp_path: Path, loaded: str) -> None:
    before = table_rows(loaded)
    folder = write_dataset(tmp_path / "again")
    with another_load(loaded):
        started = time.monotonic()
        result = load(folder, loaded, "--no-wait")
        took = time.monotonic() - started
    assert took < 5
    assert result.exit_code == 1, result.output
    last = result.stderr.splitlines()[-1]
    assert last.startswith(
        f"Error: nothing was loaded: another load is running (pid {os.getpid()} on {HOST}"
    )
    assert last.endswith(
        "; run it again once that load is done, or without --no-wait to wait for it"
    )
    assert table_rows(loaded) == before


@contextmanager
def killed_at_the_end(process: subprocess.Popen[str]) -> Iterator[Iterator[str]]:
    """The lines ``process`` prints; it is killed (SIGKILL, as the OOM killer would) and
    reaped when the block ends."""
    assert process.stdout is not None
    try:
        yield iter(process.stdout)
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(10)
        process.stdout.close()


def test_a_killed_sqlite_loader_does_not_hold_up_the_next(
    tmp_path: Path, new_database: NewDatabase
) -> None:
    """Its record is left in the lock file, but not its lock."""
    url = new_database("sqlite", "killed_sqlite")
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from pathlib import Path\n"
            "from api.ingest.lock_file import lock_file\n"
            "with lock_file(Path(sys.argv[1]), wait=False, say=print):\n"
            "    print('locked', flush=True); time.sleep(600)\n",
            str(make_sync_engine(url).url.database),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    with killed_at_the_end(holder) as lines:
        assert next(lines).strip() == "locked"
    result = load(write_dataset(tmp_path / "small"), url)
    assert_loaded(result, 4)
    assert "another load" not in result.stderr


LEFTOVER = """
import os, sys, psycopg
from api.ingest.lock_postgres import application_name
connection = psycopg.connect(sys.argv[1], application_name=application_name(os.getpid()))
connection.execute("LOCK TABLE dataset IN SHARE ROW EXCLUSIVE MODE")
backend = connection.execute("SELECT pg_backend_pid()").fetchone()[0]
print(backend, flush=True)
connection.execute("SELECT pg_sleep(60)")  # a statement running when its loader dies
"""


def psycopg_url(url: str) -> str:
    return sync_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


@postgresql_only
def test_a_killed_loaders_backend_is_ended_and_the_load_says_so(
    tmp_path: Path, new_database: NewDatabase
) -> None:
    """A loader killed while its backend runs a statement leaves the backend running, with
    the lock, until the statement ends (here 60 s); the next load ends it at once."""
    url = new_database("postgresql", "killed_postgres")
    assert_loaded(load(write_dataset(tmp_path / "small"), url), 4)
    holder = subprocess.Popen(
        [sys.executable, "-c", LEFTOVER, psycopg_url(url)], stdout=subprocess.PIPE, text=True
    )
    with killed_at_the_end(holder) as lines:
        backend = int(next(lines))
        # Killed only once its statement runs: killed between its two statements, the
        # backend would find its client gone at once and end by itself.
        _wait_until_running(url, backend, "SELECT pg_sleep(60)")
    started = time.monotonic()
    result = load(write_dataset(tmp_path / "again"), url)
    assert time.monotonic() - started < 20
    assert_loaded(result, 4)
    assert (
        f"ended PostgreSQL backend {backend}, which held the load lock for a load whose "
        f"process (pid {holder.pid} on {HOST}) is no longer running"
    ) in result.stderr.splitlines()


def _wait_until_running(url: str, backend: int, statement: str) -> None:
    deadline = time.monotonic() + 10
    with psycopg.connect(psycopg_url(url), autocommit=True) as connection:
        while True:
            row = connection.execute(
                "SELECT state, query FROM pg_stat_activity WHERE pid = %s", (backend,)
            ).fetchone()
            if row is not None and row[0] == "active" and row[1] == statement:
                return
            assert time.monotonic() < deadline, f"backend {backend} never ran {statement}"
            time.sleep(0.05)


@contextmanager
def backend_holding_the_lock(url: str, name: str) -> Iterator[int]:
    """A connection named ``name`` that took the load lock and then idles in its
    transaction; yields its backend's pid."""
    connection = psycopg.connect(psycopg_url(url), application_name=name)
    try:
        # Should the load not end it, PostgreSQL does, and the test fails instead of hanging.
        connection.execute("SET idle_in_transaction_session_timeout = '20s'")
        connection.execute("LOCK TABLE dataset IN SHARE ROW EXCLUSIVE MODE")
        row = connection.execute("SELECT pg_backend_pid()").fetchone()
        assert row is not None
        yield int(row[0])
    finally:
        connection.close()  # the backend may be gone: ended by the load


@postgresql_only
def test_a_loader_idle_in_its_transaction_is_ended(
    tmp_path: Path, new_database: NewDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A loader on another host, idle in its transaction (a machine gone without closing
    its connections): its pid cannot be checked, its idleness can."""
    monkeypatch.setattr(lock_postgres, "ABANDONED_AFTER_SECONDS", 1)
    url = new_database("postgresql", "idle_loader")
    load_directory(write_dataset(tmp_path / "small"), url)
    said: list[str] = []
    with backend_holding_the_lock(url, application_name(4242, "elsewhere.example")) as backend:
        load_directory(write_dataset(tmp_path / "again"), url, say=said.append)
    assert said[0].startswith("another load is running (pid 4242 on elsewhere.example, ")
    assert (
        f"ended PostgreSQL backend {backend}, which held the load lock for a load "
        "(pid 4242 on elsewhere.example) idle in its transaction for "
    ) in "\n".join(said)


@postgresql_only
def test_a_holder_that_is_not_a_load_is_named_and_left_alone(
    tmp_path: Path, new_database: NewDatabase
) -> None:
    url = new_database("postgresql", "other_holder")
    assert_loaded(load(write_dataset(tmp_path / "small"), url), 4)
    with backend_holding_the_lock(url, "psql") as backend:
        result = load(write_dataset(tmp_path / "again"), url, "--no-wait")
    assert result.exit_code == 1, result.output
    assert (
        f"nothing was loaded: the load lock (table dataset) is held by PostgreSQL backend "
        f"{backend} (psql, "
    ) in result.stderr


def lock_taken(url: str) -> bool:
    """Whether a load holds the load lock, seen from outside it, and has said who it is. On
    SQLite a load writes its record into the lock file just after it takes the flock
    (api.ingest.lock_file): a load stopped between the two is one that "has not said who it
    is yet". On PostgreSQL its session's name says so from before it takes the lock."""
    if url.startswith("sqlite"):
        path = lock_path(Path(str(make_sync_engine(url).url.database)))
        if not path.exists():
            return False
        with path.open("rb") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return b'"pid"' in handle.read()
            return False  # closing the file lets go at once
    engine = make_sync_engine(url)
    try:
        with engine.connect() as connection:
            return bool(
                connection.execute(
                    text(
                        "SELECT count(*) FROM pg_locks WHERE locktype = 'relation' AND granted"
                        " AND relation = 'dataset'::regclass AND mode = 'ShareRowExclusiveLock'"
                    )
                ).scalar()
            )
    finally:
        engine.dispose()


def _taxonomy_load(directory: Path, url: str, *options: str) -> subprocess.Popen[str]:
    """`taxonomy load` of ``directory`` as a process of its own, its output piped."""
    return subprocess.Popen(
        [str(TAXONOMY), "load", str(directory), "--db", url, *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _until_said(stream: IO[str], words: str) -> str:
    """The lines ``stream`` gives up to the first with ``words`` in it (or to its end)."""
    lines: list[str] = []
    while line := stream.readline():
        lines.append(line)
        if words in line:
            break
    return "".join(lines)


@pytest.mark.parametrize("wait", [True, False], ids=["wait", "no-wait"])
def test_two_real_loads_at_once(tmp_path: Path, loaded: str, wait: bool) -> None:
    """Two `taxonomy load` processes: the second says the first is running, then waits
    for it and loads, or with --no-wait fails at once (SQLite said "database is locked.
    Check that it is running and that the URL is right"; PostgreSQL, nothing). The first is
    stopped (SIGSTOP) once it holds the lock, and let go on once the second has spoken:
    the overlap is certain whatever the machine's speed, and the first load can stay small
    (a load of 300,000 pieces of evidence made it likely before, at 10-13 s a test)."""
    big = write_dataset(tmp_path / "big")
    write_lines(big / "evidence.jsonl", evidence_lines(EVIDENCE_OF_THE_FIRST))
    first = _taxonomy_load(big, loaded)
    second: subprocess.Popen[str] | None = None
    # Should the second never say it (a regression), the first is let go anyway: the
    # second then loads or fails, its output ends, and the assertions below say what it
    # said, where reading on would wait for ever on a stopped first load.
    let_go = threading.Timer(60, lambda: os.kill(first.pid, signal.SIGCONT))
    try:
        deadline = time.monotonic() + 60
        while not lock_taken(loaded):
            assert first.poll() is None, first.communicate()
            assert time.monotonic() < deadline, "the first load never took the lock"
            time.sleep(0.02)
        os.kill(first.pid, signal.SIGSTOP)
        let_go.start()
        # 4 evidence after the first's: a shrink, allowed.
        options = ["--allow-shrink"] if wait else ["--allow-shrink", "--no-wait"]
        second = _taxonomy_load(write_dataset(tmp_path / "small"), loaded, *options)
        assert second.stderr is not None
        said = _until_said(second.stderr, "another load is running")
        let_go.cancel()
        os.kill(first.pid, signal.SIGCONT)
        _, err = first.communicate(timeout=120)
        out, rest = second.communicate(timeout=120)
    finally:
        let_go.cancel()
        for process in (first, second):
            if process is not None and process.poll() is None:
                process.kill()
                process.wait()
    assert first.returncode == 0, err
    running = f"another load is running (pid {first.pid} on {HOST}"
    if wait:
        assert second.returncode == 0, said + rest
        assert "4 evidence; data version " in out
        assert any(line.startswith(running) for line in said.splitlines()), said + rest
        assert len(table_rows(loaded)["evidence"]) == 4  # the second one's data, loaded last
    else:
        assert second.returncode == 1, said + rest
        assert f"Error: nothing was loaded: {running}" in said + rest
        assert len(table_rows(loaded)["evidence"]) == EVIDENCE_OF_THE_FIRST
