"""How soon a process is ready (issue 23 item 2): the `taxonomy` commands a person types,
each timed from its process's start to its exit, and `taxonomy serve` (one worker) from
its process's start to `/readyz` answering 200; on the fixtures, in a fresh database of
each kind (a SQLite file in a temporary folder, a PostgreSQL database made here and
dropped afterwards). Part of `make bench` (bench/run.py); alone:

    .venv/bin/python -m bench.start_times [--runs 5] [--json]

The databases first get the fixtures, then their next version (`taxonomy generate
--next-of`), so that `changes --since 1` has changes to list. `load` reloads the
fixtures and their next version in turn: its figure is a whole reload of the fixtures.
Each figure is the median of the runs, one after another, with their lowest and highest.
Targets: 0.5 s for every command, 1 s for serve.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import asdict
from pathlib import Path

from bench import datasets
from bench.results import StartTime
from bench.source import Source, current
from bench.systems import free_port

RUNS = 5
COMMAND_TARGET_S = 0.5
SERVE_TARGET_S = 1.0
_READY_POLL_S = 0.01


def seconds_to_exit(source: Source, arguments: list[str]) -> float:
    """Wall clock of `taxonomy ARGUMENTS`, which must succeed."""
    started = time.perf_counter()
    done = subprocess.run(
        source.taxonomy(*arguments),
        cwd=source.directory,
        env={**os.environ, **source.env()},
        capture_output=True,
        check=False,
    )
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        said = (done.stderr or done.stdout).decode(errors="replace").strip()
        raise RuntimeError(f"taxonomy {' '.join(arguments)} failed: {said}")
    return seconds


def _seconds_to_ready(source: Source, url: str) -> float:
    """From `taxonomy serve --db URL`'s start to `/readyz` answering 200."""
    port = free_port()
    started = time.perf_counter()
    # Its log goes to a file, not a pipe nobody reads while it starts (a full pipe would
    # stop it), and is said when it exits before it is ready.
    with (
        tempfile.TemporaryFile() as log,
        subprocess.Popen(
            source.taxonomy("serve", "--db", url, "--port", str(port), "--workers", "1"),
            cwd=source.directory,
            env={**os.environ, **source.env()},
            stdout=subprocess.DEVNULL,
            stderr=log,
        ) as process,
    ):
        try:
            while time.perf_counter() - started < 30:
                if process.poll() is not None:
                    log.seek(0)
                    said = log.read().decode(errors="replace")
                    raise RuntimeError(f"taxonomy serve exited with {process.returncode}: {said}")
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=1):
                        return time.perf_counter() - started  # urlopen raises on any but 2xx
                except (urllib.error.URLError, ConnectionError, TimeoutError):
                    time.sleep(_READY_POLL_S)
            raise RuntimeError("taxonomy serve was not ready within 30 s")
        finally:
            process.terminate()
            process.wait(timeout=15)


def _figure(command: str, database: str, runs: list[float], target: float) -> StartTime:
    return StartTime(
        command, database, statistics.median(runs), min(runs), max(runs), len(runs), target
    )


def measure(source: Source, runs: int = RUNS) -> list[StartTime]:
    """Every command's start, and serve's, on both databases (PostgreSQL's at
    datasets.PG_ADMIN_URL's server)."""

    def timed(name: str, database: str, each_run: list[list[str]]) -> StartTime:
        seconds = [seconds_to_exit(source, arguments) for arguments in each_run]
        return _figure(name, database, seconds, COMMAND_TARGET_S)

    found = [timed(name, "-", [[name]] * runs) for name in ("--help", "schema")]
    databases = datasets.PostgresDatabases()
    with tempfile.TemporaryDirectory(prefix="start-times-") as folder:
        versions = (source.directory / "fixtures", Path(folder) / "next")
        seconds_to_exit(source, ["generate", str(versions[1]), "--next-of", str(versions[0])])
        urls = {"sqlite": f"sqlite:///{folder}/start.db"}
        try:
            urls["postgresql"] = databases.create("start")
            for database, url in urls.items():
                for version in versions:
                    seconds_to_exit(source, ["load", str(version), "--db", url])
                # Reloads of the two versions in turn: each records changes.
                loads = [["load", str(versions[run % 2]), "--db", url] for run in range(runs)]
                found += [
                    timed("load", database, loads),
                    timed("releases", database, [["releases", "--db", url]] * runs),
                    timed("changes", database, [["changes", "--since", "1", "--db", url]] * runs),
                ]
                ready = [_seconds_to_ready(source, url) for _ in range(runs)]
                found.append(_figure("serve", database, ready, SERVE_TARGET_S))
        finally:
            databases.drop_all()
    return found


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument("--json", action="store_true", help="the figures as JSON")
    options = parser.parse_args(argv)
    found = measure(current(), options.runs)
    if options.json:
        print(json.dumps([asdict(figure) for figure in found], indent=2))
    else:
        from bench.report import start_times

        print("\n".join(start_times(found)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
