"""How a model treats methods: one (model, method) pair, and one By-model row.

Every statement that makes one of these reads the objects it names with it (or they are
the objects it was reached from), so those fields are read off the object."""

from collections.abc import Awaitable, Sequence

import strawberry

from schema import refs
from schema.base import Entity, RowBacked, id_field, row_field
from schema.context import Info
from schema.cost_meter import MeteredList
from schema.enums import Strength
from schema.evidence import evidence_field
from schema.ids import pair_key
from schema.inputs import treatments_list_name
from schema.lookahead import selects
from schema.pagination import FIRST_PAGE, Connection, Paged, PageRequest, Paging, connection_of
from schema.refs import EvidenceRef, MethodRef, ModelRef, NodeRef
from store import treatments
from store.nodes import NodeWithStats
from store.paging import Sort
from store.strength import WEAKEST_RANK
from store.tables import BranchModelRow, ModelRow, NodeRow, TreatmentRow
from store.treatments import BranchTreatment, TreatmentWithMethod


@refs.builds
@strawberry.type(
    description="One (model, method) pair: the strongest strength over all of its evidence."
)
class MethodTreatment(RowBacked, Entity):
    row: strawberry.Private[TreatmentRow]
    model_row: strawberry.Private[ModelRow]
    method_object: strawberry.Private[MethodRef]

    id: strawberry.ID = id_field(
        "Stable, opaque ID of the (model, method) pair, from their slugs: the same pair has "
        "it in every list; refetch it with `entity(id:)`.",
        lambda treatment: pair_key(treatment.model_row.slug, treatment.method_object.row.slug),
    )

    model: ModelRef = row_field(
        "The model whose documents describe the method.",
        lambda treatment: refs.model(treatment.model_row),
    )

    method: MethodRef = row_field("The method.", lambda treatment: treatment.method_object)

    strength: Strength = row_field(
        "The treatment: the strongest strength over the evidence.",
        lambda treatment: Strength.from_rank(treatment.row.strength_rank),
    )

    @strawberry.field(
        extensions=[MeteredList()],
        description="Every piece of evidence of this pair, in file order, all at once.",
        deprecation_reason="Use `evidenceConnection`, which pages: a pair's evidence grows "
        "with the documents loaded.",
    )
    async def evidence(self, info: Info) -> list[EvidenceRef]:
        rows = await info.context.loaders.evidence_by_pair.load(
            (self.row.model_id, self.row.method_id)
        )
        return [refs.evidence(row) for row in rows]

    evidence_connection = evidence_field(
        "The evidence of this pair, a page at a time, strongest first, then in file order.",
        method_id=lambda treatment: treatment.row.method_id,
        model_id=lambda treatment: treatment.row.model_id,
    )


