"""A bounded load test: 64 concurrent clients against a real `taxonomy serve` with two
workers, the response cache off so every request reaches the database, on each backend.
No errors, no non-200; p50, p99 and requests per second are reported; the workers' memory
stays flat (resident memory at the end at most 1.2x that after a warm-up).

TAXONOMY_LOAD_SECONDS lengthens (or shortens) the measured run; 10 s by default, long enough
for thousands of requests and for the workers' memory to show a trend. Throughput and
latency under many clients are the benchmark's to measure (bench/), on a quiet machine,
not this test's: here the suite's other tests share the cores."""

import asyncio
import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2 as httpx
import psutil
from fragment_bomb import BOMBS

from api.endpoint.operations import operation
from api.ingest.load import load_directory
from api.settings import DEFAULT_FIXTURES_DIR

from conftest import GRAPHQL_CLIENT_HEADERS
from processes import running_server, worker_pids
from seed_page import NODE_PAGE

CLIENTS = 64
# The warm-up lasts until the workers' memory is flat: it grows over their first thousands
# of requests, to a plateau, and then stays there (caches and pools filling). Measured each
# second, with the rest of the suite running: SQLite 237 -> 255 MiB over 13 s then flat;
# PostgreSQL 255 -> 311 MiB over 17 s, then 311-314 for 13 s. A warm-up of a fixed 5 s
# (500-2,000 requests there) measured the rest of that climb as growth, and failed at
# 1.21-1.23x. Warmed up until a slice of it grows the memory by under 1%, the run measures
# what it is for: memory that keeps growing with the requests.
WARM_UP_SECONDS = 5.0
WARM_UP_SLICE_SECONDS = 2.0
WARM_UP_SLICE_REQUESTS = 500  # a slow slice is no sign of a flat memory
WARM_UP_MOST_SECONDS = 45.0
FLAT = 1.01
LOAD_SECONDS = float(os.environ.get("TAXONOMY_LOAD_SECONDS", "10"))
MEMORY_GROWTH = 1.2

WORKLOAD: list[dict[str, Any]] = [
    {"query": NODE_PAGE, "variables": {"path": "optimization/training-parallelism"}},
    {"query": operation("Tree")},
    {"query": operation("MethodsPage"), "variables": {"after": None}},
    {"query": operation("Search"), "variables": {"query": "expert parallel"}},
    {"query": operation("Search"), "variables": {"query": "pipeline"}},
    # Fragment bombs in the mix (issue 15): each refused in milliseconds, holding no one up.
    *({"query": bomb} for bomb in BOMBS),
]


