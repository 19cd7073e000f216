"""How models treat methods: a model's treatments, and a branch's By-model table."""

from collections.abc import Sequence
from typing import NamedTuple

from sqlalchemy import and_, bindparam, func, select
from sqlalchemy.orm import aliased
from sqlmodel import col

from store import paging
from store.batches import PairsIn, rows_of_pairs
from store.methods import METHOD_NAME, TreatmentOfModel
from store.models import MODEL_RELEASE, ModelSelection, model_conditions, model_order
from store.nodes import NodeWithStats, in_branch
from store.paging import Listing, Page, Sort, SortKey, Template, Window
from store.reader import Reader
from store.rows import AnySelect, Prepared, Value
from store.tables import (
    BranchModelRow,
    MethodRow,
    MethodStatsRow,
    ModelRow,
    NodeRow,
    NodeStatsRow,
    TreatmentRow,
)


class TreatmentWithMethod(NamedTuple):
    """A treatment with its method and the method's figures."""

    treatment: TreatmentRow
    method: MethodRow
    stats: MethodStatsRow


class BranchTreatment(NamedTuple):
    """A treatment of a method in a branch, with the method, its figures and the
    branch's node id: one method of a By-model row."""

    treatment: TreatmentRow
    method: MethodRow
    stats: MethodStatsRow
    node_id: int


class BranchModel(NamedTuple):
    """A By-model row (a model's strongest treatment in a branch), with the model."""

    row: BranchModelRow
    model: ModelRow


class TreatmentBySlugs(NamedTuple):
    """A treatment with its model, and its method with its figures."""

    treatment: TreatmentRow
    model: ModelRow
    method: MethodRow
    stats: MethodStatsRow


class BranchRowBySlugs(NamedTuple):
    """A By-model row with its model, and its node with its counts."""

    row: BranchModelRow
    model: ModelRow
    node: NodeRow
    node_stats: NodeStatsRow

    @property
    def node_with_stats(self) -> NodeWithStats:
        return NodeWithStats(self.node, self.node_stats)


_WITH_METHODS = (
    select(TreatmentRow, MethodRow, MethodStatsRow)
    .join(MethodRow, col(MethodRow.id) == col(TreatmentRow.method_id))
    .join(MethodStatsRow, col(MethodStatsRow.method_id) == col(MethodRow.id))
)
# Both keys in treatment (the method's name rank copied there: TreatmentRow), read in
# order off its (model, strength, name rank) index: a page stops after its rows, where
# ordering by the method's own rank sorted all of a model's treatments for every page. The
# rank stands for the method's name and slug, as method_by_name's does.
_BY_STRENGTH_THEN_NAME = [
    SortKey(col(TreatmentRow.strength_rank)),
    SortKey(col(TreatmentRow.method_name_rank), stands_for=METHOD_NAME),
]
# The same order, with the same values, for the treatments in a branch, whose rows come
# from the (model, node_pre) index: its range is the branch's, and sorting it costs what
# the answer holds. The strength `+ 0` is no column of an index, so that neither database
# reads the model's treatments in order off the strength index instead, filtering out
# those elsewhere: for a small branch of a model with 10,000 treatments outside it, that
# read all 10,000 (tests/test_query_cost.py).
_IN_BRANCH_BY_STRENGTH_THEN_NAME = [
    SortKey(col(TreatmentRow.strength_rank) + 0),
    _BY_STRENGTH_THEN_NAME[1],
]


def first_page(rows: Sequence[BranchTreatment], size: int, total: int) -> Page[BranchTreatment]:
    """The first page of a model's treatments from the list's first ``size`` + 1 rows
    (``total``: the list's length), with the key values of _BY_STRENGTH_THEN_NAME that
    model_treatments_page reads the next pages from."""
    shown = list(rows[:size])
    return Page(
        rows=shown,
        keys=[
            (
                row.treatment.strength_rank,
                row.treatment.method_name_rank,
                row.method.name,
                row.method.slug,
            )
            for row in shown
        ],
        has_next=len(rows) > size,
        has_previous=False,
        total=total,
    )