@refs.builds
@strawberry.type(
    description="One row of a branch's By-model table: a model and the branch's methods it "
    "treats, headed by its strongest treatment in the branch."
)
class ModelTreatment(RowBacked, Entity):
    row: strawberry.Private[BranchModelRow]
    model_row: strawberry.Private[ModelRow]
    node_pair: strawberry.Private[NodeWithStats]

    id: strawberry.ID = id_field(
        "Stable, opaque ID of the (model, node) pair, from their slugs: the row is the same "
        "in `Node.byModel` and `Model.branches`; refetch it with `entity(id:)`.",
        lambda row: pair_key(row.model_row.slug, row.node_pair.node.slug),
    )

    model: ModelRef = row_field("The model.", lambda row: refs.model(row.model_row))

    node: NodeRef = row_field(
        "The node whose branch this row is about.",
        lambda row: refs.node(row.node_pair.node, row.node_pair.stats),
    )

    strongest: Strength = row_field(
        "The model's strongest treatment of any method in the branch.",
        lambda row: Strength.from_rank(row.row.strongest_rank),
    )

    method_count: int = row_field("How many of the branch's methods the model treats.")

    @strawberry.field(
        extensions=[MeteredList(length_of=lambda row: row.row.method_count)],
        description="The branch's methods that the model treats, strongest first, then by "
        "name case-insensitively: all of them at once.",
        graphql_type=list[MethodTreatment],
        deprecation_reason="Use `methodsConnection`, which pages: a row's methods grow with "
        "the branch.",
    )
    def methods(self, info: Info) -> "list[MethodTreatment] | Awaitable[list[MethodTreatment]]":
        return info.context.loaders.branch_treatments_by_pair.now_or_later(
            (self.row.node_id, self.row.model_id), self._treatments
        )

    @strawberry.field(
        description="The branch's methods that the model treats, a page at a time, strongest "
        "first, then by name case-insensitively, then slug.",
        extensions=[Paged()],
    )
    async def methods_connection(
        self, info: Info, paging: Paging = FIRST_PAGE
    ) -> Connection[MethodTreatment] | None:
        # A row's first page comes with the other rows' (one statement), unless the branch
        # holds so many of the model's treatments that it is best read in order on its own.
        in_branch = self.row.method_count
        if paging.is_first_page and in_branch < treatments.SCAN_FROM:
            return await self._first_methods(info, paging)
        return await model_treatments_connection(
            info,
            paging,
            model=self.model_row,
            max_rank=WEAKEST_RANK,
            within=self.node_pair.node,
            in_branch=in_branch,
        )

    async def _first_methods(self, info: Info, paging: Paging) -> Connection[MethodTreatment]:
        """The first page, read with those of the page's other rows (one statement for a
        whole By-model page, where each row's keyset page would be one statement each);
        its cursors are the keyset pages', which read the pages after it."""
        request = PageRequest.of(info, TREATMENTS_LIST, paging)
        size = request.window.size
        key = (self.row.node_id, self.row.model_id)
        rows = await info.context.loaders.first_branch_treatments(size + 1).load(key)
        # Every method of the branch that the model treats: the list's length.
        page = treatments.first_page(rows, size, total=self.row.method_count)
        return connection_of(page, request.list_name, self._treatments(page.rows))

    def _treatments(self, rows: Sequence[BranchTreatment]) -> list[MethodTreatment]:
        return method_treatments(self.model_row, rows)


# The name of a model's list of treatments in its cursors.
TREATMENTS_LIST = "treatments"


def method_treatments(
    model: ModelRow, rows: Sequence[TreatmentWithMethod] | Sequence[BranchTreatment]
) -> list[MethodTreatment]:
    """A model's treatments read with their methods, as objects."""
    return [
        MethodTreatment(
            row=row.treatment, model_row=model, method_object=refs.method(row.method, row.stats)
        )
        for row in rows
    ]


async def model_treatments_connection(
    info: Info,
    paging: Paging,
    *,
    model: ModelRow,
    max_rank: int,
    within: NodeRow | None,
    in_branch: int | None = None,
    sort: Sort = treatments.STRONGEST_FIRST,
) -> Connection[MethodTreatment]:
    """A page of the methods ``model`` treats at ``max_rank`` or stronger (in the branch of
    ``within`` when given, which holds ``in_branch`` of any strength if the caller knows),
    in the order of ``sort``."""
    reader, model_id = info.context.reader, model.id
    assert model_id is not None  # a row read from the database
    request = PageRequest.of(info, treatments_list_name(TREATMENTS_LIST, sort), paging)
    page = await treatments.model_treatments_page(
        reader,
        model_id=model_id,
        max_rank=max_rank,
        within=within,
        in_branch=in_branch,
        sort=sort,
        window=request.window,
    )
    if selects(info, "nodes", "method", "node") or selects(info, "edges", "node", "method", "node"):
        # The methods' nodes in one batch now, so that each `node` is at hand (a model's
        # page of 100 treatments would otherwise await 100 of them one by one).
        await info.context.loaders.node_by_id.fetch_ahead([row.method.node_id for row in page.rows])

    async def count() -> int:
        if in_branch is not None and max_rank == WEAKEST_RANK:
            return in_branch
        return await treatments.model_treatments_count(
            reader, model_id=model_id, max_rank=max_rank, within=within
        )

    return connection_of(page, request.list_name, method_treatments(model, page.rows), count)
