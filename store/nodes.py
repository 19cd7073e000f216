"""Nodes of the tree, each read with its counts (`NodeStatsRow`): whoever reads a node
almost always shows its counts, and then they need no statement of their own."""

from collections.abc import Hashable, Sequence
from functools import cache
from typing import NamedTuple

from sqlalchemy import ColumnElement, Select, SQLColumnExpression, and_, bindparam, select
from sqlmodel import col

from store import paging
from store.batches import rows_where_in
from store.paging import Page, SortKey, Template, Window
from store.reader import Reader
from store.rows import AnySelect, Prepared, keys
from store.tables import NodeClosureRow, NodeRow, NodeStatsRow


class NodeWithStats(NamedTuple):
    """A node with its counts, as every statement here returns it."""

    node: NodeRow
    stats: NodeStatsRow


class NodeAndRelative(NamedTuple):
    """A node with its counts, and the id of the node it was read for (an ancestor's
    descendant, a descendant's ancestor)."""

    node: NodeRow
    stats: NodeStatsRow
    relative_id: int


def in_branch(
    node_pre: SQLColumnExpression[int], branch: NodeRow | type[NodeRow]
) -> ColumnElement[bool]:
    """``node_pre`` (a node's pre-order position, such as TreatmentRow.node_pre) lies in
    ``branch``'s subtree: ``branch`` is a NodeRow record or an alias of the node table."""
    return and_(node_pre >= branch.pre, node_pre <= branch.last)


def branch_node_ids(node: NodeRow) -> Select[int | None]:
    """The IDs of ``node`` and every node below it (the same interval: one notion of a
    branch for every `within`)."""
    return select(col(NodeRow.id)).where(in_branch(col(NodeRow.pre), node))


@cache
def with_stats() -> AnySelect:
    """Nodes joined with their counts."""
    return select(NodeRow, NodeStatsRow).join(
        NodeStatsRow, col(NodeStatsRow.node_id) == col(NodeRow.id)
    )


async def nodes_where(
    reader: Reader, *, column: str, values: Sequence[Hashable]
) -> list[NodeWithStats]:
    """The nodes whose unique ``column`` (id, slug or slug_path) is one of ``values``."""
    return await rows_where_in(reader, with_stats, NodeWithStats, NodeRow, column, values)


_ROOTS = Prepared.of(
    with_stats().where(col(NodeRow.parent_id).is_(None)).order_by(col(NodeRow.pre)),
    NodeWithStats,
)
_TOP = Prepared.of(
    with_stats().where(col(NodeRow.level) <= bindparam("levels")).order_by(col(NodeRow.pre)),
    NodeWithStats,
)
_CHILDREN = Prepared.of(
    with_stats().where(col(NodeRow.parent_id).in_(keys())).order_by(col(NodeRow.pre)),
    NodeWithStats,
)


async def top_nodes(reader: Reader, *, levels_below_roots: int) -> list[NodeWithStats]:
    """The roots and the ``levels_below_roots`` levels below them, in pre-order (a node's
    parent before it): a tree's pages in one statement."""
    if not levels_below_roots:
        return await reader.rows(_ROOTS)
    return await reader.rows(_TOP, {"levels": levels_below_roots + 1})


async def children_of(reader: Reader, *, node_ids: Sequence[int]) -> list[NodeWithStats]:
    """The children of each of ``node_ids``, in pre-order (by name)."""
    return await reader.rows(_CHILDREN, {"keys": list(node_ids)})


# The node itself comes too (depth 0, last): a page that shows a node read by its id beside
# its breadcrumb (a method's node) has both in one statement.
_LINEAGE = Prepared.of(
    with_stats()
    .add_columns(col(NodeClosureRow.descendant_id))
    .join(NodeClosureRow, col(NodeClosureRow.ancestor_id) == col(NodeRow.id))
    .where(col(NodeClosureRow.descendant_id).in_(keys()))
    .order_by(col(NodeRow.level)),
    NodeAndRelative,
)


async def lineages_of(reader: Reader, *, node_ids: Sequence[int]) -> list[NodeAndRelative]:
    """Each of ``node_ids`` with its ancestors (its id the rows' ``relative_id``), root
    first and the node itself last."""
    return await reader.rows(_LINEAGE, {"keys": list(node_ids)})


_DESCENDANTS = (
    with_stats()
    .add_columns(col(NodeClosureRow.ancestor_id))
    .join(NodeClosureRow, col(NodeClosureRow.descendant_id) == col(NodeRow.id))
    .where(col(NodeClosureRow.ancestor_id).in_(keys()), col(NodeClosureRow.depth) > 0)
    .order_by(col(NodeRow.pre))
)
_ALL_DESCENDANTS = Prepared.of(_DESCENDANTS, NodeAndRelative)
_NEAR_DESCENDANTS = Prepared.of(
    _DESCENDANTS.where(col(NodeClosureRow.depth) <= bindparam("max_depth")), NodeAndRelative
)


async def descendants_of(
    reader: Reader, *, node_ids: Sequence[int], max_depth: int | None
) -> list[NodeAndRelative]:
    """The nodes below each of ``node_ids`` (its id the row's ``relative_id``) in
    pre-order, at most ``max_depth`` levels down when given."""
    if max_depth is None:
        return await reader.rows(_ALL_DESCENDANTS, {"keys": list(node_ids)})
    return await reader.rows(_NEAR_DESCENDANTS, {"keys": list(node_ids), "max_depth": max_depth})


_BY_PATH_KEY = Prepared.of(
    with_stats().where(col(NodeRow.path_key) == bindparam("path_key")), NodeWithStats
)


async def nodes_by_path_key(reader: Reader, *, path_key: str) -> list[NodeWithStats]:
    """The nodes whose names path, case-folded, is ``path_key``."""
    return await reader.rows(_BY_PATH_KEY, {"path_key": path_key})


# The nodes below one node, in pre-order (children by name): its branch's interval of
# pre-order positions, down to a level.
_BELOW = Template(
    with_stats().where(
        col(NodeRow.pre) > bindparam("pre"),
        col(NodeRow.pre) <= bindparam("last"),
        col(NodeRow.level) <= bindparam("deepest"),
    ),
    "below",
    {},
)
# Pre-order numbers are renumbered by a load that adds or moves a node. A node's place in
# pre-order (children by name) follows from its names path and slug path: found again by
# those, a cursor outlives a load that leaves its node where it was (renamed or moved, or
# an ancestor renamed, it is no longer found so, and the cursor has expired).
IN_PRE_ORDER = [SortKey(col(NodeRow.pre), stands_for=(col(NodeRow.path), col(NodeRow.slug_path)))]
_NO_DEPTH_LIMIT = 2**31 - 1


def _below(node: NodeRow, max_depth: int | None) -> Template:
    deepest = _NO_DEPTH_LIMIT if max_depth is None else node.level + max_depth
    return Template(
        _BELOW.statement, _BELOW.shape, {"pre": node.pre, "last": node.last, "deepest": deepest}
    )


async def nodes_below_page(
    reader: Reader, *, node: NodeRow, max_depth: int | None, window: Window
) -> Page[NodeWithStats]:
    """A page of the nodes below ``node`` (at most ``max_depth`` levels down when given:
    1 for its children) with their counts, in pre-order."""
    return await paging.keyset_page(
        reader, _below(node, max_depth), IN_PRE_ORDER, window, rows=NodeWithStats
    )


async def nodes_below_count(reader: Reader, *, node: NodeRow, max_depth: int | None) -> int:
    return await paging.count(reader, _below(node, max_depth))
