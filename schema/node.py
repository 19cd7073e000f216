"""The `Node` type: a node of the taxonomy tree, its place, its counts and its lists."""

from collections.abc import Awaitable, Sequence
from typing import Annotated

import strawberry
from strawberry.types.field import StrawberryField

from schema import refs
from schema.base import Slugged, row_field
from schema.context import Info
from schema.cost_meter import MeteredList, affords
from schema.enums import Scope, Strength, max_rank
from schema.errors import BadUserInputError
from schema.history.adoption import adoption_field, undated_field
from schema.history.changes import NodeChange
from schema.history.record_history import history_field
from schema.history.release import FirstSeen
from schema.inputs import (
    BY_MODEL_NEWEST_FIRST,
    METHODS_BY_NAME,
    MethodFilterArgument,
    MethodOrderArgument,
    ModelFilter,
    ModelTreatmentOrder,
    list_name_of,
    model_selection,
    sort_of,
)
from schema.lookahead import selected_at, selects
from schema.method import methods_connection
from schema.pagination import (
    FIRST_PAGE,
    Connection,
    Paged,
    PageRequest,
    Paging,
    connection_of,
    paged,
)
from schema.readable import RefuseUnreadable
from schema.refs import MethodRef, ModelTreatmentRef
from store import nodes, treatments
from store.nodes import NodeWithStats
from store.rows import json_list
from store.tables import NodeRow, NodeStatsRow


@strawberry.type(
    description="A count per strength: of (model, method) pairs by their treatment "
    "(`treatmentsByStrength`), or of methods by their strongest treatment "
    "(`methodsByStrongest`)."
)
class StrengthCounts:
    core: int = strawberry.field(description="Those at CORE.")
    used: int = strawberry.field(description="Those at USED.")
    mentioned: int = strawberry.field(description="Those at MENTIONED.")


@strawberry.type(description="The figures of a node and its branch (the node and all below it).")
class NodeCounts:
    methods_in_branch: int = strawberry.field(
        description="Distinct methods filed at the node or at any node below it."
    )
    methods_filed_here: int = strawberry.field(description="Methods filed at the node itself.")
    models_in_branch: int = strawberry.field(
        description="Distinct models with evidence on at least one method in the branch."
    )
    evidence_in_branch: int = strawberry.field(
        description="Pieces of evidence on the methods in the branch."
    )
    child_count: int = strawberry.field(description="Nodes directly below this one.")
    descendant_count: int = strawberry.field(description="All nodes below this one.")
    treatments_by_strength: StrengthCounts = strawberry.field(
        description="The branch's (model, method) pairs, counted by their treatment."
    )
    methods_by_strongest: StrengthCounts = strawberry.field(
        description="The branch's methods, counted by their strongest treatment over all "
        "models (a facet: `methods(filter: {minStrength})` lists them). Methods no model "
        "treats are in none of the three: `methodsInBranch` minus their sum."
    )

    @classmethod
    def of(cls, node: "Node") -> "NodeCounts":
        stats = node.stats
        return cls(
            methods_in_branch=stats.methods_in_branch,
            methods_filed_here=stats.methods_filed_here,
            models_in_branch=stats.models_in_branch,
            evidence_in_branch=stats.evidence_in_branch,
            child_count=stats.child_count,
            descendant_count=stats.descendant_count,
            treatments_by_strength=StrengthCounts(
                core=stats.core_pairs, used=stats.used_pairs, mentioned=stats.mentioned_pairs
            ),
            methods_by_strongest=StrengthCounts(
                core=stats.core_methods, used=stats.used_methods, mentioned=stats.mentioned_methods
            ),
        )


def _nodes(rows: Sequence[NodeWithStats]) -> list["Node"]:
    return [Node(row=row.node, stats=row.stats) for row in rows]


MaxDepth = Annotated[
    int | None,
    strawberry.argument(description="Only nodes at most this many levels below (1: children)."),
]


