"""The machine a run measured: what RESULTS.md must say for its figures to mean anything."""

import datetime
import json
import os
import platform
import sqlite3
import subprocess
import timeit
from pathlib import Path

import psycopg

from bench.systems import PEER_DIR


def _first(path: str, prefix: str) -> str:
    try:
        for line in Path(path).read_text().splitlines():
            if line.startswith(prefix):
                return line.split(":", 1)[1].strip() if ":" in line else line.split("=", 1)[1]
    except OSError:
        pass
    return "unknown"


def _run(*command: str) -> str:
    try:
        result = subprocess.run(command, capture_output=True, text=True, check=False)
    except OSError:
        return "unknown"
    return (result.stdout or result.stderr).strip().splitlines()[0]


def _postgraphile_version() -> str:
    lock = json.loads((PEER_DIR / "package-lock.json").read_text())
    return str(lock["packages"]["node_modules/postgraphile"]["version"])


def python_speed() -> str:
    """A fixed piece of Python work, timed: the same CPU model name runs at different speeds
    on different hosts (on 7 December this machine took 0.29 s here, and the test suite
    used 1,107 CPU-s where it had used 808 the day before), so two runs' figures compare
    only beside this."""
    best = min(timeit.repeat("for i in range(10_000_000): s += i", "s = 0", number=1, repeat=3))
    return f"{best:.2f} s for 10M additions in a Python loop (best of 3; lower is faster)"


def describe(pg_url: str) -> dict[str, str]:
    memory_kib = int(_first("/proc/meminfo", "MemTotal").split()[0])
    with psycopg.connect(pg_url) as connection:
        row = connection.execute("SHOW server_version").fetchone()
    return {
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "CPU": _first("/proc/cpuinfo", "model name"),
        "cores": str(os.cpu_count()),
        "Python speed": python_speed(),
        "RAM": f"{memory_kib / 1024 / 1024:.1f} GiB",
        "OS": f"{_first('/etc/os-release', 'PRETTY_NAME=').strip(chr(34))}, "
        f"Linux {platform.release()}",
        "Python": platform.python_version(),
        "Node": _run("node", "--version"),
        "PostgreSQL": str(row[0]) if row else "unknown",
        "SQLite": sqlite3.sqlite_version,
        "PostGraphile": _postgraphile_version(),
        "wrk": _run("wrk", "--version").split(" [")[0],
    }
