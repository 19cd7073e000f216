"""Turning the IDs and slugs clients pass into rows, with clear errors for bad ones."""

from typing import Any

from schema.context import Info
from schema.errors import BadUserInputError, NotFoundError
from schema.ids import InvalidIdError, decode_id_of


def key_of(value: str, kind: str, argument: str) -> str:
    try:
        return decode_id_of(value, kind)
    except InvalidIdError as exc:
        raise BadUserInputError(f"`{argument}`: {exc}") from None


async def row_for_id(info: Info, kind: str, value: str, argument: str) -> Any:
    """The row an ID argument names (`within`, `model`, ...); an unknown ID is an input
    error here, since the client asked to narrow by something that does not exist."""
    loaders = info.context.loaders
    by_slug: Any = {
        "Node": loaders.node_by_slug,
        "Model": loaders.model_by_slug,
        "Method": loaders.method_by_slug,
        "Source": loaders.source_by_slug,
    }[kind]
    found = await by_slug.load(key_of(value, kind, argument))
    if found is None:
        raise NotFoundError(f"`{argument}`: no {kind.lower()} has the ID {value!r}")
    # Nodes and methods are read with their figures: (row, figures).
    return found[0] if kind in ("Node", "Method") else found


def exactly_one(**arguments: object) -> str:
    """The name of the one argument given; an error naming them all otherwise."""
    given = [name for name, value in arguments.items() if value is not None]
    if len(given) != 1:
        names = ", ".join(f"`{name}`" for name in arguments)
        found = "none" if not given else ", ".join(f"`{name}`" for name in given)
        raise BadUserInputError(f"give exactly one of {names}; got {found}")
    return given[0]
