"""A page of a list already in memory and sorted (the net changes between releases),
cut the way store.paging cuts a keyset page from SQL: between the given key values, from
the start or from the end."""

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from typing import Any

from store.paging import Page, PositionError, Window


def list_page(rows: Sequence[Any], keys: Sequence[tuple[Any, ...]], window: Window) -> Page:
    """``window`` of ``rows``, whose sort-key values ``keys`` are in ascending order."""
    start, end = 0, len(rows)
    if window.after is not None:
        start = bisect_right(keys, _fitting(window.after, keys, "after"))
    if window.before is not None:
        end = max(start, bisect_left(keys, _fitting(window.before, keys, "before")))
    if window.from_end:
        start = max(start, end - window.size)
    else:
        end = min(end, start + window.size)
    return Page(
        rows=list(rows[start:end]),
        keys=list(keys[start:end]),
        has_next=end < len(rows),
        has_previous=start > 0,
        total=len(rows),
    )


def _fitting(given: Sequence[Any], keys: Sequence[tuple[Any, ...]], bound: str) -> tuple[Any, ...]:
    """A cursor's key values, checked against the list's (a forged cursor is refused)."""
    values = tuple(given)
    if keys and (len(values) != len(keys[0]) or not all(map(_same_type, values, keys[0]))):
        raise PositionError(f"{list(values)!r} does not fit this list's order", bound)
    return values


def _same_type(value: Any, wanted: Any) -> bool:
    return type(value) is type(wanted)
