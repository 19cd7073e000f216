"""Many clients at once (issue 23 item 4): 64 concurrent clients for 30 s against
`taxonomy serve` with the advised workers (one a core: docs/operations.md), asking what
the taxonomy browser asks for its pages.

Each request is one of the browser's own persisted-query GETs (browser/src/api.ts: the
document's sha256 and the variables in the URL), for a page of the data: node pages, method
pages, model pages, searches and the home page, in the shares of PAGE_MIX. Pages are drawn
with Zipf's law over each kind's pages (a few pages are asked for often, most rarely), the
"realistic share of repeated documents" that a response cache and HTTP caches meet; the
share of repeats in the drawn sequence is reported beside the figures. wrk (Debian's, the
load generator of every benchmark here) sends the sequence, each connection from its own
place in it, so no client repeats another's requests in lockstep.

    python -m bench.many_clients DATABASE_URL [--seconds 30] [--clients 64] [--workers 2]
                                 [--cache on|off] [--json]

Every answer is checked to be a GraphQL result without errors while it is timed: a
request that errs or times out counts as an error, and any error makes the run invalid.
"""

import argparse
import json
import random
import signal
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request
from dataclasses import asdict
from pathlib import Path
from typing import Any

from bench import page_paint
from bench.results import MANY_CLIENTS, ManyClients
from bench.source import current
from bench.systems import System, server

# The browser's documents by sha256, as its build wrote them in the measured source.
PERSISTED = Path("api/static/browser/persisted-queries.json")
# The share of each kind of page in the browser's traffic, and how many of each to draw
# from (the most popular first: Zipf's law, exponent 1).
PAGE_MIX = {"node": 0.40, "method": 0.25, "model": 0.20, "search": 0.10, "home": 0.05}
PAGES_PER_KIND = 500
SEQUENCE = 20_000  # requests drawn; wrk's connections walk it from spread-out offsets
CLIENTS = MANY_CLIENTS
SECONDS = 30.0
THREADS = 2  # wrk's threads, each with its share of the connections
# The scales `make bench` measures this at (bench/run.py).
SCALES = ("S", "M")
SEARCH_WORDS = ("parallel", "attention", "transformer", "dropout", "pipeline", "expert",
                "normalization", "quantization", "distillation", "optimizer")  # fmt: skip

# wrk: each connection walks the sequence from its own offset; any answer that is not a
# 200 carrying "data" without "errors" is counted as an error (wrk's own status count
# covers non-2xx only). With stop_after above 0, each of wrk's threads stops after that
# many answers (thread:stop(), wrk's SCRIPTING), so a run can be sized by its answers
# rather than by the clock.
_SCRIPT = """
local stop_after = %(stop_after)d
local paths = {}
for line in io.lines(%(paths_file)s) do paths[#paths + 1] = line end
local counter = 0
bad = 0
local threads = {}

function setup(thread)
  counter = counter + 1
  thread:set("offset", counter * 7919)
  table.insert(threads, thread)
end

function init(args)
  position = offset
  bad = 0
  answered = 0
end

function request()
  position = position + 1
  local path = paths[(position %% #paths) + 1]
  return wrk.format("GET", path, {["Accept"] = "application/graphql-response+json"})
end

function response(status, headers, body)
  if status ~= 200 or string.find(body, '"errors"', 1, true) or
     not string.find(body, '"data"', 1, true) then
    bad = bad + 1
  end
  answered = answered + 1
  if stop_after > 0 and answered == stop_after then
    io.write("stopped\\n")
    io.flush()
    wrk.thread:stop()
  end
end

function done(summary, latency, requests)
  local invalid = 0
  for _, thread in ipairs(threads) do invalid = invalid + thread:get("bad") end
  local errors = summary.errors
  io.write(string.format(
    '{"requests": %%d, "duration_us": %%d, "connect": %%d, "read": %%d, "write": %%d, ' ..
    '"status": %%d, "timeout": %%d, "invalid": %%d, "p50_us": %%d, "p99_us": %%d, ' ..
    '"max_us": %%d}\\n',
    summary.requests, summary.duration, errors.connect, errors.read, errors.write,
    errors.status, errors.timeout, invalid, latency:percentile(50), latency:percentile(99),
    latency.max))
end
"""


