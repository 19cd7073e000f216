"""How models treat methods: a model's treatments, and a branch's By-model table."""

from collections.abc import Sequence
from dataclasses import replace
from functools import cache
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


def first_page(rows: Sequence[BranchTreatment], size: int, total: int) -> Page[BranchTreatment]:
    """The first page of a model's treatments from the list's first ``size`` + 1 rows
    (``total``: the list's length), with the key values of _BY_STRENGTH_THEN_NAME that
    model_treatments_page reads the next pages from."""
    return paging.first_page(
        rows,
        size,
        key_of=lambda row: (
            row.treatment.strength_rank,
            row.treatment.method_name_rank,
            row.method.name,
            row.method.slug,
        ),
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


# A model's treatments in the other orders (`Model.treatments(orderBy:)`), each read in
# order off an index, forward or backward: each order's other direction is its exact
# reverse (ties reversed too), so that no order needs a column or an index of its own.
# Strongest first and weakest first read the (model, strength, name rank) index; by name,
# the (model, name rank) index; by node, the (model, node_pre, name rank) index. The
# filter by strength is then no range of an index (`+ 0`), so that neither database reads
# the strength index instead and sorts all of the model's treatments (at size L, 330-630
# ms for the first page of the model with 44,800).
_OF_MODEL_IN_ORDER = _WITH_METHODS.where(
    col(TreatmentRow.model_id) == bindparam("model"),
    col(TreatmentRow.strength_rank) + 0 <= bindparam("max_rank"),
)
# By the methods' nodes (tree order, or its reverse), ties by method name: joined to the
# node, whose path and slug path a position in this order stands for (as
# store.nodes.IN_PRE_ORDER's), so that a cursor outlives a load. In a branch: the branch's
# interval of node_pre, read in order off the (model, node position, name rank) index,
# whatever the branch's size.
_OF_MODEL_BY_NODE = _OF_MODEL_IN_ORDER.join(NodeRow, col(NodeRow.pre) == col(TreatmentRow.node_pre))
METHOD_NODE = (col(NodeRow.path), col(NodeRow.slug_path))
_OF_MODEL_BY_NODE_IN_BRANCH = _OF_MODEL_BY_NODE.where(*_IN_BRANCH)
_OUTSIDE_INDEX_IN_BRANCH = (
    col(TreatmentRow.node_pre) + 0 >= bindparam("pre"),
    col(TreatmentRow.node_pre) + 0 <= bindparam("last"),
)
STRONGEST_FIRST = Sort("strongest", descending=True)


def model_treatment_keys(sort: Sort) -> list[SortKey]:
    """The keys of a model's treatments in the order ``sort`` names (`Model.treatments`'s
    `orderBy`), each direction the exact reverse of the other: by `strongest` (strongest
    first then method name A to Z when descending, the default; weakest first then Z to A
    otherwise), by the method's `name` (A to Z then slug, or the reverse) or by its `node`
    (tree order then method name A to Z, or the reverse). Each is read off an index of
    treatment (TreatmentRow), forward or backward."""
    # store.paging reads `descending` keys backward; the natural order of `strongest` is
    # ascending ranks (core 1 first).
    backward = sort.descending != (sort.field == "strongest")
    by_name = SortKey(col(TreatmentRow.method_name_rank), backward, stands_for=METHOD_NAME)
    if sort.field == "strongest":
        return [SortKey(col(TreatmentRow.strength_rank), backward), by_name]
    if sort.field == "name":
        return [by_name]
    return [SortKey(col(TreatmentRow.node_pre), backward, stands_for=METHOD_NODE), by_name]


def _in_order(sort: Sort) -> AnySelect:
    """A model's treatments, as ``sort`` reads them in order off its index."""
    if sort.field == "strongest":
        return _OF_MODEL
    return _OF_MODEL_BY_NODE if sort.field == "node" else _OF_MODEL_IN_ORDER


@cache
def _in_large_branch(sort: Sort) -> AnySelect:
    """A model's treatments in a branch, as ``sort`` reads them in order off its index,
    passing over those outside the branch (SCAN_FROM): built once per order."""
    return _in_order(sort).where(*_OUTSIDE_INDEX_IN_BRANCH)


def _of_model(
    model_id: int,
    max_rank: int,
    within: NodeRow | None,
    in_branch: int,
    sort: Sort = STRONGEST_FIRST,
) -> tuple[Template, list[SortKey]]:
    """A model's treatments as a page reads them in the order of ``sort`` (the statement
    and its sort keys): all of them, or those in the branch of ``within`` (``in_branch``
    of them: SCAN_FROM)."""
    params = {"model": model_id, "max_rank": max_rank}
    keys = model_treatment_keys(sort)
    if within is None:
        return Template(_in_order(sort), ("model treatments", sort), params), keys
    params |= {"pre": within.pre, "last": within.last}
    if sort.field == "node":
        statement = _OF_MODEL_BY_NODE_IN_BRANCH
        return Template(statement, ("model treatments in a branch", sort), params), keys
    if in_branch >= SCAN_FROM:
        statement = _in_large_branch(sort)
        return Template(statement, ("model treatments in a large branch", sort), params), keys
    listing = Template(_OF_MODEL_IN_BRANCH, ("model treatments in a branch", sort), params)
    # In a small branch every order, with the same values, sorts the rows of the (model,
    # node_pre) index's range, the branch's, which costs what the answer holds. The first
    # key's `+ 0` is no column of an index, so that neither database reads the model's
    # treatments in order off that order's index instead, filtering out those elsewhere:
    # for a small branch of a model with 10,000 treatments outside it, that read all
    # 10,000 (tests/test_query_cost.py).
    first, *rest = keys
    return listing, [replace(first, column=first.column + 0), *rest]


async def model_treatments_page(
    reader: Reader,
    *,
    model_id: int,
    max_rank: int,
    within: NodeRow | None,
    in_branch: int | None = None,
    sort: Sort = STRONGEST_FIRST,
    window: Window,
) -> Page[TreatmentWithMethod]:
    """A page of the methods a model treats, by default strongest first, then by method
    name (``sort``: model_treatment_keys): all of them, or those in the branch of
    ``within``. ``in_branch``: how many of the model's treatments, of any strength, the
    branch holds (its By-model row's method count, read here if the caller does not know
    it), which says how best to read them."""
    if within is not None and in_branch is None and sort.field != "node":
        found = await reader.rows(_IN_BRANCH_COUNT, {"node": within.id, "model": model_id})
        in_branch = found[0].value if found else 0
    listing, keys = _of_model(model_id, max_rank, within, in_branch or 0, sort)
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


def _of_method(method_id: int, max_rank: int, sort: Sort = STRONGEST_FIRST) -> Template:
    params = {"method": method_id, "max_rank": max_rank}
    return Template(_OF_METHOD, ("method treatments", sort), params)


def method_treatment_keys(sort: Sort) -> list[SortKey]:
    """The keys of a method's treatments in the order ``sort`` names
    (`Method.treatmentsConnection`'s `orderBy`): by `strongest` (strongest first when
    descending, the default; weakest first otherwise), ties by model name A to Z, then
    slug; or as models are ordered, by `name` or `release_date` (store.models.model_order:
    undated models last either way)."""
    if sort.field == "strongest":
        strength = SortKey(col(TreatmentRow.strength_rank), descending=not sort.descending)
        return [strength, model_order(Sort("name"))]
    return [model_order(sort)]


async def method_treatments_page(
    reader: Reader,
    *,
    method_id: int,
    max_rank: int,
    sort: Sort = STRONGEST_FIRST,
    window: Window,
) -> Page[TreatmentOfModel]:
    """A page of the models that treat a method, by default strongest first, then by
    model name, then slug (``sort``: method_treatment_keys)."""
    return await paging.keyset_page(
        reader,
        _of_method(method_id, max_rank, sort),
        method_treatment_keys(sort),
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
    # The rows of _branch_treatments_of_pairs, each numbered within its pair in the list's
    # order: the caller keeps the first few of every pair.
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
    # The first rows of each pair joined back by their key alone: joined to the branch
    # again by its interval, PostgreSQL read every node up to each row's (15.9 ms where
    # this takes 5.9 ms, a By-model page of 25 rows at size M).
    return (
        _WITH_METHODS.add_columns(ranked.c.node_id)
        .join(
            ranked,
            and_(
                ranked.c.model_id == col(TreatmentRow.model_id),
                ranked.c.method_id == col(TreatmentRow.method_id),
            ),
        )
        .where(ranked.c.number <= bindparam("limit"))
        .order_by(col(TreatmentRow.strength_rank), col(TreatmentRow.method_name_rank))
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
