"""Issue 17 item 6: what recording changes adds to a reload, and adoption's p50 as the
data grows. Part of `make bench` (bench/run.py); alone:

    .venv/bin/python -m bench.history_cost

Reloads: into a fresh database of each kind (a SQLite file under var/bench/run/, a
PostgreSQL database bench_history_<scale>_<random> made here and dropped afterwards), the
dataset of the largest scale is loaded, then an edited copy of it (`taxonomy generate
--next-of`, seed 1, HISTORY_EACH changes of each kind, cached beside the dataset) and the
dataset itself are loaded over each other in turn, with history and without in the
order with, without, without, with (and again: HISTORY_RELOADS of each), so that the
machine's drift falls on both alike, and each kind loads as often the dataset over its
edited copy as the other way round: the two differ in size (at L with 1000 edits of each
kind, a fifth of the models are replaced and the edited copy has 21% fewer evidence
lines), and the first runs of this benchmark, which alternated with and without, had
every load with history go one way and every other come back. Each load runs in a child
process on the measured code (bench/source.py) and reports its own seconds and step
timings; the history's steps are "the release before" (reading it, keeping its
treatments) and "changes against the release before" (comparing, writing the change
rows). The change rows each release
recorded are then counted in the database, so a "without" that recorded changes (or a
"with" that recorded none) shows.

Adoption: bench/adoption_p50.py (in process, cache off, one client per database, the p50
of HISTORY_REQUESTS requests for the largest root's series after a warm-up) on the
measured code, over the fresh databases of every scale at once, asked in turn request by
request (so that the machine's drift falls on every scale alike), before any reload.

Settings (environment): HISTORY_SCALES (S,L: adoption at each, reloads at the largest),
HISTORY_DATABASES (sqlite,postgresql), HISTORY_RELOADS (2 of each kind), HISTORY_EACH
(1000), HISTORY_REQUESTS (50), BENCH_SOURCE as for `make bench`. Prints the section
`make bench` writes into RESULTS.md and keeps the figures in var/bench/run/history.json.
"""

import dataclasses
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from bench import datasets, report
from bench.results import Adoption, History, Reload
from bench.source import PYTHON, Source, current

SCALES = ("S", "M", "L")
DATABASES = ("sqlite", "postgresql")
NEXT_SEED = 1


@dataclass(frozen=True)
class Settings:
    scales: list[str]
    databases: list[str]
    reloads: int  # of each kind: with history, without
    each: int  # edits of each kind in the edited copy
    requests: int  # timed adoption requests

    @classmethod
    def from_env(cls, scales: Sequence[str] = ("S", "L")) -> "Settings":
        def listed(name: str, default: Sequence[str]) -> list[str]:
            found = os.environ.get(name, "").split(",")
            return [item.strip() for item in found if item.strip()] or list(default)

        chosen = [scale.upper() for scale in listed("HISTORY_SCALES", scales)]
        databases = [database.lower() for database in listed("HISTORY_DATABASES", DATABASES)]
        unknown = [*(s for s in chosen if s not in SCALES), *set(databases) - set(DATABASES)]
        if unknown:
            raise SystemExit(f"unknown scales or databases: {', '.join(unknown)}")
        return cls(
            scales=sorted(set(chosen), key=SCALES.index),
            databases=databases,
            reloads=int(os.environ.get("HISTORY_RELOADS", "2")),
            each=int(os.environ.get("HISTORY_EACH", "1000")),
            requests=int(os.environ.get("HISTORY_REQUESTS", "50")),
        )


