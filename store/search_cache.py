"""This process's search catalogue, built on first use for each data version.

One catalogue per database the process serves (one, but for tests), of its latest data
version: a load makes a new data version, and the next search builds the catalogue again
(the old one is dropped when no search uses it). Built
through a reader of its own, outside the request that asked for it: a request cut short by
its time limit leaves the build running for the next one, and the searches that arrive
during a build wait for that one build instead of starting their own.
"""

import asyncio
import logging

from store.reader import Reader
from store.search_catalogue import Catalogue, Entry, read_entries
from store.search_rank import Searcher

# The latest searcher of each database (by URL), and the builds under way (by version).
_current: dict[str, Searcher] = {}
_building: dict[str, tuple[str, asyncio.Future[Searcher]]] = {}

log = logging.getLogger(__name__)


async def _read(reader: Reader) -> tuple[str | None, list[Entry]]:
    try:
        return await read_entries(reader)
    finally:
        await reader.close()


def _read_on_a_loop_of_its_own(reader: Reader) -> tuple[str | None, list[Entry]]:
    # The coroutine is made here, in the worker thread: made by the caller, it was never
    # awaited (a RuntimeWarning) when the process stopped before the thread began.
    return asyncio.run(_read(reader))


async def _build(reader: Reader) -> Searcher:
    if reader.blocks_the_loop:
        # SQLite's statements run in the calling thread: every entry read there (a second
        # or two at size L) would hold up every other request of the process. Read in a
        # worker thread instead, on an event loop of its own (the statements never await).
        version, entries = await asyncio.to_thread(_read_on_a_loop_of_its_own, reader)
    else:
        version, entries = await _read(reader)
    # Pure Python work of up to seconds (size L): off the event loop, so that the
    # process keeps answering other requests meanwhile.
    catalogue = await asyncio.to_thread(Catalogue, version, entries)
    return Searcher(catalogue)


def _building_of(reader: Reader, version: str) -> "asyncio.Future[Searcher]":
    """The build of ``version``'s catalogue: the one under way, or a new one that becomes
    the database's current catalogue when it is done (unless a later load overtook it)."""
    database = reader.database
    under_way = _building.get(version)
    if under_way is None:
        building = asyncio.ensure_future(_build(reader.detached()))
        _building[version] = (database, building)

        def done(future: "asyncio.Future[Searcher]") -> None:
            _building.pop(version, None)
            failed = future.cancelled() or future.exception() is not None
            if not failed and future.result().catalogue.version == version:
                _current[database] = future.result()

        building.add_done_callback(done)
        return building
    return under_way[1]


def prepare(reader: Reader, version: str | None) -> "asyncio.Future[Searcher] | None":
    """Start building the catalogue of ``version`` in the background, unless it is built
    or under way: called when a process sees a new data version, so that the first search
    after a load (seconds of building at size L) does not wait for it."""
    current = _current.get(reader.database)
    if version is None or (current is not None and current.catalogue.version == version):
        return None
    return _building_of(reader, version)


async def searcher(reader: Reader, version: str | None) -> Searcher:
    """The searcher of the data of ``version`` (read through ``reader`` when None)."""
    if version is None:
        version = await reader.open_snapshot()
    current = _current.get(reader.database)
    if current is not None and version is not None and current.catalogue.version == version:
        return current
    if version is None:  # nothing loaded: an empty catalogue, not worth keeping
        return await _build(reader.detached())
    # Shielded: a request cancelled at its time limit does not cancel the build.
    return await asyncio.shield(_building_of(reader, version))


async def stop(database: str) -> None:
    """Cancel the builds under way for ``database`` (a server shutting down)."""
    pending = [future for owner, future in list(_building.values()) if owner == database]
    for future in pending:
        future.cancel()
    for future in pending:
        try:
            await future
        except asyncio.CancelledError:
            pass
        except Exception as exc:  # a build that failed on its own: not the shutdown's
            log.warning("a search catalogue build failed while stopping: %r", exc)
