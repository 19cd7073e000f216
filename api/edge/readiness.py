"""/healthz, and /readyz: a check of the database that answers in bounded time, whatever
the database does.

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
from functools import partial
from typing import Generic, TypeVar

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from api.commands import migrate
from store.database_errors import DATABASE_UNAVAILABLE
from store.readiness import ReadinessEngine, database_state, unavailable_reason

T = TypeVar("T")

# What a readiness probe waits for at most (a load balancer's own timeout is a few seconds).
READY_WITHIN_SECONDS = 2.0
# A check still running this long is given up and the next probe starts a new one: a
# database that answers again is seen ready within this and a probe's wait.
READY_CHECK_STALE_SECONDS = 3.0


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


# /healthz and /readyz


def database_check(
    engine: ReadinessEngine,
) -> BoundedCheck[tuple[str | None, str | None, str | None]]:
    """The check /readyz runs: through ``engine``, within READY_WITHIN_SECONDS."""
    return BoundedCheck(
        partial(_checked_state, engine), READY_WITHIN_SECONDS, stale_after=READY_CHECK_STALE_SECONDS
    )


async def healthz(_: Request) -> Response:
    """The process is up and answering; says nothing about the database."""
    return JSONResponse({"status": "ok"})


async def _checked_state(engine: ReadinessEngine) -> tuple[str | None, str | None, str | None]:
    """This code's head, the database's migration and its data version."""
    head = migrate.HEAD_REVISION
    return head, *await database_state(engine, head=head)


async def readyz(request: Request) -> Response:
    """Ready when the database answers, is migrated to this code's head, and holds data;
    answered within READY_WITHIN_SECONDS even while the database hangs."""
    try:
        head, revision, version = await request.app.state.readiness.run()
    except CheckTimeoutError as exc:
        return JSONResponse(
            {
                "status": "unavailable",
                "reason": f"the database did not answer within {exc.within:g} s",
            },
            status_code=503,
        )
    except DATABASE_UNAVAILABLE as exc:
        reason = unavailable_reason(exc, database_url=request.app.state.database_url)
        return JSONResponse({"status": "unavailable", "reason": reason}, status_code=503)
    if revision != head:
        return JSONResponse(
            {
                "status": "unavailable",
                "reason": f"database at migration {revision}, this code needs {head}: "
                "run `taxonomy migrate`",
            },
            status_code=503,
        )
    if version is None:
        return JSONResponse(
            {"status": "unavailable", "reason": "no data loaded: run `taxonomy load DIR`"},
            status_code=503,
        )
    return JSONResponse({"status": "ready", "migration": revision, "dataVersion": str(version)})
