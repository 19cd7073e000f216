"""Letting the machine go quiet between measurements.

A timed run ends when wrk stops, not when the work it started does: a server still
answers the requests wrk gave up on (up to its time limit), and PostgreSQL still runs
the queries of a client that hung up (PostGraphile's, say, on a workload it cannot
answer in time). Whatever runs next would be measured against that leftover work, so
before each load and each run the run waits until the CPUs are idle, cancelling the
queries of clients that gave up (bench/run.py, `quiet`).
"""

import time
from pathlib import Path

_STAT = Path("/proc/stat")
IDLE_BELOW = 0.1  # busy fraction under which the CPUs count as idle


def _cpu_times() -> tuple[int, int]:
    """(idle, total) jiffies of all CPUs since boot."""
    fields = [int(value) for value in _STAT.read_text().splitlines()[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle and iowait
    return idle, sum(fields[:8])  # guest time is already counted in user time


def busy_fraction(seconds: float) -> float:
    """How busy the CPUs were over the next ``seconds`` (0: idle, 1: all cores busy)."""
    idle_before, total_before = _cpu_times()
    time.sleep(seconds)
    idle_after, total_after = _cpu_times()
    total = total_after - total_before
    return 1 - (idle_after - idle_before) / total if total else 0.0
