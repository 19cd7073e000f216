"""Python's full garbage collections, run while the worker is idle instead of in the middle
of a costly request (issue 25 item 3: no request may add more than 200 ms to another's).

A full collection walks every object the cyclic collector tracks and that is not frozen
(`taxonomy serve` freezes what lives as long as the process, at start-up): in the middle of
a costly request, that is mostly the request's own objects. CPython runs one by itself
after every 10 collections of the middle generation, about every 70,000 objects allocated
(its default third threshold), so a request that allocates a few hundred thousand meets
one or more, and each holds the event loop, and every other request on it, for as long as
it takes. Measured in process at size L on PostgreSQL (`bench.loop_stretch`, 30 aliases of
every root's `descendants`): 4 full collections in 5 runs, the longest 79 ms, and the
request's longest stretch on the loop 80 ms; with none, its longest stretch was 9-18 ms.

So the collector's own full collections are made ten times rarer (a safety net for a
worker that is never idle), and the worker runs the ones CPython would have run (once
the middle generation has been collected DUE_AFTER times since the last) itself, when its
last request in flight has been answered, at most every MIN_SECONDS_APART: then it walks
only what outlives requests (caches, pools), about 10 ms at size L, and the cyclic
garbage of the requests before is freed as often as before.
"""

import gc
import time
from collections.abc import Callable

from api.edge.middleware import ASGIApp, Receive, Scope, Send

# CPython's third threshold (the default is 10): a full collection of its own after this
# many collections of the middle generation.
FULL_COLLECTION_THRESHOLD = 100
# When one is due at an idle moment: CPython's own third threshold.
DUE_AFTER = 10
MIN_SECONDS_APART = 1.0


def make_full_collections_rare() -> Callable[[], None]:
    """Raises the collector's third threshold; returns what puts the thresholds back (a
    process may start and stop several apps: the tests)."""
    before = gc.get_threshold()
    gc.set_threshold(before[0], before[1], FULL_COLLECTION_THRESHOLD)
    return lambda: gc.set_threshold(*before)


class IdleCollection:
    """Counts the requests in flight through the app; when the last one ends, runs a full
    collection if the middle generation has been collected DUE_AFTER times since the last
    one and the last was MIN_SECONDS_APART ago."""

    def __init__(self, app: ASGIApp, clock: Callable[[], float] = time.monotonic) -> None:
        self.app = app
        self.clock = clock
        self.in_flight = 0
        self.last_collection = clock()
        self.collections = 0  # what the tests look at

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        self.in_flight += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.in_flight -= 1
            if self.in_flight == 0:
                self._collect_if_due()

    def _collect_if_due(self) -> None:
        now = self.clock()
        # get_count()[2]: the middle generation's collections since the last full one.
        if gc.get_count()[2] >= DUE_AFTER and now - self.last_collection >= MIN_SECONDS_APART:
            gc.collect()
            self.last_collection = self.clock()
            self.collections += 1
