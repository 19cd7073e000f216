"""Any object by its ID (`entity(id:)`, `entities(ids:)`): the ID says the type and the
slugs (or evidence key) to look up, and each type's lookups go through its DataLoader, so
a list of IDs costs one statement per type in it, not one per ID."""

import asyncio
from collections.abc import Awaitable, Callable, Sequence

from schema import refs
from schema.base import Entity
from schema.context import Info
from schema.dataloaders import Loaders
from schema.errors import BadUserInputError
from schema.history.release import Release, release_version
from schema.ids import InvalidIdError, decode_id, split_pair

# How many IDs `entities(ids:)` looks up at once (a page's worth, like `first`).
MAX_IDS = 100


async def _node(loaders: Loaders, key: str) -> Entity | None:
    found = await loaders.node_by_slug.load(key)
    return refs.node(*found) if found else None


async def _method(loaders: Loaders, key: str) -> Entity | None:
    found = await loaders.method_by_slug.load(key)
    return refs.method(*found) if found else None


async def _model(loaders: Loaders, key: str) -> Entity | None:
    found = await loaders.model_by_slug.load(key)
    return refs.model(found) if found else None


async def _source(loaders: Loaders, key: str) -> Entity | None:
    found = await loaders.source_by_slug.load(key)
    return refs.source(found) if found else None


async def _evidence(loaders: Loaders, key: str) -> Entity | None:
    found = await loaders.evidence_by_key.load(key)
    return refs.evidence(found) if found else None


async def _method_treatment(loaders: Loaders, key: str) -> Entity | None:
    pair = split_pair(key)
    found = await loaders.treatment_by_slugs.load(pair) if pair else None
    if not found:
        return None
    return refs.method_treatment(
        found.treatment, found.model, refs.method(found.method, found.stats)
    )


async def _model_treatment(loaders: Loaders, key: str) -> Entity | None:
    pair = split_pair(key)
    found = await loaders.branch_row_by_slugs.load(pair) if pair else None
    if not found:
        return None
    return refs.model_treatment(found.row, found.model, found.node_with_stats)


async def _release(loaders: Loaders, key: str) -> Entity | None:
    head = key.partition("-")[0]
    found = await loaders.release_by_number.load(int(head)) if head.isdigit() else None
    return Release(row=found) if found and release_version(found) == key else None


_BY_KIND: dict[str, Callable[[Loaders, str], Awaitable[Entity | None]]] = {
    "Node": _node,
    "Method": _method,
    "Model": _model,
    "Source": _source,
    "Evidence": _evidence,
    "MethodTreatment": _method_treatment,
    "ModelTreatment": _model_treatment,
    "Release": _release,
}


def _decoded(value: str, argument: str) -> tuple[str, str]:
    try:
        return decode_id(value)
    except InvalidIdError as exc:
        raise BadUserInputError(f"`{argument}`: {exc}") from None


async def entity_by_id(info: Info, value: str) -> Entity | None:
    kind, key = _decoded(value, "id")
    return await _BY_KIND[kind](info.context.loaders, key)


async def entities_by_ids(
    info: Info, values: Sequence[str]
) -> list[Entity | BadUserInputError | None]:
    """The objects of ``values`` in their order, None for IDs that name nothing; the
    lookups are started together, so each type's DataLoader batches them. A malformed ID
    fails its own entry (its error is returned in its place, which graphql-core raises
    there: a null entry and a BAD_USER_INPUT error at its index), not the whole list."""
    if len(values) > MAX_IDS:
        raise BadUserInputError(
            f"`ids` has {len(values):,} IDs; at most {MAX_IDS} are looked up at once: "
            "split the list"
        )
    loaders = info.context.loaders

    async def entry(index: int, value: str) -> Entity | BadUserInputError | None:
        try:
            kind, key = _decoded(value, f"ids[{index}]")
        except BadUserInputError as exc:
            return exc
        return await _BY_KIND[kind](loaders, key)

    return list(await asyncio.gather(*(entry(i, value) for i, value in enumerate(values))))
