"""docs/field-map.md: for each field of the schema, the store functions its resolver reaches,
where each is defined (its SQL is there), and the loaders it goes through.

Read off the code, not written by hand: each object type of the schema (Strawberry's
`get_type_by_name`), each field's resolver, and what the resolver's bytecode names,
followed through the schema's own functions, the type's methods and the request's loaders
(`schema.dataloaders.Loaders`) until it names a statement function of store/ (one that
takes the request's `reader`). `python tests/field_map.py > docs/field-map.md` writes the
map; tests/test_field_map.py checks that the committed one is current."""

import dis
import inspect
import sys
from collections.abc import Callable, Iterator
from functools import cached_property, partial
from pathlib import Path
from types import CodeType, FunctionType, ModuleType
from typing import Any, get_args, get_type_hints

from graphql import GraphQLObjectType, build_schema

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from schema import default_schema  # noqa: E402
from schema.dataloaders import Loaders  # noqa: E402

# How deep the schema's own helpers are followed from a resolver.
MAX_DEPTH = 8


def _codes(code: CodeType) -> Iterator[CodeType]:
    """A function's code and the code of the functions defined inside it."""
    yield code
    for constant in code.co_consts:
        if isinstance(constant, CodeType):
            yield from _codes(constant)


def _function(value: Any) -> FunctionType | None:
    """The plain function behind a value: a function, a partial, a property's getter."""
    if isinstance(value, partial):
        value = value.func
    if isinstance(value, cached_property):
        value = value.func
    if isinstance(value, property):
        value = value.fget
    return value if isinstance(value, FunctionType) else None


def _is_statement(function: FunctionType) -> bool:
    """A store/ function that runs statements: it takes the request's reader."""
    return (
        function.__module__.startswith("store.")
        and "reader" in inspect.signature(function).parameters
    )


# The instructions that load a value by name: `loaders` as an attribute or a variable.
_LOADS_A_NAME = ("LOAD_ATTR", "LOAD_FAST", "LOAD_DEREF", "LOAD_GLOBAL")


class Walk:
    """What one resolver reaches: store statement functions and loaders, by name."""

    def __init__(self) -> None:
        self.statements: set[FunctionType] = set()
        self.loaders: set[str] = set()
        self.seen: set[CodeType] = set()

    def function(self, function: FunctionType, owner: type | None, depth: int = 0) -> None:
        """Follows ``function`` (a method of ``owner``, if any)."""
        if depth > MAX_DEPTH or function.__code__ in self.seen:
            return
        self.seen.add(function.__code__)
        # A field made by a factory keeps what it was made with in its closure.
        for cell in function.__closure__ or ():
            self._follow(cell.cell_contents, None, depth)
        for code in _codes(function.__code__):
            self._code(code, function.__globals__, owner, depth)

    def _code(self, code: CodeType, names: dict[str, Any], owner: type | None, depth: int) -> None:
        """Each name the code loads, and each chain of attributes read off a variable whose
        class is known (``self``, or a parameter by its annotation), followed."""
        hints = _parameter_hints(code, names)
        held: list[type] = []  # the classes of the value the last instruction loaded
        before: list[dis.Instruction] = []
        for instruction in dis.get_instructions(code):
            name = instruction.argval
            if instruction.opname == "LOAD_GLOBAL" and isinstance(name, str):
                self._follow(names.get(name), None, depth)
                held = []
            elif instruction.opname in ("LOAD_FAST", "LOAD_DEREF"):
                held = [owner] if name == "self" and owner else hints.get(str(name), [])
            elif instruction.opname in ("LOAD_ATTR", "LOAD_METHOD") and before:
                self._attribute(before, str(name), names, held, depth)
                held = _attribute_classes(held, str(name))
            else:
                held = []
            before = [*before[-1:], instruction]

    def _follow(self, value: Any, owner: type | None, depth: int) -> None:
        if isinstance(value, dict):  # a table of functions, by kind
            for item in value.values():
                self._follow(item, owner, depth)
            return
        function = _function(value)
        if function is None:
            return
        if _is_statement(function):
            self.statements.add(function)
        elif function.__module__.startswith(("schema.", "store.")):
            self.function(function, owner, depth + 1)

    def _attribute(
        self,
        before: list[dis.Instruction],
        name: str,
        names: dict[str, Any],
        held: list[type],
        depth: int,
    ) -> None:
        """``module.function``, ``loaders.name``, or a method of a known class."""
        last = before[-1]
        if last.opname == "LOAD_GLOBAL" and isinstance(names.get(last.argval), ModuleType):
            self._follow(getattr(names[last.argval], name, None), None, depth)
        elif last.argval == "loaders" and last.opname in _LOADS_A_NAME:
            loader = _function(inspect.getattr_static(Loaders, name, None))
            if loader is not None:
                self.loaders.add(name)
                self.function(loader, Loaders, depth + 1)
        for known in held:
            self._follow(inspect.getattr_static(known, name, None), known, depth)


