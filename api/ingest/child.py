"""Work of a load done in a child process while this one writes: reading and checking a
large file (rows_from_child), or computing a value needed later (computed_in_child).

Checking a million lines of evidence is Python work that holds one core; writing them is
the database driver's. Run one after the other they add up; with the reading in a forked
child they overlap, on two cores. The child reports back everything it would have done
in this process: its rows in batches, its progress (relayed to the meter in order), and
its problems, or the exception that stopped it, which is raised here.
"""

import gc
import multiprocessing
import pickle
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from multiprocessing.connection import Connection
from typing import TypeVar, cast

from api.ingest.lines import Problems
from api.ingest.progress import Meter

T = TypeVar("T")
# What makes the rows (of any type: the child sends them as they are).
Producer = Callable[[Problems, Meter], Iterator[T]]

_BATCH = 5_000


class _RelayedMeter:
    """The child's meter: every call goes to the parent's meter, in order."""

    def __init__(self, pipe: Connection) -> None:
        self._pipe = pipe

    def start(self, name: str, total_bytes: int) -> None:
        self._pipe.send(("meter", "start", (name, total_bytes)))

    def advance(self, bytes_read: int, rows: int) -> None:
        self._pipe.send(("meter", "advance", (bytes_read, rows)))

    def finish(self) -> None:
        self._pipe.send(("meter", "finish", ()))

    def step(self, what: str, seconds: float) -> None:
        self._pipe.send(("meter", "step", (what, seconds)))


def _run_in_child(
    produce: Producer[T], problems: Problems, pipe: Connection, parents_end: Connection
) -> None:
    # The fork copied the parent's end of the pipe: left open, it would keep the pipe
    # readable after the parent dies (killed), and this child would wait forever on a
    # full pipe instead of finding it broken.
    parents_end.close()
    try:
        _send_rows(produce, problems, pipe)
    except BrokenPipeError:  # the parent is gone: nobody wants the rows
        pass
    finally:
        pipe.close()


def _send_rows(produce: Producer[T], problems: Problems, pipe: Connection) -> None:
    error: BaseException | None = None
    batch: list[T] = []
    try:
        for row in produce(problems, _RelayedMeter(pipe)):
            batch.append(row)
            if len(batch) >= _BATCH:
                pipe.send(("rows", batch))
                batch = []
    except BaseException as exc:  # handed to the parent, which raises it
        error = exc
    if batch:  # the rows made before an exception arrive before it, as they would here
        pipe.send(("rows", batch))
    pipe.send(("end", problems.items, error if error is None else _travelling(error)))


def _travelling(error: BaseException) -> BaseException:
    """``error``, or, if it cannot be pickled to the parent, a description of it."""
    try:
        pickle.dumps(error)
    except Exception:
        return RuntimeError(f"{type(error).__name__}: {error}")
    return error


def rows_from_child(produce: Producer[T], problems: Problems, meter: Meter) -> Iterator[T]:
    """The rows of ``produce(problems, meter)``, produced by a forked child process, as
    if produced here: ``problems`` ends up with the child's problems, ``meter`` sees its
    progress, and an exception in the child is raised here. Without fork (not POSIX),
    ``produce`` simply runs here. The pipe holds only a batch or two, so a child ahead of
    the writer waits, and memory stays bounded."""
    if "fork" not in multiprocessing.get_all_start_methods():
        yield from produce(problems, meter)
        return
    context = multiprocessing.get_context("fork")
    receiving, sending = context.Pipe(duplex=False)
    child = context.Process(
        target=_run_in_child,
        args=(produce, problems, sending, receiving),
        name="taxonomy-reader",
    )
    child.start()
    sending.close()  # the child's end; a child that dies then shows as end of file here
    finished = False
    try:
        while True:
            try:
                message = receiving.recv()
            except EOFError:
                child.join()
                raise RuntimeError(
                    f"the process reading the file stopped unexpectedly "
                    f"(exit code {child.exitcode}); nothing was loaded"
                ) from None
            kind = message[0]
            if kind == "rows":
                yield from message[1]
            elif kind == "meter":
                getattr(meter, message[1])(*message[2])
            else:
                _, items, error = message
                problems.items[:] = items
                finished = True
                if error is not None:
                    raise error
                return
    finally:
        receiving.close()
        if not finished:  # the writer stopped first: the child's rows are not wanted
            child.terminate()
        child.join()


@contextmanager
def computed_in_child(what: str, compute: Callable[[], T]) -> Iterator[Callable[[], T]]:
    """Start ``compute()`` in a forked child process and give a function that waits for
    its value (or raises its exception, or says the child making ``what`` died). For
    Python work the load needs only later, such as the search catalogue: it runs on the second core
    while this process writes and derives. Leaving the block before the value was asked
    for stops the child. Without fork (not POSIX), ``compute`` runs when asked for."""
    if "fork" not in multiprocessing.get_all_start_methods():
        yield compute
        return
    context = multiprocessing.get_context("fork")
    receiving, sending = context.Pipe(duplex=False)
    child = context.Process(
        target=_compute_in_child,
        args=(compute, sending, receiving),
        name="taxonomy-builder",
    )
    child.start()
    sending.close()

    def value() -> T:
        try:
            kind, payload = receiving.recv()
        except EOFError:
            child.join()
            raise RuntimeError(
                f"the process building {what} stopped unexpectedly "
                f"(exit code {child.exitcode}); nothing was loaded"
            ) from None
        if kind == "error":
            raise payload
        return cast(T, payload)

    try:
        yield value
    finally:
        receiving.close()
        child.terminate()  # a no-op once it has sent its value and ended
        child.join()


def _compute_in_child(
    compute: Callable[[], object], pipe: Connection, parents_end: Connection
) -> None:
    parents_end.close()  # as in _run_in_child: a dead parent shows as a broken pipe
    # The fork shares the parent's heap page by page until written: a collection would
    # walk (and so copy) all of it, though none of it is garbage of this child's.
    gc.freeze()
    try:
        message: tuple[str, object] = ("value", compute())
    except BaseException as exc:  # handed to the parent, which raises it
        message = ("error", _travelling(exc))
    try:
        pipe.send(message)
    except BrokenPipeError:  # the parent is gone: nobody wants the value
        pass
    finally:
        pipe.close()
