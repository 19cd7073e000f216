"""This process's search catalogue, built on first use for each data version.

One catalogue per database the process serves (one, but for tests), of its latest data
version: a load makes a new data version, and the next search builds the catalogue again
(the old one is dropped when no search uses it). Built
through a reader of its own, outside the request that asked for it: a request cut short by
its time limit leaves the build running for the next one, and the searches that arrive
during a build wait for that one build instead of starting their own.
"""

import asyncio

from sqlalchemy import select

from store.data_version import data_version
from store.reader import Reader
from store.search_catalogue import Catalogue, read_entries
from store.search_rank import Searcher
from store.tables import DatasetRow, table_of

# The latest searcher of each database (by URL), and the builds under way (by version).
_current: dict[str, Searcher] = {}
_building: dict[str, asyncio.Future[Searcher]] = {}


async def current_version(reader: Reader) -> str | None:
    dataset = table_of(DatasetRow)
    row = (await reader.execute(select(dataset.c.version, dataset.c.identity).limit(1))).first()
    return None if row is None else data_version(*row)


async def _build(reader: Reader) -> Searcher:
    try:
        version, entries = await read_entries(reader)
    finally:
        await reader.close()
    # Pure Python work of up to seconds (size L): off the event loop, so that the
    # process keeps answering other requests meanwhile.
    catalogue = await asyncio.to_thread(Catalogue, version, entries)
    return Searcher(catalogue)


async def searcher(reader: Reader, version: str | None) -> Searcher:
    """The searcher of the data of ``version`` (read through ``reader`` when None)."""
    if version is None:
        version = await current_version(reader)
    current = _current.get(reader.database)
    if current is not None and version is not None and current.catalogue.version == version:
        return current
    if version is None:  # nothing loaded: an empty catalogue, not worth keeping
        return await _build(reader.detached())
    building = _building.get(version)
    if building is None:
        building = _building[version] = asyncio.ensure_future(_build(reader.detached()))
        building.add_done_callback(lambda _: _building.pop(version, None))
    # Shielded: a request cancelled at its time limit does not cancel the build.
    found = await asyncio.shield(building)
    if found.catalogue.version == version:  # not a build that a later load overtook
        _current[reader.database] = found
    return found
