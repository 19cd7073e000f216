"""The root `Query`: entry points to nodes, methods, models, search and any object by ID."""

from typing import Annotated

import strawberry

from schema.context import Info
from schema.errors import BadUserInputError
from schema.evidence import Evidence
from schema.ids import InvalidIdError, decode_id
from schema.inputs import (
    MethodFilterArgument,
    MethodOrderArgument,
    ModelFilterArgument,
    ModelOrderArgument,
)
from schema.lookup import exactly_one, key_of
from schema.method import Method, methods_connection
from schema.model import Model, models_connection
from schema.node import Node, children_levels
from schema.pagination import After, Connection, First
from schema.search import SearchConnection, SearchType, search
from schema.source import Source
from schema.taxonomy import TaxonomySummary, taxonomy_summary
from store.nodes import NodeWithStats, nodes_by_path_key

Entity = Annotated[
    Node | Method | Model | Source | Evidence,
    strawberry.union("Entity", description="Any object of this API, refetched by its ID."),
]

PATH_SEPARATOR = "::"


async def _node_by_path(info: Info, path: str) -> NodeWithStats | None:
    if PATH_SEPARATOR not in path:
        return await info.context.loaders.node_by_slug_path.load(path.strip().strip("/"))
    # Names path: matched case-insensitively, any spacing around the separators.
    wanted = " :: ".join(part.strip() for part in path.split(PATH_SEPARATOR))
    found = await nodes_by_path_key(info.context.reader, path_key=wanted.casefold())
    exact = [pair for pair in found if pair[0].path == wanted]
    candidates = exact or found
    if len(candidates) > 1:
        slug_paths = ", ".join(pair[0].slug_path for pair in candidates)
        raise BadUserInputError(
            f"path {path!r} names {len(candidates)} nodes ({slug_paths}); use a slug path"
        )
    return candidates[0] if candidates else None


@strawberry.type(description="Entry points to the taxonomy.")
class Query:
    @strawberry.field(
        description="One node, by exactly one of `id`, `slug` or `path` (a slug path "
        "`optimization/training-parallelism` or a names path "
        "`optimization :: training parallelism`); null when there is none."
    )
    async def node(
        self,
        info: Info,
        id: Annotated[
            strawberry.ID | None, strawberry.argument(description="The node's ID.")
        ] = None,
        slug: Annotated[str | None, strawberry.argument(description="The node's slug.")] = None,
        path: Annotated[
            str | None,
            strawberry.argument(description="A slug path (`a/b`) or a names path (`A :: B`)."),
        ] = None,
    ) -> Node | None:
        given = exactly_one(id=id, slug=slug, path=path)
        loaders = info.context.loaders
        if given == "id":
            row = await loaders.node_by_slug.load(key_of(str(id), "Node", "id"))
        elif given == "slug":
            row = await loaders.node_by_slug.load(str(slug))
        else:
            row = await _node_by_path(info, str(path))
        return Node(row=row[0], stats=row[1]) if row else None

    @strawberry.field(description="The top-level nodes (level 1), by name.")
    async def roots(self, info: Info) -> list[Node]:
        # The levels of children the query asks for come in the same statement.
        roots = await info.context.loaders.top_nodes(children_levels(info))
        return [Node(row=row, stats=stats) for row, stats in roots]

    @strawberry.field(description="One method, by exactly one of `id` or `slug`; null if none.")
    async def method(
        self,
        info: Info,
        id: Annotated[
            strawberry.ID | None, strawberry.argument(description="The method's ID.")
        ] = None,
        slug: Annotated[str | None, strawberry.argument(description="The method's slug.")] = None,
    ) -> Method | None:
        key = key_of(str(id), "Method", "id") if exactly_one(id=id, slug=slug) == "id" else slug
        found = await info.context.loaders.method_by_slug.load(str(key))
        return Method(row=found[0], stats=found[1]) if found else None

    @strawberry.field(description="All methods, a page at a time; by name unless `orderBy` says.")
    async def methods(
        self,
        info: Info,
        first: First = None,
        after: After = None,
        filter: MethodFilterArgument = None,
        order_by: MethodOrderArgument = None,
    ) -> Connection[Method]:
        return await methods_connection(
            info, first=first, after=after, filter=filter, order_by=order_by
        )

    @strawberry.field(description="One model, by exactly one of `id` or `slug`; null if none.")
    async def model(
        self,
        info: Info,
        id: Annotated[
            strawberry.ID | None, strawberry.argument(description="The model's ID.")
        ] = None,
        slug: Annotated[str | None, strawberry.argument(description="The model's slug.")] = None,
    ) -> Model | None:
        key = key_of(str(id), "Model", "id") if exactly_one(id=id, slug=slug) == "id" else slug
        row = await info.context.loaders.model_by_slug.load(str(key))
        return Model(row=row) if row else None

    @strawberry.field(description="All models, a page at a time; by name unless `orderBy` says.")
    async def models(
        self,
        info: Info,
        first: First = None,
        after: After = None,
        filter: ModelFilterArgument = None,
        order_by: ModelOrderArgument = None,
    ) -> Connection[Model]:
        return await models_connection(
            info, first=first, after=after, filter=filter, order_by=order_by
        )

    @strawberry.field(
        description="Nodes, methods, models and sources in which every word of `query` is "
        "found (in the name or title, aliases, matching aids, organization or description; "
        "as the same word, a word it starts, the same stem or, from 4 letters, a word one "
        "typo away), best match first by the ranking `SearchConnection` describes, the same "
        "on every database. For autocomplete: the last word may be partly typed."
    )
    async def search(
        self,
        info: Info,
        query: Annotated[
            str, strawberry.argument(description="Words to look for, e.g. `expert parallel`.")
        ],
        first: First = None,
        after: After = None,
        types: Annotated[
            list[SearchType] | None,
            strawberry.argument(
                description="Only hits of these types (e.g. `[METHODS]`); every type when "
                "not given."
            ),
        ] = None,
    ) -> SearchConnection:
        return await search(info, query, first, after, types)

    @strawberry.field(description="Any object by its ID; null when no object has it.")
    async def entity(
        self,
        info: Info,
        id: Annotated[
            strawberry.ID, strawberry.argument(description="An `id` from any object of this API.")
        ],
    ) -> Entity | None:
        try:
            kind, key = decode_id(str(id))
        except InvalidIdError as exc:
            raise BadUserInputError(f"`id`: {exc}") from None
        loaders = info.context.loaders
        if kind == "Node":
            node = await loaders.node_by_slug.load(key)
            return Node(row=node[0], stats=node[1]) if node else None
        if kind == "Method":
            method = await loaders.method_by_slug.load(key)
            return Method(row=method[0], stats=method[1]) if method else None
        if kind == "Model":
            model = await loaders.model_by_slug.load(key)
            return Model(row=model) if model else None
        if kind == "Source":
            source = await loaders.source_by_slug.load(key)
            return Source(row=source) if source else None
        evidence = await loaders.evidence_by_key.load(key)
        return Evidence(row=evidence) if evidence else None

    @strawberry.field(description="Totals of the whole taxonomy, its depth, and its data version.")
    async def taxonomy(self, info: Info) -> TaxonomySummary:
        return await taxonomy_summary(info)
