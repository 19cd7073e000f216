"""How a model treats methods: one (model, method) pair, and one By-model row."""

import strawberry

from api.tables import BranchModelRow, TreatmentRow
from schema.base import RowBacked
from schema.context import Info
from schema.enums import Strength
from schema.loaders import required
from schema.refs import EvidenceRef, MethodRef, ModelRef, NodeRef


async def _model(info: Info, model_id: int) -> ModelRef:
    from schema.model import Model

    return Model.from_row(await required(info.context.loaders.model_by_id, model_id))


@strawberry.type(
    description="One (model, method) pair: the strongest strength over all of its evidence."
)
class MethodTreatment(RowBacked):
    row: strawberry.Private[TreatmentRow]

    @strawberry.field(description="The model whose documents describe the method.")
    async def model(self, info: Info) -> ModelRef:
        return await _model(info, self.row.model_id)

    @strawberry.field(description="The method.")
    async def method(self, info: Info) -> MethodRef:
        from schema.method import Method

        return Method.from_row(
            await required(info.context.loaders.method_by_id, self.row.method_id)
        )

    @strawberry.field(description="The treatment: the strongest strength over the evidence.")
    def strength(self) -> Strength:
        return Strength.from_rank(self.row.strength_rank)

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

    @strawberry.field(description="The model.")
    async def model(self, info: Info) -> ModelRef:
        return await _model(info, self.row.model_id)

    @strawberry.field(description="The node whose branch this row is about.")
    async def node(self, info: Info) -> NodeRef:
        from schema.node import Node

        return Node.from_row(await required(info.context.loaders.node_by_id, self.row.node_id))

    @strawberry.field(description="The model's strongest treatment of any method in the branch.")
    def strongest(self) -> Strength:
        return Strength.from_rank(self.row.strongest_rank)

    @strawberry.field(description="How many of the branch's methods the model treats.")
    def method_count(self) -> int:
        return self.row.method_count

    @strawberry.field(
        description="The branch's methods that the model treats, strongest first, then by "
        "name case-insensitively."
    )
    async def methods(self, info: Info) -> list[MethodTreatment]:
        rows = await info.context.loaders.branch_treatments_by_pair.load(
            (self.row.node_id, self.row.model_id)
        )
        return [MethodTreatment.from_row(row) for row in rows]
