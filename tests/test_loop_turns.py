"""A costly request gives the event loop back every slice of its time (issue 25, item 3).

Every request of a worker runs on one event loop. Before, a query at the cost limit held
it for 100-300 ms at a time at size L (graphql-core completes the objects of all the lists
of one level in one pass of the loop), and another client's small request waited through
several such stretches: 230-450 ms added to it. Now each list field and each part of a
statement's rows is a check of the request's time on the loop (store.turns): once it has
held the loop for a slice, it waits for the loop's next pass.

No wall clock here: the request's clock is one that reads one millisecond more at each
check, so a slice is a fixed number of checks, and a loop pass is seen by a callback that
schedules itself again at every pass."""

import asyncio
import time
from collections.abc import Callable
from typing import Any

from schema import default_schema
from schema.context import Context
from store.turns import FIRST_SLICE, SLICE, Turns

from conftest import UNLIMITED, Api

STEP = 0.001  # the request's clock, one millisecond a check
CHECKS_PER_SLICE = round(SLICE / STEP)
CHECKS_FIRST = round(FIRST_SLICE / STEP)

# A page of methods with a page of evidence and of treatments each: about 300 lists.
COSTLY = """{ methods(first: 100) { nodes { slug
  evidence(first: 100) { nodes { strength model { name } source { title } } }
  treatmentsConnection(first: 100) { nodes { strength model { name } } } } } }"""


class CountedTurns(Turns):
    """The request's turns, counting the checks it passes without waiting in each pass of
    the loop (``passes``: one count a pass, the current one last)."""

    def __init__(self, clock: Callable[[], float], passes: list[int]) -> None:
        super().__init__(clock)
        self.passes = passes

    async def take(self) -> None:
        await super().take()
        self.passes[-1] += 1


def _run_with_passes(api: Api, document: str) -> tuple[Any, list[int], CountedTurns]:
    engine = api.client.app.state.request_engine  # type: ignore[attr-defined]

    async def run() -> tuple[Any, list[int], CountedTurns]:
        loop = asyncio.get_running_loop()
        readings = 0

        def clock() -> float:
            nonlocal readings
            readings += 1
            return readings * STEP

        passes = [0]
        running = True

        def next_pass() -> None:
            if running:
                passes.append(0)
                loop.call_soon(next_pass)

        context = Context.for_request(engine)
        context.cost_limit = UNLIMITED
        turns = context.reader.turns = CountedTurns(clock, passes)
        loop.call_soon(next_pass)
        try:
            result = await default_schema().execute(document, context_value=context)
        finally:
            running = False
            await context.reader.close()
        return result, passes, turns

    assert api.client.portal is not None
    answer: tuple[Any, list[int], CountedTurns] = api.client.portal.call(run)
    return answer


def test_a_costly_query_gives_the_loop_back_every_slice(api: Api) -> None:
    result, passes, turns = _run_with_passes(api, COSTLY)
    assert not result.errors, result.errors
    # Every list is a check, twice (before it is read, and before its items are
    # completed): the page of methods, and two lists for each method.
    assert sum(passes) >= 2 * (1 + 2 * len(result.data["methods"]["nodes"]))
    # No pass of the loop holds more than a slice of the request's checks, the first
    # slice (longer) aside. The callback runs amid a pass, so what it sees between two of
    # its runs may hold one check more (the first of the next slice), and the first slice
    # may be seen in two parts.
    assert max(passes) <= CHECKS_FIRST + 1
    assert len([checks for checks in passes if checks > CHECKS_PER_SLICE + 1]) <= 2
    assert turns.given >= (sum(passes) - CHECKS_FIRST) // (CHECKS_PER_SLICE + 1)


def test_a_small_query_never_waits(api: Api) -> None:
    result, passes, turns = _run_with_passes(api, "{ methods(first: 3) { nodes { slug } } }")
    assert not result.errors, result.errors
    assert turns.given == 0
    # The list before it is read, its statement's rows (one part), the list before its
    # items are completed.
    assert sum(passes) == 3


def test_the_slice_is_the_loop_threads_processor_time() -> None:
    """With its own clocks: time spent waiting (the wall clock runs, the thread does not)
    uses up no slice; work on the thread does (store.turns: what the process did, not
    how long a busy machine took to let it run)."""

    async def run() -> tuple[int, int]:
        turns = Turns()
        await asyncio.sleep(FIRST_SLICE * 2)  # waiting: no processor time
        await turns.take()
        waited = turns.given
        began = time.thread_time()
        while time.thread_time() - began < FIRST_SLICE * 1.5:  # working
            pass
        await turns.take()
        return waited, turns.given

    assert asyncio.run(run()) == (0, 1)
