"""The S, M and L datasets, and the databases the benchmark loads them into.

Datasets are generated once and kept under var/bench/data/ (delete it to regenerate).
Databases are the benchmark's own: SQLite files under var/bench/run/ and PostgreSQL
databases named bench_<scale>_<random>, created here and dropped by `drop_databases`,
which never touches a database this run did not create.
"""

import os
import secrets
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import psycopg
from psycopg import sql

from bench.systems import PROJECT

DATA_DIR = PROJECT / "var" / "bench" / "data"
RUN_DIR = PROJECT / "var" / "bench" / "run"
PG_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
FUNCTIONS_SQL = PROJECT / "bench" / "postgraphile" / "functions.sql"
TAXONOMY = str(PROJECT / ".venv" / "bin" / "taxonomy")


def _has_generate_command() -> bool:
    result = subprocess.run([TAXONOMY, "--help"], capture_output=True, text=True, check=True)
    return "generate" in result.stdout


def dataset(scale: str) -> Path:
    """The dataset of ``scale``, generated on first use (`taxonomy generate` if it exists)."""
    directory = DATA_DIR / scale
    done = directory / ".complete"
    if done.exists():
        return directory
    directory.mkdir(parents=True, exist_ok=True)
    if _has_generate_command():
        subprocess.run([TAXONOMY, "generate", str(directory), "--scale", scale], check=True)
    else:
        from api.generate import generate_scale

        generate_scale(directory, scale, fixtures=PROJECT / "fixtures")
    done.write_text("")
    return directory


@dataclass(frozen=True)
class LoadResult:
    url: str
    seconds: float  # wall clock of `taxonomy load`
    peak_mb: float  # the load process's peak resident memory
    output: str


def load(directory: Path, url: str) -> LoadResult:
    """`taxonomy load DIR --db URL` in a child process, timed, with its peak memory."""
    started = time.perf_counter()
    process = subprocess.Popen(
        [TAXONOMY, "load", str(directory), "--db", url],
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
