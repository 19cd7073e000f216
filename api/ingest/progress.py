"""How a load reports its progress: a bar per file on a terminal (rich), one summary line
per file otherwise, nothing in tests."""

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol, TextIO

from rich.progress import (
    BarColumn,
    Progress,
    ProgressColumn,
    Task,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)
from rich.text import Text


class Meter(Protocol):
    def start(self, name: str, total_bytes: int) -> None: ...

    def advance(self, bytes_read: int, rows: int) -> None:
        """``bytes_read`` and ``rows`` so far in the current file (running totals)."""

    def finish(self) -> None: ...

    def step(self, what: str, seconds: float) -> None:
        """A step that is not a file (deriving the read model, say) took ``seconds``."""


@contextmanager
def timed(meter: Meter, what: str) -> Iterator[None]:
    """Report the block's wall time as the step ``what`` (if it finishes)."""
    started = time.perf_counter()
    yield
    meter.step(what, time.perf_counter() - started)


class Quiet:
    def start(self, name: str, total_bytes: int) -> None:
        pass

    def advance(self, bytes_read: int, rows: int) -> None:
        pass

    def finish(self) -> None:
        pass

    def step(self, what: str, seconds: float) -> None:
        pass


class Lines:
    """One line per file and per step, for logs and pipes."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._name = ""
        self._rows = 0
        self._started = 0.0

    def start(self, name: str, total_bytes: int) -> None:
        self._name, self._rows, self._started = name, 0, time.perf_counter()

    def advance(self, bytes_read: int, rows: int) -> None:
        self._rows = rows

    def finish(self) -> None:
        seconds = time.perf_counter() - self._started
        rate = self._rows / seconds if seconds > 0 else 0.0
        print(
            f"{self._name}: {self._rows:,} rows in {seconds:.1f} s ({rate:,.0f} rows/s)",
            file=self._stream,
            flush=True,
        )

    def step(self, what: str, seconds: float) -> None:
        print(f"{what}: {seconds:.1f} s", file=self._stream, flush=True)

    def note(self, text: str) -> None:
        """A sentence for whoever runs the load (another load is running, say)."""
        print(text, file=self._stream, flush=True)


class _RowsPerSecond(ProgressColumn):
    def render(self, task: Task) -> Text:
        rows = int(task.fields.get("rows", 0))
        elapsed = task.elapsed or 0.0
        rate = rows / elapsed if elapsed > 0 else 0.0
        return Text(f"{rows:>11,} rows {rate:>9,.0f} rows/s")


class Bars:
    """A progress bar per file (by bytes read), with rows and rows/s."""

    def __init__(self, stream: TextIO) -> None:
        from rich.console import Console

        self._progress = Progress(
            TextColumn("{task.description:<16}"),
            BarColumn(),
            _RowsPerSecond(),
            TimeElapsedColumn(),
            console=Console(file=stream),
        )
        self._task: TaskID | None = None

    def start(self, name: str, total_bytes: int) -> None:
        if self._task is None and not self._progress.live.is_started:
            self._progress.start()
        self._task = self._progress.add_task(name, total=total_bytes, rows=0)

    def advance(self, bytes_read: int, rows: int) -> None:
        if self._task is not None:
            self._progress.update(self._task, completed=bytes_read, rows=rows)

    def finish(self) -> None:
        if self._task is not None:
            task = self._progress.tasks[self._task]
            self._progress.update(self._task, completed=task.total)
            self._progress.stop_task(self._task)

    def step(self, what: str, seconds: float) -> None:
        self._progress.console.print(f"{what}: {seconds:.1f} s")

    def note(self, text: str) -> None:
        self._progress.console.print(text, markup=False, highlight=False)

    def close(self) -> None:
        self._progress.stop()


def meter_for(stream: TextIO = sys.stderr) -> Lines | Bars:
    return Bars(stream) if stream.isatty() else Lines(stream)
