"""How much one costly request adds to another client's latency:
`python -m bench.interference URL [URL...]` (databases holding size L, a few releases).

Issue 25 asks that no single request add more than 200 ms to another client's latency,
and that a request that would is refused for its cost. Here our server runs with one
worker (`taxonomy serve`'s default: every request on one event loop), the response cache
off. A "victim" client (a process of its own) asks for a small page (5 methods) every
20 ms; meanwhile a "hostile" client sends one query shape after the other, each made as
large as the cost limit lets it (its page size or its number of aliases raised until the
server's cost rule would refuse it), back to back for SECONDS. Per shape: the hostile's median time,
its cost, and the victim's p50 alone and its p50, p99 and worst latency during the shape:
the worst minus the p50 alone is what the shape added. The machine's load average (1
minute) is given with each: on a shared machine the worst is often the operating system's
doing, not ours. BENCH_SOURCE=<commit> measures that commit
(sizes as its own cost rule allowed them).

Prints one JSON line per database.
"""

import json
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from bench import systems
from bench.source import current

SECONDS = float(os.environ.get("BENCH_SECONDS", "6"))
VICTIM = {"query": "{ methods(first: 5) { nodes { slug name strongest } } }"}
WORDS = ["transformr", "attention", "paralel", "gradient", "normalisaton", "optimizer"] * 5

# Each shape: its document for a size n (aliases, or a page size), the largest n tried.
Shape = tuple[Callable[[int], str], int]


def _aliases(n: int, field: Callable[[int], str]) -> str:
    return "{ " + " ".join(f"a{i}: {field(i)}" for i in range(n)) + " }"


def fill(template: str, **values: object) -> str:
    """``template`` with each ``<name>`` replaced by its value (GraphQL's braces stay)."""
    for name, value in values.items():
        template = template.replace(f"<{name}>", str(value))
    return template


def shapes(releases: int) -> dict[str, Shape]:
    pairs = [(a, b) for a in range(1, releases + 1) for b in range(a + 1, releases + 1)]

    def compared(i: int, selection: str) -> str:
        since, until = pairs[i % len(pairs)]
        return fill("changes(since: <s>, until: <u>) { <x> }", s=since, u=until, x=selection)

    return {
        "change summaries": (lambda n: _aliases(n, lambda i: compared(i, "summary { total }")), 30),
        "change pages": (
            lambda n: _aliases(
                n, lambda i: compared(i, "methods(first: 100) { nodes { slug fromPath toPath } }")
            ),
            30,
        ),
        "searches": (
            lambda n: _aliases(
                n, lambda i: fill('search(query: "<w>", first: 100) { totalCount }', w=WORDS[i])
            ),
            30,
        ),
        "models' treatments": (
            lambda n: fill(
                "{ models(first: <n>) { nodes { slug treatments(first: 100) "
                "{ nodes { strength method { name node { path } } } } } } }",
                n=n,
            ),
            100,
        ),
        "methods' evidence": (
            lambda n: fill(
                "{ methods(first: <n>) { nodes { slug evidence(first: 100) { nodes "
                "{ strength model { name } source { title } } } } } }",
                n=n,
            ),
            100,
        ),
        "roots' methods": (
            lambda n: fill("{ roots { methods(first: <n>) { nodes { slug name } } } }", n=n),
            100,
        ),
        "By-model rows' methods": (
            lambda n: fill(
                "{ roots { byModel(first: <n>, orderBy: {field: METHOD_COUNT}) "
                "{ nodes { methods { strength method { name } } } } } }",
                n=n,
            ),
            100,
        ),
        "descendants": (lambda n: _aliases(n, lambda i: "roots { descendants { slug } }"), 30),
        "adoption": (
            lambda n: fill(
                "{ methods(first: <n>) { nodes { adoption(interval: MONTH) { models } } } }", n=n
            ),
            100,
        ),
        "treatment pages": (
            lambda n: fill(
                "{ methods(first: 100) { nodes { slug treatmentsConnection(first: <n>) "
                "{ nodes { strength model { name organization } } } } } }",
                n=n,
            ),
            100,
        ),
    }


def _refused_before_running(answer: dict[str, Any]) -> bool:
    errors = answer.get("errors") or []
    return answer.get("data") is None and any(
        error.get("extensions", {}).get("code") == "QUERY_TOO_COMPLEX" for error in errors
    )


