"""The `Evidence` type: one model's document describing one method, with a strength."""

from collections.abc import Callable
from dataclasses import replace

import strawberry
from strawberry.types.field import StrawberryField

from schema import refs
from schema.base import Entity, RowBacked, declared, id_field, row_field
from schema.context import Info
from schema.enums import Strength
from schema.inputs import EvidenceFilter, EvidenceFilterArgument
from schema.lookup import row_for_id
from schema.node_ref import branch_of
from schema.pagination import FIRST_PAGE, Connection, Paged, PageRequest, Paging, connection_of
from schema.refs import MethodRef, ModelRef, SourceRef
from store import evidence
from store.evidence import EvidenceSelection
from store.rows import id_of
from store.tables import EvidenceRow


@refs.builds
@strawberry.type(description="One model's document describing one method, with a strength.")
class Evidence(RowBacked, Entity):
    row: strawberry.Private[EvidenceRow]

    id: strawberry.ID = id_field(
        "Stable, opaque ID; refetch the evidence with `entity(id:)`.",
        lambda evidence: evidence.row.key,
    )

    @strawberry.field(description="The model whose document this is.")
    async def model(self, info: Info) -> ModelRef:
        row = await info.context.loaders.model_by_id.load(self.row.model_id)
        assert row is not None  # a foreign key guarantees it
        return refs.model(row)

    @strawberry.field(description="The method the document describes.")
    async def method(self, info: Info) -> MethodRef:
        found = await info.context.loaders.method_by_id.load(self.row.method_id)
        assert found is not None  # a foreign key guarantees it
        return refs.method(*found)

    @strawberry.field(description="The document, when the pipeline recorded it.")
    async def source(self, info: Info) -> SourceRef | None:
        if self.row.source_id is None:
            return None
        row = await info.context.loaders.source_by_id.load(self.row.source_id)
        return refs.source(row) if row else None

    strength: Strength = row_field(
        "How strongly the document treats the method.",
        lambda evidence: Strength(evidence.row.strength),
    )

    quote: str | None = row_field("The document's own words, when recorded.")

    locator: str | None = row_field("Where in the document, e.g. a section or page.")


def evidence_field(
    description: str,
    *,
    method_id: Callable[[RowBacked], int] | None = None,
    model_id: Callable[[RowBacked], int] | None = None,
) -> StrawberryField:
    """Declare ``evidence = evidence_field("...", method_id=..., model_id=...)`` on a
    method, a model or a (model, method) pair: a page of its evidence, strongest first,
    then in file order; ``method_id`` and ``model_id`` read the ids it is narrowed to."""

    async def resolve(
        root: RowBacked,
        info: Info,
        paging: Paging = FIRST_PAGE,
        filter: EvidenceFilterArgument = None,
    ) -> Connection[Evidence] | None:
        if (
            filter is None
            and paging.is_first_page
            and method_id is not None
            and model_id is not None
        ):
            # A pair's first page comes with those of the other pairs on the page (one
            # statement for a page of treatments, where each would be a statement of its
            # own); its cursors are evidence_page's, which reads the pages after it.
            request = PageRequest.of(info, "evidence", paging)
            size = request.window.size
            pair = (method_id(root), model_id(root))
            rows = await info.context.loaders.first_evidence(size + 1).load(pair)
            first = evidence.first_page(rows, size)
            return connection_of(
                first, request.list_name, [Evidence(row=row) for row in first.rows]
            )
        selection = EvidenceSelection(
            method_ids=() if method_id is None else (method_id(root),),
            model_ids=() if model_id is None else (model_id(root),),
        )
        if filter is not None:
            selection = await _filtered(info, selection, filter)
        request = PageRequest.of(info, "evidence", paging)
        reader = info.context.reader
        page = await evidence.evidence_page(reader, selection=selection, window=request.window)

        async def count() -> int:
            return await evidence.evidence_count(reader, selection=selection)

        items = [Evidence(row=row) for row in page.rows]
        return connection_of(page, request.list_name, items, count)

    return declared(
        strawberry.field(
            resolver=resolve,
            description=description,
            extensions=[Paged()],
            graphql_type=Connection[Evidence] | None,
        )
    )


async def _filtered(
    info: Info, selection: EvidenceSelection, filter: EvidenceFilter
) -> EvidenceSelection:
    """``selection`` narrowed by ``filter`` (whose IDs must name objects that exist)."""
    ids = {
        "model": selection.model_ids,
        "method": selection.method_ids,
        "source": selection.source_ids,
    }
    for name, kind, value in (
        ("model", "Model", filter.model),
        ("method", "Method", filter.method),
        ("source", "Source", filter.source),
    ):
        if value is not None:
            row = await row_for_id(info, kind, value, f"filter.{name}")
            ids[name] = (*ids[name], id_of(row))
    return replace(
        selection,
        max_rank=selection.max_rank if filter.min_strength is None else filter.min_strength.rank,
        model_ids=ids["model"],
        method_ids=ids["method"],
        source_ids=ids["source"],
        within=await branch_of(info, within=filter.within, branch=filter.branch, prefix="filter."),
    )
