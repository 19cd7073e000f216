"""Rows read as light records rather than ORM instances.

Nothing here writes, and a request's objects never outlive it, so the ORM's identity map,
instance state and change tracking buy nothing: building an ORM instance per row costs
several times what reading the row costs (a page of 50 methods with their figures: 1.4 ms
as instances, 0.4 ms as records, on SQLite). A record is a named tuple of the table's
columns, under the names the ORM classes give them, so code reads ``row.name`` either way,
and it is typed as its table's class; except that a JSON column is left as its text,
decoded only by the field that shows it (`json_list`): a page of methods rarely shows
their aliases, and decoding every row's cost more than reading it.

Each statement says the shape of its rows (`Prepared.of`): a named tuple of the records
and values it selects (`NodeWithStats`: ``row.node``, ``row.stats``), or, for a select of
one table, the record itself.
"""

from collections import namedtuple
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, partial
from typing import Any, Generic, NamedTuple, Protocol, TypeVar, cast, get_origin

import orjson
from sqlalchemy import (
    JSON,
    BindParameter,
    Result,
    Select,
    SQLColumnExpression,
    Text,
    bindparam,
)
from sqlalchemy import Column as TableColumn
from sqlalchemy import cast as sql_cast
from sqlmodel import SQLModel

from store.tables import table_of

# A SELECT of any columns, and the result of any statement (SQLAlchemy types each by its
# row's columns), and the values of a statement's parameters.
AnySelect = Select[*tuple[Any, ...]]
AnyResult = Result[*tuple[Any, ...]]
Params = Mapping[str, object]
# A column or SQL expression (a table's column, `col(Row.name)`, `func.count()`...).
Expression = SQLColumnExpression[object]
# A row's values as the database driver gives them.
Values = Sequence[object]
RowT = TypeVar("RowT")
RowT_co = TypeVar("RowT_co", covariant=True)
ValueT = TypeVar("ValueT")
EntityT = TypeVar("EntityT", bound=SQLModel)
# What a statement's rows are made as: a NamedTuple class (or another class, such as a
# dataclass) made of the row's parts in order, a record for each whole table and a value
# for each column; or a table class selected alone (the row is then its record).
Shape = Callable[..., RowT]


@cache
def record_of(entity: type[EntityT]) -> Callable[[Values], EntityT]:
    """The maker of ``entity``'s records from its columns' values, in the table's order: a
    record has the class's attributes (see the module's note), so it is typed as one."""
    names = [column.key for column in table_of(entity).columns]
    missing = [name for name in names if name not in entity.model_fields]
    assert not missing, f"{entity.__name__}: columns {missing} are not attributes of its class"
    record = namedtuple(f"{entity.__name__}Record", names)  # type: ignore[misc]
    return cast(Callable[[Values], EntityT], record._make)


def _as_read(column: TableColumn[object]) -> Expression:
    """A JSON column as its text (see the module's note); any other as it is."""
    if isinstance(column.type, JSON):
        return sql_cast(column, Text).label(column.key)
    return column


def json_list(value: str | list[str]) -> list[str]:
    """The list in a JSON column (aliases, matching aids) read as a record's text, or
    already decoded."""
    if isinstance(value, str):
        decoded: list[str] = orjson.loads(value)
        return decoded
    return value


# Where each part of a row comes from: the maker of a record from a slice of the row's
# values, or None for one column's value; and the slice's start and end.
_Part = tuple[Callable[[Values], object] | None, int, int]


def _parts_of(statement: AnySelect) -> tuple[AnySelect, list[_Part]]:
    """``statement`` (a select of ORM entities and columns) reading table columns instead
    of entities, and where each of its parts lies in those columns."""
    columns: list[Expression] = []
    parts: list[_Part] = []
    for description in statement.column_descriptions:
        entity, expression = description.get("entity"), description["expr"]
        if entity is not None and expression is entity:  # the whole entity, not one column
            table_columns = [_as_read(column) for column in table_of(entity).columns]
            parts.append((record_of(entity), len(columns), len(columns) + len(table_columns)))
            columns.extend(table_columns)
        else:
            parts.append((None, len(columns), len(columns) + 1))
            columns.append(expression)
    return statement.with_only_columns(*columns, maintain_column_froms=True), parts


