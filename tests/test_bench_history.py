"""bench/history_cost.py at the fixtures' scale, on each database: the reloads it times go
with history and without in turn (with, without, without, with), and really differ in the
change rows they record (counted in the database), and its report carries every figure
it measured."""

import dataclasses
import statistics
from collections.abc import Callable
from pathlib import Path

from api.commands.generate_next import next_version
from api.settings import DEFAULT_FIXTURES_DIR
from bench import history_cost, report
from bench.results import HISTORY_STEPS, History


def test_reloads_with_and_without_history_and_adoption(
    backend: str, new_database: Callable[[str, str], str], tmp_path: Path
) -> None:
    runner = history_cost.InProcess()
    url = new_database(backend, "bench_history")
    edited = tmp_path / "edited"
    next_version(DEFAULT_FIXTURES_DIR, edited, seed=1)
    folders = (DEFAULT_FIXTURES_DIR, edited)

    runner.load(DEFAULT_FIXTURES_DIR, url, history=True)
    found = history_cost.reloads(runner, backend, url, "fixtures", folders, 2)
    (adoption,) = history_cost.adoption(runner, backend, {"fixtures": url}, requests=3)

    assert [reload.history for reload in found] == [True, False, False, True]
    # Each reload loads the folder not served: a load of the same data changes nothing.
    assert [reload.dataset for reload in found] == ["edited", DEFAULT_FIXTURES_DIR.name] * 2
    with_history = [reload for reload in found if reload.history]
    without = [reload for reload in found if not reload.history]
    assert all(reload.change_rows > 0 for reload in with_history)
    assert all(reload.change_rows == 0 for reload in without)
    for reload in with_history:
        assert all(reload.steps[step] > 0 for step in HISTORY_STEPS), reload.steps
        assert 0 < reload.history_seconds < reload.seconds
    assert adoption.requests == 3
    assert adoption.root
    assert adoption.p50_ms > 0
    assert len(adoption.statements) == 1  # a constant number of statements per series

    # Labelled S and L, the fixtures' figure gives the report an L/S ratio (1.00).
    text = "\n".join(
        report.history(
            History(found, [dataclasses.replace(adoption, scale=scale) for scale in "SL"])
        )
    )
    ratio = statistics.median(r.seconds for r in with_history) / statistics.median(
        r.seconds for r in without
    )
    assert f"**{ratio:.2f}x**" in text
    assert "**L/S 1.00** (met" in text
    for reload in found:
        assert f"| {reload.seconds:.1f} | {reload.history_seconds:.1f} |" in text
        assert f"| {reload.change_rows:,} |" in text
    assert f"| {adoption.p50_ms:.2f} | {adoption.p90_ms:.2f} |" in text
    # Where the time goes: every step of a reload with history, its median, in order.
    kind = f"{report.DATABASE_NAMES[backend]} fixtures"
    assert f"| step | {kind} |" in text
    for step in ("the release before", "evidence.jsonl", "deriving the read model", "commit"):
        median = statistics.median(r.steps[step] for r in with_history)
        assert f"| {step} | {median:.1f} |" in text
    reload_median = statistics.median(r.seconds for r in with_history)
    assert f"| **reload** | **{reload_median:.1f}** (met) |" in text
