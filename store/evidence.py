"""Evidence: one model's document describing one method, with a strength."""

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import cache

from sqlalchemy import select
from sqlmodel import col

from store import paging
from store.batches import PairsIn, rows_of_pairs, rows_where_in
from store.nodes import branch_node_ids
from store.paging import Page, SortKey, Window
from store.reader import Reader
from store.rows import AnySelect
from store.strength import rank_expression
from store.tables import EvidenceRow, MethodRow, NodeRow

# Evidence stores its strength by name; ordering and filtering need its rank (1 = core).
_RANK = rank_expression(col(EvidenceRow.strength))


@cache
def _evidence() -> AnySelect:
    return select(EvidenceRow)


async def evidence_where(
    reader: Reader, *, column: str, values: Sequence[Hashable]
) -> list[EvidenceRow]:
    """The evidence whose unique ``column`` (id or key) is one of ``values``."""
    return await rows_where_in(reader, _evidence, EvidenceRow, EvidenceRow, column, values)


@dataclass(frozen=True)
class EvidenceSelection:
    """Which evidence a list holds; every given condition must hold."""

    # Each id a condition: a method's evidence narrowed to another method holds nothing.
    method_ids: tuple[int, ...] = ()
    model_ids: tuple[int, ...] = ()
    source_ids: tuple[int, ...] = ()
    max_rank: int | None = None  # at least this strong (a rank)
    within: NodeRow | None = None  # on methods in this branch


def _selected(selection: EvidenceSelection) -> AnySelect:
    statement = _evidence()
    for column, values in (
        (EvidenceRow.method_id, selection.method_ids),
        (EvidenceRow.model_id, selection.model_ids),
        (EvidenceRow.source_id, selection.source_ids),
    ):
        for value in values:
            statement = statement.where(col(column) == value)
    if selection.max_rank is not None:
        statement = statement.where(selection.max_rank >= _RANK)
    if selection.within is not None:
        in_branch = select(col(MethodRow.id)).where(
            col(MethodRow.node_id).in_(branch_node_ids(selection.within))
        )
        statement = statement.where(col(EvidenceRow.method_id).in_(in_branch))
    return statement


async def evidence_page(
    reader: Reader,
    *,
    selection: EvidenceSelection,
    window: Window,
) -> Page[EvidenceRow]:
    """A page of evidence, strongest first, then in file order."""
    return await paging.keyset_page(
        reader,
        _selected(selection),
        # Ids are file order, which a load renumbers: found again by its content's key at
        # the same line, a cursor outlives a load that leaves the file's evidence in place.
        [
            SortKey(_RANK),
            SortKey(col(EvidenceRow.id), stands_for=(col(EvidenceRow.key), col(EvidenceRow.id))),
        ],
        window,
        rows=EvidenceRow,
    )


async def evidence_count(reader: Reader, *, selection: EvidenceSelection) -> int:
    return await paging.count(reader, _selected(selection))


def _evidence_of_pairs(pairs_in: PairsIn) -> AnySelect:
    return (
        select(EvidenceRow)
        .where(pairs_in([col(EvidenceRow.model_id), col(EvidenceRow.method_id)]))
        .order_by(col(EvidenceRow.id))
    )


async def evidence_of_pairs(
    reader: Reader, *, model_methods: Sequence[tuple[int, int]]
) -> list[EvidenceRow]:
    """The evidence of each (model, method) pair, in file order."""
    return await rows_of_pairs(reader, _evidence_of_pairs, EvidenceRow, model_methods)
