"""Models, their documents (sources), and a model's profile by branch."""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from functools import cache
from typing import Any

from sqlalchemy import func, select
from sqlmodel import col

from store import paging
from store.batches import PairsIn, rows_of_pairs, rows_where_in
from store.methods import contains
from store.paging import Page, Sort, SortKey, Window
from store.reader import Reader
from store.rows import AnySelect
from store.tables import BranchModelRow, ModelRow, NodeRow, NodeStatsRow, SourceRow


@cache
def _models() -> AnySelect:
    return select(ModelRow)


async def models_where(reader: Reader, *, column: str, values: Sequence[Any]) -> list[ModelRow]:
    """The models whose unique ``column`` (id or slug) is one of ``values``."""
    return [row[0] for row in await rows_where_in(reader, _models, ModelRow, column, values)]


@dataclass(frozen=True)
class ModelSelection:
    """Which models a list holds; every given condition must hold."""

    name_contains: str | None = None
    organization: str | None = None  # any case
    released_after: date | None = None  # on or after
    released_before: date | None = None  # on or before
    first_seen_after: int | None = None  # only those first seen in a later release


def _selected(selection: ModelSelection) -> AnySelect:
    statement = _models()
    if selection.name_contains:
        statement = statement.where(contains(ModelRow.name, selection.name_contains))
    if selection.organization is not None:
        organization = func.lower(col(ModelRow.organization))
        statement = statement.where(organization == selection.organization.lower())
    if selection.released_after is not None:
        statement = statement.where(col(ModelRow.release_date) >= selection.released_after)
    if selection.released_before is not None:
        statement = statement.where(col(ModelRow.release_date) <= selection.released_before)
    if selection.first_seen_after is not None:
        statement = statement.where(col(ModelRow.first_seen) > selection.first_seen_after)
    return statement


async def models_page(
    reader: Reader,
    *,
    selection: ModelSelection,
    sort: Sort,
    window: Window,
) -> Page:
    """A page of models (rows of one model) by `name` or `release_date`."""
    if sort.field == "name":
        keys = [SortKey(col(ModelRow.name_rank), descending=sort.descending)]
    else:
        # Stored newest first, so DESC (newest first) is the rank's ascending order.
        keys = [SortKey(col(ModelRow.recency_rank), descending=not sort.descending)]
    return await paging.keyset_page(reader, _selected(selection), keys, window)


async def models_count(reader: Reader, *, selection: ModelSelection) -> int:
    return await paging.count(reader, _selected(selection))


@cache
def _sources() -> AnySelect:
    return select(SourceRow).order_by(col(SourceRow.id))


async def sources_where(reader: Reader, *, column: str, values: Sequence[Any]) -> list[SourceRow]:
    """The sources whose ``column`` (id, slug, or model_id: a model's, in file order) is one
    of ``values``."""
    return [row[0] for row in await rows_where_in(reader, _sources, SourceRow, column, values)]


def _branches_of_model_levels(pairs_in: PairsIn) -> AnySelect:
    return (
        select(BranchModelRow, NodeRow, NodeStatsRow)
        .join(NodeRow, col(NodeRow.id) == col(BranchModelRow.node_id))
        .join(NodeStatsRow, col(NodeStatsRow.node_id) == col(NodeRow.id))
        .where(pairs_in([col(BranchModelRow.model_id), col(NodeRow.level)]))
        .order_by(col(NodeRow.pre))
    )


async def branches_of_models(
    reader: Reader, *, model_levels: Sequence[tuple[int, int]]
) -> list[tuple[BranchModelRow, NodeRow, NodeStatsRow]]:
    """For (model, level): the model's strongest treatment in each branch at that level
    where it has evidence, with the branch's node and its counts, in tree order."""
    rows = await rows_of_pairs(reader, _branches_of_model_levels, model_levels)
    return [(row[0], row[1], row[2]) for row in rows]