def _parts_maker(parts: list[_Part]) -> Callable[[Values], list[object]]:
    def parts_of(values: Values) -> list[object]:
        return [
            make(values[start:end]) if make is not None else values[start]
            for make, start, end in parts
        ]

    return parts_of


def is_record_shape(shape: Shape[object]) -> bool:
    """Whether rows of ``shape`` are a table's records (rather than named tuples)."""
    return isinstance(shape, type) and issubclass(shape, SQLModel)


def _from_parts(shape: Shape[RowT]) -> Callable[[list[object]], RowT]:
    """The maker of a row of a named tuple or other ``shape`` from the list of its parts.
    A named tuple is made straight from the list (`tuple.__new__`), not called: its own
    __new__ is a Python call per row, which more than doubled the cost of making one."""
    made = get_origin(shape) or shape  # a generic one (Value[int]) is its class
    if isinstance(made, type) and issubclass(made, tuple):
        new = cast(Callable[[type, list[object]], RowT], tuple.__new__)
        return partial(new, made)
    return lambda parts: shape(*parts)


def shaped(shape: Shape[RowT]) -> Callable[[list[object]], RowT]:
    """The maker of a row of ``shape`` from the list of its parts (records and values)."""
    if is_record_shape(shape):
        return lambda parts: cast(RowT, parts[0])
    return _from_parts(shape)


class Value(NamedTuple, Generic[ValueT]):
    """The row of a statement that selects one value (a count, a number)."""

    value: ValueT


class _HasId(Protocol):
    @property
    def id(self) -> int | None: ...


def id_of(row: _HasId) -> int:
    """The id of a row read from the database, which always has one (a table class says
    None for a row not yet written)."""
    assert row.id is not None
    return row.id


def keys(name: str = "keys") -> BindParameter[object]:
    """A parameter standing for a list of values (``column.in_(keys())``), given when the
    statement runs: the statement is then built once, not for each request."""
    return bindparam(name, expanding=True)


@dataclass(frozen=True)
class Prepared(Generic[RowT_co]):
    """A statement built once (with its parameters left open: `keys`), reading rows of
    one shape.

    Building a statement, working out its cache key and reading its columns cost more
    than running it on SQLite (about 0.45 ms against 0.2 ms for a page of 50 methods with
    their figures); a statement built once does none of it again, and SQLAlchemy's cache
    hands back its compiled SQL at once."""

    statement: AnySelect
    row_of: Callable[[Values], RowT_co]

    @staticmethod
    def of(statement: AnySelect, shape: Shape[RowT]) -> "Prepared[RowT]":
        """``statement``, whose rows are made as ``shape``: a select of one table and its
        class make that table's records, straight from the row's values; a NamedTuple
        class is given the row's parts in order (it must have as many fields)."""
        flat, parts = _parts_of(statement)
        if is_record_shape(shape):
            assert len(parts) == 1
            assert parts[0][0] is record_of(cast(type[SQLModel], shape))
            return Prepared(flat, cast(Callable[[Values], RowT], record_of(shape)))
        fields = getattr(shape, "_fields", None)
        assert fields is None or len(fields) == len(parts), f"{len(parts)} parts for {shape}"
        make = _from_parts(shape)

        def row_of(values: Values) -> RowT:
            return make(
                [
                    make_part(values[start:end]) if make_part is not None else values[start]
                    for make_part, start, end in parts
                ]
            )

        return Prepared(flat, row_of)

    @staticmethod
    def of_parts(statement: AnySelect) -> "Prepared[list[object]]":
        """``statement`` whose rows are lists of their parts: for a page's statement,
        whose rows carry their sort keys after the listing's (store.paging)."""
        flat, parts = _parts_of(statement)
        return Prepared(flat, _parts_maker(parts))
