"""What each field that does work of its own costs, in the cost rule's points:
`python -m bench.cost_weights URL [URL...]` (databases holding size L with a few releases).

The cost rule (schema.limits) counts one point per object, and WORK adds points to the
fields that do more than read their objects. A point is POINT_MS of a worker's time (the
limit of 50,000 points is 200 ms), about what one object costs to read and answer. Here
each such field is resolved K times in one query,
in process (the schema over a reader, as a request does, without HTTP), and its time
beyond an empty query's, per resolution, is turned into points: the figure WORK should
hold, so that a query at the cost limit takes about as long whatever it asks for. Each
probe runs over different releases, words or parents each time, so that nothing a
request keeps for the next (the comparison of two releases, a word's terms) is reused.

Each probe's document marks the field measured with [[ ]]; the same document with
`__typename` in its place is the baseline, so that a field's time is its own, not its
parents' (both open a snapshot: `taxonomy { depth }` is in each).

Prints one JSON line per database: per field, the median milliseconds per resolution,
the points they come to, and the points WORK gives it now.
"""

import asyncio
import gc
import json
import math
import statistics
import sys
import time
from collections.abc import Awaitable, Callable, Sequence

from sqlalchemy import Engine
from sqlalchemy.ext.asyncio import AsyncEngine
from strawberry import Schema

from bench.interference import fill
from schema import build_schema
from schema.context import Context
from schema.limits import WORK
from store.engines import make_async_engine, make_request_engine

POINT_MS = 0.004
ROUNDS = 5
WORDS = ("transformr", "attention", "paralelism", "gradient", "normalisaton", "optimizer")

Probe = Callable[[int], str]  # the round's document


def _pair(round_: int, releases: int) -> tuple[int, int]:
    pairs = [(a, b) for a in range(1, releases + 1) for b in range(a + 1, releases + 1)]
    return pairs[round_ % len(pairs)]


def probes(releases: int) -> dict[str, tuple[int, Probe]]:
    """Per field: how many times its query resolves it, and the query of each round."""
    offsets = iter(range(0, 1000, ROUNDS + 1))

    def changes(selection: str) -> Probe:
        # Pairs of releases no other probe compared just before (comparisons are kept).
        offset = next(offsets)

        def document(r: int) -> str:
            since, until = _pair(offset + r, releases)
            return fill(
                "{ [[changes(since: <s>, until: <u>) { <x> }]] }", s=since, u=until, x=selection
            )

        return document

    def each_of(list_field: str, count: int, selection: str) -> Probe:
        # The first page and the last in turn: other parents each time.
        return lambda r: fill(
            "{ <list>(<end>: <n>) { nodes { [[<x>]] } } }",
            list=list_field,
            end="last" if r % 2 else "first",
            n=count,
            x=selection,
        )

    def each_word(template: str, words: Sequence[str]) -> Probe:
        return lambda r: fill(template, w=words[r % len(words)])

    return {
        "Query.changes": (1, changes("summary { total }")),
        "Release.changes": (
            1,
            lambda r: fill(
                "{ release(number: <n>) { [[changes { summary { total } }]] } }",
                n=2 + r % (releases - 1),
            ),
        ),
        "Changes.nodes": (1, changes("nodes(first: 1) { nodes { slug } }")),
        "Changes.methods": (1, changes("methods(first: 1) { nodes { slug } }")),
        "Changes.models": (1, changes("models(first: 1) { nodes { slug } }")),
        "Changes.treatments": (1, changes("treatments(first: 1) { nodes { modelSlug } }")),
        "Query.search": (
            1,
            each_word('{ [[search(query: "<w>", first: 1) { nodes { __typename } }]] }', WORDS),
        ),
        "Node.adoption": (10, lambda r: "{ roots { [[adoption(interval: MONTH) { models }]] } }"),
        "Method.adoption": (100, each_of("methods", 100, "adoption { models }")),
        "Node.byModel": (
            10,
            lambda r: "{ roots { [[byModel(first: 1) { nodes { strongest } }]] } }",
        ),
        "Node.methods": (10, lambda r: "{ roots { [[methods(first: 1) { nodes { slug } }]] } }"),
        "Model.treatments": (
            100,
            each_of("models", 100, "treatments(first: 1) { nodes { strength } }"),
        ),
        "Model.evidence": (
            100,
            each_of("models", 100, "evidence(first: 1) { nodes { strength } }"),
        ),
        "Method.evidence": (
            100,
            each_of("methods", 100, "evidence(first: 1) { nodes { strength } }"),
        ),
        "Method.treatmentsConnection": (
            100,
            each_of("methods", 100, "treatmentsConnection(first: 1) { nodes { strength } }"),
        ),
        "Query.methods": (
            1,
            each_word(
                '{ [[methods(first: 1, filter: {nameContains: "<w>"}) { nodes { slug } }]] }',
                "aeiou",
            ),
        ),
        "Query.models": (
            1,
            each_word(
                '{ [[models(first: 1, filter: {nameContains: "<w>"}) { nodes { slug } }]] }',
                "aeiou",
            ),
        ),
        "Node.descendantsConnection": (
            10,
            lambda r: "{ roots { [[descendantsConnection(first: 1) { nodes { slug } }]] } }",
        ),
        "Node.childrenConnection": (
            10,
            lambda r: "{ roots { [[childrenConnection(first: 1) { nodes { slug } }]] } }",
        ),
        "Query.organizations": (
            10,
            lambda r: (
                "{ [[" + " ".join(f"o{i}: organizations {{ name }}" for i in range(10)) + "]] }"
            ),
        ),
        "Model.branchesConnection": (
            100,
            each_of("models", 100, "branchesConnection(first: 1) { nodes { strongest } }"),
        ),
        "ModelTreatment.methodsConnection": (
            100,
            lambda r: (
                "{ roots { byModel(first: 10) { nodes { "
                "[[methodsConnection(first: 1) { nodes { strength } }]] } } } }"
            ),
        ),
    }


