"""Models, their documents (sources), and a model's profile by branch."""

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from datetime import date
from functools import cache
from typing import NamedTuple

from sqlalchemy import ColumnElement, bindparam, func, select
from sqlmodel import col

from store import paging
from store.batches import PairsIn, rows_of_pairs, rows_where_in
from store.methods import contains
from store.nodes import IN_PRE_ORDER
from store.paging import Page, Sort, SortKey, Template, Window
from store.reader import Reader
from store.rows import AnySelect
from store.tables import BranchModelRow, ModelRow, NodeRow, NodeStatsRow, SourceRow


@cache
def _models() -> AnySelect:
    return select(ModelRow)


async def models_where(
    reader: Reader, *, column: str, values: Sequence[Hashable]
) -> list[ModelRow]:
    """The models whose unique ``column`` (id or slug) is one of ``values``."""
    return await rows_where_in(reader, _models, ModelRow, ModelRow, column, values)


@dataclass(frozen=True)
class ModelSelection:
    """Which models a list holds; every given condition must hold."""

    name_contains: str | None = None
    organization: str | None = None  # any case
    released_after: date | None = None  # on or after
    released_before: date | None = None  # on or before
    first_seen_after: int | None = None  # only those first seen in a later release


def model_conditions(selection: ModelSelection) -> list[ColumnElement[bool]]:
    """The conditions on a model (`ModelRow`) that ``selection`` gives: for the models
    list, and for the By-model rows whose model they hold (store.treatments)."""
    conditions = []
    if selection.name_contains:
        conditions.append(contains(ModelRow.name, selection.name_contains))
    if selection.organization is not None:
        organization = func.lower(col(ModelRow.organization))
        conditions.append(organization == selection.organization.lower())
    if selection.released_after is not None:
        conditions.append(col(ModelRow.release_date) >= selection.released_after)
    if selection.released_before is not None:
        conditions.append(col(ModelRow.release_date) <= selection.released_before)
    if selection.first_seen_after is not None:
        conditions.append(col(ModelRow.first_seen) > selection.first_seen_after)
    return conditions


def _selected(selection: ModelSelection) -> AnySelect:
    return _models().where(*model_conditions(selection))


async def models_page(
    reader: Reader,
    *,
    selection: ModelSelection,
    sort: Sort,
    window: Window,
) -> Page[ModelRow]:
    """A page of models by `name` (A to Z, or Z to A when descending)
    or `release_date` (newest first when descending, oldest first otherwise; undated
    models last either way), ties by name A to Z, then slug, either way."""
    return await paging.keyset_page(
        reader, _selected(selection), [model_order(sort)], window, rows=ModelRow
    )


# What the model orders' ranks stand for (store.orders): a position in a list of models is
# found again by these after another load renumbers the ranks (store.paging).
MODEL_NAME = (col(ModelRow.name), col(ModelRow.slug))
MODEL_RELEASE = (col(ModelRow.release_date), *MODEL_NAME)


def model_order(sort: Sort) -> SortKey:
    """The stored rank (store.orders) that orders models by `name` or `release_date`."""
    if sort.field == "name":
        rank = ModelRow.name_desc_rank if sort.descending else ModelRow.name_rank
        return SortKey(col(rank), stands_for=MODEL_NAME)
    rank = ModelRow.recency_rank if sort.descending else ModelRow.age_rank
    return SortKey(col(rank), stands_for=MODEL_RELEASE)


async def models_count(reader: Reader, *, selection: ModelSelection) -> int:
    return await paging.count(reader, _selected(selection))


@cache
def _sources() -> AnySelect:
    return select(SourceRow).order_by(col(SourceRow.id))


async def sources_where(
    reader: Reader, *, column: str, values: Sequence[Hashable]
) -> list[SourceRow]:
    """The sources whose ``column`` (id, slug, or model_id: a model's, in file order) is one
    of ``values``."""
    return await rows_where_in(reader, _sources, SourceRow, SourceRow, column, values)


_SOURCES_OF_MODEL = Template(
    select(SourceRow).where(col(SourceRow.model_id) == bindparam("model")), "sources", {}
)


def _sources_of(model_id: int) -> Template:
    return Template(_SOURCES_OF_MODEL.statement, _SOURCES_OF_MODEL.shape, {"model": model_id})


async def sources_page(reader: Reader, *, model_id: int, window: Window) -> Page[SourceRow]:
    """A page of a model's sources, in file order."""
    return await paging.keyset_page(
        reader,
        _sources_of(model_id),
        # File order: the id is a source's line in the file. Found again by its slug at
        # the same line, a cursor outlives a load that leaves the file's sources in place.
        [SortKey(col(SourceRow.id), stands_for=(col(SourceRow.slug), col(SourceRow.id)))],
        window,
        rows=SourceRow,
    )


async def sources_count(reader: Reader, *, model_id: int) -> int:
    return await paging.count(reader, _sources_of(model_id))


class BranchOfModel(NamedTuple):
    """A model's strongest treatment in a branch (its By-model row there), with the
    branch's node and its counts."""

    row: BranchModelRow
    node: NodeRow
    stats: NodeStatsRow


_BRANCHES = (
    select(BranchModelRow, NodeRow, NodeStatsRow)
    .join(NodeRow, col(NodeRow.id) == col(BranchModelRow.node_id))
    .join(NodeStatsRow, col(NodeStatsRow.node_id) == col(NodeRow.id))
)


def _branches_of_model_levels(pairs_in: PairsIn) -> AnySelect:
    return _BRANCHES.where(pairs_in([col(BranchModelRow.model_id), col(NodeRow.level)])).order_by(
        col(NodeRow.pre)
    )


_BRANCHES_AT_LEVEL = Template(
    _BRANCHES.where(
        col(BranchModelRow.model_id) == bindparam("model"),
        col(NodeRow.level) == bindparam("level"),
    ),
    "branches",
    {},
)


def _branches_at(model_id: int, level: int) -> Template:
    params = {"model": model_id, "level": level}
    return Template(_BRANCHES_AT_LEVEL.statement, _BRANCHES_AT_LEVEL.shape, params)


async def branches_page(
    reader: Reader, *, model_id: int, level: int, window: Window
) -> Page[BranchOfModel]:
    """A page of a model's profile at ``level``: its strongest treatment in each branch
    there where it has evidence, in tree order."""
    return await paging.keyset_page(
        reader,
        _branches_at(model_id, level),
        IN_PRE_ORDER,
        window,
        rows=BranchOfModel,
    )


async def branches_count(reader: Reader, *, model_id: int, level: int) -> int:
    return await paging.count(reader, _branches_at(model_id, level))


async def branches_of_models(
    reader: Reader, *, model_levels: Sequence[tuple[int, int]]
) -> list[BranchOfModel]:
    """For (model, level): the model's strongest treatment in each branch at that level
    where it has evidence, with the branch's node and its counts, in tree order."""
    return await rows_of_pairs(reader, _branches_of_model_levels, BranchOfModel, model_levels)
