"""The `Model` type: an AI model whose documents describe methods."""

from datetime import date
from typing import Annotated

import strawberry

from schema import refs
from schema.base import Slugged, row_field
from schema.context import Info
from schema.enums import ModelOrderField, Strength, max_rank
from schema.errors import BadUserInputError
from schema.inputs import EvidenceFilterArgument, ModelFilter, ModelOrder, name_contains, sort_of
from schema.node_ref import WITHIN_DEPRECATED, NodeReference, branch_of
from schema.pagination import After, Connection, First, PageRequest, connection_of
from schema.refs import EvidenceRef, MethodTreatmentRef, ModelTreatmentRef, SourceRef
from schema.release import FirstSeen
from store import models, treatments
from store.models import ModelSelection
from store.tables import ModelRow


@strawberry.type(description="An AI model whose own documents describe methods.")
class Model(Slugged, FirstSeen):
    row: strawberry.Private[ModelRow]

    name: str = row_field("Display name, e.g. `Kimi K3`.")

    organization: str | None = row_field("Who made the model, when known.")

    release_date: date | None = row_field("When the model was released, when known.")

    @strawberry.field(description="The model's documents.")
    async def sources(self, info: Info) -> list[SourceRef]:
        rows = await info.context.loaders.sources_by_model_id.load(self.row_id())
        return [refs.source(row) for row in rows]

    @strawberry.field(
        description="The methods the model treats, one per method, strongest first, then by "
        "method name."
    )
    async def treatments(
        self,
        info: Info,
        within: Annotated[
            strawberry.ID | None,
            strawberry.argument(
                description="Only methods in the branch of this node (a Node ID).",
                deprecation_reason=WITHIN_DEPRECATED,
            ),
        ] = None,
        branch: Annotated[
            NodeReference | None,
            strawberry.argument(
                description="Only methods in the branch of this node (by ID, slug, slug path "
                "or names path)."
            ),
        ] = None,
        min_strength: Annotated[
            Strength | None,
            strawberry.argument(description="Only treatments at least this strong."),
        ] = None,
        first: First = None,
        after: After = None,
    ) -> Connection[MethodTreatmentRef]:
        node = await branch_of(info, within=within, branch=branch)
        request = PageRequest.of(info, "treatments", first, after)
        reader = info.context.reader
        model_id, rank = self.row_id(), max_rank(min_strength)
        page = await treatments.model_treatments_page(
            reader,
            model_id=model_id,
            max_rank=rank,
            within=node,
            window=request.window,
        )
        items = [
            refs.method_treatment(treatment, self.row, refs.method(method, stats))
            for treatment, method, stats in page.rows
        ]

        async def count() -> int:
            return await treatments.model_treatments_count(
                reader, model_id=model_id, max_rank=rank, within=node
            )

        return connection_of(page, request.list_name, items, count)

    @strawberry.field(
        description="The model's profile: its strongest treatment in each branch at `level` "
        "where it has evidence, in tree order. Null, with the error on this field alone, "
        "when `level` is refused (the model's other fields still come)."
    )
    async def branches(
        self,
        info: Info,
        level: Annotated[
            int | None,
            strawberry.argument(
                description="Which level's branches: 1 (the roots) when not given or null."
            ),
        ] = 1,
    ) -> list[ModelTreatmentRef] | None:
        level = 1 if level is None else level
        if level < 1:
            raise BadUserInputError(f"`level` must be at least 1 (the roots), got {level}")
        rows = await info.context.loaders.branches_by_model_level.load((self.row_id(), level))
        return [
            refs.model_treatment(branch, self.row, (node, stats)) for branch, node, stats in rows
        ]

    @strawberry.field(description="The model's evidence, strongest first.")
    async def evidence(
        self,
        info: Info,
        first: First = None,
        after: After = None,
        filter: EvidenceFilterArgument = None,
    ) -> Connection[EvidenceRef]:
        from schema.evidence import evidence_connection

        return await evidence_connection(
            info, model_id=self.row_id(), first=first, after=after, filter=filter
        )


async def models_connection(
    info: Info,
    *,
    first: int | None,
    after: str | None,
    filter: ModelFilter | None,
    order_by: ModelOrder | None,
) -> Connection[Model]:
    selection = (
        ModelSelection(
            name_contains=name_contains(filter),
            organization=filter.organization,
            released_after=filter.released_after,
            released_before=filter.released_before,
            first_seen_after=filter.first_seen_after,
        )
        if filter
        else ModelSelection()
    )
    order = order_by or ModelOrder(field=ModelOrderField.NAME)
    request = PageRequest.of(
        info, f"models:{order.field.value}:{order.direction.value}", first, after
    )
    reader = info.context.reader
    page = await models.models_page(
        reader,
        selection=selection,
        sort=sort_of(order),
        window=request.window,
    )

    async def count() -> int:
        return await models.models_count(reader, selection=selection)

    return connection_of(page, request.list_name, [Model(row=row) for (row,) in page.rows], count)
