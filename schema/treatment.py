"""How a model treats methods: one (model, method) pair, and one By-model row."""

from collections.abc import Awaitable

import strawberry

from api.tables import BranchModelRow, TreatmentRow
from schema.base import RowBacked, direct_field, row_field
from schema.context import Info
from schema.enums import Strength
from schema.follow import method_at, model_at, node_at
from schema.loaders import now_or_later
from schema.refs import EvidenceRef, MethodRef, ModelRef, NodeRef


@strawberry.type(
    description="One (model, method) pair: the strongest strength over all of its evidence."
)
class MethodTreatment(RowBacked):
    row: strawberry.Private[TreatmentRow]

    @direct_field("The model whose documents describe the method.", graphql_type=ModelRef)
    def model(self, info: Info) -> "ModelRef | Awaitable[ModelRef]":
        return model_at(info, self.row.model_id)

    @direct_field("The method.", graphql_type=MethodRef)
    def method(self, info: Info) -> "MethodRef | Awaitable[MethodRef]":
        return method_at(info, self.row.method_id)

    strength: Strength = row_field(
        "The treatment: the strongest strength over the evidence.",
        column="strength_rank",
        convert=Strength.from_rank,
    )

    @strawberry.field(description="Every piece of evidence of this pair.")
    async def evidence(self, info: Info) -> list[EvidenceRef]:
        from schema.evidence import Evidence

        rows = await info.context.loaders.evidence_by_pair.load(
            (self.row.model_id, self.row.method_id)
        )
        return [Evidence.from_row(row) for row in rows]


@strawberry.type(
    description="One row of a branch's By-model table: a model and the branch's methods it "
    "treats, headed by its strongest treatment in the branch."
)
class ModelTreatment(RowBacked):
    row: strawberry.Private[BranchModelRow]

    @direct_field("The model.", graphql_type=ModelRef)
    def model(self, info: Info) -> "ModelRef | Awaitable[ModelRef]":
        return model_at(info, self.row.model_id)

    @direct_field("The node whose branch this row is about.", graphql_type=NodeRef)
    def node(self, info: Info) -> "NodeRef | Awaitable[NodeRef]":
        return node_at(info, self.row.node_id)

    strongest: Strength = row_field(
        "The model's strongest treatment of any method in the branch.",
        column="strongest_rank",
        convert=Strength.from_rank,
    )

    method_count: int = row_field("How many of the branch's methods the model treats.")

    @direct_field(
        "The branch's methods that the model treats, strongest first, then by "
        "name case-insensitively.",
        graphql_type=list[MethodTreatment],
    )
    def methods(self, info: Info) -> "list[MethodTreatment] | Awaitable[list[MethodTreatment]]":
        return now_or_later(
            info.context.loaders.branch_treatments_by_pair,
            (self.row.node_id, self.row.model_id),
            MethodTreatment.from_rows,
        )