def _hashes(source: Path) -> dict[str, str]:
    """The browser's operation names -> their documents' sha256 (registered at start) in
    the ``source`` tree the server runs."""
    documents: dict[str, str] = json.loads((source / PERSISTED).read_text(encoding="utf-8"))
    found = {}
    for digest, document in documents.items():
        name = document.split("query ", 1)[1].split("(", 1)[0].split("{", 1)[0].strip()
        found[name] = digest
    return found


def _path(operation: str, digest: str, variables: dict[str, Any]) -> str:
    extensions = {"persistedQuery": {"version": 1, "sha256Hash": digest}}
    query = urllib.parse.urlencode(
        {
            "operationName": operation,
            "variables": json.dumps(variables, separators=(",", ":")),
            "extensions": json.dumps(extensions, separators=(",", ":")),
        }
    )
    return f"/graphql?{query}"


def _ask(base: str, document: str) -> Any:
    body = json.dumps({"query": document}).encode()
    request = urllib.request.Request(f"{base}/graphql", body, {"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        answer = json.loads(response.read())
    assert not answer.get("errors"), answer["errors"]
    return answer["data"]


def _slugs(base: str, listed: str, count: int) -> list[str]:
    """The first ``count`` slugs of a top-level list (``methods`` or ``models``), page by
    page as a client reads them."""
    found: list[str] = []
    after = None
    while len(found) < count:
        page = _ask(
            base,
            f"{{ {listed}(first: 100, after: {json.dumps(after)}) "
            "{ pageInfo { hasNextPage endCursor } nodes { slug } } }",
        )[listed]
        found.extend(node["slug"] for node in page["nodes"])
        if not page["pageInfo"]["hasNextPage"]:
            break
        after = page["pageInfo"]["endCursor"]
    return found[:count]


def pages(base: str, source: Path) -> dict[str, list[str]]:
    """Each kind's pages (browser GET paths), the most popular first, found through the
    API itself: up to PAGES_PER_KIND nodes (the top three levels), methods and models."""
    hashes = _hashes(source)
    roots = _ask(base, "{ roots { slugPath children { slugPath children { slugPath } } } }")
    paths: list[str] = []
    for root in roots["roots"]:
        paths.append(root["slugPath"])
        for child in root["children"]:
            paths.append(child["slugPath"])
            paths.extend(grandchild["slugPath"] for grandchild in child["children"])
    count = PAGES_PER_KIND
    methods, models = _slugs(base, "methods", count), _slugs(base, "models", count)
    rng = random.Random(23)
    rng.shuffle(paths)  # popularity unrelated to the tree's order
    return {
        "node": [
            _path("BrowserNode", hashes["BrowserNode"], {"path": path}) for path in paths[:count]
        ],
        "method": [
            _path("BrowserMethod", hashes["BrowserMethod"], {"slug": slug}) for slug in methods
        ],
        "model": [_path("BrowserModel", hashes["BrowserModel"], {"slug": slug}) for slug in models],
        "search": [
            _path("BrowserSearch", hashes["BrowserSearch"], {"query": " ".join(words)})
            for words in (
                (first,) if first == second else (first, second)
                for first in SEARCH_WORDS
                for second in SEARCH_WORDS
            )
        ],
        "home": [_path("BrowserHome", hashes["BrowserHome"], {})],
    }


def sequence(by_kind: dict[str, list[str]], length: int = SEQUENCE) -> list[str]:
    """``length`` requests drawn by PAGE_MIX, each kind's pages by Zipf's law."""
    rng = random.Random(64)
    kinds = list(PAGE_MIX)
    drawn = []
    for kind in rng.choices(kinds, weights=[PAGE_MIX[k] for k in kinds], k=length):
        found = by_kind[kind]
        weights = [1 / rank for rank in range(1, len(found) + 1)]
        drawn.append(rng.choices(found, weights=weights)[0])
    return drawn


def repeated_share(drawn: list[str]) -> float:
    return 1 - len(set(drawn)) / len(drawn)


def run(
    system: System,
    scale: str,
    drawn: list[str],
    *,
    clients: int,
    seconds: float,
    stop_after: int = 0,
) -> ManyClients:
    """wrk's THREADS send ``drawn`` with ``clients`` connections for ``seconds``, or,
    with ``stop_after``, until each thread has that many answers (``seconds`` the cap)."""
    with tempfile.TemporaryDirectory(prefix="bench-many-") as scratch:
        paths_file = Path(scratch) / "paths.txt"
        paths_file.write_text("\n".join(drawn) + "\n", encoding="utf-8")
        script = Path(scratch) / "mix.lua"
        script.write_text(
            _SCRIPT % {"paths_file": json.dumps(str(paths_file)), "stop_after": stop_after}
        )
        errors_file = Path(scratch) / "stderr.txt"
        with (
            errors_file.open("w") as stderr,
            subprocess.Popen(
                [
                    "wrk",
                    f"-t{THREADS}",
                    f"-c{clients}",
                    f"-d{seconds:g}s",
                    "--timeout",
                    "10s",
                    "-s",
                    str(script),
                    system.base,
                ],
                stdout=subprocess.PIPE,
                stderr=stderr,
                text=True,
            ) as process,
        ):
            assert process.stdout is not None
            output = []
            stopped = 0
            for line in process.stdout:
                output.append(line)
                stopped += line == "stopped\n"
                if stop_after and stopped == THREADS:
                    # wrk's main thread sleeps out -d even when every thread has stopped;
                    # SIGINT wakes it to report, as Ctrl-C does.
                    process.send_signal(signal.SIGINT)
        if process.returncode != 0:
            raise RuntimeError(
                f"wrk failed: {errors_file.read_text().strip() or ''.join(output).strip()}"
            )
    summary = json.loads(output[-1])
    errors = sum(summary[k] for k in ("connect", "read", "write", "status", "timeout", "invalid"))
    duration = summary["duration_us"] / 1e6
    return ManyClients(
        system=system.label,
        scale=scale,
        clients=clients,
        seconds=duration,
        requests=summary["requests"],
        requests_per_second=summary["requests"] / duration,
        p50_ms=summary["p50_us"] / 1000,
        p99_ms=summary["p99_us"] / 1000,
        max_ms=summary["max_us"] / 1000,
        errors=errors,
        repeated_share=repeated_share(drawn),
    )


def measure_running(system: System, scale: str, *, clients: int, seconds: float) -> ManyClients:
    """Measure a server that is running: its pages found, a warm-up of a tenth of the run
    (not counted), then the run."""
    drawn = sequence(pages(system.base, system.cwd))
    run(system, scale, drawn, clients=clients, seconds=max(2.0, seconds / 10))
    return run(system, scale, drawn, clients=clients, seconds=seconds)


def measure(
    database_url: str, *, clients: int, seconds: float, workers: int, cache: bool
) -> ManyClients:
    """Start the server on ``database_url`` with ``workers``, measure it, stop it."""
    database = "postgresql" if database_url.startswith("postgres") else "sqlite"
    source = current()
    page_paint.ensure_built(source)  # the browser's build, whose documents it asks for
    system = server(source, database, database_url, cache=cache, workers=workers)
    # The request time limit as users have it (the benchmark's W4 at L needs it raised).
    system.env.pop("TAXONOMY_REQUEST_TIMEOUT_SECONDS", None)
    with tempfile.TemporaryDirectory(prefix="bench-many-log-") as logs:
        system.start(Path(logs))
        try:
            system.wait_ready()
            return measure_running(system, "-", clients=clients, seconds=seconds)
        finally:
            system.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("database_url")
    parser.add_argument("--seconds", type=float, default=SECONDS)
    parser.add_argument("--clients", type=int, default=CLIENTS)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--cache", choices=("on", "off"), default="on")
    parser.add_argument("--json", action="store_true")
    arguments = parser.parse_args()
    result = measure(
        arguments.database_url,
        clients=arguments.clients,
        seconds=arguments.seconds,
        workers=arguments.workers,
        cache=arguments.cache == "on",
    )
    if arguments.json:
        print(json.dumps(asdict(result)))
    else:
        print(
            f"{result.system}, {result.clients} clients, {result.seconds:.0f} s: "
            f"{result.requests_per_second:.0f} req/s, p50 {result.p50_ms:.1f} ms, "
            f"p99 {result.p99_ms:.1f} ms, max {result.max_ms:.0f} ms, "
            f"{result.errors} errors ({result.requests} requests; "
            f"{result.repeated_share:.0%} of the sequence repeats a page)",
            file=sys.stderr,
        )


if __name__ == "__main__":
    main()
