"""A check of the database that answers in bounded time, whatever the database does.

/readyz must answer within seconds even while the database hangs: a frozen network or
host keeps the connection open, so nothing fails, the statement just never returns, and
an asyncio timeout around it does not help either (ending the connection waits on the
same silence). So the check runs as a task of its own, which each caller waits for at
most ``within`` seconds; a check still running is shared by the callers that come
meanwhile rather than started again, so a hanging database holds one connection for
readiness, not one more per probe. Shared only until it is ``stale_after`` seconds old,
though: one connection can hang while the database answers others (a connection cut off
by the network, kept open by a proxy), and a check stuck on it would say unavailable
for as long as it hangs. A stale check is cancelled (the check lets its connection go)
and the next caller starts a new one."""

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class CheckTimeoutError(Exception):
    """The check did not answer within its time (it goes on running, for the next caller)."""

    def __init__(self, within: float) -> None:
        super().__init__(f"no answer within {within:g} s")
        self.within = within


class BoundedCheck(Generic[T]):
    def __init__(
        self, check: Callable[[], Awaitable[T]], within: float, stale_after: float
    ) -> None:
        self._check = check
        self.within = within
        self.stale_after = stale_after
        self._running: asyncio.Future[T] | None = None
        self._started = 0.0

    async def run(self) -> T:
        """The check's result, or its exception; CheckTimeoutError after ``within`` s."""
        now = time.monotonic()
        running = self._running
        if running is not None and not running.done() and now - self._started > self.stale_after:
            running.cancel()  # stale: given up
            running = None
        if running is None or running.done():
            running = asyncio.ensure_future(self._check())
            self._running, self._started = running, now
            # Its exception is read by whoever still waits; one nobody waits for any
            # more (every caller gave up) is not reported as "never retrieved".
            running.add_done_callback(_retrieve)
        done, _ = await asyncio.wait({running}, timeout=self.within)
        if not done:
            raise CheckTimeoutError(self.within)
        return running.result()


def _retrieve(future: "asyncio.Future[T]") -> None:
    if not future.cancelled():
        future.exception()
