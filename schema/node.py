"""The `Node` type: a node of the taxonomy tree, its place, its counts and its lists."""

from collections.abc import Awaitable
from typing import Annotated

import strawberry
from sqlalchemy import bindparam, select
from sqlmodel import col

from api.tables import BranchModelRow, ModelRow, NodeRow, NodeStatsRow
from schema.base import Slugged, direct_field, row_field
from schema.context import Info
from schema.enums import ModelTreatmentOrderField, OrderDirection, Scope, Strength, max_rank
from schema.errors import BadUserInputError
from schema.inputs import MethodFilterArgument, MethodOrderArgument, ModelTreatmentOrder
from schema.loaders import now_or_later
from schema.lookahead import selects
from schema.pagination import (
    After,
    Connection,
    First,
    SortKey,
    Template,
    connection_of,
    counter,
    keyset_page,
)
from schema.records import json_value
from schema.refs import MethodRef, ModelTreatmentRef, NodeRef


@strawberry.type(description="Strength counts of the (model, method) pairs in a branch.")
class StrengthCounts:
    core: int = strawberry.field(description="Pairs whose treatment is CORE.")
    used: int = strawberry.field(description="Pairs whose treatment is USED.")
    mentioned: int = strawberry.field(description="Pairs whose treatment is MENTIONED.")


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

    @classmethod
    def from_row(cls, row: NodeStatsRow) -> "NodeCounts":
        return cls(
            methods_in_branch=row.methods_in_branch,
            methods_filed_here=row.methods_filed_here,
            models_in_branch=row.models_in_branch,
            evidence_in_branch=row.evidence_in_branch,
            child_count=row.child_count,
            descendant_count=row.descendant_count,
            treatments_by_strength=StrengthCounts(
                core=row.core_pairs, used=row.used_pairs, mentioned=row.mentioned_pairs
            ),
        )


@strawberry.type(description="A node of the taxonomy tree: a family of techniques.")
class Node(Slugged):
    row: strawberry.Private[NodeRow]

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
        convert=json_value,
    )

    @strawberry.field(description="The node directly above; null for a root.")
    async def parent(self, info: Info) -> "Node | None":
        if self.row.parent_id is None:
            return None
        row = await info.context.loaders.node_by_id.load(self.row.parent_id)
        return Node.from_row(row) if row else None

    @strawberry.field(description="The nodes above this one, root first.")
    async def ancestors(self, info: Info) -> list["Node"]:
        rows = await info.context.loaders.ancestors_by_node_id.load(self.row_id())
        return [Node.from_row(row) for row in rows]

    @direct_field(
        "The nodes directly below, by name (case-insensitively).", graphql_type=list[NodeRef]
    )
    def children(self, info: Info) -> "list[Node] | Awaitable[list[Node]]":
        # At hand when the field that listed this node fetched its children ahead
        # (`Query.roots`): a tree is then answered without an await per node.
        return now_or_later(info.context.loaders.children_by_node_id, self.row_id(), Node.from_rows)

    @strawberry.field(
        description="All nodes below this one, flat, in pre-order (each node before its "
        "children, siblings by name); rebuild the tree from `parent` and `level`."
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
    ) -> list["Node"]:
        if max_depth is not None and max_depth < 1:
            raise BadUserInputError(f"`maxDepth` must be at least 1, got {max_depth}")
        rows = await info.context.loaders.descendants_by_node.load((self.row_id(), max_depth))
        return [Node.from_row(row) for row in rows]

    @direct_field("The node's figures and its branch's.", graphql_type=NodeCounts)
    def counts(self, info: Info) -> "NodeCounts | Awaitable[NodeCounts]":
        # Every loaded node has its counts (derived in the load's transaction).
        return now_or_later(
            info.context.loaders.stats_by_node_id, self.row_id(), NodeCounts.from_row
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
        from schema.treatment import ModelTreatment

        order = order_by or ModelTreatmentOrder(field=ModelTreatmentOrderField.RELEASE_DATE)
        statement = Template(
            BY_MODEL, "byModel", {"node": self.row_id(), "max_rank": max_rank(min_strength)}
        )
        reader = info.context.reader
        page = await keyset_page(
            info,
            statement,
            _by_model_keys(order),
            list_name=f"byModel:{order.field.value}:{order.direction.value}",
            first=first,
            after=after,
        )
        info.context.loaders.prime_models([model for _, model in page.rows])
        if selects(info, "nodes", "methods"):
            await info.context.loaders.branch_treatments_by_pair.load_many(
                [(branch.node_id, branch.model_id) for branch, _ in page.rows]
            )
        rows = [ModelTreatment.from_row(branch) for branch, _ in page.rows]
        return connection_of(page, rows, counter(reader, statement))


BY_MODEL = (
    select(BranchModelRow, ModelRow)
    .join(ModelRow, col(ModelRow.id) == col(BranchModelRow.model_id))
    .where(
        col(BranchModelRow.node_id) == bindparam("node"),
        col(BranchModelRow.strongest_rank) <= bindparam("max_rank"),
    )
)


def _by_model_keys(order: ModelTreatmentOrder) -> list[SortKey]:
    descending = order.direction is OrderDirection.DESC
    # Release order is stored as a rank with the newest first, so DESC is its ascending order.
    recency = SortKey(col(BranchModelRow.recency_rank), descending=not descending)
    field = order.field
    if field is ModelTreatmentOrderField.RELEASE_DATE:
        return [recency]
    if field is ModelTreatmentOrderField.NAME:
        return [SortKey(col(ModelRow.name_rank), descending=descending)]
    if field is ModelTreatmentOrderField.STRENGTH:
        # rank 1 is the strongest, so "strongest first" (DESC) is the ascending rank.
        primary = SortKey(col(BranchModelRow.strongest_rank), descending=not descending)
    else:
        primary = SortKey(col(BranchModelRow.method_count), descending=descending)
    return [primary, SortKey(col(BranchModelRow.recency_rank))]


def children_levels(info: Info) -> int:
    """How many levels of nested `children` the query selects below the field resolved."""
    levels = 0
    while selects(info, *("children",) * (levels + 1)):
        levels += 1
    return levels
