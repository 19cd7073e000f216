"""The p50 of `Node.adoption` for the largest root (by models in its branch), in process.

    .venv/bin/python -m bench.adoption_p50 sqlite:///var/bench/L.db [requests]

Not a `make bench` workload (the peer systems have no adoption series to compare): one
client through the ASGI app (Starlette's TestClient, no network, no wrk), the response
cache off, five warm-up requests, then ``requests`` (50) timed, cycling through the nine
interval x minStrength combinations. Prints one JSON line.
"""

import json
import statistics
import sys
import time
from itertools import cycle, product

from starlette.testclient import TestClient

from api.app import create_app
from api.settings import Settings

ROOTS = "{ roots { slug counts { modelsInBranch methodsInBranch } } }"
SERIES = """query ($slug: String!, $interval: Interval, $min: Strength) {
  node(slug: $slug) {
    adoption(interval: $interval, minStrength: $min) {
      period start models cumulativeModels newMethods
    }
  }
}"""
HEADERS = {"accept": "application/graphql-response+json, application/json"}
WARM_UP = 5


def main(url: str, requests: int) -> dict[str, object]:
    settings = Settings(database_url=url, statement_header=True, response_cache=False)
    with TestClient(create_app(settings), headers=HEADERS) as client:
        roots = client.post("/graphql", json={"query": ROOTS}).json()["data"]["roots"]
        root = max(roots, key=lambda r: tuple(r["counts"].values()))
        combinations = cycle(product(("MONTH", "QUARTER", "YEAR"), ("CORE", "USED", "MENTIONED")))
        seconds: list[float] = []
        statements: set[str] = set()
        for _ in range(WARM_UP + requests):
            interval, strength = next(combinations)
            variables = {"slug": root["slug"], "interval": interval, "min": strength}
            start = time.perf_counter()
            response = client.post("/graphql", json={"query": SERIES, "variables": variables})
            seconds.append(time.perf_counter() - start)
            assert not response.json().get("errors"), response.json()
            statements.add(response.headers["x-sql-statements"])
    timed = sorted(seconds[WARM_UP:])
    return {
        "root": root["slug"],
        "counts": root["counts"],
        "requests": len(timed),
        "p50_ms": round(statistics.median(timed) * 1000, 2),
        "p90_ms": round(timed[int(len(timed) * 0.9)] * 1000, 2),
        "statements_per_request": sorted(statements),
    }


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 50)))
