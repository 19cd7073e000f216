"""Arguments a scalar could not read (schema.scalars.Unreadable: a `Date` or `DateTime`
that is no date), refused on the field they were given to.

GraphQL's validation would refuse the whole request for such a value, the siblings of
its field unanswered; read as an Unreadable instead, it reaches the field, which this
extension refuses with BAD_USER_INPUT naming the argument (`extensions.argument`: its
path, `filter.releasedAfter`) and what a value of its type looks like, before the
resolver runs. The same whether the value was written inline or passed as a variable.
Given to each field that takes such a scalar, anywhere in its arguments:
tests/test_errors_on_their_field.py checks that none is left out."""

from collections.abc import Awaitable, Callable, Iterator

from strawberry.extensions import FieldExtension
from strawberry.schema.name_converter import NameConverter
from strawberry.types import get_object_definition
from strawberry.types.field import StrawberryField

from schema.context import Info
from schema.errors import BadUserInputError
from schema.scalars import Unreadable


def _unreadable(value: object, path: str, names: NameConverter) -> Iterator[tuple[str, Unreadable]]:
    """Each Unreadable in an argument's ``value`` (input objects and lists walked), with
    its path from the argument, GraphQL's names."""
    if isinstance(value, Unreadable):
        yield path, value
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _unreadable(item, f"{path}[{index}]", names)
    else:
        definition = get_object_definition(value)
        if definition is not None and definition.is_input:
            for field in definition.fields:
                inner = getattr(value, field.python_name, None)
                yield from _unreadable(inner, f"{path}.{names.get_graphql_name(field)}", names)


class RefuseUnreadable(FieldExtension):
    """Refuses a field given an argument its scalar could not read, before its resolver."""

    def apply(self, field: StrawberryField) -> None:
        self._arguments = {argument.python_name: argument for argument in field.arguments}

    def _check(self, info: Info, kwargs: dict[str, object]) -> None:
        names = info.schema.config.name_converter
        for name, value in kwargs.items():
            argument = self._arguments.get(name)
            top = names.from_argument(argument) if argument is not None else name
            for path, unreadable in _unreadable(value, top, names):
                raise BadUserInputError(
                    f"`{path}`: {unreadable.value!r} is {unreadable.why}",
                    argument=path,
                )

    def resolve(
        self, next_: Callable[..., object], source: object, info: Info, **kwargs: object
    ) -> object:
        self._check(info, kwargs)
        return next_(source, info, **kwargs)

    async def resolve_async(
        self,
        next_: Callable[..., Awaitable[object]],
        source: object,
        info: Info,
        **kwargs: object,
    ) -> object:
        self._check(info, kwargs)
        return await next_(source, info, **kwargs)
