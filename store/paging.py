"""Keyset pages: a list's rows in the order of its sort keys, between the key values of
rows the client saw, so a page costs the same wherever it is in the list; read forward
from the start (or from a row), or backward from the end (or from a row).

The API turns a page's key values into cursors (schema.pagination); here they are plain
values. Most keys are positions worked out at load time (a name's rank, a row's id), which
another load renumbers. So a row's values also carry what each such key stands for (a
name's rank: the name and the slug), and a position from an earlier load is found again
by those: the row, if it is still in the list with the same values, is where the page
goes on from; if it is not, the position has expired (ExpiredPositionError), never a page
silently shifted."""

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Generic, cast

from sqlalchemy import (
    BindParameter,
    ColumnElement,
    Date,
    Integer,
    String,
    and_,
    bindparam,
    func,
    literal_column,
    or_,
    select,
)
from sqlalchemy.orm import QueryableAttribute
from sqlalchemy.types import TypeDecorator

from store.reader import Reader
from store.rows import AnySelect, Expression, Params, Prepared, RowT, Shape, shaped

# A value of a page's keys as JSON holds it in a cursor (dates as ISO text).
CursorValue = int | str | None


class ExpiredPositionError(ValueError):
    """A position from an earlier load (``bound``: `after` or `before`) whose row is no
    longer in the list with the values it had, or whose keys nothing can find again."""

    def __init__(self, message: str, bound: str) -> None:
        super().__init__(message)
        self.bound = bound


class PositionError(ValueError):
    """The values of a bound (``bound``: `after` or `before`) do not fit the list's sort
    keys (a damaged cursor)."""

    def __init__(self, message: str, bound: str) -> None:
        super().__init__(message)
        self.bound = bound


@dataclass(frozen=True)
class SortKey:
    column: Expression  # values are ints or strings, never null
    descending: bool = False
    # For a position worked out at load time (a rank, a row id, a pre-order number): the
    # columns whose values it stands for, by which a row is found again after another load
    # (a name's rank: the name and the slug; unique together); () when nothing can find
    # the row again. None: the column's own values are the same from load to load.
    stands_for: tuple[Expression, ...] | None = None


def _meaning_columns(keys: Sequence[SortKey]) -> list[Expression]:
    """The columns a row's values carry besides its keys: what its positions stand for."""
    return [column for key in keys if key.stands_for for column in key.stands_for]


@dataclass(frozen=True)
class Window:
    """Which rows of a list a page holds: ``after`` and ``before`` (the sort-key values of
    rows the client saw) narrow the list to the rows strictly between them; the page is
    then the first ``size`` of those, or the last ``size`` when ``from_end``. With
    ``with_total`` a page without either bound brings the whole list's length along (a
    window over the same statement)."""

    size: int
    after: Sequence[object] | None = None
    before: Sequence[object] | None = None
    from_end: bool = False
    with_total: bool = False
    # Whether ``after`` and ``before`` were read from an earlier load: the rows they name
    # are then found again by what their keys stand for (`SortKey.stands_for`).
    from_earlier_load: bool = False


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
    params: Params


Listing = AnySelect | Template


@dataclass(frozen=True)
class Page(Generic[RowT]):
    rows: list[RowT]  # in the list's order, whichever end the page was read from
    # Each row's sort-key values, then what its positions stand for (as JSON can hold
    # them: dates as ISO text), for its cursor.
    keys: list[tuple[CursorValue, ...]]
    has_next: bool  # whether the list has rows after the page's last (or after its place)
    has_previous: bool  # whether the list has rows before the page's first (or its place)
    total: int | None  # the whole list's length, when it came with the page


def first_page(
    rows: Sequence[RowT],
    size: int,
    *,
    key_of: Callable[[RowT], tuple[CursorValue, ...]],
    total: int,
) -> Page[RowT]:
    """The first page of a list from its first ``size`` + 1 rows (read with the first rows
    of many other lists, in one statement): ``key_of`` gives a row's key values and what
    they stand for, as keyset_page would, so the list's keyset pages read on from its
    cursors; ``total`` is the list's length."""
    shown = list(rows[:size])
    return Page(
        rows=shown,
        keys=[key_of(row) for row in shown],
        has_next=len(rows) > size,
        has_previous=False,
        total=total,
    )


_PREPARED: dict[tuple[Hashable, ...], Prepared[list[object]]] = {}


