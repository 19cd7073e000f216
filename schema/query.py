"""The root `Query`: entry points to nodes, methods, models, search and any object by ID."""

from datetime import datetime
from typing import Annotated, cast

import strawberry

from schema.base import Entity
from schema.context import Info
from schema.cost_meter import MeteredList
from schema.entities import MAX_IDS, entities_by_ids, entity_by_id
from schema.history.changes import Changes, changes_query
from schema.history.record_history import FormerNode, FormerRecord, former_node, former_record
from schema.history.release import Release, release_lookup, releases_connection
from schema.inputs import (
    METHODS_BY_NAME,
    MODELS_BY_NAME,
    RELEASES_NEWEST_FIRST,
    MethodFilterArgument,
    MethodOrderArgument,
    ModelFilterArgument,
    ModelOrderArgument,
    ReleaseFilterArgument,
    ReleaseOrderArgument,
)
from schema.lookahead import selects
from schema.lookup import exactly_one, key_of
from schema.method import Method, methods_connection
from schema.model import Model, models_connection
from schema.node import Node, children_levels
from schema.node_ref import node_by_path
from schema.organization import BranchArgument, Organization, organizations
from schema.pagination import FIRST_PAGE, Connection, Paged, Paging
from schema.readable import RefuseUnreadable
from schema.search import SearchConnection, SearchType, search
from schema.taxonomy import TaxonomySummary, taxonomy_summary


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
            wanted = selects(info, "ancestors")
            row = await node_by_path(info, str(path), "path", with_ancestors=wanted)
        return Node(row=row.node, stats=row.stats) if row else None

    @strawberry.field(
        extensions=[MeteredList()], description="The top-level nodes (level 1), by name."
    )
    async def roots(self, info: Info) -> list[Node]:
        # The levels of children the query asks for come in the same statement.
        roots = await info.context.loaders.top_nodes(children_levels(info))
        return [Node(row=row.node, stats=row.stats) for row in roots]

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
        return Method(row=found.method, stats=found.stats) if found else None

    @strawberry.field(
        description="All methods, a page at a time; by name unless `orderBy` says.",
        extensions=[Paged()],
    )
    async def methods(
        self,
        info: Info,
        paging: Paging = FIRST_PAGE,
        filter: MethodFilterArgument = None,
        order_by: MethodOrderArgument = METHODS_BY_NAME,
    ) -> Connection[Method] | None:
        return await methods_connection(info, paging=paging, filter=filter, order_by=order_by)

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

    @strawberry.field(
        description="All models, a page at a time; by name unless `orderBy` says.",
        extensions=[RefuseUnreadable(), Paged()],
    )
    async def models(
        self,
        info: Info,
        paging: Paging = FIRST_PAGE,
        filter: ModelFilterArgument = None,
        order_by: ModelOrderArgument = MODELS_BY_NAME,
    ) -> Connection[Model] | None:
        return await models_connection(info, paging=paging, filter=filter, order_by=order_by)

    @strawberry.field(
        description="Nodes, methods, models and sources in which every word of `query` is "
        "found (in the name or title, aliases, matching aids, organization or description; "
        "as the same word, a word it starts, the same stem or, from 4 letters, a word one "
        "typo away), best match first by the ranking `SearchConnection` describes, the same "
        "on every database. For autocomplete: the last word may be partly typed.",
        extensions=[Paged()],
    )
    async def search(
        self,
        info: Info,
        query: Annotated[
            str, strawberry.argument(description="Words to look for, e.g. `expert parallel`.")
        ],
        paging: Paging = FIRST_PAGE,
        types: Annotated[
            list[SearchType] | None,
            strawberry.argument(
                description="Only hits of these types (e.g. `[METHODS]`); every type when "
                "not given."
            ),
        ] = None,
    ) -> SearchConnection | None:
        return await search(info, query, paging, types)

    @strawberry.field(description="Any object by its ID; null when no object has it.")
    async def entity(
        self,
        info: Info,
        id: Annotated[
            strawberry.ID, strawberry.argument(description="An `id` from any object of this API.")
        ],
    ) -> Entity | None:
        return await entity_by_id(info, str(id))

    @strawberry.field(
        description=f"Many objects by their IDs, in one round trip: one entry per ID, in "
        f"the order given, null for an ID that names nothing now. At most {MAX_IDS} IDs."
    )
    async def entities(
        self,
        info: Info,
        ids: Annotated[
            list[strawberry.ID],
            strawberry.argument(
                description=f"IDs from any objects of this API, at most {MAX_IDS}."
            ),
        ],
    ) -> list[Entity | None] | None:
        # A malformed ID's entry holds its error, which graphql-core raises in its place.
        found = await entities_by_ids(info, [str(value) for value in ids])
        return cast("list[Entity | None]", found)

    @strawberry.field(
        extensions=[MeteredList()],
        description="The organizations that made models, most models first (then by name, "
        "case-insensitively); models of no known organization are not counted. A short "
        "list (one entry per organization), for a filter's choices.",
    )
    async def organizations(
        self, info: Info, branch: BranchArgument = None
    ) -> list[Organization] | None:
        return await organizations(info, branch)

    @strawberry.field(
        extensions=[RefuseUnreadable(), Paged()],
        description="Every load retained (a release); the newest first unless `orderBy` says.",
    )
    async def releases(
        self,
        info: Info,
        paging: Paging = FIRST_PAGE,
        filter: ReleaseFilterArgument = None,
        order_by: ReleaseOrderArgument = RELEASES_NEWEST_FIRST,
    ) -> Connection[Release] | None:
        return await releases_connection(info, paging, filter, order_by)

    @strawberry.field(
        description="One release, by exactly one of `number` or `version`; null if none."
    )
    async def release(
        self,
        info: Info,
        number: Annotated[
            int | None, strawberry.argument(description="The release's number.")
        ] = None,
        version: Annotated[
            str | None, strawberry.argument(description="The release's version (`7-3f2a...`).")
        ] = None,
    ) -> Release | None:
        return await release_lookup(info, number, version)

    @strawberry.field(
        description="What changed from release `since` to release `until`, net: compare any "
        "two retained releases (`since` = `until` is no change). Give the releases by number "
        "(`since`, `until`) or by the moments they were served at (`from`, `to`: the release "
        "then served, the newest loaded at or before it). The first release records no "
        "changes: it has no release before it.",
        extensions=[RefuseUnreadable()],
    )
    async def changes(
        self,
        info: Info,
        since: Annotated[
            int | None,
            strawberry.argument(description="The earlier release's number; or give `from`."),
        ] = None,
        until: Annotated[
            int | None,
            strawberry.argument(
                description="The later release's number; or give `to`; the newest when "
                "neither is given."
            ),
        ] = None,
        from_: Annotated[
            datetime | None,
            strawberry.argument(
                name="from",
                description="The earlier release as the one served at this moment (a zone-less "
                "one is UTC); instead of `since`.",
            ),
        ] = None,
        to: Annotated[
            datetime | None,
            strawberry.argument(
                description="The later release as the one served at this moment (a zone-less "
                "one is UTC); instead of `until`."
            ),
        ] = None,
    ) -> Changes | None:
        return await changes_query(info, since, until, from_, to)

    @strawberry.field(
        description="The node that was at a path where none is now (a slug path or a names "
        "path): moved, renamed or removed, and the release that did it; null when a node is "
        "there now, or no retained release had one there. An old link's new place."
    )
    async def former_node(
        self,
        info: Info,
        path: Annotated[
            str, strawberry.argument(description="A slug path (`a/b`) or a names path (`A :: B`).")
        ],
    ) -> FormerNode | None:
        return await former_node(info, path)

    @strawberry.field(
        description="A method no longer served: its name and place before the release that "
        "removed it; null while it is served, or when no retained release removed it."
    )
    async def former_method(
        self,
        info: Info,
        slug: Annotated[str, strawberry.argument(description="The method's slug.")],
    ) -> FormerRecord | None:
        return await former_record(info, "method", slug)

    @strawberry.field(
        description="A model no longer served: its name before the release that removed it; "
        "null while it is served, or when no retained release removed it."
    )
    async def former_model(
        self,
        info: Info,
        slug: Annotated[str, strawberry.argument(description="The model's slug.")],
    ) -> FormerRecord | None:
        return await former_record(info, "model", slug)

    @strawberry.field(description="Totals of the whole taxonomy, its depth, and its data version.")
    async def taxonomy(self, info: Info) -> TaxonomySummary:
        return await taxonomy_summary(info)
