"""This process's search catalogue, read from the database (store.search_saved) once for
each data version: as soon as the process sees a new one, or on its first search.

One catalogue per app (store.caches: made by api.app.create_app), of its latest data
version: a load makes a new data version, and the next search reads the catalogue again
(the old one is dropped when no search uses it). Read through a reader of its own,
outside the request that asked for it: a request cut short by its time limit leaves the
read running for the next one, and the searches that arrive meanwhile wait for that one
read instead of starting their own.
"""

import asyncio
import logging

from store import search_saved
from store.reader import Reader
from store.search_catalogue import Catalogue, Parts
from store.search_rank import Searcher

log = logging.getLogger(__name__)


async def _read(reader: Reader) -> tuple[str | None, Parts]:
    try:
        return await search_saved.read(reader)
    finally:
        await reader.close()


def _read_on_a_loop_of_its_own(reader: Reader) -> tuple[str | None, Parts]:
    # The coroutine is made here, in the worker thread: made by the caller, it was never
    # awaited (a RuntimeWarning) when the process stopped before the thread began.
    return asyncio.run(_read(reader))


async def _read_searcher(reader: Reader) -> Searcher:
    if reader.blocks_the_loop:
        # SQLite's statements run in the calling thread: the parts' read there (tens of
        # megabytes at size L) would hold up every other request of the process. Read in
        # a worker thread instead, on an event loop of its own (the statements never await).
        version, parts = await asyncio.to_thread(_read_on_a_loop_of_its_own, reader)
    else:
        version, parts = await _read(reader)
    # Copying the parts into arrays and lists: off the event loop too.
    catalogue = await asyncio.to_thread(Catalogue, version, parts)
    return Searcher(catalogue)


class SearchCache:
    """The latest searcher of one database, and the reads of catalogues under way."""

    def __init__(self) -> None:
        self._current: Searcher | None = None
        self._reading: dict[str, asyncio.Future[Searcher]] = {}  # by data version

    def _reading_of(self, reader: Reader, version: str) -> "asyncio.Future[Searcher]":
        """The read of ``version``'s catalogue: the one under way, or a new one that becomes
        the current catalogue when it is done (unless a later load overtook it)."""
        under_way = self._reading.get(version)
        if under_way is not None:
            return under_way
        reading = asyncio.ensure_future(_read_searcher(reader.detached()))
        self._reading[version] = reading

        def done(future: "asyncio.Future[Searcher]") -> None:
            self._reading.pop(version, None)
            failed = future.cancelled() or future.exception() is not None
            if not failed and future.result().catalogue.version == version:
                self._current = future.result()

        reading.add_done_callback(done)
        return reading

    def _current_of(self, version: str | None) -> Searcher | None:
        current = self._current
        if current is not None and version is not None and current.catalogue.version == version:
            return current
        return None

    def prepare(self, reader: Reader, version: str | None) -> "asyncio.Future[Searcher] | None":
        """Start reading the catalogue of ``version`` in the background, unless it is read
        or under way: called when a process sees a new data version, so that the first
        search after a load (a second or less of reading at size L) does not wait for it."""
        if version is None or self._current_of(version) is not None:
            return None
        return self._reading_of(reader, version)

    async def searcher(self, reader: Reader, version: str | None) -> Searcher:
        """The searcher of the data of ``version`` (read through ``reader`` when None)."""
        if version is None:
            version = await reader.open_snapshot()
        current = self._current_of(version)
        if current is not None:
            return current
        if version is None:  # nothing loaded: an empty catalogue, not worth keeping
            return await _read_searcher(reader.detached())
        # Shielded: a request cancelled at its time limit does not cancel the read.
        return await asyncio.shield(self._reading_of(reader, version))

    async def stop(self) -> None:
        """Cancel the reads under way (a server shutting down)."""
        pending = list(self._reading.values())
        for future in pending:
            future.cancel()
        for future in pending:
            try:
                await future
            except asyncio.CancelledError:
                pass
            except Exception as exc:  # a read that failed on its own: not the shutdown's
                log.warning("reading the search catalogue failed while stopping: %r", exc)