def _prepared(key: tuple[Hashable, ...], build: Callable[[], AnySelect]) -> Prepared[list[object]]:
    """The statement ``build`` makes, built and prepared once for ``key``: its rows are
    their parts, the listing's and then what the page's statement added."""
    prepared = _PREPARED.get(key)
    if prepared is None:
        prepared = _PREPARED[key] = Prepared.of_parts(build())
    return prepared


async def _rows(
    reader: Reader,
    listing: Listing,
    shape: tuple[Hashable, ...],
    build: Callable[[AnySelect], AnySelect],
    params: Params,
) -> list[list[object]]:
    """The rows of ``build(listing's statement)``: prepared once per ``shape`` of a
    Template, built for the request otherwise."""
    if isinstance(listing, Template):
        template = listing
        prepared = _prepared((*shape, template.shape), lambda: build(template.statement))
        return await reader.rows(prepared, {**template.params, **params})
    return await reader.rows(Prepared.of_parts(build(listing)), params)


# The range of the integer columns keys are made of (64 bits on both databases).
_INTEGERS = range(-(2**63), 2**63)


def _check_position(keys: Sequence[SortKey], values: Sequence[object], bound: str) -> list[object]:
    """The key values of ``values`` (of the bound ``bound``: the keys' values, then what
    they stand for, or the keys' alone), checked to fit ``keys``: each of its key's type
    (an integer in range, or text), so that no statement is sent with a value the
    database would refuse."""
    meaning = _meaning_columns(keys)
    if len(values) not in (len(keys), len(keys) + len(meaning)):
        raise PositionError(f"{len(values)} values to page from, for {len(keys)} sort keys", bound)
    for column, value in zip(meaning, values[len(keys) :], strict=False):
        _column_value(column, value, bound)
    values = list(values[: len(keys)])
    for key, value in zip(keys, values, strict=True):
        wanted = _python_type(key.column)
        if wanted is int:
            fits = isinstance(value, int) and not isinstance(value, bool) and value in _INTEGERS
        else:
            fits = isinstance(value, wanted)
        if not fits:
            raise PositionError(f"{value!r} is not a {wanted.__name__} of this list's order", bound)
    return values


def _python_type(column: Expression) -> type:
    """What values of ``column`` are in Python: text (sqlmodel's AutoString says `object`),
    dates, integers, or what the column's type says."""
    assert isinstance(column, ColumnElement | QueryableAttribute), f"{column!r} is not a column"
    kind = column.type
    if isinstance(kind, TypeDecorator):
        kind = kind.impl_instance
    if isinstance(kind, String):
        return str
    if isinstance(kind, Date):
        return date
    if isinstance(kind, Integer):
        return int
    python_type: type = kind.python_type
    return python_type


def _column_value(column: Expression, value: object, bound: str) -> object:
    """``value``, as JSON held it, for a comparison with ``column``: a date from its ISO
    text; null, text and integers as they are."""
    wanted = _python_type(column)
    if value is None or (isinstance(value, wanted) and not isinstance(value, bool)):
        return value
    if wanted is date and isinstance(value, str):
        try:
            return date.fromisoformat(value)
        except ValueError:
            pass
    raise PositionError(f"{value!r} is not a {wanted.__name__} of this list's order", bound)


def _as_json(value: object) -> CursorValue:
    """A sort key's value as JSON holds it: a date as its ISO text; the rest are integers
    and text (SortKey's columns), or null (what a position stands for)."""
    if isinstance(value, date):
        return value.isoformat()
    return cast(CursorValue, value)


def _found_again_statement(
    statement: AnySelect, keys: Sequence[SortKey], nulls: Sequence[bool]
) -> AnySelect:
    """The keys' values now of the row of ``statement`` whose stable keys have the values
    `found0`... and whose positions stand for the values after them, null where ``nulls``
    says (`IS NULL` there and `=` elsewhere, which both databases read from an index)."""
    columns = [*(key.column for key in keys if key.stands_for is None), *_meaning_columns(keys)]
    conditions = [
        column.is_(None) if null else column == bindparam(f"found{i}")
        for i, (column, null) in enumerate(zip(columns, nulls, strict=True))
    ]
    return statement.add_columns(*(key.column for key in keys)).where(*conditions).limit(1)


