"""Waiting for the load lock in the open: who holds it, since when, and how long we waited.

Both databases serialise loads (lock_file.py on SQLite, lock_postgres.py on PostgreSQL);
this is what they share: how a holder is described, and the waiting itself, which says
at once who it waits for, again every half minute or when the holder changes, and when
its turn came; or, told not to wait, gives up at once.
"""

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from store.load.transaction import Say

__all__ = ["LoadBusyError", "RunningLoad", "Say", "wait_turn"]


POLL_SECONDS = 0.5
REMIND_SECONDS = 30.0


@dataclass(frozen=True)
class RunningLoad:
    """Who holds the load lock, as the database can tell: ``what`` is a sentence's start
    ("another load is running (pid 4242 on build-1)"); ``since``, when it began."""

    what: str
    since: datetime | None

    def __str__(self) -> str:
        if self.since is None:
            return self.what
        when = self.since.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
        ago = (datetime.now(UTC) - self.since).total_seconds()
        return f"{self.what} since {when} ({_duration(max(ago, 0.0))} ago)"


class LoadBusyError(Exception):
    """Another load holds the lock, and the caller would not wait."""

    def __init__(self, holder: RunningLoad) -> None:
        self.holder = holder
        super().__init__(str(holder))


def wait_turn(attempt: Callable[[], RunningLoad | None], *, wait: bool, say: Say) -> None:
    """Call ``attempt`` until it takes the lock (returns None); while it returns who holds
    the lock instead, say so and try again, or raise LoadBusyError if not ``wait``."""
    holder = attempt()
    if holder is None:
        return
    if not wait:
        raise LoadBusyError(holder)
    started = said_at = time.monotonic()
    say(f"{holder}; waiting for it to finish (--no-wait to fail at once instead)")
    while True:
        time.sleep(POLL_SECONDS)
        current = attempt()
        if current is None:
            break
        if current.what != holder.what or time.monotonic() - said_at >= REMIND_SECONDS:
            say(f"still waiting: {current}")
            holder, said_at = current, time.monotonic()
    say(f"the other load is done; waited {_duration(time.monotonic() - started)}")


def _duration(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.1f} s" if seconds < 10 else f"{seconds:.0f} s"
    minutes, rest = divmod(round(seconds), 60)
    if minutes < 60:
        return f"{minutes} min {rest} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min"