# A model's treatments, and a method's: prepared once (store.paging.Template), their
# values bound per request; a statement built for each model on a page of 100 models cost
# more to compile than to run (7 ms each at size L).
_MODEL_TREATMENT = (
    col(TreatmentRow.model_id) == bindparam("model"),
    col(TreatmentRow.strength_rank) <= bindparam("max_rank"),
)
_IN_BRANCH = (
    col(TreatmentRow.node_pre) >= bindparam("pre"),
    col(TreatmentRow.node_pre) <= bindparam("last"),
)
_OF_MODEL = _WITH_METHODS.where(*_MODEL_TREATMENT)
_OF_MODEL_IN_BRANCH = _OF_MODEL.where(*_IN_BRANCH)
# A model's treatments in a branch are read one of two ways, by how many there are. Few:
# off the (model, node_pre) index, sorting the branch's range. Many: off the (model,
# strength, name rank) index in the page's order, passing over those outside the branch
# (`node_pre + 0` is no column of an index, so neither database reads the range instead).
# Measured at size L on SQLite, the model with 44,800 treatments, the first page of 12:
# 18,780 in a root's branch, 81 ms sorted and 0.3 ms in order; 51 in a small branch,
# 0.1 ms sorted and 32 ms in order (every one of the 44,800 passed over). From SCAN_FROM
# in the branch, reading in order passes over (page size) x (the model's treatments) /
# SCAN_FROM rows on average; below it, the sort is of fewer than SCAN_FROM rows.
SCAN_FROM = 1_000
_OF_MODEL_IN_LARGE_BRANCH = _OF_MODEL.where(
    col(TreatmentRow.node_pre) + 0 >= bindparam("pre"),
    col(TreatmentRow.node_pre) + 0 <= bindparam("last"),
)
# How many of a model's treatments a branch holds: the By-model row's count, one key away.
_IN_BRANCH_COUNT = Prepared.of(
    select(col(BranchModelRow.method_count)).where(
        col(BranchModelRow.node_id) == bindparam("node"),
        col(BranchModelRow.model_id) == bindparam("model"),
    ),
    Value[int],
)
# Their number, counted in treatment alone (every treatment has its method and its
# figures): an index range scan, where counting the list joined every row to its method
# (`count(*) OVER ()` over the join made the first page of a model with 44,783 treatments
# 0.35-0.5 s at size L, against 0.13 s without it). By whether the list is a branch's: on
# its own, and as the first page's total (built once, as the lists are).
_COUNT_OF_MODEL = select(func.count()).select_from(TreatmentRow).where(*_MODEL_TREATMENT)
_COUNTS_OF_MODEL = {
    False: Prepared.of(_COUNT_OF_MODEL, Value[int]),
    True: Prepared.of(_COUNT_OF_MODEL.where(*_IN_BRANCH), Value[int]),
}
_TOTALS_OF_MODEL = {
    branch: count.statement.correlate(None).scalar_subquery()
    for branch, count in _COUNTS_OF_MODEL.items()
}


def _of_model(
    model_id: int, max_rank: int, within: NodeRow | None, in_branch: int
) -> tuple[Template, list[SortKey]]:
    """A model's treatments as a page reads them (the statement and its sort keys): all of
    them, or those in the branch of ``within`` (``in_branch`` of them: SCAN_FROM)."""
    params = {"model": model_id, "max_rank": max_rank}
    if within is None:
        return Template(_OF_MODEL, "model treatments", params), _BY_STRENGTH_THEN_NAME
    params |= {"pre": within.pre, "last": within.last}
    if in_branch >= SCAN_FROM:
        listing = Template(_OF_MODEL_IN_LARGE_BRANCH, "model treatments in a large branch", params)
        return listing, _BY_STRENGTH_THEN_NAME
    listing = Template(_OF_MODEL_IN_BRANCH, "model treatments in a branch", params)
    return listing, _IN_BRANCH_BY_STRENGTH_THEN_NAME


async def model_treatments_page(
    reader: Reader,
    *,
    model_id: int,
    max_rank: int,
    within: NodeRow | None,
    in_branch: int | None = None,
    window: Window,
) -> Page[TreatmentWithMethod]:
    """A page of the methods a model treats, strongest first, then by method name: all of
    them, or those in the branch of ``within``. ``in_branch``: how many of the model's
    treatments, of any strength, the branch holds (its By-model row's method count, read
    here if the caller does not know it), which says how best to read them."""
    if within is not None and in_branch is None:
        found = await reader.rows(_IN_BRANCH_COUNT, {"node": within.id, "model": model_id})
        in_branch = found[0].value if found else 0
    listing, keys = _of_model(model_id, max_rank, within, in_branch or 0)
    return await paging.keyset_page(
        reader,
        listing,
        keys,
        window,
        rows=TreatmentWithMethod,
        counted=_TOTALS_OF_MODEL[within is not None],
    )


