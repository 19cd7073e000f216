"""The `Model` type: an AI model whose documents describe methods."""

from collections.abc import Sequence
from datetime import date
from typing import Annotated

import strawberry
from strawberry.types.field import StrawberryField

from schema import refs
from schema.base import Slugged, row_field
from schema.context import Info
from schema.cost_meter import MeteredList
from schema.enums import max_rank
from schema.errors import BadUserInputError
from schema.evidence import evidence_field
from schema.history.changes import ModelChange
from schema.history.record_history import history_field
from schema.history.release import FirstSeen
from schema.inputs import (
    MODELS_BY_NAME,
    TREATMENTS_STRONGEST_FIRST,
    MinTreatmentStrength,
    ModelFilter,
    ModelOrder,
    TreatmentsOfModelOrderArgument,
    list_name_of,
    model_selection,
    sort_of,
)
from schema.node_ref import WITHIN_DEPRECATED, NodeReference, branch_of
from schema.pagination import (
    FIRST_PAGE,
    Connection,
    Paged,
    PageRequest,
    Paging,
    connection_of,
    paged,
)
from schema.refs import MethodTreatmentRef, ModelTreatmentRef, SourceRef
from schema.treatment import model_treatments_connection
from store import models
from store.models import BranchOfModel
from store.nodes import NodeWithStats
from store.tables import ModelRow, SourceRow

# Nullable with a default, so that a client's `$level: Int = 1` fits it (sgqlc, Relay).
Level = Annotated[
    int | None,
    strawberry.argument(
        description="Which level's branches: 1 (the roots) when not given or null."
    ),
]


def _checked_level(level: int | None) -> int:
    level = 1 if level is None else level
    if level < 1:
        raise BadUserInputError(f"`level` must be at least 1 (the roots), got {level}")
    return level


@refs.builds
@strawberry.type(description="An AI model whose own documents describe methods.")
class Model(Slugged, FirstSeen):
    row: strawberry.Private[ModelRow]

    name: str = row_field("Display name, e.g. `Kimi K3`.")

    organization: str | None = row_field("Who made the model, when known.")

    release_date: date | None = row_field("When the model was released, when known.")

    @strawberry.field(
        extensions=[MeteredList()],
        description="The model's documents, in file order, all at once.",
        deprecation_reason="Use `sourcesConnection`, which pages: a model's documents grow "
        "with the loads.",
    )
    async def sources(self, info: Info) -> list[SourceRef]:
        rows = await info.context.loaders.sources_by_model_id.load(self.row_id())
        return _sources(info, rows)

    history: StrawberryField = history_field("model", Connection[ModelChange] | None)

    @strawberry.field(
        extensions=[Paged()], description="The model's documents, a page at a time, in file order."
    )
    async def sources_connection(
        self, info: Info, paging: Paging = FIRST_PAGE
    ) -> Connection[SourceRef] | None:
        reader, model_id = info.context.reader, self.row_id()
        return await paged(
            info,
            "sources",
            paging,
            read=lambda window: models.sources_page(reader, model_id=model_id, window=window),
            count=lambda: models.sources_count(reader, model_id=model_id),
            items=lambda rows: _sources(info, rows),
        )

    @strawberry.field(
        description="The methods the model treats, one per method: by default strongest "
        "first, then by method name (`orderBy`).",
        extensions=[Paged()],
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
        min_strength: MinTreatmentStrength = None,
        paging: Paging = FIRST_PAGE,
        order_by: TreatmentsOfModelOrderArgument = TREATMENTS_STRONGEST_FIRST,
    ) -> Connection[MethodTreatmentRef] | None:
        node = await branch_of(info, within=within, branch=branch)
        return await model_treatments_connection(
            info,
            paging,
            model=self.row,
            max_rank=max_rank(min_strength),
            within=node,
            sort=sort_of(order_by or TREATMENTS_STRONGEST_FIRST),
        )

    @strawberry.field(
        extensions=[MeteredList()],
        description="The model's profile: its strongest treatment in each branch at `level` "
        "where it has evidence, in tree order. Null, with the error on this field alone, "
        "when `level` is refused (the model's other fields still come).",
    )
    async def branches(self, info: Info, level: Level = 1) -> list[ModelTreatmentRef] | None:
        rows = await info.context.loaders.branches_by_model_level.load(
            (self.row_id(), _checked_level(level))
        )
        return self._profile(rows)

    @strawberry.field(
        description="The model's profile, a page at a time: its strongest treatment in each "
        "branch at `level` where it has evidence, in tree order (for deep levels, where "
        "the branches are many).",
        extensions=[Paged()],
    )
    async def branches_connection(
        self,
        info: Info,
        level: Level = 1,
        paging: Paging = FIRST_PAGE,
    ) -> Connection[ModelTreatmentRef] | None:
        level = _checked_level(level)
        reader, model_id = info.context.reader, self.row_id()
        return await paged(
            info,
            "branches",
            paging,
            read=lambda window: models.branches_page(
                reader, model_id=model_id, level=level, window=window
            ),
            count=lambda: models.branches_count(reader, model_id=model_id, level=level),
            items=self._profile,
        )

    def _profile(self, rows: Sequence[BranchOfModel]) -> list[ModelTreatmentRef]:
        return [
            refs.model_treatment(row.row, self.row, NodeWithStats(row.node, row.stats))
            for row in rows
        ]

    evidence = evidence_field(
        "The model's evidence, strongest first.", model_id=lambda model: model.row_id()
    )


async def models_connection(
    info: Info,
    *,
    paging: Paging,
    filter: ModelFilter | None,
    order_by: ModelOrder | None,
) -> Connection[Model]:
    selection = model_selection(filter)
    sort = sort_of(order_by or MODELS_BY_NAME)
    request = PageRequest.of(info, list_name_of("models", sort), paging)
    reader = info.context.reader
    page = await models.models_page(
        reader,
        selection=selection,
        sort=sort,
        window=request.window,
    )

    async def count() -> int:
        return await models.models_count(reader, selection=selection)

    return connection_of(page, request.list_name, [Model(row=row) for row in page.rows], count)


def _sources(info: Info, rows: Sequence[SourceRow]) -> list[SourceRef]:
    """The model's documents, kept at hand for the evidence that cites them: a model page's
    evidence cites its own model's documents, which are then not read a second time."""
    at_hand = info.context.loaders.source_by_id
    for row in rows:
        at_hand.put(row.id, row)
    return [refs.source(row) for row in rows]
