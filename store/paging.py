"""Keyset pages: a list's rows in the order of its sort keys, strictly after the key values
of a row the client saw, so a page costs the same wherever it is in the list.

The API turns a page's key values into cursors (schema.pagination); here they are plain
values."""

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, and_, bindparam, func, or_, select

from store.reader import Reader
from store.rows import AnySelect, Prepared


class PositionError(ValueError):
    """The values to start after do not fit the list's sort keys (a damaged cursor)."""


@dataclass(frozen=True)
class SortKey:
    column: Any  # a column or SQL expression whose values are ints or strings
    descending: bool = False


@dataclass(frozen=True)
class Window:
    """Which rows of a list a page holds: ``first`` of them, after the row whose sort-key
    values are ``after`` (from the start when None); with ``with_total`` a first page
    brings the whole list's length along (a window over the same statement)."""

    first: int
    after: Sequence[Any] | None = None
    with_total: bool = False


@dataclass(frozen=True)
class Sort:
    """A list's order as its caller names it (a field such as `name`), and its direction."""

    field: str
    descending: bool = False


@dataclass(frozen=True)
class Template:
    """A list's statement built once for its shape (``shape``: whatever the statement's
    structure depends on, such as the order asked for), its values left as parameters
    (``params``, given for each request): its pages and its count are then prepared once
    per shape too, not built again for every request."""

    statement: AnySelect
    shape: Hashable
    params: dict[str, Any]


Listing = AnySelect | Template


@dataclass(frozen=True)
class Page:
    rows: list[tuple[Any, ...]]
    keys: list[tuple[Any, ...]]  # each row's sort-key values, for its cursor
    has_next: bool
    has_previous: bool
    total: int | None  # the whole list's length, when it came with the page


_PREPARED: dict[tuple[Hashable, ...], Prepared] = {}


def _prepared(key: tuple[Hashable, ...], build: Callable[[], AnySelect]) -> Prepared:
    """The statement ``build`` makes, built and prepared once for ``key``."""
    prepared = _PREPARED.get(key)
    if prepared is None:
        prepared = _PREPARED[key] = Prepared.of(build())
    return prepared


# The range of the integer columns keys are made of (64 bits on both databases).
_INTEGERS = range(-(2**63), 2**63)


def _check_position(keys: Sequence[SortKey], values: Sequence[Any]) -> None:
    """``values`` fit ``keys``: as many, each of its key's type (an integer in range, or
    text), so that no statement is sent with a value the database would refuse."""
    if len(values) != len(keys):
        raise PositionError(f"{len(values)} values to start after, for {len(keys)} sort keys")
    for key, value in zip(keys, values, strict=True):
        wanted = key.column.type.python_type
        if wanted is int:
            fits = isinstance(value, int) and not isinstance(value, bool) and value in _INTEGERS
        else:
            fits = isinstance(value, wanted)
        if not fits:
            raise PositionError(f"{value!r} is not a {wanted.__name__} of this list's order")


def _after(keys: Sequence[SortKey], values: Sequence[Any]) -> ColumnElement[bool]:
    """Rows strictly after ``values`` in the order of ``keys`` (directions may differ)."""
    alternatives = []
    for index, key in enumerate(keys):
        beyond = key.column < values[index] if key.descending else key.column > values[index]
        equal_before = [keys[i].column == values[i] for i in range(index)]
        alternatives.append(and_(*equal_before, beyond))
    return or_(*alternatives)


def _page_statement(
    statement: AnySelect, keys: Sequence[SortKey], after: bool, total: bool
) -> AnySelect:
    """``statement`` in the order of ``keys``, after the values `after0`... when ``after``,
    at most `limit` rows; the keys' values come last, and after them the whole list's
    length when ``total`` (a first page only: the window counts what the WHERE leaves,
    before the LIMIT)."""
    ordered = statement.add_columns(*(key.column for key in keys))
    if total:
        ordered = ordered.add_columns(func.count().over())
    if after:
        ordered = ordered.where(_after(keys, [bindparam(f"after{i}") for i in range(len(keys))]))
    return ordered.order_by(
        *(key.column.desc() if key.descending else key.column.asc() for key in keys)
    ).limit(bindparam("limit"))


async def keyset_page(
    reader: Reader, listing: Listing, keys: Sequence[SortKey], window: Window
) -> Page:
    """The ``window`` of ``listing`` in the order of ``keys`` (whose last key must be
    unique)."""
    first, after = window.first, window.after
    params: dict[str, Any] = {"limit": first + 1}
    if after is not None:
        _check_position(keys, after)
        params.update({f"after{i}": value for i, value in enumerate(after)})
    total = after is None and window.with_total
    if isinstance(listing, Template):
        template = listing
        page_statement = _prepared(
            ("page", template.shape, after is not None, total),
            lambda: _page_statement(template.statement, keys, after is not None, total),
        )
        result = await reader.rows(page_statement, {**listing.params, **params})
    else:
        result = await reader.rows(_page_statement(listing, keys, after is not None, total), params)
    width = len(keys) + total
    rows = [row[:-width] for row in result[:first]]
    row_keys = [row[-width:][: len(keys)] for row in result[:first]]
    length = (result[0][-1] if result else 0) if total else None
    return Page(rows, row_keys, len(result) > first, after is not None, length)


async def count(reader: Reader, listing: Listing) -> int:
    """How many rows ``listing`` has."""
    if isinstance(listing, Template):
        template = listing
        counted = _prepared(("count", template.shape), lambda: _count_statement(template.statement))
        result = await reader.execute(counted.statement, template.params)
    else:
        result = await reader.execute(_count_statement(listing))
    return int(result.scalar_one())


def _count_statement(statement: AnySelect) -> AnySelect:
    return select(func.count()).select_from(statement.order_by(None).subquery())
