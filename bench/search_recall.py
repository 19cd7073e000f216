"""Search recall: how often the thing a user means is first, and in the top 3, for
searches typed the way people type them (bench/search_queries.json, on the real Papers
with Code dataset), and the p50 latency of those searches at a larger scale.

    .venv/bin/python -m bench.search_recall                  # recall on PwC (SQLite)
    .venv/bin/python -m bench.search_recall --latency sqlite:////tmp/ws/L.db
    .venv/bin/python -m bench.search_recall --pwc-url postgresql://.../db   # a loaded PwC

Not a `make bench` workload: one client through the ASGI app (Starlette's TestClient, no
network), response cache off. Recall: PwC is loaded into a fresh SQLite file (or the
database of ``--pwc-url`` is used as loaded), each query asked once for its first 20 hits.
Latency (``--latency URL``, a database loaded with `taxonomy generate --scale L`): one
search first, which waits for the catalogue's build (timed, as "catalogue_seconds"), then
every query of the list asked ``--rounds`` times in turn; "p50_first_ms" is the median of
each query's first asking (its words' typo lookups not yet remembered), "p50_ms" of all.
The list's answers are PwC's and most find little at L, so BROAD (searches that find
thousands of L's entries) is timed in the same rounds: "p50_broad_ms".
Prints one JSON line per part, and the queries whose answer is not in the top 3.
"""

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from api.app import create_app
from api.settings import Settings

QUERIES = Path(__file__).with_name("search_queries.json")
PWC = Path(__file__).resolve().parents[2] / "shared" / "testdata" / "pwc-methods"
HEADERS = {"accept": "application/graphql-response+json, application/json"}
DEPTH = 20
# Searches that find many entries at scale L (its synthetic names and descriptions), timed
# beside the recall list, whose answers are PwC's and mostly absent at L.
BROAD = [
    "expert parallel", "rotary attention", "residual rotary", "speculative decoding",
    "cache attention token", "tokens", "distiled", "pipline", "attention", "mixed precision",
    "policy context mixed", "grouped cache 132012",
]  # fmt: skip
SEARCH = """query($q: String!, $first: Int!) {
  search(query: $q, first: $first) {
    edges { node {
      __typename
      ... on Node { slug } ... on Method { slug } ... on Model { slug } ... on Source { slug }
    } }
  }
}"""


def _client(url: str) -> TestClient:
    settings = Settings(
        database_url=url, response_cache=False, request_timeout_seconds=300, fixtures_dir=PWC
    )
    client = TestClient(create_app(settings), headers=HEADERS)
    client.__enter__()
    return client


def _ask(client: TestClient, query: str, first: int = DEPTH) -> list[tuple[str, str]]:
    variables = {"q": query, "first": first}
    answer = client.post("/graphql", json={"query": SEARCH, "variables": variables}).json()
    assert not answer.get("errors"), answer
    return [
        (edge["node"]["__typename"].lower(), edge["node"]["slug"])
        for edge in answer["data"]["search"]["edges"]
    ]


def queries() -> list[dict[str, str]]:
    found: list[dict[str, str]] = json.loads(QUERIES.read_text())["queries"]
    return found


def recall(url: str) -> dict[str, Any]:
    client = _client(url)
    try:
        ranks: list[int | None] = []
        missed: list[dict[str, Any]] = []
        for item in queries():
            hits = _ask(client, item["query"])
            wanted = (item["kind"], item["slug"])
            rank = hits.index(wanted) + 1 if wanted in hits else None
            ranks.append(rank)
            if rank is None or rank > 3:
                missed.append(
                    {"query": item["query"], "want": item["slug"], "rank": rank, "top": hits[:3]}
                )
    finally:
        client.__exit__(None, None, None)
    count = len(ranks)
    return {
        "part": "recall",
        "queries": count,
        "top1": sum(rank == 1 for rank in ranks),
        "top3": sum(rank is not None and rank <= 3 for rank in ranks),
        "top1_pct": round(100 * sum(rank == 1 for rank in ranks) / count, 1),
        "top3_pct": round(100 * sum(rank is not None and rank <= 3 for rank in ranks) / count, 1),
        "missed": missed,
    }


def latency(url: str, rounds: int) -> dict[str, Any]:
    client = _client(url)
    try:
        start = time.perf_counter()
        _ask(client, "method", 1)  # waits for the catalogue
        built = time.perf_counter() - start
        first: list[float] = []
        every: list[float] = []
        broad: list[float] = []
        for round_ in range(rounds):
            for item in queries():
                start = time.perf_counter()
                _ask(client, item["query"])
                elapsed = time.perf_counter() - start
                every.append(elapsed)
                if round_ == 0:
                    first.append(elapsed)
            for query in BROAD:
                start = time.perf_counter()
                _ask(client, query)
                broad.append(time.perf_counter() - start)
    finally:
        client.__exit__(None, None, None)
    every.sort()
    broad.sort()
    return {
        "part": "latency",
        "database": url.split("://")[0],
        "catalogue_seconds": round(built, 2),
        "requests": len(every),
        "p50_first_ms": round(statistics.median(first) * 1000, 1),
        "p50_ms": round(statistics.median(every) * 1000, 1),
        "p90_ms": round(every[int(len(every) * 0.9)] * 1000, 1),
        "p50_broad_ms": round(statistics.median(broad) * 1000, 1),
        "p90_broad_ms": round(broad[int(len(broad) * 0.9)] * 1000, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pwc-url", help="a database with PwC loaded (default: load a new one)")
    parser.add_argument("--latency", metavar="URL", help="a database loaded at scale L")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--no-recall", action="store_true")
    arguments = parser.parse_args()
    if not arguments.no_recall:
        with tempfile.TemporaryDirectory() as folder:
            url = arguments.pwc_url
            if url is None:
                from api.ingest.load import load_directory

                url = f"sqlite:///{folder}/pwc.db"
                load_directory(PWC, url)
            print(json.dumps(recall(url)))
    if arguments.latency:
        print(json.dumps(latency(arguments.latency, arguments.rounds)))


if __name__ == "__main__":
    main()