async def _timed(schema: Schema, engine: Engine | AsyncEngine, document: str) -> float:
    context = Context.for_request(engine)
    start = time.perf_counter()
    result = await schema.execute(document, context_value=context)
    seconds = time.perf_counter() - start
    await context.reader.close()
    assert not result.errors, (document, result.errors)
    return seconds


async def measure(url: str) -> dict[str, object]:
    schema = build_schema(max_cost=10**9)
    engine = make_request_engine(url, make_async_engine(url))
    releases_answer = await schema.execute(
        "{ releases(first: 100) { totalCount } }",
        context_value=Context.for_request(engine),
    )
    assert releases_answer.data is not None, releases_answer.errors
    releases = releases_answer.data["releases"]["totalCount"]
    gc.collect()
    gc.freeze()
    fields: dict[str, object] = {}
    for field, (times, probe) in probes(releases).items():

        def timed(round_: int, measured: bool, probe: Probe = probe) -> Awaitable[float]:
            document = probe(round_).replace("{ ", "{ t: taxonomy { depth } ", 1)
            kept, rest = document.split("[[", 1)
            inside, after = rest.split("]]", 1)
            return _timed(schema, engine, kept + (inside if measured else "__typename") + after)

        await timed(ROUNDS, True)  # warms the file's pages
        with_field = statistics.median([await timed(r, True) for r in range(ROUNDS)])
        without = statistics.median([await timed(r, False) for r in range(ROUNDS)])
        each_ms = max(with_field - without, 0) * 1000 / times
        fields[field] = {
            "ms_each": round(each_ms, 3),
            "points": math.ceil(each_ms / POINT_MS),
            "work_now": WORK.get(field, 0),
        }
    return {"database": url.split("://")[0], "releases": releases, "fields": fields}


if __name__ == "__main__":
    for database_url in sys.argv[1:]:
        print(json.dumps(asyncio.run(measure(database_url))), flush=True)
