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
WARM_UP_SECONDS = 5.0
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

    def percentile(self, fraction: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def _client(http: httpx.AsyncClient, index: int, deadline: float, tally: Tally) -> None:
    turn = index
    while time.monotonic() < deadline:
        body = WORKLOAD[turn % len(WORKLOAD)]
        turn += 1
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


async def _run(base: str, seconds: float) -> Tally:
    tally = Tally()
    limits = httpx.Limits(max_connections=CLIENTS, max_keepalive_connections=CLIENTS)
    async with httpx.AsyncClient(
        base_url=base, timeout=30, limits=limits, headers=GRAPHQL_CLIENT_HEADERS
    ) as http:
        deadline = time.monotonic() + seconds
        await asyncio.gather(*(_client(http, i, deadline, tally) for i in range(CLIENTS)))
    return tally


def test_load(backend: str, new_database: Callable[[str, str], str], tmp_path: Path) -> None:
    url = new_database(backend, "load")
    load_directory(DEFAULT_FIXTURES_DIR, url)
    with running_server(url, workers=2, response_cache="false") as base:
        pids = worker_pids(base)
        assert len(pids) == 2
        warm_up = asyncio.run(_run(base, WARM_UP_SECONDS))
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
        f"{after_warm_up / 2**20:.1f} MiB after warm-up, {at_end / 2**20:.1f} MiB at the end "
        f"({at_end / after_warm_up:.2f}x); failures: {len(warm_up.failures)} in the warm-up, "
        f"{len(tally.failures)} in the run"
    )
    print(report)
    (tmp_path / f"load-{backend}.txt").write_text(report + "\n", encoding="utf-8")
    assert len(tally.latencies) > CLIENTS
    assert at_end <= MEMORY_GROWTH * after_warm_up, report
    # Not one request refused: a busy server queues its requests for connections in
    # arrival order (store.engines.request_slots); under this load none waits past a limit.
    failures = warm_up.failures + tally.failures
    assert failures == [], failures[:3]
