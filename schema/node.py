"""The `Node` type: a node of the taxonomy tree, its place, its counts and its lists."""

from collections.abc import Awaitable
from typing import Annotated

import strawberry

from schema import refs
from schema.base import Slugged, row_field
from schema.context import Info
from schema.enums import ModelTreatmentOrderField, Scope, Strength, max_rank
from schema.errors import BadUserInputError
from schema.inputs import MethodFilterArgument, MethodOrderArgument, ModelTreatmentOrder, sort_of
from schema.lookahead import selects
from schema.pagination import After, Connection, First, PageRequest, connection_of
from schema.refs import MethodRef, ModelTreatmentRef
from schema.release import FirstSeen
from store import treatments
from store.nodes import NodeWithStats
from store.rows import json_value
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


def _nodes(pairs: list[NodeWithStats]) -> list["Node"]:
    return [Node(row=row, stats=stats) for row, stats in pairs]


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
        lambda node: json_value(node.row.matching_aids),
    )
    counts: NodeCounts = row_field("The node's figures and its branch's.", NodeCounts.of)

    @strawberry.field(description="The node directly above; null for a root.")
    async def parent(self, info: Info) -> "Node | None":
        if self.row.parent_id is None:
            return None
        found = await info.context.loaders.node_by_id.load(self.row.parent_id)
        return Node(row=found[0], stats=found[1]) if found else None

    @strawberry.field(description="The nodes above this one, root first.")
    async def ancestors(self, info: Info) -> list["Node"]:
        rows = await info.context.loaders.ancestors_by_node_id.load(self.row_id())
        return _nodes(rows)

    @strawberry.field(
        description="The nodes directly below, by name (case-insensitively).",
        graphql_type=list["Node"],
    )
    def children(self, info: Info) -> "list[Node] | Awaitable[list[Node]]":
        # At hand when the field that listed this node fetched its children ahead
        # (`Query.roots`): a tree is then answered without an await per node.
        return info.context.loaders.children_by_node_id.now_or_later(self.row_id(), _nodes)

    @strawberry.field(
        description="All nodes below this one, flat, in pre-order (each node before its "
        "children, siblings by name); rebuild the tree from `parent` and `level`. Null, with "
        "the error on this field alone, when `maxDepth` is refused."
    )
    async def descendants(
        self,
        info: Info,
        max_depth: Annotated[
            int | None,
            strawberry.argument(
                description="Only nodes at most this many levels below (1: children)."
            ),
        ] = None,
    ) -> list["Node"] | None:
        if max_depth is not None and max_depth < 1:
            raise BadUserInputError(f"`maxDepth` must be at least 1, got {max_depth}")
        return _nodes(
            await info.context.loaders.descendants_by_node.load((self.row_id(), max_depth))
        )

    @strawberry.field(description="The methods filed here (HERE) or in the branch (BRANCH).")
    async def methods(
        self,
        info: Info,
        scope: Annotated[
            Scope,
            strawberry.argument(description="HERE: filed at this node; BRANCH: at or below it."),
        ] = Scope.BRANCH,
        first: First = None,
        after: After = None,
        filter: MethodFilterArgument = None,
        order_by: MethodOrderArgument = None,
    ) -> Connection[MethodRef]:
        from schema.method import methods_connection

        return await methods_connection(
            info,
            at_node=self.row,
            scope=scope,
            first=first,
            after=after,
            filter=filter,
            order_by=order_by,
        )

    @strawberry.field(
        description="The By-model table: one row per model with evidence in the branch, "
        "headed by its strongest treatment there. By default newest release first, undated "
        "models after them, ties by name case-insensitively."
    )
    async def by_model(
        self,
        info: Info,
        first: First = None,
        after: After = None,
        min_strength: Annotated[
            Strength | None,
            strawberry.argument(
                description="Only models whose strongest treatment in the branch is at least this."
            ),
        ] = None,
        order_by: Annotated[
            ModelTreatmentOrder | None,
            strawberry.argument(
                description="Row order; RELEASE_DATE DESC (the seed page's) if not given."
            ),
        ] = None,
    ) -> Connection[ModelTreatmentRef]:
        order = order_by or ModelTreatmentOrder(field=ModelTreatmentOrderField.RELEASE_DATE)
        request = PageRequest.of(
            info,
            f"byModel:{order.field.value}:{order.direction.value}",
            first,
            after,
        )
        reader, loaders = info.context.reader, info.context.loaders
        node_id, rank = self.row_id(), max_rank(min_strength)
        page = await treatments.by_model_page(
            reader,
            node_id=node_id,
            max_rank=rank,
            sort=sort_of(order),
            window=request.window,
        )
        if selects(info, "nodes", "methods"):
            await loaders.branch_treatments_by_pair.fetch_ahead(
                [(node_id, branch.model_id) for branch, _ in page.rows]
            )
        here = (self.row, self.stats)
        rows = [refs.model_treatment(branch, model, here) for branch, model in page.rows]

        async def count() -> int:
            return await treatments.by_model_count(reader, node_id=node_id, max_rank=rank)

        return connection_of(page, request.list_name, rows, count)


def children_levels(info: Info) -> int:
    """How many levels of nested `children` the query selects below the field resolved."""
    levels = 0
    while selects(info, *("children",) * (levels + 1)):
        levels += 1
    return levels