def resident_bytes(pids: list[int]) -> int:
    return sum(psutil.Process(pid).memory_info().rss for pid in pids)


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    bomb_latencies: list[float] = field(default_factory=list)
    # Requests sent, answered or not: a warm-up that needs a number of them ends even if
    # the server stops answering (its failures then fail the test).
    sent: int = 0

    def percentile(self, fraction: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def _client(
    http: httpx.AsyncClient, index: int, deadline: float, at_least: int, tally: Tally
) -> None:
    turn = index
    while time.monotonic() < deadline or tally.sent < at_least:
        body = WORKLOAD[turn % len(WORKLOAD)]
        turn += 1
        tally.sent += 1
        started = time.monotonic()
        try:
            response = await http.post("/graphql", json=body)
        except httpx.HTTPError as exc:
            tally.failures.append(f"{type(exc).__name__}: {exc}")
            continue
        if body["query"] in BOMBS:
            tally.bomb_latencies.append(time.monotonic() - started)
            codes = [error["extensions"]["code"] for error in response.json().get("errors", [])]
            if (response.status_code, codes) != (400, ["QUERY_TOO_COMPLEX"]):
                tally.failures.append(f"a bomb got HTTP {response.status_code}: {codes}")
            continue
        tally.latencies.append(time.monotonic() - started)
        if response.status_code != 200:
            tally.failures.append(f"HTTP {response.status_code}: {response.text[:200]}")
        elif response.json().get("errors"):
            tally.failures.append(f"errors: {response.json()['errors']}")


async def _run(base: str, seconds: float, at_least: int = 0) -> Tally:
    """The workload from CLIENTS clients for ``seconds``, and on until ``at_least``
    requests have been sent."""
    tally = Tally()
    limits = httpx.Limits(max_connections=CLIENTS, max_keepalive_connections=CLIENTS)
    async with httpx.AsyncClient(
        base_url=base, timeout=30, limits=limits, headers=GRAPHQL_CLIENT_HEADERS
    ) as http:
        deadline = time.monotonic() + seconds
        await asyncio.gather(*(_client(http, i, deadline, at_least, tally) for i in range(CLIENTS)))
    return tally


def _warm_up(base: str, pids: list[int]) -> list[str]:
    """The workload for WARM_UP_SECONDS, then in slices (2 s and 500 requests at least)
    until one grows the workers' memory by under 1% (WARM_UP_MOST_SECONDS at most); the
    failures it met."""
    failures = asyncio.run(_run(base, WARM_UP_SECONDS)).failures
    deadline = time.monotonic() + WARM_UP_MOST_SECONDS
    before = resident_bytes(pids)
    while time.monotonic() < deadline:
        failures += asyncio.run(_run(base, WARM_UP_SLICE_SECONDS, WARM_UP_SLICE_REQUESTS)).failures
        after = resident_bytes(pids)
        if after <= FLAT * before:
            break
        before = after
    return failures


def test_load(backend: str, new_database: Callable[[str, str], str], tmp_path: Path) -> None:
    url = new_database(backend, "load")
    load_directory(DEFAULT_FIXTURES_DIR, url)
    with running_server(url, workers=2, response_cache="false") as base:
        pids = worker_pids(base)
        assert len(pids) == 2
        server_up = time.monotonic()
        warm_up_failures = _warm_up(base, pids)
        warmed_up = time.monotonic() - server_up
        after_warm_up = resident_bytes(pids)
        started = time.monotonic()
        tally = asyncio.run(_run(base, LOAD_SECONDS))
        elapsed = time.monotonic() - started
        at_end = resident_bytes(pids)
        assert worker_pids(base) == pids, "a worker died or was restarted"

    report = (
        f"load[{backend}]: {len(tally.latencies)} requests by {CLIENTS} clients in "
        f"{elapsed:.1f} s = {len(tally.latencies) / elapsed:.0f} req/s; "
        f"p50 {tally.percentile(0.50) * 1000:.1f} ms, p99 {tally.percentile(0.99) * 1000:.1f} ms, "
        f"mean {statistics.fmean(tally.latencies) * 1000:.1f} ms, "
        f"max {max(tally.latencies) * 1000:.1f} ms; {len(tally.bomb_latencies)} fragment "
        f"bombs refused in {statistics.median(tally.bomb_latencies) * 1000:.1f} ms (median), "
        f"{max(tally.bomb_latencies) * 1000:.1f} ms at most; workers' RSS "
        f"{after_warm_up / 2**20:.1f} MiB after {warmed_up:.0f} s of warm-up, "
        f"{at_end / 2**20:.1f} MiB at the end "
        f"({at_end / after_warm_up:.2f}x); failures: {len(warm_up_failures)} in the warm-up, "
        f"{len(tally.failures)} in the run"
    )
    print(report)
    (tmp_path / f"load-{backend}.txt").write_text(report + "\n", encoding="utf-8")
    assert len(tally.latencies) > CLIENTS
    assert at_end <= MEMORY_GROWTH * after_warm_up, report
    # Not one request refused: a busy server queues its requests for connections in
    # arrival order (store.engines.request_slots); under this load none waits past a limit.
    failures = warm_up_failures + tally.failures
    assert failures == [], failures[:3]
