"""`make bench`: every system side by side in one run, written to bench/RESULTS.md.

For each scale: generate (or reuse) the dataset, load it into a fresh SQLite file and a
fresh PostgreSQL database (timed), start every system on it, check that they all give the
same answers, then for each system and workload a warm-up and the statements per
request; then the timed wrk runs, workload by workload, in rounds: each round runs the
workload on every system in turn, and a figure is the median of its rounds, so that the
machine's drift over the run (seen here: the same query 250 to 393 req/s in one run)
falls on every system alike instead of on whichever ran at a bad moment. S runs W1-W5;
M and L run W1 and W4. The floor and the peer do not run W5 (bench/floor_queries.py).
Last, issue 17's history and adoption figures (bench/history_cost.py) at the run's scales,
in databases of their own, once every system is stopped.

Settings (environment): BENCH_QUICK=1 (S only, one short round), BENCH_SCALES (S,M,L),
BENCH_WORKLOADS (e.g. W5: only those, at every scale of BENCH_SCALES; the systems that
answer none of them are not started), BENCH_ROUNDS (3), BENCH_SECONDS (5 per round),
BENCH_WARMUP_SECONDS (3 before counting statements, 1 before each timed run),
BENCH_CONNECTIONS (32), BENCH_THREADS (2), BENCH_REPEATS (3 requests to count statements),
BENCH_PAINT_LOADS (15 cold loads of the seed page in headless Chromium at S and L, for its
largest contentful paint: bench/page_paint.py; 0 to skip),
BENCH_MANY_SECONDS (30: each server's run of 64 clients with the browser's page mix at S
and M, bench/many_clients.py; 0 to skip), BENCH_START_RUNS (5 runs of each command and of
serve's start, once every system is stopped, bench/start_times.py; 0 to skip),
BENCH_HISTORY=0 (no history and adoption figures; their own settings, HISTORY_*, are in
bench/history_cost.py), BENCH_CACHE_ON=0 (our server with its response cache off only:
the cache-off ratios without the cache-on runs),
BENCH_QUIET_SECONDS (90: the longest wait for idle CPUs before a timed run; on a machine
that other work keeps busy, a shorter one, as ratios in one round share the drift),
BENCH_OUT (the folder RESULTS.md and results.png are written to; bench/ when not given: a
partial run written elsewhere leaves the committed results alone).
"""

import dataclasses
import os
import signal
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bench import (
    datasets,
    history_cost,
    loadgen,
    machine,
    many_clients,
    page_paint,
    report,
    settle,
    start_times,
    statements,
    systems,
)
from bench.check_answers import check
from bench.results import LoadFigures, Measurement, OneClient, Results
from bench.source import Source, current
from bench.systems import System
from bench.workloads import Workload, workloads

BENCH_DIR = Path(__file__).resolve().parent
LOG_DIR = datasets.RUN_DIR / "logs"
SCALED_WORKLOADS = ("W1", "W4")
# How long a run waits for the CPUs to idle before each timed run (BENCH_QUIET_SECONDS).
QUIET_LIMIT_SECONDS = float(os.environ.get("BENCH_QUIET_SECONDS", "90"))


@dataclass(frozen=True)
class Config:
    scales: list[str]
    # Only these workloads, at every scale; None: W1-W5 at S, SCALED_WORKLOADS above it.
    workloads: list[str] | None
    timed: loadgen.Settings
    warmup: loadgen.Settings
    one_client: loadgen.Settings
    repeats: int
    rounds: int
    paint_loads: int  # cold loads of the seed page in Chromium at S and L; 0: not measured
    many_seconds: float  # each server's run of 64 clients with the browser's page mix
    start_runs: int  # runs of each command for bench/start_times.py; 0: not measured

    @classmethod
    def from_env(cls) -> "Config":
        quick = os.environ.get("BENCH_QUICK", "") not in ("", "0")
        threads = int(os.environ.get("BENCH_THREADS", "2"))
        connections = int(os.environ.get("BENCH_CONNECTIONS", "32"))
        seconds = float(os.environ.get("BENCH_SECONDS", "3" if quick else "5"))
        warmup = float(os.environ.get("BENCH_WARMUP_SECONDS", "1" if quick else "3"))
        scales = os.environ.get("BENCH_SCALES", "S" if quick else "S,M,L").split(",")
        named = os.environ.get("BENCH_WORKLOADS", "").split(",")
        return cls(
            scales=[scale.strip().upper() for scale in scales if scale.strip()],
            workloads=[name.strip().upper() for name in named if name.strip()] or None,
            timed=loadgen.Settings(threads, connections, seconds),
            warmup=loadgen.Settings(threads, connections, warmup),
            one_client=loadgen.Settings(1, 1, 10 if not quick else seconds),
            repeats=int(os.environ.get("BENCH_REPEATS", "3")),
            rounds=int(os.environ.get("BENCH_ROUNDS", "1" if quick else "3")),
            paint_loads=int(os.environ.get("BENCH_PAINT_LOADS", "5" if quick else "15")),
            many_seconds=float(
                os.environ.get("BENCH_MANY_SECONDS", "5" if quick else str(many_clients.SECONDS))
            ),
            start_runs=int(os.environ.get("BENCH_START_RUNS", "2" if quick else "5")),
        )