# The project's own classes, whose methods and attributes are followed.
_OURS = ("schema.", "store.")


def _classes(hint: Any) -> list[type]:
    """The project's classes in an annotation (``X | None``, ``Private[X]``, ``Info[C, R]``)."""
    found: list[type] = []
    pending = [hint]
    while pending:
        current = pending.pop()
        if isinstance(current, type) and current.__module__.startswith(_OURS):
            found.append(current)
        pending.extend(get_args(current))
    return found


def _hints(owner: Any) -> dict[str, Any]:
    try:
        return get_type_hints(owner, include_extras=True)
    except (NameError, TypeError):
        return {}


def _parameter_hints(code: CodeType, names: dict[str, Any]) -> dict[str, list[type]]:
    """The classes of a function's parameters, by name, from their annotations (``info:
    Info`` gives the request's Context: its loaders, reader and caches)."""
    function = next(
        (f for f in names.values() if isinstance(f, FunctionType) and f.__code__ is code), None
    )
    return {name: _classes(hint) for name, hint in _hints(function).items()} if function else {}


def _attribute_classes(held: list[type], attribute: str) -> list[type]:
    """The classes of ``attribute`` of a value of one of ``held``; `info.context` keeps the
    Context that `Info`'s annotation names."""
    if attribute == "context":
        return held
    return [found for known in held for found in _classes(_hints(known).get(attribute))]


def _named(function: FunctionType) -> str:
    """A store function by module and name, and the file that holds it (and its SQL)."""
    path = Path(inspect.getsourcefile(function) or "").relative_to(ROOT)
    return f"`{function.__module__}.{function.__qualname__}` ({path})"


def object_types() -> list[str]:
    """The schema's object types by name, read off its SDL (introspection's own types left out)."""
    built = build_schema(default_schema().as_str())
    return sorted(
        name
        for name, graphql_type in built.type_map.items()
        if isinstance(graphql_type, GraphQLObjectType) and not name.startswith("__")
    )


def rows() -> Iterator[tuple[str, str, list[str], list[str]]]:
    """(type, field, store functions with their files, loaders), for each field that
    reaches a store function; the others are read off the rows their object was read with."""
    graphql_name: Callable[[Any], str] = default_schema().config.name_converter.get_graphql_name
    for type_name in object_types():
        definition = default_schema().get_type_by_name(type_name)
        for field in getattr(definition, "fields", []):
            resolver = field.base_resolver
            if resolver is None:
                continue
            walk = Walk()
            function = _function(resolver.wrapped_func)
            if function is not None:
                walk.function(function, getattr(definition, "origin", None))
            if not walk.statements:
                continue
            yield (
                type_name,
                graphql_name(field),
                sorted(_named(function) for function in walk.statements),
                sorted(walk.loaders),
            )


HEADER = """# Field map

For each field of the schema that reads the database: the store functions its resolver
reaches (each builds its SQL where it is defined, in the file named beside it), and the
request's DataLoaders it goes through (`schema/dataloaders.py`), which batch those
statements for a whole page. A field not listed here is read off the rows its object was
read with: the statement of the field that returned the object. The fields of connections
and edges (`nodes`, `totalCount`, `cursor`) are the page their list field read.

Written by `python tests/field_map.py > docs/field-map.md`, from the code itself (each
resolver's bytecode, followed through the schema's helpers and loaders);
`tests/test_field_map.py` fails when it is out of date.
"""


def render() -> str:
    lines = [HEADER]
    current = None
    for type_name, field, statements, loaders in rows():
        if type_name != current:
            lines += [
                "",
                f"## {type_name}",
                "",
                "| field | store functions | loaders |",
                "|---|---|---|",
            ]
            current = type_name
        through = ", ".join(f"`{name}`" for name in loaders) or "-"
        lines.append(f"| `{field}` | {'<br>'.join(statements)} | {through} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(render())
