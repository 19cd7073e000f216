"""`rows_from_child`: a file's rows checked in a child process arrive as if checked here;
`computed_in_child`: a value computed in a child process arrives as if computed here.

The load tests run it end to end (bad evidence lines, late in a large file, are reported
and change nothing); these pin down its own promises: order, progress, problems, errors,
a writer that stops first, and a child that dies.
"""

import os
import signal
from collections.abc import Generator, Iterator
from pathlib import Path

import pytest

from api.ingest.child import Producer, computed_in_child, rows_from_child
from api.ingest.lines import ProblemLimitError, Problems
from api.ingest.progress import Meter

# The rows these tests send through the child: any values.
Row = tuple[object, ...]


class Recording:
    """A meter that writes down every call, in order."""

    def __init__(self) -> None:
        self.calls: list[tuple[object, ...]] = []

    def start(self, name: str, total_bytes: int) -> None:
        self.calls.append(("start", name, total_bytes))

    def advance(self, bytes_read: int, rows: int) -> None:
        self.calls.append(("advance", bytes_read, rows))

    def finish(self) -> None:
        self.calls.append(("finish",))

    def step(self, what: str, seconds: float) -> None:
        self.calls.append(("step", what, seconds))


def counting(n: int, pid_file: str | None = None) -> Producer[Row]:
    def produce(problems: Problems, meter: Meter) -> Iterator[Row]:
        if pid_file:
            with open(pid_file, "w") as handle:
                handle.write(str(os.getpid()))
        meter.start("numbers", n)
        for i in range(n):
            yield (i, f"row {i}")
            if i % 4_000 == 0:
                meter.advance(i, i)
        problems.add("numbers", 7, "a problem found in the child")
        meter.finish()

    return produce


def test_rows_progress_and_problems_arrive_in_order() -> None:
    problems = Problems(limit=5)
    meter = Recording()
    rows = list(rows_from_child(counting(12_345), problems, meter))
    assert rows == [(i, f"row {i}") for i in range(12_345)]
    assert meter.calls == [
        ("start", "numbers", 12_345),
        *[("advance", i, i) for i in range(0, 12_345, 4_000)],
        ("finish",),
    ]
    assert [str(problem) for problem in problems.items] == [
        "numbers:7: a problem found in the child"
    ]


def test_an_exception_in_the_child_is_raised_here_with_its_problems() -> None:
    def produce(problems: Problems, meter: Meter) -> Iterator[Row]:
        yield (1,)
        problems.add("evidence.jsonl", 3, "bad")
        problems.add("evidence.jsonl", 4, "worse")  # over the limit of one: stops reading

    problems = Problems(limit=1)
    rows = rows_from_child(produce, problems, Recording())
    assert next(rows) == (1,)
    with pytest.raises(ProblemLimitError):
        next(rows)
    assert [str(problem) for problem in problems.items] == ["evidence.jsonl:3: bad"]


def test_an_exception_that_cannot_be_pickled_arrives_described() -> None:
    class UnpicklableError(Exception):
        def __reduce__(self) -> tuple[()]:
            raise TypeError("no")

    def produce(problems: Problems, meter: Meter) -> Iterator[Row]:
        raise UnpicklableError("the disk went away")
        yield ()

    with pytest.raises(RuntimeError, match="UnpicklableError: the disk went away"):
        list(rows_from_child(produce, Problems(), Recording()))


def test_a_writer_that_stops_first_stops_the_child(tmp_path: Path) -> None:
    pid_file = str(tmp_path / "pid")
    rows = rows_from_child(counting(10_000_000, pid_file), Problems(), Recording())
    assert isinstance(rows, Generator)
    assert next(rows) == (0, "row 0")
    rows.close()  # as when writing a batch fails
    pid = int(Path(pid_file).read_text())
    with pytest.raises(ProcessLookupError):  # terminated and reaped: no such process now
        os.kill(pid, 0)


def test_a_child_that_dies_is_an_error_that_says_so(tmp_path: Path) -> None:
    def produce(problems: Problems, meter: Meter) -> Iterator[Row]:
        yield (1,)
        os.kill(os.getpid(), signal.SIGKILL)  # as the kernel's OOM killer would
        yield (2,)

    with pytest.raises(RuntimeError, match=r"stopped unexpectedly \(exit code -9\)"):
        list(rows_from_child(produce, Problems(), Recording()))


def test_a_value_computed_in_the_child_arrives_whole() -> None:
    parent = os.getpid()

    def compute() -> tuple[bool, dict[str, bytes]]:  # big, as the catalogue's parts are
        return os.getpid() != parent, {"part": bytes(range(256)) * 40_000}

    with computed_in_child("a value", compute) as value:
        assert value() == (True, {"part": bytes(range(256)) * 40_000})


def test_an_exception_in_the_computing_child_is_raised_here() -> None:
    def compute() -> None:
        raise ValueError("no such entry")

    with (
        computed_in_child("a value", compute) as value,
        pytest.raises(ValueError, match="no such entry"),
    ):
        value()


def test_a_computing_child_that_dies_is_an_error_that_names_the_work() -> None:
    def compute() -> None:
        os.kill(os.getpid(), signal.SIGKILL)

    with (
        computed_in_child("the search catalogue", compute) as value,
        pytest.raises(
            RuntimeError,
            match=r"building the search catalogue stopped unexpectedly \(exit code -9\)",
        ),
    ):
        value()


def test_leaving_before_the_value_is_asked_for_stops_the_child(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"

    def compute() -> None:
        pid_file.write_text(str(os.getpid()))
        signal.pause()  # would wait forever

    with computed_in_child("a value", compute):
        while not pid_file.exists() or not pid_file.read_text():
            pass  # the child has started
    with pytest.raises(ProcessLookupError):  # terminated and reaped: no such process now
        os.kill(int(pid_file.read_text()), 0)