async def _found_again(
    reader: Reader,
    listing: Listing,
    keys: Sequence[SortKey],
    values: Sequence[object],
    bound: str,
) -> list[object]:
    """The key values, in this load, of the row that ``values`` (read from an earlier
    load: the keys' values, then what they stand for) named, found by its stable keys and
    what its positions stand for; ExpiredPositionError when it is no longer in the list so."""
    meaning = _meaning_columns(keys)
    if any(key.stands_for == () for key in keys):
        raise ExpiredPositionError("this list's order does not outlive a load", bound)
    if len(values) != len(keys) + len(meaning):
        raise ExpiredPositionError("the cursor was made before cursors outlived loads", bound)
    _check_position(keys, values, bound)
    stable = [
        (key.column, value)
        for key, value in zip(keys, values, strict=False)
        if key.stands_for is None
    ]
    meant = list(zip(meaning, values[len(keys) :], strict=True))
    params = {
        f"found{i}": _column_value(column, value, bound)
        for i, (column, value) in enumerate([*stable, *meant])
        if value is not None
    }
    nulls = tuple(value is None for _, value in [*stable, *meant])
    found = await _rows(
        reader, listing, ("found", nulls), lambda s: _found_again_statement(s, keys, nulls), params
    )
    if not found:
        gone = "its item is no longer in the list with the values it had"
        raise ExpiredPositionError(gone, bound)
    return list(found[0][-len(keys) :])


def _beyond(
    keys: Sequence[SortKey], values: Sequence[object], *, backward: bool, inclusive: bool
) -> ColumnElement[bool]:
    """Rows after ``values`` in the order of ``keys`` (directions may differ), or before
    them when ``backward``; the row at ``values`` too when ``inclusive``."""
    alternatives = []
    for index, key in enumerate(keys):
        column, value = key.column, values[index]
        beyond = column < value if key.descending != backward else column > value
        equal_before = [keys[i].column == values[i] for i in range(index)]
        alternatives.append(and_(*equal_before, beyond))
    if inclusive:
        alternatives.append(
            and_(*(key.column == value for key, value in zip(keys, values, strict=True)))
        )
    # Implied by the alternatives, but a bound that the databases can read an index from:
    # without it, SQLite reads a page past a cursor from the list's start.
    first, start = keys[0].column, values[0]
    within = first <= start if keys[0].descending != backward else first >= start
    return and_(within, or_(*alternatives))


def _bound(name: str, count: int) -> list[BindParameter[object]]:
    return [bindparam(f"{name}{i}") for i in range(count)]


def _params(name: str, values: Sequence[object] | None) -> Params:
    return {} if values is None else {f"{name}{i}": value for i, value in enumerate(values)}


def _between(statement: AnySelect, keys: Sequence[SortKey], after: bool, before: bool) -> AnySelect:
    """``statement``'s rows strictly between the values `after0`... and `before0`...
    (each bound only when asked for)."""
    if after:
        statement = statement.where(
            _beyond(keys, _bound("after", len(keys)), backward=False, inclusive=False)
        )
    if before:
        statement = statement.where(
            _beyond(keys, _bound("before", len(keys)), backward=True, inclusive=False)
        )
    return statement


def _page_statement(
    statement: AnySelect,
    keys: Sequence[SortKey],
    *,
    after: bool,
    before: bool,
    backward: bool,
    total: ColumnElement[int] | None,
) -> AnySelect:
    """``statement`` between the bounds asked for, at most `limit` rows from its start (or
    from its end when ``backward``); the keys' values come last, and after them the whole
    list's length ``total`` when given (a page without bounds only: a window counts what
    the WHERE leaves, before the LIMIT)."""
    ordered = statement.add_columns(*(key.column for key in keys), *_meaning_columns(keys))
    if total is not None:
        ordered = ordered.add_columns(total)
    ordered = _between(ordered, keys, after, before)
    return ordered.order_by(
        *(key.column.desc() if key.descending != backward else key.column.asc() for key in keys)
    ).limit(bindparam("limit"))


def _probe_statement(
    statement: AnySelect, keys: Sequence[SortKey], *, at_after: bool, at_before: bool
) -> AnySelect:
    """Whether ``statement`` has rows at or before the values `after0`... (when
    ``at_after``), and whether it has rows at or after `before0`... (when ``at_before``):
    the rows on the far side of a page's cursors, which tell whether pages lie there."""
    checks = []
    if at_after:
        position = _bound("after", len(keys))
        before = statement.where(_beyond(keys, position, backward=True, inclusive=True))
        checks.append(_from_the_start(before, keys) if keys[0].descending else before.exists())
    if at_before:
        position = _bound("before", len(keys))
        after = statement.where(_beyond(keys, position, backward=False, inclusive=True))
        checks.append(after.exists())
    return select(*checks)


