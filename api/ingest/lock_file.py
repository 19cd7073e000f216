"""SQLite: one load at a time, through a lock file beside the database that says who
holds it.

SQLite lets one writer in at a time, but a second writer learns of the first only when
its busy timeout runs out ("database is locked"), and never who it is. So a load first
takes an exclusive flock on `<database>.load-lock` and writes into it its pid, host and
start time; a second load finds the file locked, reads who holds it, and waits (or gives
up at once). The kernel drops a flock when its process ends, however it ends, so a killed
load never blocks the next one; its record is left behind, but a record is only read
while its file is locked, and is replaced by the next holder's.
"""

import fcntl
import json
import os
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from api.ingest.turns import RunningLoad, Say, wait_turn


def lock_path(database: Path) -> Path:
    return database.with_name(f"{database.name}.load-lock")


@contextmanager
def lock_file(database: Path, *, wait: bool, say: Say) -> Iterator[None]:
    """Hold the load lock of the SQLite file ``database`` for the block."""
    descriptor = os.open(lock_path(database), os.O_RDWR | os.O_CREAT, 0o666)
    try:
        wait_turn(lambda: _attempt(descriptor), wait=wait, say=say)
        record = {
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "started_at": datetime.now(UTC).isoformat(),
        }
        os.ftruncate(descriptor, 0)
        os.pwrite(descriptor, json.dumps(record).encode(), 0)
        try:
            yield
        finally:
            os.ftruncate(descriptor, 0)  # no stale record for whoever locks it next
    finally:
        os.close(descriptor)  # and with it the flock


def _attempt(descriptor: int) -> RunningLoad | None:
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return _holder(os.pread(descriptor, 4096, 0))
    return None


def _holder(record: bytes) -> RunningLoad:
    try:
        fields = json.loads(record)
        who = f"pid {int(fields['pid'])} on {fields['host']}"
        since = datetime.fromisoformat(fields["started_at"])
    except (ValueError, KeyError, TypeError):
        # Locked a moment ago, not yet written (or written by something else).
        return RunningLoad("another load is running (it has not said who it is yet)", None)
    return RunningLoad(f"another load is running ({who})", since)
