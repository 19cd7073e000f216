"""Releases: every load that committed, by number (load order; see ReleaseRow)."""

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from functools import cache
from typing import NamedTuple

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
    *,
    window: Window,
    selection: ReleaseSelection = ReleaseSelection(),
    newest_first: bool = True,
) -> Page[ReleaseRow]:
    """A page of releases by number (the order they were loaded in): the newest first, or
    the oldest first. Numbers never change, so a cursor outlives any load that keeps its
    release (store.paging)."""
    keys = [SortKey(col(ReleaseRow.number), descending=newest_first)]
    return await paging.keyset_page(reader, _selected(selection), keys, window, rows=ReleaseRow)


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


async def retained_range(reader: Reader) -> tuple[int | None, int | None]:
    """The oldest and the newest (served) release's numbers; (None, None) before a load."""
    (found,) = await reader.rows(_RANGE)
    return found.oldest, found.newest
