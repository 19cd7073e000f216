"""How long one costly request holds the event loop without a pause, in process:
`python -m bench.loop_stretch URL [URL...]` (databases holding size L, a few releases).

bench/interference.py measures what a costly request adds to another client's latency,
over HTTP; on a shared machine that figure swings with the load (the worst of a victim
alone is already 100 ms and more when other processes keep both cores busy). This
measures its cause: each shape of bench/interference.py, at the largest size the cost
rule lets run, is executed in process (the schema over a reader, as a request does,
without HTTP) while a callback that schedules itself again at every pass of the event
loop notes the loop thread's processor time (`time.thread_time`: unmoved by other
processes). The longest gap between two passes is the longest another request's turn
could have waited behind this one, in the worker's own processor time. The process's
long-lived objects are frozen out of the garbage collector first, as `taxonomy serve`
does at start-up. BENCH_SOURCE-style: run it with PYTHONPATH=var/bench/src/<commit> to
measure that commit.

Prints one JSON line per database: per shape, its size, and the median over ROUNDS of
its processor time, its longest stretch and the passes of the loop it took (with
PostgreSQL the callback also turns while statements are awaited: its processor time then
counts the callback's too), and the full garbage collections during its rounds, which
hold the loop as long as they take.
"""

import asyncio
import gc
import itertools
import json
import statistics
import sys
import time
from typing import Any

from bench.interference import shapes
from schema import build_schema
from schema.context import Context
from store.caches import Caches
from store.engines import make_async_engine, make_request_engine

ROUNDS = 5

# The processor time of each full collection (generation 2) of the garbage collector.
_FULL_COLLECTIONS: list[float] = []
_collection_began = 0.0


def _on_collection(phase: str, info: dict[str, int]) -> None:
    global _collection_began
    if info.get("generation") != 2:
        return
    if phase == "start":
        _collection_began = time.thread_time()
    else:
        _FULL_COLLECTIONS.append(time.thread_time() - _collection_began)


async def _stretch(schema: Any, engine: Any, caches: Caches, document: str) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    marks: list[float] = []
    running = True

    def next_pass() -> None:
        marks.append(time.thread_time())
        if running:
            loop.call_soon(next_pass)

    context = Context.for_request(engine)
    context.caches = caches
    start = time.thread_time()
    loop.call_soon(next_pass)
    try:
        result = await schema.execute(document, context_value=context)
    finally:
        running = False
        end = time.thread_time()
        await context.reader.close()
    times = [start, *marks, end]
    return {
        "cpu_ms": (end - start) * 1000,
        "stretch_ms": max(b - a for a, b in itertools.pairwise(times)) * 1000,
        "passes": len(marks),
        "refused": result.data is None and bool(result.errors),
    }


async def measure(url: str) -> dict[str, Any]:
    schema = build_schema()
    engine = make_request_engine(url, make_async_engine(url))
    caches = Caches()
    found = await schema.execute(
        "{ releases(first: 100) { totalCount } }", context_value=Context.for_request(engine)
    )
    assert found.data is not None, found.errors
    # Warm what a server keeps between requests (the search catalogue), then freeze.
    await _stretch(schema, engine, caches, '{ search(query: "warm") { totalCount } }')
    await asyncio.sleep(1)
    gc.collect()
    gc.freeze()
    gc.callbacks.append(_on_collection)
    results: dict[str, Any] = {}
    for name, (document_of, largest) in shapes(found.data["releases"]["totalCount"]).items():
        size = largest
        while size > 0 and (await _stretch(schema, engine, caches, document_of(size)))["refused"]:
            size -= 1
        if size == 0:
            results[name] = {"refused at size 1": True}
            continue
        _FULL_COLLECTIONS.clear()
        runs = [await _stretch(schema, engine, caches, document_of(size)) for _ in range(ROUNDS)]
        results[name] = {
            "size": size,
            "cpu_ms": round(statistics.median(run["cpu_ms"] for run in runs), 1),
            "stretch_ms": round(statistics.median(run["stretch_ms"] for run in runs), 1),
            "worst_stretch_ms": round(max(run["stretch_ms"] for run in runs), 1),
            "passes": round(statistics.median(run["passes"] for run in runs)),
            "full_collections": len(_FULL_COLLECTIONS),
            "longest_collection_ms": round(max(_FULL_COLLECTIONS, default=0) * 1000, 1),
        }
        print(name, json.dumps(results[name]), file=sys.stderr, flush=True)
    return {"database": url.split(":")[0], "shapes": results}


if __name__ == "__main__":
    for database_url in sys.argv[1:]:
        print(json.dumps(asyncio.run(measure(database_url))), flush=True)
