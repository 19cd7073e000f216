"""The S, M and L datasets, and the databases the benchmark loads them into.

Datasets are generated once and kept under var/bench/data/ (delete it to regenerate).
Databases are the benchmark's own: SQLite files under var/bench/run/ and PostgreSQL
databases named bench_<scale>_<random>, created here and dropped by `drop_databases`,
which never touches a database this run did not create.
"""

import os
import secrets
import shutil
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

from bench.source import Source
from bench.systems import PROJECT

DATA_DIR = PROJECT / "var" / "bench" / "data"
RUN_DIR = PROJECT / "var" / "bench" / "run"
PG_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
FUNCTIONS_SQL = PROJECT / "bench" / "postgraphile" / "functions.sql"


def _run(source: Source, command: list[str], **options: Any) -> "subprocess.Popen[bytes]":
    return subprocess.Popen(
        command, cwd=source.directory, env={**os.environ, **source.env()}, **options
    )


def _generated(source: Source, directory: Path, *options: str) -> Path:
    """``directory``, written by `taxonomy generate DIRECTORY OPTIONS` on first use."""
    done = directory / ".complete"
    if done.exists():
        return directory
    if directory.exists():  # a generation that did not finish
        shutil.rmtree(directory)
    directory.parent.mkdir(parents=True, exist_ok=True)
    command = source.taxonomy("generate", str(directory), *options)
    if _run(source, command).wait() != 0:
        raise RuntimeError(f"{' '.join(command)} failed")
    done.write_text("")
    return directory


def dataset(source: Source, scale: str) -> Path:
    """The dataset of ``scale``, made by `taxonomy generate` on first use."""
    return _generated(source, DATA_DIR / scale, "--scale", scale)


def next_dataset(source: Source, previous: Path, *, seed: int, each: int) -> Path:
    """An edited copy of the dataset in ``previous`` (`taxonomy generate --next-of`, a
    seeded mix of every change history records, ``each`` of every kind), made on first
    use beside it."""
    directory = previous.parent / f"{previous.name}-next-{seed}-{each}"
    return _generated(
        source, directory, "--next-of", str(previous), "--seed", str(seed), "--each", str(each)
    )


@dataclass(frozen=True)
class LoadResult:
    url: str
    seconds: float  # wall clock of `taxonomy load`
    peak_mb: float  # the load process's peak resident memory
    output: str


def load(source: Source, directory: Path, url: str) -> LoadResult:
    """`taxonomy load DIR --db URL` in a child process, timed, with its peak memory."""
    started = time.perf_counter()
    process = _run(
        source,
        source.taxonomy("load", str(directory), "--db", url),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    assert process.stdout is not None
    output = process.stdout.read().decode(errors="replace")
    # wait4 gives this child's own resource usage (ru_maxrss in KiB on Linux).
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        sys.stderr.write(output)
        raise RuntimeError(f"taxonomy load {directory} --db {url} failed")
    return LoadResult(url, seconds, usage.ru_maxrss / 1024, output)


def sqlite_url(scale: str) -> str:
    RUN_DIR.mkdir(parents=True, exist_ok=True)
    path = RUN_DIR / f"{scale}.db"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    return f"sqlite:///{path}"


class PostgresDatabases:
    """Creates uniquely named databases and drops exactly those."""

    def __init__(self, admin_url: str = PG_ADMIN_URL) -> None:
        self._admin_url = admin_url
        self.created: list[str] = []

    def create(self, scale: str) -> str:
        name = f"bench_{scale.lower()}_{secrets.token_hex(4)}"
        with psycopg.connect(self._admin_url, autocommit=True) as connection:
            connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        self.created.append(name)
        return self._admin_url.rsplit("/", 1)[0] + f"/{name}"

    def cancel_queries(self, older_than_seconds: float) -> int:
        """Cancel the queries in these databases that have run longer than
        ``older_than_seconds``: between runs, queries of clients that hung up. Returns how
        many were cancelled."""
        if not self.created:
            return 0
        with psycopg.connect(self._admin_url, autocommit=True) as connection:
            rows = connection.execute(
                "SELECT pg_cancel_backend(pid) FROM pg_stat_activity"
                " WHERE datname = ANY(%s) AND state = 'active' AND pid <> pg_backend_pid()"
                " AND now() - query_start > make_interval(secs => %s)",
                (self.created, older_than_seconds),
            ).fetchall()
        return len(rows)

    def drop_all(self) -> None:
        with psycopg.connect(self._admin_url, autocommit=True) as connection:
            while self.created:
                name = self.created.pop()
                connection.execute(
                    sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
                )


def prepare_postgres(url: str) -> None:
    """After a load: the peer's functions, and fresh planner statistics for every system
    alike (autovacuum would gather them at some moment during the run otherwise)."""
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(FUNCTIONS_SQL.read_text(encoding="utf-8").encode())
        connection.execute("ANALYZE")


def largest_root(sqlite_file_url: str) -> str:
    """W4's node: the root with the most models in its branch (ties by tree order)."""
    path = sqlite_file_url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as connection:
        row = connection.execute(
            "SELECT node.slug FROM node JOIN node_stats ON node_stats.node_id = node.id"
            " WHERE node.parent_id IS NULL"
            " ORDER BY node_stats.models_in_branch DESC, node.pre LIMIT 1"
        ).fetchone()
    return str(row[0])


def row_counts(sqlite_file_url: str) -> dict[str, int]:
    path = sqlite_file_url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as connection:
        return {
            table: int(connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
            for table in ("node", "method", "model", "evidence")
        }
