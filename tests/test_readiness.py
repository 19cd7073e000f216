"""api.edge.readiness.BoundedCheck: a check is waited for at most `within`, shared while it
runs, and given up once `stale_after` old, so that one hung connection cannot keep
/readyz unavailable while the database answers (tests/test_http.py shows it end to end)."""

import asyncio

import pytest

from api.edge.readiness import BoundedCheck, CheckTimeoutError


def test_a_stale_check_is_cancelled_and_the_next_probe_starts_anew() -> None:
    started: list[int] = []
    cancelled: list[int] = []

    async def check() -> str:
        number = len(started)
        started.append(number)
        if number == 0:  # the first check hangs, as on a connection cut off
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                cancelled.append(number)
                raise
        return f"answer of check {number}"

    async def probes() -> list[str]:
        bounded = BoundedCheck(check, within=0.05, stale_after=0.2)
        seen = []
        for _ in range(2):  # within stale_after: the hung check is shared, not repeated
            with pytest.raises(CheckTimeoutError):
                await bounded.run()
            seen.append("timeout")
        await asyncio.sleep(0.2)
        seen.append(await bounded.run())  # stale: given up, a new check answers
        await asyncio.sleep(0)  # the cancellation reaches the hung check
        return seen

    assert asyncio.run(probes()) == ["timeout", "timeout", "answer of check 1"]
    assert started == [0, 1]
    assert cancelled == [0]
