"""The `Method` type: a technique, where it is filed, and how models treat it."""

from collections.abc import Awaitable

import strawberry
from strawberry.types.field import StrawberryField

from schema import refs
from schema.base import Slugged, row_field
from schema.context import Info
from schema.cost_meter import MeteredList, affords
from schema.enums import Scope, Strength, max_rank
from schema.evidence import evidence_field
from schema.history.adoption import adoption_field, undated_field
from schema.history.changes import MethodChange
from schema.history.record_history import history_field
from schema.history.release import FirstSeen
from schema.inputs import (
    METHODS_BY_NAME,
    MODELS_STRONGEST_FIRST,
    MethodFilter,
    MethodOrder,
    MinTreatmentStrength,
    TreatmentsOfMethodOrderArgument,
    list_name_of,
    name_contains,
    sort_of,
    treatments_list_name,
)
from schema.lookahead import selected_at, selects
from schema.node_ref import branch_of
from schema.pagination import (
    FIRST_PAGE,
    Connection,
    Paged,
    PageRequest,
    Paging,
    connection_of,
    paged,
)
from schema.refs import MethodTreatmentRef, ModelRef, NodeRef
from store import methods, treatments
from store.methods import MethodSelection, MethodWithNode
from store.nodes import NodeWithStats
from store.rows import id_of, json_list
from store.tables import MethodRow, MethodStatsRow, NodeRow, NodeStatsRow


def _strongest(method: "Method") -> Strength | None:
    rank = method.stats.strongest_rank
    return None if rank is None else Strength.from_rank(rank)


@refs.builds
@strawberry.type(description="A technique that models' documents describe, filed at one node.")
class Method(Slugged, FirstSeen):
    row: strawberry.Private[MethodRow]
    # Every statement that reads a method reads its figures with it (store.methods).
    stats: strawberry.Private[MethodStatsRow]
    # The method's node (with its counts), when the statement that read the method read it:
    # a page of methods reads each one's node with it (store.methods.MethodWithNode).
    node_at_hand: strawberry.Private[MethodWithNode | None] = None

    name: str = row_field("Display name, as the documents name it.")

    description: str | None = row_field("What the method is, when known (may be long markdown).")

    aliases: list[str] = row_field(
        "Other names the method goes by.", lambda method: json_list(method.row.aliases)
    )

    strongest: Strength | None = row_field(
        "The strongest treatment over all models; null when no evidence.", _strongest
    )

    model_count: int = row_field(
        "How many models treat the method.", lambda method: method.stats.model_count
    )

    @strawberry.field(description="The node the method is filed at.", graphql_type=NodeRef)
    def node(self, info: Info) -> "NodeRef | Awaitable[NodeRef]":
        if self.node_at_hand is not None:
            return refs.node(self.node_at_hand.node, self.node_at_hand.node_stats)
        node_id = self.row.node_id
        loaders = info.context.loaders
        if selects(info, "ancestors") and not loaders.node_by_id.has(node_id):
            return _node_with_ancestors(info, node_id)
        return loaders.node_by_id.now_or_later(node_id, _found_node)

    @strawberry.field(
        # Charged for all the method's treatments (an upper bound under `minStrength`).
        extensions=[MeteredList(length_of=lambda method: method.stats.model_count)],
        description="One entry per model that treats the method, strongest first, then by "
        "model name: all of them at once.",
        graphql_type=list[MethodTreatmentRef],
        deprecation_reason="Use `treatmentsConnection`, which pages: a method's treatments "
        "grow with the models loaded.",
    )
    def treatments(
        self,
        info: Info,
        min_strength: MinTreatmentStrength = None,
    ) -> "list[MethodTreatmentRef] | Awaitable[list[MethodTreatmentRef]]":
        limit = max_rank(min_strength)
        return info.context.loaders.treatments_by_method_id.now_or_later(
            self.row_id(),
            lambda rows: [
                refs.method_treatment(row.treatment, row.model, self)
                for row in rows
                if row.treatment.strength_rank <= limit
            ],
        )

    @strawberry.field(
        description="The models that treat the method, a page at a time: one entry per "
        "model, by default strongest first, then by model name case-insensitively, then "
        "slug (`orderBy`).",
        extensions=[Paged()],
    )
    async def treatments_connection(
        self,
        info: Info,
        min_strength: MinTreatmentStrength = None,
        paging: Paging = FIRST_PAGE,
        order_by: TreatmentsOfMethodOrderArgument = MODELS_STRONGEST_FIRST,
    ) -> Connection[MethodTreatmentRef] | None:
        reader, method_id, rank = info.context.reader, self.row_id(), max_rank(min_strength)
        sort = sort_of(order_by or MODELS_STRONGEST_FIRST)
        return await paged(
            info,
            treatments_list_name("treatmentsOfMethod", sort),
            paging,
            read=lambda window: treatments.method_treatments_page(
                reader, method_id=method_id, max_rank=rank, sort=sort, window=window
            ),
            count=lambda: treatments.method_treatments_count(
                reader, method_id=method_id, max_rank=rank
            ),
            items=lambda rows: [
                refs.method_treatment(row.treatment, row.model, self) for row in rows
            ],
        )

    history: StrawberryField = history_field("method", Connection[MethodChange] | None)

    adoption: StrawberryField = adoption_field(
        "it",
        lambda loaders: loaders.adoption_by_method,
        " `newMethods` is 1 in the first period, 0 after it.",
    )
    undated_models: StrawberryField = undated_field("it", lambda loaders: loaders.undated_by_method)

    @strawberry.field(
        description="The earliest-released model that treats the method (at any strength), "
        "equal release dates by name case-insensitively, then slug; null when no model that "
        "treats it has a release date.",
        graphql_type=ModelRef | None,
    )
    def first_treated_by(self, info: Info) -> "ModelRef | Awaitable[ModelRef | None] | None":
        model_id = self.stats.first_model_id
        if model_id is None:
            return None
        return info.context.loaders.model_by_id.now_or_later(
            model_id, lambda row: None if row is None else refs.model(row)
        )

    evidence = evidence_field(
        "The evidence on this method, strongest first.", method_id=lambda method: method.row_id()
    )


