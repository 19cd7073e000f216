"""The p50 of `Node.adoption` for the largest root (by models in its branch), in process.

    .venv/bin/python -m bench.adoption_p50 sqlite:///var/bench/run/S.db [URL ...] [requests]

Not a `make bench` workload (the peer systems have no adoption series to compare; it is
part of bench/history_cost.py): one client per database through the ASGI app (Starlette's
TestClient, no network, no wrk), the response cache off, five warm-up requests, then
``requests`` (50) timed, cycling through the nine interval x minStrength combinations.
Given several databases (S and L, say), one process asks each in turn, request by
request, so that the machine's drift falls on all alike: on this shared machine, the same
database measured one run after another drifted by more than the L/S ratio itself. Prints
one JSON line per database.

A server builds its search catalogue in a thread of its own when it starts (seconds at
L), and requests timed during the build would measure the build too: a search first,
which waits for it.
"""

import json
import statistics
import sys
import time
from collections.abc import Sequence
from contextlib import ExitStack
from itertools import cycle, product
from typing import Any

from starlette.testclient import TestClient

from api.app import create_app
from api.settings import Settings

ROOTS = "{ roots { slug counts { modelsInBranch methodsInBranch } } }"
SEARCH = '{ search(query: "method", first: 1) { totalCount } }'
SERIES = """query ($slug: String!, $interval: Interval, $min: Strength) {
  node(slug: $slug) {
    adoption(interval: $interval, minStrength: $min) {
      period start models cumulativeModels newMethods
    }
  }
}"""
HEADERS = {"accept": "application/graphql-response+json, application/json"}
WARM_UP = 5


def main(urls: Sequence[str], requests: int) -> list[dict[str, object]]:
    clients, roots = [], []
    with ExitStack() as stack:
        for url in urls:
            settings = Settings(
                database_url=url,
                statement_header=True,
                response_cache=False,
                # Room for the search that waits for the catalogue (over 10 s at L on a
                # busy machine).
                request_timeout_seconds=300,
            )
            client = stack.enter_context(TestClient(create_app(settings), headers=HEADERS))
            assert not client.post("/graphql", json={"query": SEARCH}).json().get("errors")
            found = client.post("/graphql", json={"query": ROOTS}).json()["data"]["roots"]
            clients.append(client)
            roots.append(max(found, key=lambda r: tuple(r["counts"].values())))
        combinations = cycle(product(("MONTH", "QUARTER", "YEAR"), ("CORE", "USED", "MENTIONED")))
        seconds: list[list[float]] = [[] for _ in urls]
        statements: list[set[str]] = [set() for _ in urls]
        for number in range(WARM_UP + requests):
            interval, strength = next(combinations)
            # Each database first as often as the others.
            for index in [(number + step) % len(urls) for step in range(len(urls))]:
                variables = {"slug": roots[index]["slug"], "interval": interval, "min": strength}
                start = time.perf_counter()
                response = clients[index].post(
                    "/graphql", json={"query": SERIES, "variables": variables}
                )
                seconds[index].append(time.perf_counter() - start)
                assert not response.json().get("errors"), response.json()
                statements[index].add(response.headers["x-sql-statements"])
    return [
        _figures(root, sorted(times[WARM_UP:]), counted)
        for root, times, counted in zip(roots, seconds, statements, strict=True)
    ]


def _figures(root: dict[str, Any], timed: list[float], statements: set[str]) -> dict[str, object]:
    return {
        "root": root["slug"],
        "counts": root["counts"],
        "requests": len(timed),
        "p50_ms": round(statistics.median(timed) * 1000, 2),
        "p90_ms": round(timed[int(len(timed) * 0.9)] * 1000, 2),
        "statements_per_request": sorted(statements),
    }


if __name__ == "__main__":
    arguments = sys.argv[1:]
    count = int(arguments.pop()) if arguments and arguments[-1].isdigit() else 50
    for figures in main(arguments, count):
        print(json.dumps(figures))
