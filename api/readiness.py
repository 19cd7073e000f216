"""A check of the database that answers in bounded time, whatever the database does.

/readyz must answer within seconds even while the database hangs: a frozen network or
host keeps the connection open, so nothing fails, the statement just never returns, and
an asyncio timeout around it does not help either (ending the connection waits on the
same silence). So the check runs as a task of its own, which each caller waits for at
most ``within`` seconds; a check still running is shared by the callers that come
meanwhile rather than started again, so a hanging database holds one connection for
readiness, not one more per probe."""

import asyncio
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class CheckTimeoutError(Exception):
    """The check did not answer within its time (it goes on running, for the next caller)."""

    def __init__(self, within: float) -> None:
        super().__init__(f"no answer within {within:g} s")
        self.within = within


class BoundedCheck(Generic[T]):
    def __init__(self, check: Callable[[], Awaitable[T]], within: float) -> None:
        self._check = check
        self.within = within
        self._running: asyncio.Future[T] | None = None

    async def run(self) -> T:
        """The check's result, or its exception; CheckTimeoutError after ``within`` s."""
        if self._running is None or self._running.done():
            self._running = asyncio.ensure_future(self._check())
            # Its exception is read by whoever still waits; one nobody waits for any
            # more (every caller gave up) is not reported as "never retrieved".
            self._running.add_done_callback(_retrieve)
        running = self._running
        done, _ = await asyncio.wait({running}, timeout=self.within)
        if not done:
            raise CheckTimeoutError(self.within)
        return running.result()


def _retrieve(future: "asyncio.Future[T]") -> None:
    if not future.cancelled():
        future.exception()