async def _node_with_ancestors(info: Info, node_id: int) -> NodeRef:
    return _found_node(await info.context.loaders.node_with_ancestors(node_id))


def _found_node(found: NodeWithStats | None) -> NodeRef:
    if found is None:  # only a half-written database could get here
        raise LookupError("a method's node is missing")
    return refs.node(found.node, found.stats)


async def methods_connection(
    info: Info,
    *,
    at_node: NodeRow | None = None,
    at_node_stats: NodeStatsRow | None = None,
    scope: Scope = Scope.BRANCH,
    paging: Paging,
    filter: MethodFilter | None,
    order_by: MethodOrder | None,
) -> Connection[Method]:
    """A page of methods: all of them, or those of a node (HERE) or of its branch."""
    sort = sort_of(order_by or METHODS_BY_NAME)
    selection = await _selection(info, at_node, scope, filter)
    request = PageRequest.of(info, list_name_of("methods", sort), paging)
    reader, loaders = info.context.reader, info.context.loaders
    page = await methods.methods_page(
        reader, selection=selection, sort=sort, window=request.window, known=at_node_stats
    )
    listed = selected_at(info, "nodes", "treatments")
    keys = (field.alias or field.name for field in listed)
    if listed and affords(info, "Method", keys, (row.stats.model_count for row in page.rows)):
        await loaders.treatments_by_method_id.fetch_ahead([id_of(row.method) for row in page.rows])
    items = [Method(row=row.method, stats=row.stats, node_at_hand=row) for row in page.rows]

    async def count() -> int:
        return await methods.methods_count(reader, selection=selection, known=at_node_stats)

    return connection_of(page, request.list_name, items, count)


async def _selection(
    info: Info, at_node: NodeRow | None, scope: Scope, filter: MethodFilter | None
) -> MethodSelection:
    within: list[NodeRow] = []
    if at_node is not None and scope is Scope.BRANCH:
        within.append(at_node)
    if filter is not None:
        node = await branch_of(info, within=filter.within, branch=filter.branch, prefix="filter.")
        if node is not None:
            within.append(node)
    return MethodSelection(
        filed_at=at_node if scope is Scope.HERE else None,
        within=tuple(within),
        name_contains=name_contains(filter),
        max_rank=filter.min_strength.rank if filter and filter.min_strength else None,
        has_evidence=filter.has_evidence if filter else None,
        first_seen_after=filter.first_seen_after if filter else None,
    )
