"""Methods, each read with its figures (`MethodStatsRow`: strongest treatment, model
count), which every view of a method shows."""

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import NamedTuple

from sqlalchemy import ColumnElement, SQLColumnExpression, bindparam, select
from sqlmodel import col

from store import paging
from store.batches import rows_where_in
from store.nodes import branch_node_ids
from store.paging import Listing, Page, Sort, SortKey, Template, Window
from store.reader import Reader
from store.rows import AnySelect, Prepared, Value, keys
from store.summary import recorded_count
from store.tables import (
    MethodRow,
    MethodStatsRow,
    ModelRow,
    NodeRow,
    NodeStatsRow,
    ReleaseRow,
    TreatmentRow,
)


class MethodWithStats(NamedTuple):
    """A method with its figures, as every view of a method reads it."""

    method: MethodRow
    stats: MethodStatsRow


class MethodWithNode(NamedTuple):
    """A method with its figures, and its node with its counts: a row of a page of
    methods."""

    method: MethodRow
    stats: MethodStatsRow
    node: NodeRow
    node_stats: NodeStatsRow


class TreatmentOfModel(NamedTuple):
    """A model's treatment of a method, with the model."""

    treatment: TreatmentRow
    model: ModelRow


@cache
def with_stats() -> AnySelect:
    """Methods joined with their figures."""
    return select(MethodRow, MethodStatsRow).join(
        MethodStatsRow, col(MethodStatsRow.method_id) == col(MethodRow.id)
    )


def contains(
    column: SQLColumnExpression[str | None] | str | None, text: str
) -> ColumnElement[bool]:
    """``column`` contains ``text``, any case, with LIKE's wildcards taken literally."""
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return col(column).ilike(f"%{escaped}%", escape="\\")


async def methods_where(
    reader: Reader, *, column: str, values: Sequence[Hashable]
) -> list[MethodWithStats]:
    """The methods whose unique ``column`` (id or slug) is one of ``values``."""
    return await rows_where_in(reader, with_stats, MethodWithStats, MethodRow, column, values)


@dataclass(frozen=True)
class MethodSelection:
    """Which methods a list holds; every given condition must hold."""

    filed_at: NodeRow | None = None  # only the methods filed at this node
    within: Sequence[NodeRow] = ()  # only the methods in each of these branches
    name_contains: str | None = None
    max_rank: int | None = None  # strongest treatment at least this strong (a rank)
    has_evidence: bool | None = None
    first_seen_after: int | None = None  # only those first seen in a later release

    def is_everything(self) -> bool:
        return self == MethodSelection()


@cache
def _with_nodes() -> AnySelect:
    # The page brings each method's node (with its counts) too: a list of methods almost
    # always shows where each is filed.
    return (
        with_stats()
        .add_columns(NodeRow, NodeStatsRow)
        .join(NodeRow, col(NodeRow.id) == col(MethodRow.node_id))
        .join(NodeStatsRow, col(NodeStatsRow.node_id) == col(NodeRow.id))
    )


def _selected(
    statement: AnySelect, selection: MethodSelection, *, walk_by_name: bool = False
) -> AnySelect:
    """``statement`` narrowed to ``selection``. With ``walk_by_name`` its branches are
    checked method by method while the rows are read in name order (`node_id + 0` keeps
    SQLite from reading the branch's methods by node and sorting them all): for a branch
    that holds a large share of all methods, a page by name is then found after reading
    a few times its own rows."""
    node_id = col(MethodRow.node_id) + 0 if walk_by_name else col(MethodRow.node_id)
    if selection.filed_at is not None:
        statement = statement.where(col(MethodRow.node_id) == selection.filed_at.id)
    for node in selection.within:
        statement = statement.where(node_id.in_(branch_node_ids(node)))
    if selection.name_contains:
        statement = statement.where(contains(MethodRow.name, selection.name_contains))
    if selection.max_rank is not None:
        statement = statement.where(col(MethodStatsRow.strongest_rank) <= selection.max_rank)
    if selection.has_evidence is not None:
        present = col(MethodStatsRow.model_count) > 0
        statement = statement.where(present if selection.has_evidence else ~present)
    if selection.first_seen_after is not None:
        statement = statement.where(col(MethodRow.first_seen) > selection.first_seen_after)
    return statement


def _listings(selection: MethodSelection) -> tuple[Listing, Listing]:
    """What a page lists (methods with their nodes) and what its count counts."""
    if selection.is_everything():  # the whole list: its statements are prepared once
        return Template(_with_nodes(), "methods", {}), Template(with_stats(), "methods", {})
    return _selected(_with_nodes(), selection), _selected(with_stats(), selection)


# What a method's name ranks stand for (store.orders): a position in a list by name is
# found again by these after another load renumbers the ranks (store.paging).
METHOD_NAME = (col(MethodRow.name), col(MethodRow.slug))


def method_by_name(*, descending: bool = False) -> SortKey:
    """The key that orders methods by name, A to Z (or Z to A), equal names by slug."""
    rank = MethodRow.name_desc_rank if descending else MethodRow.name_rank
    return SortKey(col(rank), stands_for=METHOD_NAME)


def _order_keys(sort: Sort) -> list[SortKey]:
    """The keys of an order: by `name` (A to Z, or Z to A when descending), or by
    `strongest` or `model_count` (the largest first when descending) with ties by name A to
    Z either way, methods no model treats last either way. The last two read method_stats
    alone, by the indexes MethodStatsRow declares for them."""
    if sort.field == "name":
        return [method_by_name(descending=sort.descending)]
    # The name rank copied beside the figures: both keys then come from one index.
    by_name = SortKey(col(MethodStatsRow.name_rank), stands_for=METHOD_NAME)
    if sort.field == "strongest":
        # Descending is strongest first; either way untreated methods come last.
        order = MethodStatsRow.strongest_order if sort.descending else MethodStatsRow.weakest_order
        return [SortKey(col(order)), by_name]
    if sort.descending:  # the most first: the count's negation, ascending, read by index
        return [SortKey(col(MethodStatsRow.most_models_order)), by_name]
    return [SortKey(col(MethodStatsRow.model_count)), by_name]


