"""What the object types share: being built from one table row, and a slug-based ID."""

from collections.abc import Callable
from operator import attrgetter
from typing import Any, Self

import strawberry
from graphql import GraphQLObjectType
from strawberry.annotation import StrawberryAnnotation
from strawberry.schema.config import StrawberryConfig
from strawberry.schema.schema_converter import GraphQLCoreConverter
from strawberry.types.base import StrawberryOptional
from strawberry.types.enum import StrawberryEnumDefinition
from strawberry.types.field import StrawberryField

from schema.ids import encode_id


class RowField(StrawberryField):
    """A field whose value is read off the object's row: its attribute of the same name,
    or ``column`` put through ``convert``.

    Strawberry answers a field without a resolver on its fast path (no Info object, no
    argument parsing, no resolver call), several times cheaper than a resolver that
    returns ``self.row.name``; a page of a few hundred objects has thousands of these.
    """

    def __init__(
        self,
        *args: Any,
        column: str | None = None,
        convert: Callable[[Any], Any] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.init = False  # not a constructor argument: the row holds the value
        self.column = column
        self.convert = convert

    def __copy__(self) -> Self:  # Strawberry copies fields into subclasses
        copied = super().__copy__()
        copied.column, copied.convert = self.column, self.convert
        return copied

    def get_result(self, source: Any, info: Any, args: list[Any], kwargs: Any) -> Any:
        value = getattr(source.row, self.column or self.python_name)
        return value if self.convert is None else self.convert(value)

    def reader(self) -> Callable[[Any], Any]:
        """``get_result`` as one call of the object alone (`schema.execution` answers
        leaves with it): Strawberry's way in is two calls and two new containers."""
        if type(self).get_result is not RowField.get_result:  # reads its own way
            return lambda source: self.get_result(source, None, [], {})
        read = attrgetter(f"row.{self.column or self.python_name}")
        convert = self.convert
        if convert is None:
            return read
        return lambda source: convert(read(source))


def row_field(
    description: str, *, column: str | None = None, convert: Callable[[Any], Any] | None = None
) -> Any:
    """Declare ``name: type = row_field("...")`` on a RowBacked type: its value is
    ``row.name`` (or ``convert(row.column)``)."""
    return RowField(description=description, column=column, convert=convert)


class RowIdField(RowField):
    """The object's ID: its type's name and its stable key (``column``), encoded."""

    def get_result(self, source: Any, info: Any, args: list[Any], kwargs: Any) -> Any:
        key = getattr(source.row, self.column or "slug")
        return strawberry.ID(encode_id(type(source).__name__, key))


def id_field(description: str, *, column: str = "slug") -> Any:
    """Declare ``id: strawberry.ID = id_field("...")``: an ID that survives reloads."""
    return RowIdField(description=description, column=column)


class DirectField(StrawberryField):
    """A field whose resolver graphql-core calls itself, as ``resolver(source, info)``
    with its own GraphQLResolveInfo, whose ``context`` is the request's, as Strawberry's
    Info has. Strawberry's own wrapping of a resolver (an Info object, argument
    conversion, the field-extension chain) costs several times what the resolvers that
    follow a foreign key or read a primed loader do, and a page has hundreds of them.

    Only for resolvers that use nothing of ``info`` but ``info.context``, and whose
    arguments (if any) are scalars or enums, which `answer_directly` converts itself
    (graphql-core gives an enum's value; the resolver gets the Python enum) when it hands
    them to graphql-core once the schema is built."""


def direct_field(description: str, *, graphql_type: Any) -> Callable[[Callable[..., Any]], Any]:
    """Decorate ``def name(self, info: Info) -> ...`` as a `DirectField` of ``graphql_type``."""

    def wrap(resolver: Callable[..., Any]) -> Any:
        field = DirectField(
            python_name=None,
            graphql_name=None,
            type_annotation=StrawberryAnnotation.from_annotation(graphql_type),
            description=description,
        )
        return field(resolver)

    return wrap


def answer_directly(schema: strawberry.Schema) -> None:
    """Point each `DirectField` of ``schema`` (graphql-core's, as Strawberry built it)
    straight at its resolver."""
    for named_type in schema._schema.type_map.values():
        if not isinstance(named_type, GraphQLObjectType):
            continue
        for field in named_type.fields.values():
            definition = (field.extensions or {}).get(GraphQLCoreConverter.DEFINITION_BACKREF)
            if isinstance(definition, DirectField):
                assert definition.base_resolver is not None
                resolver = definition.base_resolver.wrapped_func
                assert callable(resolver)  # a function, not a static or class method
                field.resolve = _direct_resolver(resolver, definition, schema.config)


def _direct_resolver(
    resolver: Callable[..., Any], definition: StrawberryField, config: StrawberryConfig
) -> Callable[..., Any]:
    if not definition.arguments:
        return resolver
    # graphql-core passes arguments by their GraphQL names, enums as their values.
    arguments = {
        config.name_converter.from_argument(argument): (
            argument.python_name,
            _argument_converter(argument.type, definition.python_name),
        )
        for argument in definition.arguments
    }

    def resolve(source: Any, info: Any, **given: Any) -> Any:
        kwargs = {
            python_name: convert(given[name])
            for name, (python_name, convert) in arguments.items()
            if name in given
        }
        return resolver(source, info, **kwargs)

    return resolve


def _argument_converter(argument_type: Any, field_name: str) -> Callable[[Any], Any]:
    if isinstance(argument_type, StrawberryOptional):
        argument_type = argument_type.of_type
    if isinstance(argument_type, StrawberryEnumDefinition):
        enum = argument_type.wrapped_cls
        return lambda value: None if value is None else enum(value)
    if argument_type in (int, float, str, bool):
        return lambda value: value
    raise TypeError(f"{field_name}: a DirectField's arguments must be scalars or enums")


@strawberry.type
class RowBacked:
    """A GraphQL object over one database row (never exposed as a type of its own)."""

    row: strawberry.Private[Any]

    @classmethod
    def from_row(cls, row: Any) -> Self:
        return cls(row=row)

    @classmethod
    def from_rows(cls, rows: list[Any]) -> list[Self]:
        return [cls(row=row) for row in rows]

    def row_id(self) -> int:
        """The row's database id (never shown to clients), for loaders and queries."""
        row_id = self.row.id
        assert isinstance(row_id, int)  # rows read from the database always have one
        return row_id


@strawberry.type
class Slugged(RowBacked):
    """An object with a slug: its ID is derived from the slug, so it survives reloads."""

    id: strawberry.ID = id_field("Stable, opaque ID; refetch the object with `entity(id:)`.")

    slug: str = row_field("Unique, URL-safe key of the object, stable across loads.")
