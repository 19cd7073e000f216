"""The seed page's largest contentful paint (LCP) in headless Chromium (issue 18 item 5).

    .venv/bin/python -m bench.page_paint [--scales S,L] [--databases sqlite,postgresql]
                                         [--loads 15] [--db URL]

For each scale (S: the default fixtures; L: bench/datasets.py's, generated once) and
database: loads the dataset into a fresh database (or measures ``--db``, already loaded, at
the one scale given), starts our server as the benchmark does (`taxonomy serve --workers 2`,
response cache off, as for the API's one-client figures), and has browser/page-paint.mjs
open the seed node's page (/nodes/optimization/training-parallelism: the generator never
touches its branch, so it is the same page at every scale) ``loads`` times after two
uncounted loads, each in a new browser context (cold HTTP cache), reading the LCP once the
page's data is on screen; then, when wrk is there, the one-client API p50 of W1 (the seed
page's query) on the same server, as `make bench` takes it. Prints a JSON line per
measurement (with the load average), then a table with p50, min and max. `make bench`
(bench/run.py) measures it too, on its own servers at S and L, into RESULTS.md's "Seed
page paint" section.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

import psutil

from bench import datasets, loadgen, settle, systems
from bench.report import paint_table
from bench.results import PagePaint
from bench.source import CHECKOUT, Source, current
from bench.systems import System
from bench.workloads import workloads

BROWSER = CHECKOUT / "browser"
DRIVER = BROWSER / "page-paint.mjs"
CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
SCALES = ("S", "L")  # the issue's: the fixtures, and L
LOADS = 15
WARM_UP = 2
SEED_PATH = "/nodes/" + str(workloads("")[0].variables["path"])
LOG_DIR = datasets.RUN_DIR / "logs"
SETTLE_LIMIT_SECONDS = 120


def missing() -> str | None:
    """Why the paint cannot be measured here (no Chromium, no browser build), or None."""
    if not CHROMIUM.exists():
        return f"no {CHROMIUM} (`make browser` installs Debian's Chromium)"
    if not (BROWSER / "node_modules" / "playwright-core").is_dir() or not shutil.which("node"):
        return "no node or no browser/node_modules (`make install`)"
    return None


def ensure_built(source: Source) -> None:
    """The taxonomy browser's built assets in ``source``, which the server serves: a
    committed snapshot (bench/source.py) has the sources but not the build (not committed),
    so it is built there with the checkout's node_modules."""
    built = source.directory / "api" / "static" / "browser" / "manifest.json"
    if built.exists():
        return
    if source.directory == CHECKOUT:
        raise SystemExit("the taxonomy browser is not built: run `make install`")
    modules = source.directory / "browser" / "node_modules"
    if not modules.exists():
        modules.symlink_to(BROWSER / "node_modules", target_is_directory=True)
    subprocess.run(["node", "build.mjs"], cwd=source.directory / "browser", check=True)


def _server_cpu(system: System, seconds: float) -> float:
    """The CPU time ``system``'s processes (the server and its workers) used over the next
    ``seconds``, as a fraction of one core."""
    assert system.process is not None
    root = psutil.Process(system.process.pid)

    def used() -> float:
        total = 0.0
        for process in [root, *root.children(recursive=True)]:
            try:
                times = process.cpu_times()
            except psutil.NoSuchProcess:
                continue
            total += times.user + times.system
        return total

    before = used()
    time.sleep(seconds)
    return (used() - before) / seconds


def settled(system: System, limit: float = SETTLE_LIMIT_SECONDS) -> float:
    """Waits until ``system`` has finished its own start-up work (at L, each worker builds
    its search catalogue in the background for seconds after it is ready): under 5 % of a
    core for a second. The machine may be busy with other work; only the server's own is
    waited for. Returns the seconds waited."""
    started = time.monotonic()
    while time.monotonic() - started < limit and _server_cpu(system, 1) >= 0.05:
        pass
    return time.monotonic() - started


