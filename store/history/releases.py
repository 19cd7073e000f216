"""Releases: every load that committed, by number (load order; see ReleaseRow)."""

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from functools import cache
from typing import NamedTuple

from cachetools import LRUCache
from sqlalchemy import ColumnElement, bindparam, func, select
from sqlmodel import col

from store import paging
from store.batches import rows_where_in
from store.methods import contains
from store.paging import Page, SortKey, Window
from store.reader import Reader
from store.rows import AnySelect, Prepared, Value
from store.tables import ReleaseRow, table_of


@cache
def _releases() -> AnySelect:
    return select(ReleaseRow)


async def releases_where(
    reader: Reader, *, column: str, values: Sequence[Hashable]
) -> list[ReleaseRow]:
    """The releases whose ``column`` (number, identity) is one of ``values``."""
    return await rows_where_in(reader, _releases, ReleaseRow, ReleaseRow, column, values)


@dataclass
class Retained:
    """What requests have read of one data version's releases: the oldest and the newest
    number, and rows by number. Both are fixed for a data version (a load adds a release,
    and prune gives the data a new identity: store.data_version), and most pages ask for
    them (their header's latest release, a record's history), so a worker reads each once
    a version, not once a page."""

    range: tuple[int | None, int | None] | None = None
    by_number: dict[int, ReleaseRow] = field(default_factory=dict)


class KnownReleases(LRUCache[str, Retained]):
    """Retained, by data version (store.caches.Caches.releases): the newest few versions;
    an entry holds no more rows than the releases retained."""

    async def of(self, reader: Reader) -> Retained | None:
        """The entry of ``reader``'s snapshot (opened now, if no statement has: its data
        version is the key); None before any load."""
        version = await reader.open_snapshot()
        if version is None:
            return None
        found = self.get(version)
        if found is None:
            found = self[version] = Retained()
        return found


async def releases_by_number(
    reader: Reader, numbers: Sequence[int], known: KnownReleases
) -> list[ReleaseRow]:
    """The releases of ``numbers`` that exist: those ``known`` for the reader's data
    version, and the others read (and known from then on)."""
    seen = await known.of(reader)
    if seen is None:
        return []  # nothing loaded: no release
    oldest, newest = await retained_range(reader, known)
    if oldest is None or newest is None:
        return []
    at_hand = [seen.by_number[n] for n in numbers if n in seen.by_number]
    # None outside the retained range: nothing to read for those (the release before
    # the first, which a page's "since the one before" asks for, is release 0).
    missing = [n for n in numbers if n not in seen.by_number and oldest <= n <= newest]
    if not missing:
        return at_hand
    read = await releases_where(reader, column="number", values=missing)
    seen.by_number.update((row.number, row) for row in read)
    return [*at_hand, *read]


@dataclass(frozen=True)
class ReleaseSelection:
    """Which releases a list holds; every given condition must hold."""

    loaded_from: date | None = None  # loaded on or after this day (UTC)
    loaded_to: date | None = None  # loaded on or before this day (UTC)
    note_contains: str | None = None  # any case


def _day_start(day: date) -> datetime:
    return datetime.combine(day, time.min, tzinfo=UTC)


def release_conditions(selection: ReleaseSelection) -> list[ColumnElement[bool]]:
    """The conditions on a release that ``selection`` gives. Days are UTC days, as
    `loaded_at` is UTC: a day's releases are those loaded from its midnight to the next."""
    loaded_at = col(ReleaseRow.loaded_at)
    kind = table_of(ReleaseRow).c.loaded_at.type
    conditions = []
    if selection.loaded_from is not None:
        start = _day_start(selection.loaded_from)
        conditions.append(loaded_at >= bindparam(None, start, type_=kind))
    if selection.loaded_to is not None and selection.loaded_to < date.max:
        end = _day_start(selection.loaded_to + timedelta(days=1))
        conditions.append(loaded_at < bindparam(None, end, type_=kind))
    if selection.note_contains:
        conditions.append(contains(ReleaseRow.note, selection.note_contains))
    return conditions


def _selected(selection: ReleaseSelection) -> AnySelect:
    return _releases().where(*release_conditions(selection))


async def releases_page(
    reader: Reader,
    known: KnownReleases,
    *,
    window: Window,
    selection: ReleaseSelection = ReleaseSelection(),
    newest_first: bool = True,
) -> Page[ReleaseRow]:
    """A page of releases by number (the order they were loaded in): the newest first, or
    the oldest first. Numbers never change, so a cursor outlives any load that keeps its
    release (store.paging). The first page of the whole list, newest first (every page
    of the browser asks for the latest release), comes from ``known`` once its rows are
    known for the reader's data version."""
    everything = selection == ReleaseSelection()
    from_the_newest = newest_first and window.after is None and window.before is None
    if everything and from_the_newest and not window.from_end and not window.with_total:
        newest = await _newest_known(reader, known, window.size)
        if newest is not None:
            return newest
    keys = [SortKey(col(ReleaseRow.number), descending=newest_first)]
    page = await paging.keyset_page(reader, _selected(selection), keys, window, rows=ReleaseRow)
    seen = await known.of(reader)
    if seen is not None:
        seen.by_number.update((row.number, row) for row in page.rows)
    return page


async def _newest_known(reader: Reader, known: KnownReleases, size: int) -> Page[ReleaseRow] | None:
    """The first ``size`` releases, newest first, as keyset_page reads them (the number is
    the cursor's key), if they are all known; None otherwise. More follow exactly when
    the oldest release is older than the page's last."""
    seen = await known.of(reader)
    oldest, newest = await retained_range(reader, known)
    if seen is None or oldest is None or newest is None:
        return None
    numbers = range(newest, max(oldest, newest - size + 1) - 1, -1)
    if any(number not in seen.by_number for number in numbers):
        return None
    rows = [seen.by_number[number] for number in numbers]
    more = oldest < rows[-1].number if rows else True
    return Page(rows, [(row.number,) for row in rows], more, False, None)


async def releases_count(reader: Reader, selection: ReleaseSelection = ReleaseSelection()) -> int:
    return await paging.count(reader, _selected(selection))


class _Range(NamedTuple):
    oldest: int | None
    newest: int | None


_RANGE = Prepared.of(
    select(func.min(col(ReleaseRow.number)), func.max(col(ReleaseRow.number))), _Range
)


_SERVED_AT = Prepared.of(
    select(func.max(col(ReleaseRow.number))).where(
        col(ReleaseRow.loaded_at) <= bindparam("at", type_=table_of(ReleaseRow).c.loaded_at.type)
    ),
    Value[int | None],
)


async def release_served_at(reader: Reader, moment: datetime) -> int | None:
    """The number of the release that was served at ``moment`` (the newest loaded at or
    before it; a zone-less moment is UTC); None before the first load."""
    moment = moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    (served,) = await reader.rows(_SERVED_AT, {"at": moment})
    return None if served.value is None else int(served.value)


async def retained_range(reader: Reader, known: KnownReleases) -> tuple[int | None, int | None]:
    """The oldest and the newest (served) release's numbers; (None, None) before a load.
    Read once a data version: ``known`` keeps them."""
    seen = await known.of(reader)
    if seen is not None and seen.range is not None:
        return seen.range
    (found,) = await reader.rows(_RANGE)
    if seen is not None:
        seen.range = (found.oldest, found.newest)
    return found.oldest, found.newest