def _from_the_start(statement: AnySelect, keys: Sequence[SortKey]) -> ColumnElement[bool]:
    """Whether ``statement`` has a row, looked for from the start of the order of ``keys``
    (the first descending: an index read backward). An EXISTS reads an index forward,
    whatever its ORDER BY, so that the rows before a cursor in such an order, which lie
    at the index's end, were found after passing every row of the cursor's first key from
    its other end (3,333 of a model's 10,000 treatments: tests/test_query_cost.py)."""
    ordered: AnySelect = statement.with_only_columns(literal_column("1")).order_by(
        *(key.column.desc() if key.descending else key.column.asc() for key in keys)
    )
    return ordered.limit(1).scalar_subquery().is_not(None)


async def keyset_page(
    reader: Reader,
    listing: Listing,
    keys: Sequence[SortKey],
    window: Window,
    *,
    rows: Shape[RowT],
    counted: ColumnElement[int] | None = None,
) -> Page[RowT]:
    """The ``window`` of ``listing`` in the order of ``keys`` (whose last key must be
    unique), and whether rows lie before and after it: exactly, both ways. The list's
    length, when the window asks for it, is ``counted`` (a figure the load recorded) if
    given, else counted over the list's rows. Its rows are made as ``rows`` says
    (`store.rows.Prepared.of`)."""
    after, before, backward = window.after, window.before, window.from_end
    if window.from_earlier_load:
        if after is not None:
            after = await _found_again(reader, listing, keys, after, "after")
        if before is not None:
            before = await _found_again(reader, listing, keys, before, "before")
    else:
        after = None if after is None else _check_position(keys, after, "after")
        before = None if before is None else _check_position(keys, before, "before")
    bounds = {**_params("after", after), **_params("before", before)}
    total = after is None and before is None and window.with_total
    shape = (after is not None, before is not None, backward, total, counted is not None)
    result = await _rows(
        reader,
        listing,
        ("page", *shape),
        lambda statement: _page_statement(
            statement,
            keys,
            after=after is not None,
            before=before is not None,
            backward=backward,
            total=(counted if counted is not None else func.count().over()) if total else None,
        ),
        {"limit": window.size + 1, **bounds},
    )
    size = window.size
    more_in_window = len(result) > size
    carried = len(keys) + len(_meaning_columns(keys))
    width = carried + total
    taken = result[:size]
    if backward:
        taken.reverse()
    make = shaped(rows)
    page_rows = [make(row[:-width]) for row in taken]
    row_keys = [tuple(_as_json(value) for value in row[-width:][:carried]) for row in taken]
    length = _total(result[0][-1] if result else 0) if total else None
    # Rows lie before the page when the window had more at its start (read from the end),
    # or else when the list has any at or before `after`; after the page likewise. So a
    # cursor on the side the page was read from is always probed, one on the far side
    # only when the window ran out before it.
    forward = not backward
    at_after = after is not None and not (backward and more_in_window)
    at_before = before is not None and not (forward and more_in_window)
    after_rows, before_rows = await _probe(reader, listing, keys, bounds, at_after, at_before)
    has_next = (forward and more_in_window) or before_rows
    has_previous = (backward and more_in_window) or after_rows
    return Page(page_rows, row_keys, has_next, has_previous, length)


def _total(value: object) -> int:
    assert isinstance(value, int)
    return value


async def _probe(
    reader: Reader,
    listing: Listing,
    keys: Sequence[SortKey],
    bounds: Params,
    at_after: bool,
    at_before: bool,
) -> tuple[bool, bool]:
    """Whether ``listing`` has rows at or before the bound `after` (when ``at_after``),
    and at or after the bound `before` (when ``at_before``): one statement for both."""
    if not (at_after or at_before):
        return False, False
    (found,) = await _rows(
        reader,
        listing,
        ("probe", at_after, at_before),
        lambda statement: _probe_statement(statement, keys, at_after=at_after, at_before=at_before),
        bounds,
    )
    answers = iter(bool(value) for value in found)
    return (next(answers) if at_after else False), (next(answers) if at_before else False)


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