def measure(system: System, scale: str, loads: int = LOADS) -> PagePaint:
    """The seed page's LCP on ``system`` (running), ``loads`` cold loads after the warm-up,
    once the server's own start-up work is done."""
    settled(system)
    run = subprocess.run(
        ["node", str(DRIVER), system.base, SEED_PATH, str(loads), str(WARM_UP)],
        capture_output=True,
        text=True,
        timeout=60 + 30 * (loads + WARM_UP),
        check=False,
    )
    if run.returncode != 0:
        raise RuntimeError(f"{DRIVER.name} failed on {system.label} at {scale}:\n{run.stderr}")
    measured = json.loads(run.stdout.strip().splitlines()[-1])["loads"]
    lcp = [float(load["lcpMs"]) for load in measured]
    fcp = [float(load["fcpMs"]) for load in measured if load["fcpMs"] is not None]
    elements = Counter(str(load["element"]) for load in measured)
    return PagePaint(
        system=system.label,
        scale=scale,
        loads=len(lcp),
        p50_ms=statistics.median(lcp),
        min_ms=min(lcp),
        max_ms=max(lcp),
        fcp_p50_ms=statistics.median(fcp) if fcp else None,
        element=elements.most_common(1)[0][0],
    )


def _measure_on(
    source: Source, database: str, url: str, scale: str, loads: int
) -> tuple[PagePaint, float | None]:
    """The paint on a server of ``url``, then (with wrk) the one-client W1 p50 beside it,
    as `make bench` takes it: 3 s of warm-up, then 10 s."""
    server = systems.server(source, database, url, cache=False)
    server.start(LOG_DIR)
    api_p50 = None
    try:
        server.wait_ready()
        waited = settled(server)
        load_average = os.getloadavg()[0]
        busy = settle.busy_fraction(1)
        paint = measure(server, scale, loads)
        if shutil.which("wrk"):
            seed_page = workloads("")[0]
            address, body = server.url(seed_page.name), server.body(seed_page)
            loadgen.run(address, body, loadgen.Settings(1, 1, 3))
            api_p50 = loadgen.run(address, body, loadgen.Settings(1, 1, 10)).p50_ms
    finally:
        server.stop()
    figures = {**asdict(paint), "w1_api_p50_ms": api_p50}
    conditions = {"settled_s": round(waited, 1), "load_average_1min": load_average}
    print(json.dumps({**figures, **conditions, "machine_busy_before": busy}))
    return paint, api_p50


def main(argv: Sequence[str] = ()) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scales", default=",".join(SCALES), help="S, M, L (comma-separated)")
    parser.add_argument("--databases", default="sqlite", help="sqlite, postgresql")
    parser.add_argument("--loads", type=int, default=LOADS)
    parser.add_argument("--db", help="measure this database (already loaded) at --scales")
    options = parser.parse_args(argv)
    reason = missing()
    if reason:
        raise SystemExit(reason)
    source = current()
    ensure_built(source)
    scales = [scale.strip().upper() for scale in options.scales.split(",") if scale.strip()]
    measured = []
    print(f"measuring {source.description}; load average {os.getloadavg()}", file=sys.stderr)
    if options.db:
        if len(scales) != 1:
            raise SystemExit("--db measures one database: give its one scale in --scales")
        url, database = options.db, "postgresql"
        if url.startswith("sqlite:///"):  # relative to here: the server runs elsewhere
            url, database = f"sqlite:///{Path(url.removeprefix('sqlite:///')).resolve()}", "sqlite"
        measured.append(_measure_on(source, database, url, scales[0], options.loads))
    else:
        postgres = datasets.PostgresDatabases()
        try:
            for scale in scales:
                directory = datasets.dataset(source, scale)
                for database in options.databases.split(","):
                    database = database.strip()
                    url = (
                        datasets.sqlite_url(f"paint-{scale}")
                        if database == "sqlite"
                        else postgres.create(scale)
                    )
                    started = time.perf_counter()
                    datasets.load(source, directory, url)
                    if database == "postgresql":
                        datasets.prepare_postgres(url)
                    took = time.perf_counter() - started
                    print(f"loaded {scale} into {database} in {took:.0f} s", file=sys.stderr)
                    measured.append(_measure_on(source, database, url, scale, options.loads))
        finally:
            postgres.drop_all()
    api = {(paint.system, paint.scale): p50 for paint, p50 in measured if p50 is not None}
    print("\n".join(paint_table([paint for paint, _ in measured], api)))
    print(f"load average after: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