def _log(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def quiet(databases: datasets.PostgresDatabases, before: str, notes: list[str]) -> None:
    """The CPUs idle again after the previous run (bench/settle.py). Every query still
    running belongs to a run that is over, its clients gone, and is cancelled, again and
    again while the CPUs stay busy: PostGraphile keeps starting the queries of the requests
    it had queued (its W4 at L leaves a minute of them). When the CPUs stay busy
    regardless, ``notes`` (the report's) says so: that figure was taken on a busy machine."""
    started = time.monotonic()
    cancelled = 0
    while True:
        # Older than a fifth of a second: the servers' own data-version polls take less.
        cancelled += databases.cancel_queries(older_than_seconds=0.2)
        idle = settle.busy_fraction(0.5) < settle.IDLE_BELOW
        waited = time.monotonic() - started
        if idle or waited > QUIET_LIMIT_SECONDS:
            break
    if cancelled or waited > 5:
        _log(f"before {before}: cancelled {cancelled} queries, waited {waited:.1f} s for quiet")
    if not idle:
        notes.append(
            f"{before}: the CPUs were still busy after waiting {waited:.0f} s (leftover work "
            "of an earlier run); measured on a busy machine."
        )


def cache_setting_exists(source: Source) -> bool:
    """Whether the measured code has TAXONOMY_RESPONSE_CACHE (older commits do not)."""
    settings = source.directory / "api" / "settings.py"
    return "response_cache" in settings.read_text(encoding="utf-8")


def systems_for(source: Source, sqlite_url: str, pg_url: str, *, with_cache: bool) -> list[System]:
    caches = (False, True) if with_cache else (False,)
    found = [
        systems.server(source, database, url, cache=cache)
        for database, url in (("sqlite", sqlite_url), ("postgresql", pg_url))
        for cache in caches
    ]
    return [
        *found,
        systems.floor(source, "sqlite", sqlite_url),
        systems.floor(source, "postgresql", pg_url),
        systems.peer(pg_url),
    ]


def count_statements(
    system: System,
    workload: Workload,
    config: Config,
    server_url: str,
    peer_statements: dict[str, float],
) -> float | None:
    """SQL statements per request, after a warm-up (which also warms the system up for
    the timed rounds)."""
    loadgen.run(system.url(workload.name), system.body(workload), config.warmup)
    if system.kind == "peer":
        return peer_statements.get(workload.name)
    counted = statements.from_header(system, workload, config.repeats)
    if counted is None and system.kind == "server" and not system.cache:
        counted = statements.server_in_process(server_url, workload)
    return counted


def timed_run(
    system: System,
    workload: Workload,
    scale: str,
    config: Config,
    databases: datasets.PostgresDatabases,
    notes: list[str],
) -> loadgen.Run:
    """One round's timed run, on a quiet machine, after a short warm-up of its own."""
    url, body = system.url(workload.name), system.body(workload)
    quiet(databases, f"{scale} {workload.name} {system.label}", notes)
    loadgen.run(url, body, loadgen.Settings(config.timed.threads, config.timed.connections, 1))
    timed = loadgen.run(url, body, config.timed)
    _log(
        f"{scale} {workload.name} {system.label}: {timed.requests_per_second:,.0f} req/s, "
        f"p50 {timed.p50_ms:.1f} ms, p99 {timed.p99_ms:.1f} ms"
    )
    return timed


def measurement(
    system: System, workload: Workload, scale: str, counted: float | None, runs: list[loadgen.Run]
) -> Measurement:
    """The figures of the median round (by requests/s), with every round's requests/s."""
    median = sorted(runs, key=lambda run: run.requests_per_second)[(len(runs) - 1) // 2]
    return Measurement(
        system=system.label,
        kind=system.kind,
        database=system.database,
        cache=system.cache,
        scale=scale,
        workload=workload.name,
        requests_per_second=median.requests_per_second,
        p50_ms=median.p50_ms,
        p99_ms=median.p99_ms,
        statements=counted,
        errors=sum(run.errors for run in runs),
        rounds=tuple(run.requests_per_second for run in runs),
    )


def one_client(system: System, workload: Workload, scale: str, config: Config) -> OneClient:
    """``workload`` asked by one client at a time, after a warm-up of the same."""
    url, body = system.url(workload.name), system.body(workload)
    warmup = config.warmup
    loadgen.run(url, body, loadgen.Settings(1, 1, warmup.seconds))
    timed = loadgen.run(url, body, config.one_client)
    _log(f"{scale} {workload.name} {system.label}, one client: p50 {timed.p50_ms:.1f} ms")
    return OneClient(system.label, scale, timed.p50_ms, timed.requests)


def run_scale(
    source: Source,
    scale: str,
    config: Config,
    results: Results,
    databases: datasets.PostgresDatabases,
) -> None:
    directory = datasets.dataset(source, scale)
    sqlite_url = datasets.sqlite_url(scale)
    pg_url = databases.create(scale)
    _log(f"{scale}: loading {directory}")
    quiet(databases, f"{scale}: SQLite load", results.notes)
    sqlite_load = datasets.load(source, directory, sqlite_url)
    quiet(databases, f"{scale}: PostgreSQL load", results.notes)
    pg_load = datasets.load(source, directory, pg_url)
    datasets.prepare_postgres(pg_url)
    results.loads.append(
        LoadFigures(
            scale,
            datasets.row_counts(sqlite_url),
            sqlite_load.seconds,
            sqlite_load.peak_mb,
            pg_load.seconds,
            pg_load.peak_mb,
        )
    )
    _log(f"{scale}: loaded in {sqlite_load.seconds:.1f} s (SQLite), {pg_load.seconds:.1f} s (PG)")
    chosen = [
        w
        for w in workloads(datasets.largest_root(sqlite_url))
        if (
            w.name in config.workloads
            if config.workloads
            else scale == "S" or w.name in SCALED_WORKLOADS
        )
    ]
    if not chosen:
        raise SystemExit(f"BENCH_WORKLOADS={','.join(config.workloads or [])} names no workload")
    running = [
        system
        for system in systems_for(
            source,
            sqlite_url,
            pg_url,
            with_cache=cache_setting_exists(source)
            and os.environ.get("BENCH_CACHE_ON", "1") not in ("", "0"),
        )
        if any(system.answers(workload) for workload in chosen)
    ]
    try:
        # One at a time: uvicorn's supervisor restarts a worker that does not answer its
        # health check within seconds, which many workers importing at once can miss.
        for system in running:
            system.start(LOG_DIR)
            system.wait_ready()
        problems = check(running, chosen)
        if problems:
            raise SystemExit("the systems do not give the same answers:\n" + "\n".join(problems))
        _log(f"{scale}: same answers from {len(running)} systems")
        # Cache-off counts do not vary between requests; at M and L one request is enough.
        config = dataclasses.replace(config, repeats=config.repeats if scale == "S" else 1)
        # The one-client figures first, while nothing else has run: a heavy workload
        # (W4 at L) leaves the peer working on the requests its clients gave up on.
        seed_page = next((w for w in chosen if w.name == "W1"), None)
        for system in running:
            if seed_page is not None and system.kind == "server" and not system.cache:
                quiet(databases, f"{scale} W1 {system.label}, one client", results.notes)
                results.one_client.append(one_client(system, seed_page, scale, config))
        # The seed page as a person sees it, in headless Chromium: its largest contentful
        # paint, cold browser cache, beside the one-client API figures above.
        for system in running:
            painted = config.paint_loads and scale in page_paint.SCALES
            if painted and system.kind == "server" and not system.cache:
                quiet(databases, f"{scale} seed page paint {system.label}", results.notes)
                paint = page_paint.measure(system, scale, config.paint_loads)
                results.paints.append(paint)
                _log(f"{scale} seed page paint {system.label}: LCP p50 {paint.p50_ms:.0f} ms")
        peer_counts = statements.peer_on_the_wire(pg_url, chosen, config.repeats, LOG_DIR)
        counted = {
            (system.label, workload.name): count_statements(
                system,
                workload,
                config,
                sqlite_url if system.database == "sqlite" else pg_url,
                peer_counts,
            )
            for system in running
            for workload in chosen
            if system.answers(workload)
        }
        runs: dict[tuple[str, str], list[loadgen.Run]] = defaultdict(list)
        for workload in chosen:
            for round_number in range(config.rounds):
                _log(f"{scale} {workload.name}: round {round_number + 1} of {config.rounds}")
                for system in running:
                    if not system.answers(workload):
                        continue
                    runs[system.label, workload.name].append(
                        timed_run(system, workload, scale, config, databases, results.notes)
                    )
        # Many clients with the browser's page mix (bench/many_clients.py), each server in
        # turn, after the workloads: its response cache then holds only the workloads'.
        if scale in many_clients.SCALES and config.many_seconds > 0:
            for system in running:
                if system.kind != "server":
                    continue
                quiet(databases, f"{scale} many clients {system.label}", results.notes)
                found = many_clients.measure_running(
                    system, scale, clients=many_clients.CLIENTS, seconds=config.many_seconds
                )
                results.many_clients.append(found)
                _log(
                    f"{scale} many clients {system.label}: {found.requests_per_second:.0f} "
                    f"req/s, p99 {found.p99_ms:.0f} ms, {found.errors} errors"
                )
        for system in running:
            for workload in chosen:
                key = (system.label, workload.name)
                if key not in runs:
                    continue
                results.measurements.append(
                    measurement(system, workload, scale, counted[key], runs[key])
                )
    finally:
        for system in running:
            system.stop()
        databases.drop_all()


def _stop_on_terminate() -> None:
    """A run stopped with `kill` (SIGTERM) ends as one stopped with Ctrl-C: the `finally`
    blocks stop the systems it started and drop its databases (Python's default for
    SIGTERM is to die on the spot, which left servers running and databases behind)."""
    signal.signal(signal.SIGTERM, lambda signum, _: sys.exit(128 + signum))


def main(argv: Sequence[str] = ()) -> int:
    if any(argument in ("-h", "--help") for argument in argv):
        print(__doc__)
        return 0
    if argv:
        print(f"unknown arguments {' '.join(argv)}: settings are environment variables (--help)")
        return 2
    _stop_on_terminate()
    config = Config.from_env()
    source = current()
    _log(f"measuring {source.description}")
    databases = datasets.PostgresDatabases()
    results = Results(
        load_generator=f"{config.timed.describe()}, {config.rounds} rounds",
        machine={"code measured": source.description, **machine.describe(datasets.PG_ADMIN_URL)},
    )
    if not cache_setting_exists(source):
        results.notes.append(
            "TAXONOMY_RESPONSE_CACHE does not exist in this checkout yet: only the cache-off "
            "server was measured."
        )
    unpainted = page_paint.missing() if config.paint_loads else "BENCH_PAINT_LOADS=0"
    if unpainted:
        results.notes.append(f"The seed page's paint was not measured: {unpainted}.")
        config = dataclasses.replace(config, paint_loads=0)
    # The browser's build: its pages are painted, and its documents make the many-clients
    # mix (bench/many_clients.py).
    page_paint.ensure_built(source)
    started = time.monotonic()
    failed = False
    try:
        for scale in config.scales:
            run_scale(source, scale, config, results, databases)
        if config.start_runs > 0:
            quiet(databases, "start times", results.notes)
            results.start_times = start_times.measure(source, config.start_runs)
        if os.environ.get("BENCH_HISTORY", "1") not in ("", "0"):
            results.history = history_cost.measure(
                source,
                history_cost.Settings.from_env(config.scales),
                lambda what: quiet(databases, f"history: {what}", results.notes),
            )
    except Exception as exc:  # what was measured before it is still worth writing down
        failed = True
        results.notes.append(f"The run stopped early: {type(exc).__name__}: {exc}")
        _log(f"the run stopped early: {exc!r}")
    finally:
        databases.drop_all()
    results.notes.append(f"The whole run took {(time.monotonic() - started) / 60:.1f} min.")
    out = Path(os.environ.get("BENCH_OUT") or BENCH_DIR)
    out.mkdir(parents=True, exist_ok=True)
    report.write(results, out)
    _log(f"wrote {out / 'RESULTS.md'} and {out / 'results.png'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
