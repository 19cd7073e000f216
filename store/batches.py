"""Statements that read the rows for a whole batch of keys at once (what a request's
DataLoaders ask for), each built once with its key list as a parameter."""

from collections import defaultdict
from collections.abc import Callable, Hashable, Sequence
from functools import cache
from typing import cast

from sqlalchemy import ColumnElement, and_, bindparam, or_
from sqlmodel import SQLModel, col

from store.reader import Reader
from store.rows import AnySelect, Expression, Params, Prepared, RowT, Shape, keys

# `pairs_in(columns)`: the condition that two columns' values are one of a batch's pairs.
PairsIn = Callable[[Sequence[Expression]], ColumnElement[bool]]


@cache
def _where_in(
    statement: Callable[[], AnySelect], shape: Shape[object], entity: type[SQLModel], column: str
) -> Prepared[object]:
    return Prepared.of(statement().where(col(getattr(entity, column)).in_(keys())), shape)


async def rows_where_in(
    reader: Reader,
    statement: Callable[[], AnySelect],
    shape: Shape[RowT],
    entity: type[SQLModel],
    column: str,
    values: Sequence[Hashable],
) -> list[RowT]:
    """The rows of ``statement()`` (of ``shape``) whose ``entity.column`` is one of
    ``values`` (the statement is built and prepared once for each of them)."""
    prepared = cast(Prepared[RowT], _where_in(statement, shape, entity, column))
    return await reader.rows(prepared, {"keys": list(values)})


@cache
def _pairs_statement(
    build: Callable[[PairsIn], AnySelect], shape: Shape[object], groups: int
) -> Prepared[object]:
    """``build(pairs_in)`` for pairs whose first values take ``groups`` distinct values:
    `pairs_in(columns)` is (a, b) in the pairs, written as `a = x AND b IN (...)` for each
    x (SQLite cannot use an index for a row-value IN list: it scans the table). Built once
    for each number of groups (in practice one or a few)."""

    def pairs_in(columns: Sequence[Expression]) -> ColumnElement[bool]:
        first, second = columns
        return or_(
            *(
                and_(first == bindparam(f"a{index}"), second.in_(keys(f"b{index}")))
                for index in range(groups)
            )
        )

    return Prepared.of(build(pairs_in), shape)


async def rows_of_pairs(
    reader: Reader,
    build: Callable[[PairsIn], AnySelect],
    shape: Shape[RowT],
    pairs: Sequence[tuple[Hashable, Hashable]],
    params: Params | None = None,
) -> list[RowT]:
    """The rows of ``build(pairs_in)`` (of ``shape``) for ``pairs`` (see
    `_pairs_statement`), with the statement's other ``params``."""
    grouped: dict[Hashable, list[Hashable]] = defaultdict(list)
    for a, b in pairs:
        grouped[a].append(b)
    params = dict(params or {})
    for index, (a, bs) in enumerate(grouped.items()):
        params[f"a{index}"], params[f"b{index}"] = a, bs
    prepared = cast(Prepared[RowT], _pairs_statement(build, shape, len(grouped)))
    return await reader.rows(prepared, params)
