"""Releases: every load that committed, newest first (see ReleaseRow)."""

from collections.abc import Sequence
from datetime import UTC, datetime
from functools import cache

from sqlalchemy import bindparam, func, select
from sqlmodel import col

from store import paging
from store.batches import rows_where_in
from store.paging import Page, SortKey, Window
from store.reader import Reader
from store.rows import AnySelect, Prepared
from store.tables import ReleaseRow, table_of


@cache
def _releases() -> AnySelect:
    return select(ReleaseRow)


async def releases_where(
    reader: Reader, *, column: str, values: Sequence[object]
) -> list[ReleaseRow]:
    """The releases whose ``column`` (number, identity) is one of ``values``."""
    return [row[0] for row in await rows_where_in(reader, _releases, ReleaseRow, column, values)]


async def releases_page(reader: Reader, *, window: Window) -> Page:
    """A page of releases (rows of one release), newest first."""
    keys = [SortKey(col(ReleaseRow.number), descending=True)]
    return await paging.keyset_page(reader, _releases(), keys, window)


async def releases_count(reader: Reader) -> int:
    return await paging.count(reader, _releases())


_RANGE = Prepared.of(select(func.min(col(ReleaseRow.number)), func.max(col(ReleaseRow.number))))


_SERVED_AT = Prepared.of(
    select(func.max(col(ReleaseRow.number))).where(
        col(ReleaseRow.loaded_at) <= bindparam("at", type_=table_of(ReleaseRow).c.loaded_at.type)
    )
)


async def release_served_at(reader: Reader, moment: datetime) -> int | None:
    """The number of the release that was served at ``moment`` (the newest loaded at or
    before it; a zone-less moment is UTC); None before the first load."""
    moment = moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    ((number,),) = await reader.rows(_SERVED_AT, {"at": moment})
    return None if number is None else int(number)


async def retained_range(reader: Reader) -> tuple[int | None, int | None]:
    """The oldest and the newest (served) release's numbers; (None, None) before a load."""
    ((oldest, newest),) = await reader.rows(_RANGE)
    return oldest, newest
