"""One workload at two scales, side by side: `python -m bench.interleaved W5 S L`.

`bench.run` measures scale after scale, minutes apart; on a machine shared with other
work, what the machine does meanwhile then lands on one scale and not the other (seen:
the same W5 at S from 95 to 667 req/s within minutes). Here our server (cache off) runs
on both scales and both databases at once, and each round runs the workload on each of
them in turn, so that such drift falls on every scale alike; the figure to read is the
ratio of median p50s, larger scale over smaller, per database. Rounds: BENCH_ROUNDS (4);
each a `wrk -t2 -c32` run of BENCH_SECONDS (5) after the first search has warmed every
system (a search waits for the catalogue of its data version: store.search_cache).
"""

import os
import statistics
import sys
from collections.abc import Sequence

from bench import datasets, loadgen, systems
from bench.loadgen import Run
from bench.source import current
from bench.systems import System
from bench.workloads import workloads

DATABASES = ("sqlite", "postgresql")


def _side_by_side(scales: Sequence[str], workload_name: str) -> int:
    source = current()
    rounds = int(os.environ.get("BENCH_ROUNDS", "4"))
    timed = loadgen.Settings(2, 32, float(os.environ.get("BENCH_SECONDS", "5")))
    print(f"measuring {source.description}", flush=True)
    databases = datasets.PostgresDatabases()
    running: list[System] = []
    try:
        urls: dict[tuple[str, str], str] = {}
        for scale in scales:
            folder = datasets.dataset(source, scale)
            urls["sqlite", scale] = datasets.sqlite_url(scale)
            urls["postgresql", scale] = databases.create(scale)
            for database in DATABASES:
                datasets.load(source, folder, urls[database, scale])
            datasets.prepare_postgres(urls["postgresql", scale])
        workload = next(w for w in workloads("unused") if w.name == workload_name)
        for (database, scale), url in urls.items():
            system = systems.server(source, database, url, cache=False)
            system.label = f"{database} {scale}"
            system.start(datasets.RUN_DIR / "logs")
            system.wait_ready()
            running.append(system)
        for system in running:
            systems.answer(system, workload)
            loadgen.run(system.url(workload.name), system.body(workload), timed)
        runs: dict[str, list[Run]] = {system.label: [] for system in running}
        for number in range(rounds):
            for system in running:
                run = loadgen.run(system.url(workload.name), system.body(workload), timed)
                runs[system.label].append(run)
                print(
                    f"round {number + 1} {system.label}: {run.requests_per_second:,.0f} req/s, "
                    f"p50 {run.p50_ms:.1f} ms, p99 {run.p99_ms:.1f} ms, errors {run.errors}",
                    flush=True,
                )
        p50 = {label: statistics.median(r.p50_ms for r in found) for label, found in runs.items()}
        for label, found in runs.items():
            rate = statistics.median(r.requests_per_second for r in found)
            print(f"{label}: median p50 {p50[label]:.1f} ms, median {rate:,.0f} req/s")
        small, large = scales[0], scales[-1]
        for database in DATABASES:
            ratio = p50[f"{database} {large}"] / p50[f"{database} {small}"]
            print(f"{workload.name} {database}: p50 {large}/{small} = {ratio:.2f}")
        return 0
    finally:
        for system in running:
            system.stop()
        databases.drop_all()


def main(argv: Sequence[str]) -> int:
    if len(argv) != 3 or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv[:1] in (["-h"], ["--help"]) else 2
    return _side_by_side([argv[1].upper(), argv[2].upper()], argv[0].upper())


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