def _check_depth(max_depth: int | None) -> None:
    if max_depth is not None and max_depth < 1:
        raise BadUserInputError(f"`maxDepth` must be at least 1, got {max_depth}")


@refs.builds
@strawberry.type(description="A node of the taxonomy tree: a family of techniques.")
class Node(Slugged, FirstSeen):
    row: strawberry.Private[NodeRow]
    # Every statement that reads a node reads its counts with it (store.nodes).
    stats: strawberry.Private[NodeStatsRow]

    name: str = row_field("Display name, e.g. `training parallelism`.")
    description: str | None = row_field("What the node covers, when the taxonomy says.")
    level: int = row_field("Depth in the tree: roots are level 1, a child is one more.")
    path: str = row_field(
        "Names from the root joined by ` :: `, e.g. `optimization :: training parallelism`."
    )
    slug_path: str = row_field(
        "Slugs from the root joined by `/`, e.g. `optimization/training-parallelism`."
    )
    matching_aids: list[str] = row_field(
        "Phrases that help the upstream classifier file methods here, in order.",
        lambda node: json_list(node.row.matching_aids),
    )
    counts: NodeCounts = row_field("The node's figures and its branch's.", NodeCounts.of)

    @strawberry.field(description="The node directly above; null for a root.")
    async def parent(self, info: Info) -> "Node | None":
        if self.row.parent_id is None:
            return None
        found = await info.context.loaders.node_by_id.load(self.row.parent_id)
        return Node(row=found[0], stats=found[1]) if found else None

    @strawberry.field(
        extensions=[MeteredList(length_of=lambda node: node.row.level - 1)],
        description="The nodes above this one, root first.",
    )
    async def ancestors(self, info: Info) -> list["Node"]:
        rows = await info.context.loaders.ancestors_by_node_id.load(self.row_id())
        return _nodes(rows)

    @strawberry.field(
        extensions=[MeteredList(length_of=lambda node: node.stats.child_count)],
        description="The nodes directly below, by name (case-insensitively).",
        graphql_type=list["Node"],
    )
    def children(self, info: Info) -> "list[Node] | Awaitable[list[Node]]":
        # At hand when the field that listed this node fetched its children ahead
        # (`Query.roots`): a tree is then answered without an await per node.
        return info.context.loaders.children_by_node_id.now_or_later(self.row_id(), _nodes)

    @strawberry.field(
        description="The nodes directly below, by name (case-insensitively), a page at a "
        "time: for a node with more children than a page shows.",
        extensions=[Paged()],
    )
    async def children_connection(
        self, info: Info, paging: Paging = FIRST_PAGE
    ) -> Connection["Node"] | None:
        return await self._below(info, 1, paging)

    @strawberry.field(
        # Charged for the whole branch before it is read (an upper bound under `maxDepth`).
        extensions=[MeteredList(length_of=lambda node: node.stats.descendant_count)],
        description="All nodes below this one, flat, in pre-order (each node before its "
        "children, siblings by name); rebuild the tree from `parent` and `level`. All of "
        "them at once. Null, with the error on this field alone, when `maxDepth` is refused.",
        deprecation_reason="Use `descendantsConnection`, which pages: a branch grows with "
        "the taxonomy.",
    )
    async def descendants(self, info: Info, max_depth: MaxDepth = None) -> list["Node"] | None:
        _check_depth(max_depth)
        return _nodes(
            await info.context.loaders.descendants_by_node.load((self.row_id(), max_depth))
        )

    @strawberry.field(
        description="The nodes below this one, flat, in pre-order (each node before its "
        "children, siblings by name), a page at a time; rebuild the tree from `parent` and "
        "`level`.",
        extensions=[Paged()],
    )
    async def descendants_connection(
        self,
        info: Info,
        max_depth: MaxDepth = None,
        paging: Paging = FIRST_PAGE,
    ) -> Connection["Node"] | None:
        _check_depth(max_depth)
        return await self._below(info, max_depth, paging)

    async def _below(self, info: Info, max_depth: int | None, paging: Paging) -> Connection["Node"]:
        """A page of the nodes below, at most ``max_depth`` levels down (all when None)."""
        reader, node = info.context.reader, self.row
        return await paged(
            info,
            f"below:{max_depth}",
            paging,
            read=lambda window: nodes.nodes_below_page(
                reader, node=node, max_depth=max_depth, window=window
            ),
            count=lambda: nodes.nodes_below_count(reader, node=node, max_depth=max_depth),
            items=_nodes,
        )

    history: StrawberryField = history_field("node", Connection[NodeChange] | None)

    adoption: StrawberryField = adoption_field(
        "a method of the branch",
        lambda loaders: loaders.adoption_by_node,
    )
    undated_models: StrawberryField = undated_field(
        "a method of the branch",
        lambda loaders: loaders.undated_by_node,
    )

    @strawberry.field(
        extensions=[Paged()], description="The methods filed here (HERE) or in the branch (BRANCH)."
    )
    async def methods(
        self,
        info: Info,
        scope: Annotated[
            Scope,
            strawberry.argument(description="HERE: filed at this node; BRANCH: at or below it."),
        ] = Scope.BRANCH,
        paging: Paging = FIRST_PAGE,
        filter: MethodFilterArgument = None,
        order_by: MethodOrderArgument = METHODS_BY_NAME,
    ) -> Connection[MethodRef] | None:
        return await methods_connection(
            info,
            at_node=self.row,
            at_node_stats=self.stats,
            scope=scope,
            paging=paging,
            filter=filter,
            order_by=order_by,
        )

    @strawberry.field(
        description="The By-model table: one row per model with evidence in the branch, "
        "headed by its strongest treatment there. By default newest release first, undated "
        "models after them, ties by name case-insensitively.",
        extensions=[RefuseUnreadable(), Paged()],
    )
    async def by_model(
        self,
        info: Info,
        paging: Paging = FIRST_PAGE,
        min_strength: Annotated[
            Strength | None,
            strawberry.argument(
                description="Only models whose strongest treatment in the branch is at least this."
            ),
        ] = None,
        order_by: Annotated[
            ModelTreatmentOrder | None,
            strawberry.argument(
                description="Row order; null: the default, by release date, the newest first "
                "(the seed page's order)."
            ),
        ] = BY_MODEL_NEWEST_FIRST,
        filter: Annotated[
            ModelFilter | None,
            strawberry.argument(
                description="Only the rows of the models this selects (a facet: by "
                "organization, see `organizations(branch:)`, or by release dates)."
            ),
        ] = None,
    ) -> Connection[ModelTreatmentRef] | None:
        sort = sort_of(order_by or BY_MODEL_NEWEST_FIRST)
        request = PageRequest.of(info, list_name_of("byModel", sort), paging)
        reader, loaders = info.context.reader, info.context.loaders
        node_id, rank = self.row_id(), max_rank(min_strength)
        selection = model_selection(filter)
        page = await treatments.by_model_page(
            reader,
            node_id=node_id,
            max_rank=rank,
            models=selection,
            sort=sort,
            window=request.window,
        )
        listed = selected_at(info, "nodes", "methods")
        keys = (field.alias or field.name for field in listed)
        counts = (row.row.method_count for row in page.rows)
        if listed and affords(info, "ModelTreatment", keys, counts):
            await loaders.branch_treatments_by_pair.fetch_ahead(
                [(node_id, row.row.model_id) for row in page.rows]
            )
        here = NodeWithStats(self.row, self.stats)
        rows = [refs.model_treatment(row.row, row.model, here) for row in page.rows]

        async def count() -> int:
            return await treatments.by_model_count(
                reader, node_id=node_id, max_rank=rank, models=selection
            )

        return connection_of(page, request.list_name, rows, count)


def children_levels(info: Info) -> int:
    """How many levels of nested `children` the query selects below the field resolved."""
    levels = 0
    while selects(info, *("children",) * (levels + 1)):
        levels += 1
    return levels