async def methods_page(
    reader: Reader,
    *,
    selection: MethodSelection,
    sort: Sort,
    window: Window,
    known: NodeStatsRow | None = None,
) -> Page[MethodWithNode]:
    """A page of methods by `name`, `strongest` or `model_count` (see `_order_keys`).
    ``known``: the counts of the node the selection is at, when the caller has them (a
    node page has), which are then not read again."""
    listed, _ = _listings(selection)
    if isinstance(listed, Template):
        listed = Template(listed.statement, ("methods", sort), {})
    if selection.is_everything():  # counted at load: counting 200k rows took 120 ms at L
        return await paging.keyset_page(
            reader,
            listed,
            _order_keys(sort),
            window,
            rows=MethodWithNode,
            counted=_ALL_METHODS_RECORDED,
        )
    counted = _counted_at_load(selection)
    if counted is None:
        return await paging.keyset_page(
            reader, listed, _order_keys(sort), window, rows=MethodWithNode
        )
    node_id, branch = counted
    may_walk = _may_walk(reader, branch, sort)  # which needs all methods' count too
    counts = None if may_walk else _known(known, node_id)
    if counts is None:
        in_branch, filed_here, everything = await _figures(reader, node_id)
        if may_walk and in_branch**2 > window.size * everything:
            listed = _selected(_with_nodes(), selection, walk_by_name=True)
    else:
        in_branch, filed_here = counts
    page = await paging.keyset_page(
        reader, listed, _order_keys(sort), replace(window, with_total=False), rows=MethodWithNode
    )
    return replace(page, total=in_branch if branch else filed_here) if window.with_total else page


async def methods_count(
    reader: Reader, *, selection: MethodSelection, known: NodeStatsRow | None = None
) -> int:
    if selection.is_everything():
        return await _all_methods(reader)
    counted = _counted_at_load(selection)
    if counted is None:
        return await paging.count(reader, _listings(selection)[1])
    node_id, branch = counted
    in_branch, filed_here = _known(known, node_id) or (await _figures(reader, node_id))[:2]
    return in_branch if branch else filed_here


def _counted_at_load(selection: MethodSelection) -> tuple[int, bool] | None:
    """(node id, whether its branch's) when the list is all of a node's own methods or of
    its branch's, which the load counted (NodeStatsRow): counting a root's branch row by
    row took 670 ms at size L."""
    if len(selection.within) == 1 and selection == MethodSelection(within=selection.within):
        node_id = selection.within[0].id
        return None if node_id is None else (node_id, True)
    if selection.filed_at is not None and selection == MethodSelection(filed_at=selection.filed_at):
        node_id = selection.filed_at.id
        return None if node_id is None else (node_id, False)
    return None


def _may_walk(reader: Reader, branch: bool, sort: Sort) -> bool:
    """Whether a page by name of a branch's methods may be read walking all methods in name
    order (SQLite only: PostgreSQL's planner weighs the two ways itself). Walking reads
    about size x all / in-branch rows, sorting the branch about in-branch rows: walking
    wins when in-branch^2 > size x all (methods_page). At size L a root's first page by name
    took 600 ms sorted and 2.4 ms walked; a small branch's 0.3 ms sorted and 740 ms walked."""
    return reader.dialect == "sqlite" and sort.field == "name" and branch


class _Figures(NamedTuple):
    in_branch: int
    filed_here: int
    everything: int  # all methods


# A node's method counts, and all methods (as the served release recorded them), in one
# statement.
_FIGURES = Prepared.of(
    select(
        col(NodeStatsRow.methods_in_branch),
        col(NodeStatsRow.methods_filed_here),
        recorded_count(col(MethodRow.id), col(ReleaseRow.methods)),
    ).where(col(NodeStatsRow.node_id) == bindparam("node")),
    _Figures,
)


_ALL_METHODS_RECORDED = recorded_count(col(MethodRow.id), col(ReleaseRow.methods))
_ALL_METHODS = Prepared.of(select(_ALL_METHODS_RECORDED), Value[int])


async def _all_methods(reader: Reader) -> int:
    """How many methods there are, as the served release recorded them."""
    found, *_ = await reader.rows(_ALL_METHODS, {})
    return int(found.value)


def _known(known: NodeStatsRow | None, node_id: int) -> tuple[int, int] | None:
    """A node's methods in its branch and filed at it, from its counts at hand, if they
    are that node's."""
    if known is None or known.node_id != node_id:
        return None
    return known.methods_in_branch, known.methods_filed_here


async def _figures(reader: Reader, node_id: int) -> _Figures:
    found, *_ = await reader.rows(_FIGURES, {"node": node_id})
    return _Figures(int(found.in_branch), int(found.filed_here), int(found.everything))


_TREATMENTS_OF_METHODS = Prepared.of(
    select(TreatmentRow, ModelRow)
    .join(ModelRow, col(ModelRow.id) == col(TreatmentRow.model_id))
    .where(col(TreatmentRow.method_id).in_(keys()))
    .order_by(col(TreatmentRow.strength_rank), col(ModelRow.name_rank)),
    TreatmentOfModel,
)


async def treatments_of_methods(
    reader: Reader, *, method_ids: Sequence[int]
) -> list[TreatmentOfModel]:
    """Each method's treatments with their models, strongest first, then by model name."""
    return await reader.rows(_TREATMENTS_OF_METHODS, {"keys": list(method_ids)})