async def model_treatments_count(
    reader: Reader, *, model_id: int, max_rank: int, within: NodeRow | None
) -> int:
    params = _of_model(model_id, max_rank, within, 0)[0].params
    found, *_ = await reader.rows(_COUNTS_OF_MODEL[within is not None], params)
    return found.value


_OF_METHOD = (
    select(TreatmentRow, ModelRow)
    .join(ModelRow, col(ModelRow.id) == col(TreatmentRow.model_id))
    .where(
        col(TreatmentRow.method_id) == bindparam("method"),
        col(TreatmentRow.strength_rank) <= bindparam("max_rank"),
    )
)


def _of_method(method_id: int, max_rank: int) -> Template:
    return Template(_OF_METHOD, "method treatments", {"method": method_id, "max_rank": max_rank})


async def method_treatments_page(
    reader: Reader, *, method_id: int, max_rank: int, window: Window
) -> Page[TreatmentOfModel]:
    """A page of the models that treat a method, strongest first, then by model name, then
    slug."""
    return await paging.keyset_page(
        reader,
        _of_method(method_id, max_rank),
        [SortKey(col(TreatmentRow.strength_rank)), model_order(Sort("name"))],
        window,
        rows=TreatmentOfModel,
    )


async def method_treatments_count(reader: Reader, *, method_id: int, max_rank: int) -> int:
    return await paging.count(reader, _of_method(method_id, max_rank))


_BY_MODEL = Template(
    select(BranchModelRow, ModelRow)
    .join(ModelRow, col(ModelRow.id) == col(BranchModelRow.model_id))
    .where(
        col(BranchModelRow.node_id) == bindparam("node"),
        col(BranchModelRow.strongest_rank) <= bindparam("max_rank"),
    ),
    "byModel",
    {},
)


def _by_model_listing(
    node_id: int, max_rank: int, sort: Sort | None, models: ModelSelection
) -> Listing:
    params = {"node": node_id, "max_rank": max_rank}
    conditions = model_conditions(models)
    if not conditions:
        return Template(_BY_MODEL.statement, ("byModel", sort), params)
    # Rows narrowed by their model (a facet): built for the request, with its values (a
    # template per value would grow without bound); SQLAlchemy compiles each shape once.
    return _BY_MODEL.statement.where(*conditions).params(params)


def _by_model_keys(sort: Sort) -> list[SortKey]:
    if sort.field == "release_date" and sort.descending:
        # The default order (the seed page's), copied into the row: no join to order by.
        return [SortKey(col(BranchModelRow.recency_rank), stands_for=MODEL_RELEASE)]
    if sort.field in ("release_date", "name"):
        return [model_order(sort)]
    if sort.field == "strongest":
        # Rank 1 is the strongest: descending (strongest first) is the ascending rank.
        primary = SortKey(col(BranchModelRow.strongest_rank), descending=not sort.descending)
    else:
        primary = SortKey(col(BranchModelRow.method_count), descending=sort.descending)
    return [primary, model_order(Sort("name"))]


async def by_model_page(
    reader: Reader,
    *,
    node_id: int,
    max_rank: int,
    models: ModelSelection,
    sort: Sort,
    window: Window,
) -> Page[BranchModel]:
    """A page of a branch's By-model table: one row per model with
    evidence in the branch whose strongest treatment there is ``max_rank`` or stronger
    (and that ``models`` selects),
    by `release_date` or `name` (as models are ordered), or by `strongest` or
    `method_count` (the largest first when descending), ties by name A to Z, then slug."""
    return await paging.keyset_page(
        reader,
        _by_model_listing(node_id, max_rank, sort, models),
        _by_model_keys(sort),
        window,
        rows=BranchModel,
    )


async def by_model_count(
    reader: Reader, *, node_id: int, max_rank: int, models: ModelSelection
) -> int:
    return await paging.count(reader, _by_model_listing(node_id, max_rank, None, models))


_BRANCH = aliased(NodeRow, name="branch")


def _branch_treatments_of_pairs(pairs_in: PairsIn) -> AnySelect:
    # For each (branch, model): the model's treatments whose node lies in the branch's
    # interval, read off the (model_id, node_pre) index: the rows of the answer, whatever
    # the size of the branch.
    return (
        _WITH_METHODS.add_columns(col(_BRANCH.id))
        .join(_BRANCH, in_branch(col(TreatmentRow.node_pre), _BRANCH))
        .where(pairs_in([col(_BRANCH.id), col(TreatmentRow.model_id)]))
        .order_by(col(TreatmentRow.strength_rank), col(TreatmentRow.method_name_rank))
    )