def _largest(url: str, shape: Shape) -> tuple[str, int] | None:
    """The shape's document at the largest size the server lets run, and that size: the
    server's own cost rule decides, so that code before a change is measured at the sizes
    its rule allowed."""
    document_of, largest = shape
    for n in range(largest, 0, -1):
        document = document_of(n)
        if not _refused_before_running(_post(url, {"query": document})[1]):
            return document, n
    return None


def _post(url: str, body: Mapping[str, Any]) -> tuple[float, dict[str, Any]]:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"content-type": "application/json"}
    )
    start = time.perf_counter()
    with urllib.request.urlopen(request, timeout=120) as response:
        answer = json.loads(response.read())
    return time.perf_counter() - start, answer


def _victim(url: str, started: Any, stop: Any, latencies: Any) -> None:
    """The victim's loop, in a process of its own: in a thread of the hostile's process it
    would wait for the interpreter's lock while the hostile decodes its large answers, and
    that wait, the benchmark's own, would be counted as the server's."""
    measured: list[float] = []
    while not stop.is_set():
        seconds, answer = _post(url, VICTIM)
        assert not answer.get("errors"), answer
        measured.append(seconds)
        started.set()
        time.sleep(0.02)
    latencies.put(measured)


def _alone(url: str) -> float:
    return statistics.median(_post(url, VICTIM)[0] for _ in range(50))


def measure(database_url: str) -> dict[str, object]:
    source = current()
    database = "sqlite" if database_url.startswith("sqlite") else "postgresql"
    system = systems.server(source, database, database_url, cache=False, workers=1)
    system.start(Path(tempfile.mkdtemp(prefix="interference-")))
    try:
        system.wait_ready()
        url = system.url("graphql")
        _, found = _post(url, {"query": "{ releases(first: 100) { totalCount } }"})
        releases = found["data"]["releases"]["totalCount"]
        _, found = _post(url, {"query": '{ search(query: "warm") { totalCount } }'})
        _, found = _post(url, {"query": "{ __typename }"})
        limit = _post(url, VICTIM)[1]["extensions"]["cost"]["limit"]
        alone = _alone(url)
        results: dict[str, object] = {}
        for name, shape in shapes(releases).items():
            chosen = _largest(url, shape)
            if chosen is None:
                results[name] = {"refused at size 1": True}
                continue
            document, size = chosen
            processes = multiprocessing.get_context("spawn")
            started, stop, measured = processes.Event(), processes.Event(), processes.Queue()
            victim = processes.Process(target=_victim, args=(url, started, stop, measured))
            victim.start()
            started.wait(60)
            hostile: list[float] = []
            codes: set[str] = set()
            spent = 0
            deadline = time.monotonic() + SECONDS
            while time.monotonic() < deadline:
                seconds, answer = _post(url, {"query": document})
                hostile.append(seconds)
                for error in answer.get("errors") or []:
                    codes.add(error.get("extensions", {}).get("code"))
                spent = max(spent, answer.get("extensions", {}).get("cost", {}).get("spent", 0))
            stop.set()
            latencies: list[float] = measured.get(timeout=60)
            victim.join()
            ranked = sorted(latencies)
            results[name] = {
                "size": size,
                "hostile_ms": round(statistics.median(hostile) * 1000, 1),
                "spent": spent,
                "errors": sorted(codes),
                "victim_p50_ms": round(ranked[len(ranked) // 2] * 1000, 1),
                "victim_p99_ms": round(ranked[int(len(ranked) * 0.99)] * 1000, 1),
                "victim_worst_ms": round(ranked[-1] * 1000, 1),
                "added_ms": round((ranked[-1] - alone) * 1000, 1),
                "load": round(os.getloadavg()[0], 1),
            }
            print(name, json.dumps(results[name]), file=sys.stderr, flush=True)
        return {
            "database": database,
            "limit": limit,
            "victim_alone_ms": round(alone * 1000, 2),
            "shapes": results,
        }
    finally:
        system.stop()


if __name__ == "__main__":
    for url_argument in sys.argv[1:]:
        print(json.dumps(measure(url_argument)), flush=True)