def _log(message: str) -> None:
    print(f"[history {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def _child(source: Source, *arguments: str) -> list[dict[str, object]]:
    """A bench module run by the measured code in a child process; its lines, JSON."""
    done = subprocess.run(
        [PYTHON, "-m", *arguments],
        cwd=source.directory,
        env={**os.environ, **source.env()},
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        sys.stderr.write(done.stdout + done.stderr)
        raise RuntimeError(f"python -m {' '.join(arguments)} failed")
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


class Runner(Protocol):
    """Where loads and adoption requests run."""

    def load(self, directory: Path, url: str, *, history: bool) -> dict[str, object]:
        """One load: its seconds, step timings and the change rows counted after it."""

    def adoption(self, urls: list[str], requests: int) -> list[dict[str, object]]:
        """bench/adoption_p50.py's figures, for each database of ``urls``."""


@dataclass(frozen=True)
class Child:
    """In child processes, on the measured code: what the benchmark times."""

    source: Source

    def load(self, directory: Path, url: str, *, history: bool) -> dict[str, object]:
        mode = "history" if history else "no-history"
        (figures,) = _child(self.source, "bench.history_cost", "load", str(directory), url, mode)
        return figures

    def adoption(self, urls: list[str], requests: int) -> list[dict[str, object]]:
        return _child(self.source, "bench.adoption_p50", *urls, str(requests))


class InProcess:
    """In this process, on the code imported here (the tests: no process start each)."""

    def load(self, directory: Path, url: str, *, history: bool) -> dict[str, object]:
        return load_here(directory, url, history=history)

    def adoption(self, urls: list[str], requests: int) -> list[dict[str, object]]:
        from bench import adoption_p50

        return adoption_p50.main(urls, requests)


def reloads(
    runner: Runner,
    database: str,
    url: str,
    scale: str,
    folders: tuple[Path, Path],
    count: int,
) -> list[Reload]:
    """With ``folders[0]`` served at ``url``, load each folder over the other in turn,
    ``count`` times with history and as many without: with, without, without, with, and
    again (each kind loads each folder in turn as often, for an even ``count``)."""
    found = []
    for number in range(2 * count):
        history = number % 4 in (0, 3)
        folder = folders[(number + 1) % 2]
        load_average = os.getloadavg()[0]
        figures = runner.load(folder, url, history=history)
        steps = figures["steps"]
        assert isinstance(steps, dict)
        reload = Reload(
            database=database,
            scale=scale,
            history=history,
            dataset=folder.name,
            seconds=float(str(figures["seconds"])),
            steps={str(name): float(seconds) for name, seconds in steps.items()},
            change_rows=int(str(figures["change_rows"])),
            load_average=load_average,
        )
        _log(
            f"{database} {scale}: reload {number + 1} ({'with' if history else 'without'} "
            f"history) {reload.seconds:.1f} s, history's steps {reload.history_seconds:.1f} s, "
            f"{reload.change_rows:,} change rows, load average {load_average:.1f}"
        )
        found.append(reload)
    return found


def adoption(runner: Runner, database: str, urls: dict[str, str], requests: int) -> list[Adoption]:
    """bench/adoption_p50.py on the databases of ``urls`` (by scale), asked in turn."""
    load_average = os.getloadavg()[0]
    found = []
    for scale, figures in zip(urls, runner.adoption([*urls.values()], requests), strict=True):
        statements = figures["statements_per_request"]
        assert isinstance(statements, list)
        found.append(
            Adoption(
                database=database,
                scale=scale,
                root=str(figures["root"]),
                p50_ms=float(str(figures["p50_ms"])),
                p90_ms=float(str(figures["p90_ms"])),
                requests=int(str(figures["requests"])),
                statements=tuple(str(count) for count in statements),
                load_average=load_average,
            )
        )
        _log(f"{database} {scale}: adoption of {found[-1].root} p50 {found[-1].p50_ms:.2f} ms")
    return found


def measure(
    source: Source, settings: Settings, before: Callable[[str], None] = lambda _: None
) -> History:
    """Adoption at every scale of ``settings`` and reloads at the largest, on each of its
    databases, each in a database of its own, made here and removed afterwards;
    ``before(what)`` is called before each measurement (bench/run.py waits for quiet)."""
    history = History()
    runner = Child(source)
    databases = datasets.PostgresDatabases()
    try:
        for database in settings.databases:
            urls, folders = {}, {}
            for scale in settings.scales:
                folders[scale] = datasets.dataset(source, scale)
                if database == "sqlite":
                    urls[scale] = datasets.sqlite_url(f"history-{scale}")
                else:
                    urls[scale] = databases.create(f"history_{scale}")
                before(f"{database} {scale} load")
                first = runner.load(folders[scale], urls[scale], history=True)
                _log(f"{database} {scale}: loaded in {first['seconds']:.1f} s")
            before(f"{database} adoption")
            history.adoption += adoption(runner, database, urls, settings.requests)
            largest = settings.scales[-1]
            edited = datasets.next_dataset(
                source, folders[largest], seed=NEXT_SEED, each=settings.each
            )
            before(f"{database} {largest} reloads")
            history.reloads += reloads(
                runner,
                database,
                urls[largest],
                largest,
                (folders[largest], edited),
                settings.reloads,
            )
            databases.drop_all()
    finally:
        databases.drop_all()
    return history


# ---- one load, as the child (or the tests) runs it ----------------------------------


class _StepTimes:
    """A load's Meter that keeps its step timings (files read, steps), by name."""

    def __init__(self) -> None:
        self.steps: dict[str, float] = {}
        self._file = ""
        self._started = 0.0

    def start(self, name: str, total_bytes: int) -> None:
        self._file, self._started = name, time.perf_counter()

    def advance(self, bytes_read: int, rows: int) -> None:
        pass

    def finish(self) -> None:
        self.step(self._file, time.perf_counter() - self._started)

    def step(self, what: str, seconds: float) -> None:
        self.steps[what] = self.steps.get(what, 0.0) + seconds


def load_here(directory: Path, url: str, *, history: bool) -> dict[str, object]:
    from sqlalchemy import func, select

    from api.ingest.load import load_directory
    from store.engines import make_sync_engine
    from store.tables import CHANGE_TABLES, table_of

    meter = _StepTimes()
    summary = load_directory(directory, url, meter=meter, history=history)
    engine = make_sync_engine(url)
    try:
        with engine.connect() as connection:
            rows = sum(
                connection.execute(
                    select(func.count())
                    .select_from(table_of(row))
                    .where(table_of(row).c.release == summary.version)
                ).scalar_one()
                for row in CHANGE_TABLES
            )
    finally:
        engine.dispose()
    return {
        "release": summary.version,
        "seconds": round(summary.seconds, 3),
        "steps": {name: round(seconds, 3) for name, seconds in meter.steps.items()},
        "changes": summary.changes,
        "change_rows": rows,
    }


def main(argv: Sequence[str]) -> int:
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    if argv and argv[0] == "load" and len(argv) == 4 and argv[3] in ("history", "no-history"):
        print(json.dumps(load_here(Path(argv[1]), argv[2], history=argv[3] == "history")))
        return 0
    if argv:
        print(f"unknown arguments {' '.join(argv)}: settings are environment variables (--help)")
        return 2
    settings = Settings.from_env()
    source = current()
    _log(f"measuring {source.description}: {settings}")
    history = measure(source, settings)
    out = datasets.RUN_DIR / "history.json"
    out.write_text(json.dumps(dataclasses.asdict(history), indent=1), encoding="utf-8")
    print("\n".join(report.history(history)))
    _log(f"figures kept in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
