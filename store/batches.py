"""Statements that read the rows for a whole batch of keys at once (what a request's
DataLoaders ask for), each built once with its key list as a parameter."""

from collections import defaultdict
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from sqlalchemy import and_, bindparam, or_
from sqlmodel import col

from store.reader import Reader
from store.rows import AnySelect, Prepared, keys

PairsIn = Callable[[Sequence[Any]], Any]


@cache
def _where_in(statement: Callable[[], AnySelect], entity: Any, column: str) -> Prepared:
    return Prepared.of(statement().where(col(getattr(entity, column)).in_(keys())))


async def rows_where_in(
    reader: Reader,
    statement: Callable[[], AnySelect],
    entity: Any,
    column: str,
    values: Sequence[Any],
) -> list[tuple[Any, ...]]:
    """The rows of ``statement()`` whose ``entity.column`` is one of ``values`` (the
    statement is built and prepared once for each (statement, entity, column))."""
    return await reader.rows(_where_in(statement, entity, column), {"keys": list(values)})


@cache
def _pairs_statement(build: Callable[[PairsIn], AnySelect], groups: int) -> Prepared:
    """``build(pairs_in)`` for pairs whose first values take ``groups`` distinct values:
    `pairs_in(columns)` is (a, b) in the pairs, written as `a = x AND b IN (...)` for each
    x (SQLite cannot use an index for a row-value IN list: it scans the table). Built once
    for each number of groups (in practice one or a few)."""

    def pairs_in(columns: Sequence[Any]) -> Any:
        first, second = columns
        return or_(
            *(
                and_(first == bindparam(f"a{index}"), second.in_(keys(f"b{index}")))
                for index in range(groups)
            )
        )

    return Prepared.of(build(pairs_in))


async def rows_of_pairs(
    reader: Reader,
    build: Callable[[PairsIn], AnySelect],
    pairs: Sequence[tuple[Any, Any]],
    params: dict[str, Any] | None = None,
) -> list[tuple[Any, ...]]:
    """The rows of ``build(pairs_in)`` for ``pairs`` (see `_pairs_statement`), with the
    statement's other ``params``."""
    grouped: dict[Any, list[Any]] = defaultdict(list)
    for a, b in pairs:
        grouped[a].append(b)
    params = dict(params or {})
    for index, (a, bs) in enumerate(grouped.items()):
        params[f"a{index}"], params[f"b{index}"] = a, bs
    return await reader.rows(_pairs_statement(build, len(grouped)), params)
