"""Turning the IDs and slugs clients pass into rows, with clear errors for bad ones."""

from typing import Literal, overload

from schema.context import Info
from schema.errors import BadUserInputError, NotFoundError
from schema.ids import InvalidIdError, decode_id_of
from store.tables import MethodRow, ModelRow, NodeRow, SourceRow


def key_of(value: str, kind: str, argument: str) -> str:
    try:
        return decode_id_of(value, kind)
    except InvalidIdError as exc:
        raise BadUserInputError(f"`{argument}`: {exc}") from None


@overload
async def row_for_id(info: Info, kind: Literal["Node"], value: str, argument: str) -> NodeRow: ...


@overload
async def row_for_id(
    info: Info, kind: str, value: str, argument: str
) -> NodeRow | MethodRow | ModelRow | SourceRow: ...


async def row_for_id(
    info: Info, kind: str, value: str, argument: str
) -> NodeRow | MethodRow | ModelRow | SourceRow:
    """The row an ID argument names (`within`, `model`, ...: of a Node, Method, Model or
    Source); an unknown ID is an input error here, since the client asked to narrow by
    something that does not exist."""
    loaders, slug = info.context.loaders, key_of(value, kind, argument)
    found: NodeRow | MethodRow | ModelRow | SourceRow | None
    # Nodes and methods are read with their figures.
    if kind == "Node":
        node = await loaders.node_by_slug.load(slug)
        found = None if node is None else node.node
    elif kind == "Method":
        method = await loaders.method_by_slug.load(slug)
        found = None if method is None else method.method
    elif kind == "Model":
        found = await loaders.model_by_slug.load(slug)
    else:
        found = await loaders.source_by_slug.load(slug)
    if found is None:
        raise NotFoundError(f"`{argument}`: no {kind.lower()} has the ID {value!r}")
    return found


def exactly_one(**arguments: object) -> str:
    """The name of the one argument given; an error naming them all otherwise."""
    given = [name for name, value in arguments.items() if value is not None]
    if len(given) != 1:
        names = ", ".join(f"`{name}`" for name in arguments)
        found = "none" if not given else ", ".join(f"`{name}`" for name in given)
        raise BadUserInputError(f"give exactly one of {names}; got {found}")
    return given[0]
