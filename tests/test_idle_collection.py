"""Full garbage collections run while the worker is idle, not in the middle of a costly
request (api.edge.idle_collection; issue 25 item 3). The figures behind it are in
bench/RESULTS.md ("One costly request and another client"); these tests hold the
mechanism: the collector's own full collections made rare while an app runs, and one run
by the app once its last request in flight has been answered, at most every
MIN_SECONDS_APART."""

import asyncio
import gc
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from api.edge.idle_collection import (
    DUE_AFTER,
    FULL_COLLECTION_THRESHOLD,
    MIN_SECONDS_APART,
    IdleCollection,
)

from conftest import Api, serve


def make_one_due() -> None:
    """Collect the middle generation as often as CPython does between two full collections."""
    for _ in range(DUE_AFTER):
        gc.collect(1)


@contextmanager
def full_collections() -> Iterator[list[int]]:
    """The generation-2 collections that end while the block runs, as they happen."""
    seen: list[int] = []

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "stop" and info["generation"] == 2:
            seen.append(info["collected"])

    gc.callbacks.append(note)
    try:
        yield seen
    finally:
        gc.callbacks.remove(note)


def test_a_running_app_makes_the_collectors_full_collections_rare(
    api_for: Callable[[str, str], Api], tiny_folder: Path
) -> None:
    url = api_for("sqlite", str(tiny_folder)).database_url
    before = gc.get_threshold()
    with serve(url) as client:
        assert client.get("/healthz").status_code == 200
        assert gc.get_threshold()[2] == FULL_COLLECTION_THRESHOLD
        assert gc.get_threshold()[:2] == before[:2]
    assert gc.get_threshold() == before  # put back when the app stops


def test_a_full_collection_runs_once_the_last_request_is_answered(
    api_for: Callable[[str, str], Api], tiny_folder: Path
) -> None:
    url = api_for("sqlite", str(tiny_folder)).database_url
    with serve(url) as client:
        time.sleep(MIN_SECONDS_APART)  # the app's first one is due a while after it starts
        make_one_due()
        assert gc.get_count()[2] >= DUE_AFTER
        with full_collections() as seen:
            answered = client.get("/healthz")
        assert answered.status_code == 200
        assert len(seen) == 1, seen
        assert gc.get_count()[2] == 0


async def _nothing() -> dict[str, Any]:
    return {"type": "http.request", "body": b""}


async def _ignore(_: Any) -> None:
    return None


def _run(middleware: IdleCollection, path: str, kind: str = "http") -> Any:
    return middleware({"type": kind, "path": path}, _nothing, _ignore)


def test_none_while_another_request_is_in_flight_and_none_too_soon() -> None:
    async def scenario() -> list[int]:
        release = asyncio.Event()

        async def app(scope: Any, _receive: Any, _send: Any) -> None:
            if scope["path"] == "/slow":
                await release.wait()

        now = [1_000.0]
        middleware = IdleCollection(app, clock=lambda: now[0])
        counts = []
        now[0] += MIN_SECONDS_APART
        gc.collect()  # none is due until DUE_AFTER collections of the middle generation
        gc.collect(1)
        await _run(middleware, "/fast")
        counts.append(middleware.collections)  # 0: not due yet
        make_one_due()
        slow = asyncio.create_task(_run(middleware, "/slow"))
        await asyncio.sleep(0)  # the slow request is in flight
        await _run(middleware, "/fast")
        counts.append(middleware.collections)  # 0: the slow one is still in flight
        release.set()
        await slow
        counts.append(middleware.collections)  # 1: the last one in flight was answered
        make_one_due()
        await _run(middleware, "/fast")
        counts.append(middleware.collections)  # 1: the last was under a second ago
        now[0] += MIN_SECONDS_APART
        await _run(middleware, "/fast")
        counts.append(middleware.collections)  # 2
        now[0] += MIN_SECONDS_APART
        gc.collect()  # a full collection: none is due until DUE_AFTER more of the middle
        await _run(middleware, "/fast")
        counts.append(middleware.collections)  # 2
        return counts

    with full_collections() as seen:
        counts = asyncio.run(scenario())
    assert counts == [0, 0, 1, 1, 2, 2]
    assert len(seen) == 4  # the middleware's two and the scenario's own two


def test_lifespan_and_websocket_scopes_pass_through_uncounted() -> None:
    async def scenario() -> int:
        async def app(_scope: Any, _receive: Any, _send: Any) -> None:
            return None

        middleware = IdleCollection(app, clock=lambda: 10_000.0)
        middleware.last_collection = 0.0
        make_one_due()
        await _run(middleware, "", kind="lifespan")
        await _run(middleware, "/ws", kind="websocket")
        return middleware.collections

    assert asyncio.run(scenario()) == 0
