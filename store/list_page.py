"""A page of a list already in memory and sorted (the net changes between releases),
cut the way store.paging cuts a keyset page from SQL: after the given key values."""

from bisect import bisect_right
from collections.abc import Sequence
from typing import Any

from store.paging import Page, PositionError, Window


def list_page(rows: Sequence[Any], keys: Sequence[tuple[Any, ...]], window: Window) -> Page:
    """``window`` of ``rows``, whose sort-key values ``keys`` are in ascending order."""
    start = 0
    if window.after is not None:
        after = tuple(window.after)
        if keys and (len(after) != len(keys[0]) or not all(map(_same_type, after, keys[0]))):
            raise PositionError(f"{list(after)!r} does not fit this list's order")
        start = bisect_right(keys, after)
    end = start + window.first
    return Page(
        rows=list(rows[start:end]),
        keys=list(keys[start:end]),
        has_next=end < len(rows),
        has_previous=window.after is not None,
        total=len(rows),
    )


def _same_type(value: Any, wanted: Any) -> bool:
    return type(value) is type(wanted)
