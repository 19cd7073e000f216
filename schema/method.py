"""The `Method` type: a technique, where it is filed, and how models treat it."""

from collections.abc import Awaitable
from typing import Annotated, Any

import strawberry
from sqlalchemy import func, select
from sqlmodel import col

from api.tables import MethodRow, MethodStatsRow, NodeRow
from schema.base import Slugged, direct_field, row_field
from schema.context import Info
from schema.enums import MethodOrderField, OrderDirection, Scope, Strength, max_rank
from schema.follow import from_row_of, node_at
from schema.inputs import (
    EvidenceFilterArgument,
    MethodFilter,
    MethodOrder,
    branch_node_ids,
    contains,
)
from schema.loaders import now_or_later
from schema.lookahead import selects
from schema.lookup import row_for_id
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
from schema.records import AnySelect, json_value
from schema.refs import EvidenceRef, MethodTreatmentRef, NodeRef


@strawberry.type(description="A technique that models' documents describe, filed at one node.")
class Method(Slugged):
    row: strawberry.Private[MethodRow]

    name: str = row_field("Display name, as the documents name it.")

    description: str | None = row_field("What the method is, when known (may be long markdown).")

    aliases: list[str] = row_field("Other names the method goes by.", convert=json_value)

    @direct_field("The node the method is filed at.", graphql_type=NodeRef)
    def node(self, info: Info) -> "NodeRef | Awaitable[NodeRef]":
        return node_at(info, self.row.node_id)

    @direct_field(
        "The strongest treatment over all models; null when no evidence.",
        graphql_type=Strength | None,
    )
    def strongest(self, info: Info) -> "Strength | Awaitable[Strength | None] | None":
        return now_or_later(info.context.loaders.method_stats_by_id, self.row_id(), _strongest)

    @direct_field("How many models treat the method.", graphql_type=int)
    def model_count(self, info: Info) -> "int | Awaitable[int]":
        return now_or_later(info.context.loaders.method_stats_by_id, self.row_id(), _model_count)

    @direct_field(
        "One entry per model that treats the method, strongest first, then by model name.",
        graphql_type=list[MethodTreatmentRef],
    )
    def treatments(
        self,
        info: Info,
        min_strength: Annotated[
            Strength | None,
            strawberry.argument(description="Only treatments at least this strong."),
        ] = None,
    ) -> "list[MethodTreatmentRef] | Awaitable[list[MethodTreatmentRef]]":
        build = from_row_of("schema.treatment", "MethodTreatment")
        limit = max_rank(min_strength)
        return now_or_later(
            info.context.loaders.treatments_by_method_id,
            self.row_id(),
            lambda rows: [build(row) for row in rows if row.strength_rank <= limit],
        )

    @strawberry.field(description="The evidence on this method, strongest first.")
    async def evidence(
        self,
        info: Info,
        first: First = None,
        after: After = None,
        filter: EvidenceFilterArgument = None,
    ) -> Connection[EvidenceRef]:
        from schema.evidence import evidence_connection

        return await evidence_connection(
            info, method_id=self.row_id(), first=first, after=after, filter=filter
        )


def _strongest(stats: MethodStatsRow) -> Strength | None:
    rank = stats.strongest_rank
    return None if rank is None else Strength.from_rank(rank)


def _model_count(stats: MethodStatsRow) -> int:
    return stats.model_count


def _order_keys(order: MethodOrder | None) -> tuple[str, list[SortKey]]:
    order = order or MethodOrder(field=MethodOrderField.NAME)
    descending = order.direction is OrderDirection.DESC
    name = SortKey(col(MethodRow.name_rank), descending=descending)
    list_name = f"methods:{order.field.value}:{order.direction.value}"
    if order.field is MethodOrderField.NAME:
        return list_name, [name]
    if order.field is MethodOrderField.STRONGEST:
        # rank 1 is the strongest and untreated methods have none: 4 puts them last in DESC.
        rank = func.coalesce(col(MethodStatsRow.strongest_rank), 4)
        return list_name, [
            SortKey(rank, descending=not descending),
            SortKey(col(MethodRow.name_rank)),
        ]
    count = SortKey(col(MethodStatsRow.model_count), descending=descending)
    return list_name, [count, SortKey(col(MethodRow.name_rank))]


async def methods_connection(
    info: Info,
    *,
    at_node: NodeRow | None = None,
    scope: Scope = Scope.BRANCH,
    first: int | None,
    after: str | None,
    filter: MethodFilter | None,
    order_by: MethodOrder | None,
) -> Connection[Method]:
    """A page of methods: all of them, or those of a node (HERE) or of its branch."""
    list_name, keys = _order_keys(order_by)
    reader = info.context.reader
    # What the page lists (the methods with their nodes) and what `totalCount` counts.
    listed: AnySelect | Template
    counted: AnySelect | Template
    if at_node is None and filter is None:  # the whole list: its statements are prepared
        counted = Template(METHODS, "methods", {})
        listed = Template(METHODS_WITH_NODES, "methods", {})
    else:
        chosen: AnySelect = METHODS
        if at_node is not None:
            chosen = _within(chosen, at_node, scope)
        if filter is not None:
            chosen = await _filtered(info, chosen, filter)
        counted, listed = chosen, _with_nodes(chosen)
    page = await keyset_page(info, listed, keys, list_name=list_name, first=first, after=after)
    loaders = info.context.loaders
    for _, stats, node in page.rows:
        loaders.method_stats_by_id.prime(stats.method_id, stats)
        loaders.node_by_id.prime(node.id, node)
    if selects(info, "nodes", "treatments"):
        await loaders.treatments_by_method_id.load_many([row.id for row, _, _ in page.rows])
    return connection_of(
        page, [Method.from_row(row) for row, _, _ in page.rows], counter(reader, counted)
    )


METHODS = select(MethodRow, MethodStatsRow).join(
    MethodStatsRow, col(MethodStatsRow.method_id) == col(MethodRow.id)
)


def _with_nodes(statement: AnySelect) -> AnySelect:
    # The page brings each method's node too: a list of methods almost always shows where
    # each is filed, and a node at hand needs no await (`now_or_later`).
    return statement.add_columns(NodeRow).join(NodeRow, col(NodeRow.id) == col(MethodRow.node_id))


METHODS_WITH_NODES = _with_nodes(METHODS)


def _within(statement: Any, node: NodeRow, scope: Scope) -> Any:
    if scope is Scope.HERE:
        return statement.where(col(MethodRow.node_id) == node.id)
    return statement.where(col(MethodRow.node_id).in_(branch_node_ids(node)))


async def _filtered(info: Info, statement: Any, filter: MethodFilter) -> Any:
    if filter.name_contains:
        statement = statement.where(contains(col(MethodRow.name), filter.name_contains))
    if filter.min_strength is not None:
        statement = statement.where(col(MethodStatsRow.strongest_rank) <= filter.min_strength.rank)
    if filter.has_evidence is not None:
        present = col(MethodStatsRow.model_count) > 0
        statement = statement.where(present if filter.has_evidence else ~present)
    if filter.within is not None:
        node = await row_for_id(info, "Node", filter.within, "filter.within")
        statement = _within(statement, node, Scope.BRANCH)
    return statement