async def branch_treatments(
    reader: Reader, *, node_models: Sequence[tuple[int, int]]
) -> list[BranchTreatment]:
    """For (node, model): the model's treatments of the branch's methods, strongest first,
    then by method name: the methods of one By-model row."""
    return await rows_of_pairs(reader, _branch_treatments_of_pairs, BranchTreatment, node_models)


def _first_branch_treatments_of_pairs(pairs_in: PairsIn) -> AnySelect:
    # The same rows as _branch_treatments_of_pairs, each numbered within its pair in the
    # list's order: the caller keeps the first few of every pair.
    number = (
        func.row_number()
        .over(
            partition_by=(col(_BRANCH.id), col(TreatmentRow.model_id)),
            order_by=(col(TreatmentRow.strength_rank), col(TreatmentRow.method_name_rank)),
        )
        .label("number")
    )
    ranked = (
        select(
            col(_BRANCH.id).label("node_id"),
            col(TreatmentRow.model_id),
            col(TreatmentRow.method_id),
            number,
        )
        .select_from(TreatmentRow)
        .join(_BRANCH, in_branch(col(TreatmentRow.node_pre), _BRANCH))
        .where(pairs_in([col(_BRANCH.id), col(TreatmentRow.model_id)]))
        .subquery("ranked")
    )
    return (
        _branch_treatments_of_pairs(pairs_in)
        .join(
            ranked,
            and_(
                ranked.c.node_id == col(_BRANCH.id),
                ranked.c.model_id == col(TreatmentRow.model_id),
                ranked.c.method_id == col(TreatmentRow.method_id),
            ),
        )
        .where(ranked.c.number <= bindparam("limit"))
    )


async def first_branch_treatments(
    reader: Reader, *, node_models: Sequence[tuple[int, int]], limit: int
) -> list[BranchTreatment]:
    """branch_treatments, but only the first ``limit`` of each (node, model): the first
    pages of many By-model rows' methods in one statement."""
    return await rows_of_pairs(
        reader, _first_branch_treatments_of_pairs, BranchTreatment, node_models, {"limit": limit}
    )


# Refetching a pair by the slugs in its ID (`entity(id:)`): the pair's row with what its
# fields show, for a whole batch of pairs at once.


def _treatments_of_slug_pairs(pairs_in: PairsIn) -> AnySelect:
    return (
        select(TreatmentRow, ModelRow, MethodRow, MethodStatsRow)
        .join(ModelRow, col(ModelRow.id) == col(TreatmentRow.model_id))
        .join(MethodRow, col(MethodRow.id) == col(TreatmentRow.method_id))
        .join(MethodStatsRow, col(MethodStatsRow.method_id) == col(MethodRow.id))
        .where(pairs_in([col(ModelRow.slug), col(MethodRow.slug)]))
    )


async def treatments_by_slugs(
    reader: Reader, *, model_methods: Sequence[tuple[str, str]]
) -> list[TreatmentBySlugs]:
    """The treatments of the (model slug, method slug) pairs that have one, with the model,
    the method and its figures."""
    return await rows_of_pairs(reader, _treatments_of_slug_pairs, TreatmentBySlugs, model_methods)


def _branch_rows_of_slug_pairs(pairs_in: PairsIn) -> AnySelect:
    return (
        select(BranchModelRow, ModelRow, NodeRow, NodeStatsRow)
        .join(ModelRow, col(ModelRow.id) == col(BranchModelRow.model_id))
        .join(NodeRow, col(NodeRow.id) == col(BranchModelRow.node_id))
        .join(NodeStatsRow, col(NodeStatsRow.node_id) == col(NodeRow.id))
        .where(pairs_in([col(ModelRow.slug), col(NodeRow.slug)]))
    )


async def branch_rows_by_slugs(
    reader: Reader, *, model_nodes: Sequence[tuple[str, str]]
) -> list[BranchRowBySlugs]:
    """The By-model rows of the (model slug, node slug) pairs that have one, with the
    model, the node and its counts."""
    return await rows_of_pairs(reader, _branch_rows_of_slug_pairs, BranchRowBySlugs, model_nodes)
