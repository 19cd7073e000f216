"""A prepared statement as its driver runs it: SQL text, parameters and row conversion
worked out once per shape, so that a request's statement goes straight to the driver.

SQLAlchemy's ``Connection.execute`` of an already compiled statement still costs more
than SQLite takes to run it: an execution context, the parameters constructed and
checked, a list parameter's `IN (...)` written out anew, a result object around the
cursor. In a served seed page (W1, SQLite) that was a fifth of the request's CPU, of which
the driver's own work was a quarter. Here SQLAlchemy compiles the statement once per
dialect and writes it out once per shape (the length of each list parameter); a run then
only orders the values for the driver and converts the columns that need it (a date
stored as text on SQLite).
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Dialect, Select
from sqlalchemy.sql.compiler import SQLCompiler

# Where a driver parameter's value comes from: the caller's parameter of that name (and
# the item at that index, for an item of a list parameter), or a value fixed in the
# statement; then the type's conversion for the driver, if it has one.
_Slot = tuple[str, int | None, Any, Callable[[Any], Any] | None]
_FROM_CALLER = object()
# Shapes kept per statement: lists of every length up to a page or a batch, in practice.
_SHAPES_LIMIT = 256


@dataclass(frozen=True)
class DriverStatement:
    """One shape of a statement: its SQL, and how values become the driver's parameters."""

    sql: str
    slots: tuple[_Slot, ...]
    positional: bool
    names: tuple[str, ...]  # the driver's parameter names, when they are named

    def parameters(self, params: Mapping[str, Any]) -> Sequence[Any] | dict[str, Any]:
        values = []
        for name, index, fixed, process in self.slots:
            if fixed is not _FROM_CALLER:
                value = fixed
            elif index is None:
                value = params[name]
            else:
                value = params[name][index]
            values.append(value if process is None or value is None else process(value))
        return values if self.positional else dict(zip(self.names, values, strict=True))


class DriverForm:
    """A statement compiled for one dialect, with its shapes as they are met."""

    def __init__(self, statement: Select[Any], dialect: Dialect) -> None:
        compiled = statement.compile(dialect=dialect)
        assert isinstance(compiled, SQLCompiler)
        # Parameters are looked up by their names as the driver is given them.
        assert not compiled.escaped_bind_names, compiled.escaped_bind_names
        self._compiled = compiled
        self._lists = tuple(sorted(bind.key for bind in compiled.binds.values() if bind.expanding))
        self._shapes: dict[tuple[int, ...], DriverStatement] = {}
        self._convert_row = _row_converter(compiled, dialect)

    def bound(self, params: Mapping[str, Any]) -> tuple[str, Sequence[Any] | dict[str, Any]]:
        """The SQL of the shape of ``params`` and the driver's parameters."""
        key = tuple(len(params[name]) for name in self._lists)
        shape = self._shapes.get(key)
        if shape is None:
            if len(self._shapes) >= _SHAPES_LIMIT:
                self._shapes.clear()
            shape = self._shapes[key] = self._written_out(params)
        return shape.sql, shape.parameters(params)

    def converted(self, rows: list[Any]) -> list[Any]:
        """The driver's ``rows`` with the values SQLAlchemy would give."""
        convert = self._convert_row
        return rows if convert is None else [convert(row) for row in rows]

    def _written_out(self, params: Mapping[str, Any]) -> DriverStatement:
        state = self._compiled.construct_expanded_state(dict(params))
        item_of = {
            item: (name, index)
            for name, items in state.parameter_expansion.items()
            for index, item in enumerate(items)
        }
        order = state.positiontup if state.positiontup is not None else list(state.parameters)
        slots: list[_Slot] = []
        for driver_name in order:
            name, index = item_of.get(driver_name, (driver_name, None))
            fixed = _FROM_CALLER if name in params else state.parameters[driver_name]
            slots.append((name, index, fixed, state.processors.get(driver_name)))
        return DriverStatement(
            state.statement, tuple(slots), state.positiontup is not None, tuple(order)
        )


def _row_converter(
    compiled: SQLCompiler, dialect: Dialect
) -> Callable[[Sequence[Any]], Sequence[Any]] | None:
    """What turns a driver's row into the values SQLAlchemy would give; None when the
    driver's values are already those (every column without a result processor)."""
    processors = [
        column.type._cached_result_processor(dialect, None) for column in compiled._result_columns
    ]
    if not any(processors):
        return None
    indexed = [(index, process) for index, process in enumerate(processors) if process]

    def convert(row: Sequence[Any]) -> Sequence[Any]:
        values = list(row)
        for index, process in indexed:
            values[index] = process(values[index])
        return values

    return convert
