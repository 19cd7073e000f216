"""Evidence: one model's document describing one method, with a strength."""

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

from sqlalchemy import bindparam, func, select
from sqlmodel import col

from store import paging
from store.batches import PairsIn, rows_of_pairs, rows_where_in
from store.nodes import branch_node_ids
from store.paging import Page, SortKey, Window
from store.reader import Reader
from store.rows import AnySelect
from store.strength import rank_expression, rank_of
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


# A list of evidence's order: strongest first, then file order. Ids are file order, which
# a load renumbers: found again by its content's key at the same line, a cursor outlives a
# load that leaves the file's evidence in place.
_STRONGEST_FIRST = [
    SortKey(_RANK),
    SortKey(col(EvidenceRow.id), stands_for=(col(EvidenceRow.key), col(EvidenceRow.id))),
]


async def evidence_page(
    reader: Reader,
    *,
    selection: EvidenceSelection,
    window: Window,
) -> Page[EvidenceRow]:
    """A page of evidence, strongest first, then in file order."""
    return await paging.keyset_page(
        reader, _selected(selection), _STRONGEST_FIRST, window, rows=EvidenceRow
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


class RankedEvidence(NamedTuple):
    """A piece of evidence among the first of its (model, method) pair's list, and how
    much evidence the pair has in all."""

    evidence: EvidenceRow
    total: int


def _first_evidence_of_pairs(pairs_in: PairsIn) -> AnySelect:
    # Each pair's evidence numbered in the list's order (_STRONGEST_FIRST) and counted: the
    # caller keeps the first few of every pair. Pairs are (method, model), the columns of
    # ix_evidence_method_id_model_id, which each pair's rows are read from.
    pair = (col(EvidenceRow.method_id), col(EvidenceRow.model_id))
    ranked = (
        select(
            col(EvidenceRow.id),
            func.row_number()
            .over(partition_by=pair, order_by=(_RANK, col(EvidenceRow.id)))
            .label("number"),
            func.count().over(partition_by=pair).label("total"),
        )
        .where(pairs_in(pair))
        .subquery("ranked")
    )
    return (
        select(EvidenceRow, ranked.c.total)
        .join(ranked, ranked.c.id == col(EvidenceRow.id))
        .where(ranked.c.number <= bindparam("limit"))
        .order_by(ranked.c.number)
    )


async def first_evidence_of_pairs(
    reader: Reader, *, method_models: Sequence[tuple[int, int]], limit: int
) -> list[RankedEvidence]:
    """The first ``limit`` pieces of evidence of each (method, model) pair, strongest
    first, then in file order: the first pages of many pairs' evidence in one statement."""
    return await rows_of_pairs(
        reader, _first_evidence_of_pairs, RankedEvidence, method_models, {"limit": limit}
    )


def first_page(rows: Sequence[RankedEvidence], size: int) -> Page[EvidenceRow]:
    """The first page of a pair's evidence from its list's first ``size`` + 1 rows, with
    the key values (and what they stand for) of _STRONGEST_FIRST that evidence_page reads
    the next pages from."""
    return paging.first_page(
        [row.evidence for row in rows],
        size,
        key_of=lambda row: (rank_of(row.strength), row.id, row.key, row.id),
        total=rows[0].total if rows else 0,
    )
