"""Same answers from every system, checked before anything is timed.

For each workload, each system that answers it must give our server's `data` on the same
database, and our server the same on SQLite and PostgreSQL (W5, search, included), compared as
decoded JSON with key order, i.e. re-encoded by one encoder: our server writes JSON with
json.dumps, which escapes non-ASCII characters, where orjson writes them as UTF-8.

As a script it checks the default fixtures end to end on a SQLite file and a PostgreSQL
database of its own (dropped afterwards):

    .venv/bin/python -m bench.check_answers
"""

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import orjson

from bench.systems import System, answer
from bench.workloads import Workload


def canonical(data: Any) -> bytes:
    return orjson.dumps(data)


def _data(system: System, workload: Workload, problems: list[str]) -> Any:
    decoded, _ = answer(system, workload)
    if decoded.get("errors") or decoded.get("data") is None:
        problems.append(f"{workload.name} {system.label}: errors {decoded.get('errors')}")
        return None
    return decoded["data"]


def check(systems: Sequence[System], workloads: Sequence[Workload]) -> list[str]:
    """Problems found (empty when every system agrees with our server on its database)."""
    problems: list[str] = []
    for workload in workloads:
        references: dict[str, bytes] = {}
        answering = [system for system in systems if system.answers(workload)]
        for system in sorted(answering, key=lambda s: (s.kind != "server", s.cache is not False)):
            data = _data(system, workload, problems)
            if data is None:
                continue
            got = canonical(data)
            # A cached server answers twice: the miss, then the hit.
            if system.cache and canonical(_data(system, workload, problems)) != got:
                problems.append(f"{workload.name} {system.label}: the cached answer differs")
            expected = references.setdefault(system.database, got)
            if got != expected:
                problems.append(
                    f"{workload.name} {system.label}: differs from our server on "
                    f"{system.database}:\n  got      {got[:300]!r}\n  expected {expected[:300]!r}"
                )
        if len(set(references.values())) > 1:
            problems.append(f"{workload.name}: SQLite and PostgreSQL answers differ")
    return problems


def main() -> int:
    from bench import datasets, systems
    from bench.source import current
    from bench.workloads import workloads

    fixtures = Path(__file__).resolve().parent.parent / "fixtures"
    # The default fixtures end to end, with the measured code's cache on and off.
    databases = datasets.PostgresDatabases()
    started: list[System] = []
    source = current()
    try:
        sqlite_url = datasets.sqlite_url("check")
        pg_url = databases.create("check")
        for url in (sqlite_url, pg_url):
            datasets.load(source, fixtures, url)
        datasets.prepare_postgres(pg_url)
        started = [
            systems.server(source, "sqlite", sqlite_url, cache=False),
            systems.server(source, "postgresql", pg_url, cache=False),
            systems.server(source, "sqlite", sqlite_url, cache=True),
            systems.server(source, "postgresql", pg_url, cache=True),
            systems.floor(source, "sqlite", sqlite_url),
            systems.floor(source, "postgresql", pg_url),
            systems.peer(pg_url),
        ]
        for system in started:  # one at a time, as bench.run starts them
            system.start(datasets.RUN_DIR / "logs")
            system.wait_ready()
        problems = check(started, workloads(datasets.largest_root(sqlite_url)))
    finally:
        for system in started:
            system.stop()
        databases.drop_all()
    print(json.dumps({"same_answers": not problems, "problems": problems}, indent=2))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
