"""Releases: every load that committed, newest first (see ReleaseRow)."""

from collections.abc import Hashable, Sequence
from datetime import UTC, datetime
from functools import cache
from typing import NamedTuple

from sqlalchemy import bindparam, func, select
from sqlmodel import col

from store import paging
from store.batches import rows_where_in
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


async def releases_page(reader: Reader, *, window: Window) -> Page[ReleaseRow]:
    """A page of releases, newest first."""
    keys = [SortKey(col(ReleaseRow.number), descending=True)]
    return await paging.keyset_page(reader, _releases(), keys, window, rows=ReleaseRow)


async def releases_count(reader: Reader) -> int:
    return await paging.count(reader, _releases())


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
