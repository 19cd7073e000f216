"""A request's share of the event loop: it gives the loop back every slice of its time.

`taxonomy serve` answers every request of a worker on one event loop, and much of a
request's work holds the loop without a pause: SQLite's statements (store.reader), the
rows read into records, and graphql-core completing the objects of every list of one
level, which it gathers into tasks that asyncio runs in one pass of the loop, before it
looks at its sockets again. A query at the cost limit held the loop for 100-400 ms at a
time at size L, and another client's small request, which needs a few passes of the
loop, waited through several such stretches (bench/RESULTS.md, "One costly request and
another client").

So a request keeps account of how long it has held the loop, and at its checks (each
list field before it is read and before its items are completed: schema.cost_meter;
each ROWS_PER_TURN rows a statement reads) it waits, once its slice is used up, until the
loop has polled its sockets and run what was waiting: the others' turns come between a
costly request's slices, never behind all of it. A request done within its first slice
(nearly all are) never waits.

The clock is the loop thread's processor time: what the process did, not how long a busy
machine took to let it run. It counts the other requests' work done between a request's
checks too (there is no clock of one request's own): that only makes a request give the
loop back sooner while others are busy.
"""

import asyncio
import time
from collections.abc import Callable

# How long a request holds the event loop before others get their turn, in seconds of
# the loop thread's processor time. The first slice is longer: nearly every request is
# done within it, and never waits, nor splits the batches of its DataLoaders across
# passes of the loop (the statements a query runs do not grow with the data:
# tests/test_query_count.py).
FIRST_SLICE = 0.020
SLICE = 0.005

# Rows a statement reads into records between two checks (a few hundred microseconds to
# a millisecond of work): a statement's rows do not hold the loop for long either.
ROWS_PER_TURN = 256


class Turns:
    """One request's account of its time on the event loop (``clock``: seconds)."""

    def __init__(self, clock: Callable[[], float] = time.thread_time) -> None:
        self._clock = clock
        # When the request's current slice began; None: at its next check.
        self._began: float | None = clock()
        self._slice = FIRST_SLICE
        # What the request's waiting tasks wait for: the loop's next turn after this one.
        self._next_turn: asyncio.Future[None] | None = None
        # How many times the request gave the loop back (what tests look at).
        self.given = 0

    async def take(self) -> None:
        """Return at once while the request's slice lasts; else after the loop has served
        the others. Every task of the request that reaches a check in the meantime waits
        for the same turn, and each checks again when it wakes: the first ones start the
        new slice, and those after them wait for the next one if it is used up."""
        while True:
            now = self._clock()
            if self._began is None:
                self._began = now
            if now - self._began < self._slice:
                return
            if self._next_turn is None:
                loop = asyncio.get_running_loop()
                self._next_turn = loop.create_future()
                self.given += 1
                # A callback scheduled now runs in the loop's next pass, after it has
                # polled its sockets: the others' callbacks run before the waiters wake.
                loop.call_soon(self._turn_came)
            # Shielded: a task of the request cancelled while it waits (graphql-core
            # cancels a failed list's other items) must not cancel the others' turn.
            await asyncio.shield(self._next_turn)

    def _turn_came(self) -> None:
        next_turn, self._next_turn = self._next_turn, None
        self._began = None
        self._slice = SLICE
        if next_turn is not None and not next_turn.done():
            next_turn.set_result(None)
