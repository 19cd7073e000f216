"""Per-request DataLoaders: each batches the lookups of one resolver into one statement.

Batch functions return results in key order. Loaders that fetch rows another loader
would fetch again (models beside their treatments, say) prime that loader with them.
"""

import asyncio
from collections import defaultdict
from collections.abc import Awaitable, Callable, Hashable, Sequence
from functools import cache, cached_property
from typing import Any, TypeVar

from sqlalchemy import and_, bindparam, or_, select
from sqlalchemy.orm import aliased
from sqlmodel import col
from strawberry.dataloader import DataLoader

from api.tables import (
    BranchModelRow,
    EvidenceRow,
    MethodRow,
    MethodStatsRow,
    ModelRow,
    NodeClosureRow,
    NodeRow,
    NodeStatsRow,
    SourceRow,
    TreatmentRow,
)
from schema.inputs import in_branch
from schema.reader import Reader
from schema.records import AnySelect, Prepared, keys

K = TypeVar("K", bound=Hashable)
R = TypeVar("R")
T = TypeVar("T")


class Loader(DataLoader[K, R]):
    """Strawberry's DataLoader, except that a primed value is kept as it is rather than
    as a finished future: priming is most of what a page does with its loaders (a tree
    primes every node's counts and children, a page of methods their figures and nodes),
    and making and settling a future cost more than the field that reads the value."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.primed: dict[K, R] = {}

    def prime(self, key: K, value: R, force: bool = False) -> None:
        if not force and key in self.primed:
            return  # primed already: kept, as DataLoader keeps a value it knows
        if self.batch is not None and not self.batch.dispatched:
            # A load of it may be waiting in the batch: DataLoader settles it with this.
            self.primed.pop(key, None)
            super().prime(key, value, force)
        elif force or self.cache_map.get(key) is None:
            self.primed[key] = value

    def load(self, key: K) -> Awaitable[R]:
        if key in self.primed:
            future: asyncio.Future[R] = self.loop.create_future()
            future.set_result(self.primed[key])
            return future
        return super().load(key)


async def required(loader: Loader[K, R] | Loader[K, R | None], key: K) -> R:
    """The row for ``key`` where a foreign key guarantees there is one."""
    row = await loader.load(key)
    if row is None:  # only a half-written database could get here
        raise LookupError(f"no row for {key!r}, which a foreign key refers to")
    return row


def now_or_later(
    loader: Loader[K, R] | Loader[K, R | None], key: K, build: Callable[[R], T]
) -> T | Awaitable[T]:
    """``build`` of the row (or list of rows) for ``key`` (a row a foreign key guarantees):
    at once when the loader already holds it (primed by the statement that fetched the
    parent, or fetched ahead: `schema.lookahead`), else an awaitable of it. A value at
    once spares graphql-core a coroutine, a task and a turn of the event loop for the
    field, which cost more than the field itself."""
    row = loader.primed.get(key)
    if row is not None:
        return build(row)
    future = loader.cache_map.get(key)
    if future is not None and future.done() and not future.cancelled():
        row = future.result()  # a batch that failed fails here, as an await would
        if row is not None:
            return build(row)

    async def later() -> T:
        return build(await required(loader, key))

    return later()


_ROWS_WHERE: dict[tuple[type[Any], str], Prepared] = {}


def _rows_where(entity: type[Any], column_name: str) -> Prepared:
    """The rows of ``entity`` whose ``column_name`` is one of `keys` (built once); a
    node's come with its counts (`_with_counts`): whoever looks a node up almost always
    shows them, and they then need no statement of their own."""
    key = (entity, column_name)
    if key not in _ROWS_WHERE:
        statement = select(entity).where(col(getattr(entity, column_name)).in_(keys()))
        _ROWS_WHERE[key] = _with_counts(statement) if entity is NodeRow else Prepared.of(statement)
    return _ROWS_WHERE[key]


def _one_each(
    fetch: Callable[[Prepared, dict[str, Any]], Awaitable[list[R]]], entity: type[R], column: Any
) -> Callable[[list[K]], Awaitable[list[R | None]]]:
    """Rows of ``entity`` whose unique ``column`` is each key (None where none is), as
    ``fetch`` reads them."""
    name = column.key
    statement = _rows_where(entity, name)

    async def load(keys: list[K]) -> list[R | None]:
        by_key = {getattr(row, name): row for row in await fetch(statement, {"keys": keys})}
        return [by_key.get(key) for key in keys]

    return load


def _many_each(
    reader: Reader, statement: Prepared, key_of: Callable[[Any], K]
) -> Callable[[list[K]], Awaitable[list[list[Any]]]]:
    """For each key, the entities of ``statement`` (in its order, its list parameter `keys`)
    that ``key_of`` maps to it. ``statement`` selects the entity first; ``key_of`` reads the
    key off the whole row."""

    async def load(keys: list[K]) -> list[list[Any]]:
        grouped: dict[K, list[Any]] = defaultdict(list)
        for row in await reader.rows(statement, {"keys": keys}):
            grouped[key_of(row)].append(row[0])
        return [grouped.get(key, []) for key in keys]

    return load


@cache
def _pairs_statement(
    build: Callable[[Callable[[Sequence[Any]], Any]], AnySelect], groups: int
) -> Prepared:
    """``build(pairs_in)`` for pairs whose first values take ``groups`` distinct values:
    `pairs_in(columns)` is (a, b) in the pairs, written as `a = x AND b IN (...)` for each
    x (SQLite cannot use an index for a row-value IN list: it scans the table). Built once
    for each number of groups (in practice one or a few)."""

    def pairs_in(columns: Sequence[Any]) -> Any:
        first, second = columns
        return or_(
            *(
                and_(first == bindparam(f"a{index}"), second.in_(keys(f"b{index}")))
                for index in range(groups)
            )
        )

    return Prepared.of(build(pairs_in))


def _pairs_params(pairs: Sequence[tuple[Any, Any]]) -> dict[str, Any]:
    grouped: dict[Any, list[Any]] = defaultdict(list)
    for a, b in pairs:
        grouped[a].append(b)
    params: dict[str, Any] = {}
    for index, (a, bs) in enumerate(grouped.items()):
        params[f"a{index}"], params[f"b{index}"] = a, bs
    return params


async def _rows_of_pairs(
    reader: Reader,
    build: Callable[[Callable[[Sequence[Any]], Any]], AnySelect],
    pairs: Sequence[tuple[Any, Any]],
) -> list[tuple[Any, ...]]:
    params = _pairs_params(pairs)
    return await reader.rows(_pairs_statement(build, len(params) // 2), params)


def _with_counts(statement: AnySelect) -> Prepared:
    """``statement`` (a select of NodeRow) with each node's counts joined."""
    return Prepared.of(
        statement.add_columns(NodeStatsRow).join(
            NodeStatsRow, col(NodeStatsRow.node_id) == col(NodeRow.id)
        )
    )


ROOTS = _with_counts(
    select(NodeRow).where(col(NodeRow.parent_id).is_(None)).order_by(col(NodeRow.pre))
)
TOP = _with_counts(
    select(NodeRow).where(col(NodeRow.level) <= bindparam("levels")).order_by(col(NodeRow.pre))
)
CHILDREN = _with_counts(
    select(NodeRow).where(col(NodeRow.parent_id).in_(keys())).order_by(col(NodeRow.pre))
)
ANCESTORS = Prepared.of(
    select(NodeRow, col(NodeClosureRow.descendant_id))
    .join(NodeClosureRow, col(NodeClosureRow.ancestor_id) == col(NodeRow.id))
    .where(col(NodeClosureRow.descendant_id).in_(keys()), col(NodeClosureRow.depth) > 0)
    .order_by(col(NodeRow.level))
)
DESCENDANTS = (
    select(NodeRow, col(NodeClosureRow.ancestor_id))
    .join(NodeClosureRow, col(NodeClosureRow.descendant_id) == col(NodeRow.id))
    .where(col(NodeClosureRow.ancestor_id).in_(keys()), col(NodeClosureRow.depth) > 0)
    .order_by(col(NodeRow.pre))
)
ALL_DESCENDANTS = Prepared.of(DESCENDANTS)
NEAR_DESCENDANTS = Prepared.of(
    DESCENDANTS.where(col(NodeClosureRow.depth) <= bindparam("max_depth"))
)
SOURCES = Prepared.of(
    select(SourceRow).where(col(SourceRow.model_id).in_(keys())).order_by(col(SourceRow.id))
)
TREATMENTS_OF_METHODS = Prepared.of(
    select(TreatmentRow, ModelRow)
    .join(ModelRow, col(ModelRow.id) == col(TreatmentRow.model_id))
    .where(col(TreatmentRow.method_id).in_(keys()))
    .order_by(col(TreatmentRow.strength_rank), col(ModelRow.name_rank))
)


def _evidence_of_pairs(pairs_in: Callable[[Sequence[Any]], Any]) -> AnySelect:
    return (
        select(EvidenceRow)
        .where(pairs_in([col(EvidenceRow.model_id), col(EvidenceRow.method_id)]))
        .order_by(col(EvidenceRow.id))
    )


_BRANCH = aliased(NodeRow, name="branch")


def _branch_treatments_of_pairs(pairs_in: Callable[[Sequence[Any]], Any]) -> AnySelect:
    # For each (branch, model): the model's treatments whose node lies in the branch's
    # interval, read off the (model_id, node_pre) index: the rows of the answer, whatever
    # the size of the branch.
    return (
        select(TreatmentRow, MethodRow, col(_BRANCH.id))
        .join(_BRANCH, in_branch(col(TreatmentRow.node_pre), _BRANCH))
        .join(MethodRow, col(MethodRow.id) == col(TreatmentRow.method_id))
        .where(pairs_in([col(_BRANCH.id), col(TreatmentRow.model_id)]))
        .order_by(col(TreatmentRow.strength_rank), col(MethodRow.name_rank))
    )


def _branches_of_model_levels(pairs_in: Callable[[Sequence[Any]], Any]) -> AnySelect:
    return (
        select(BranchModelRow, NodeRow)
        .join(NodeRow, col(NodeRow.id) == col(BranchModelRow.node_id))
        .where(pairs_in([col(BranchModelRow.model_id), col(NodeRow.level)]))
        .order_by(col(NodeRow.pre))
    )


class Loaders:
    """Every loader of one request. Named for what they map. Each is made on first use:
    a request uses a few of them, and making all twenty cost more than its smaller
    queries' fields."""

    def __init__(self, reader: Reader) -> None:
        self.reader = reader

    @cached_property
    def node_by_id(self) -> Loader[int, NodeRow | None]:
        return Loader(_one_each(self.nodes_with_counts, NodeRow, NodeRow.id))

    @cached_property
    def node_by_slug(self) -> Loader[str, NodeRow | None]:
        return Loader(_one_each(self.nodes_with_counts, NodeRow, NodeRow.slug))

    @cached_property
    def node_by_slug_path(self) -> Loader[str, NodeRow | None]:
        return Loader(_one_each(self.nodes_with_counts, NodeRow, NodeRow.slug_path))

    @cached_property
    def stats_by_node_id(self) -> Loader[int, NodeStatsRow | None]:
        return Loader(_one_each(self.reader.records, NodeStatsRow, NodeStatsRow.node_id))

    @cached_property
    def method_by_id(self) -> Loader[int, MethodRow | None]:
        return Loader(_one_each(self.reader.records, MethodRow, MethodRow.id))

    @cached_property
    def method_by_slug(self) -> Loader[str, MethodRow | None]:
        return Loader(_one_each(self.reader.records, MethodRow, MethodRow.slug))

    @cached_property
    def method_stats_by_id(self) -> Loader[int, MethodStatsRow | None]:
        return Loader(_one_each(self.reader.records, MethodStatsRow, MethodStatsRow.method_id))

    @cached_property
    def model_by_id(self) -> Loader[int, ModelRow | None]:
        return Loader(_one_each(self.reader.records, ModelRow, ModelRow.id))

    @cached_property
    def model_by_slug(self) -> Loader[str, ModelRow | None]:
        return Loader(_one_each(self.reader.records, ModelRow, ModelRow.slug))

    @cached_property
    def source_by_id(self) -> Loader[int, SourceRow | None]:
        return Loader(_one_each(self.reader.records, SourceRow, SourceRow.id))

    @cached_property
    def source_by_slug(self) -> Loader[str, SourceRow | None]:
        return Loader(_one_each(self.reader.records, SourceRow, SourceRow.slug))

    @cached_property
    def evidence_by_key(self) -> Loader[str, EvidenceRow | None]:
        return Loader(_one_each(self.reader.records, EvidenceRow, EvidenceRow.key))

    @cached_property
    def children_by_node_id(self) -> Loader[int, list[NodeRow]]:
        return Loader(self._children_by_node_id)

    @cached_property
    def ancestors_by_node_id(self) -> Loader[int, list[Any]]:
        return Loader(_many_each(self.reader, ANCESTORS, lambda row: row[1]))

    @cached_property
    def sources_by_model_id(self) -> Loader[int, list[Any]]:
        return Loader(_many_each(self.reader, SOURCES, lambda row: row[0].model_id))

    @cached_property
    def evidence_by_pair(self) -> Loader[tuple[int, int], list[Any]]:
        return Loader(self._evidence_by_pair)

    @cached_property
    def treatments_by_method_id(self) -> Loader[int, list[Any]]:
        return Loader(self._treatments_by_method_id)

    @cached_property
    def branch_treatments_by_pair(self) -> Loader[tuple[int, int], list[Any]]:
        return Loader(self._branch_treatments_by_pair)

    @cached_property
    def branches_by_model_level(self) -> Loader[tuple[int, int], list[Any]]:
        return Loader(self._branches_by_model_level)

    @cached_property
    def descendants_by_node(self) -> Loader[tuple[int, int | None], list[NodeRow]]:
        return Loader(self._descendants_by_node)

    def prime_models(self, models: Sequence[ModelRow]) -> None:
        for model in models:
            if model.id is not None:
                self.model_by_id.prime(model.id, model)

    async def nodes_with_counts(
        self, statement: Prepared, params: dict[str, Any] | None = None
    ) -> list[NodeRow]:
        """The nodes of ``statement`` (`_with_counts`: nodes with their counts): a tree's
        pages almost always show the counts, and a count at hand is a field that needs no
        await (`now_or_later`)."""
        nodes = []
        for row in await self.reader.rows(statement, params):
            node, stats = row[0], row[-1]
            self.stats_by_node_id.prime(node.id, stats)
            nodes.append(node)
        return nodes

    async def roots(self, levels: int = 0) -> list[NodeRow]:
        """The roots, and, in the same statement, the ``levels`` of nodes below them, whose
        lists of children are primed (`_prime_children`)."""
        if not levels:
            return await self.nodes_with_counts(ROOTS)
        nodes = await self.nodes_with_counts(TOP, {"levels": levels + 1})
        roots = [node for node in nodes if node.parent_id is None]
        self._prime_children(roots, [node for node in nodes if node.parent_id is not None], levels)
        return roots

    async def _children_by_node_id(self, ids: list[int]) -> list[list[NodeRow]]:
        """Each node's children in pre-order (by name), with their counts."""
        grouped: dict[int, list[NodeRow]] = defaultdict(list)
        for node in await self.nodes_with_counts(CHILDREN, {"keys": ids}):
            assert node.parent_id is not None  # selected by parent
            grouped[node.parent_id].append(node)
        return [grouped.get(node_id, []) for node_id in ids]

    def _prime_children(self, roots: list[NodeRow], below: list[NodeRow], levels: int) -> None:
        """Prime `children_by_node_id` from ``below``: the nodes up to ``levels`` below
        ``roots``, in pre-order (a node's parent before it); a node on the last of those
        levels is left to the loader, should anyone ask for its children."""
        depth: dict[int | None, int] = {root.id: 0 for root in roots}
        children: dict[int | None, list[NodeRow]] = {root.id: [] for root in roots}
        for node in below:
            children[node.parent_id].append(node)
            depth[node.id] = depth[node.parent_id] + 1
            if depth[node.id] < levels:
                children[node.id] = []
        for node_id, rows in children.items():
            assert node_id is not None  # rows read from the database have ids
            self.children_by_node_id.prime(node_id, rows)

    def prime_methods(self, methods: Sequence[MethodRow]) -> None:
        for method in methods:
            if method.id is not None:
                self.method_by_id.prime(method.id, method)

    async def _evidence_by_pair(self, pairs: list[tuple[int, int]]) -> list[list[EvidenceRow]]:
        """For (model, method): its evidence, in load order."""
        grouped: dict[tuple[int, int], list[EvidenceRow]] = defaultdict(list)
        for (evidence,) in await _rows_of_pairs(self.reader, _evidence_of_pairs, pairs):
            grouped[(evidence.model_id, evidence.method_id)].append(evidence)
        return [grouped.get(pair, []) for pair in pairs]

    async def _treatments_by_method_id(self, ids: list[int]) -> list[list[TreatmentRow]]:
        """Each method's treatments, strongest first, then by model name."""
        rows = await self.reader.rows(TREATMENTS_OF_METHODS, {"keys": ids})
        self.prime_models([model for _, model in rows])
        grouped: dict[int, list[TreatmentRow]] = defaultdict(list)
        for treatment, _ in rows:
            grouped[treatment.method_id].append(treatment)
        return [grouped.get(method_id, []) for method_id in ids]

    async def _branch_treatments_by_pair(
        self, pairs: list[tuple[int, int]]
    ) -> list[list[TreatmentRow]]:
        """For (node, model): the model's treatments of the branch's methods, strongest
        first, then by method name (casefold): the methods of one By-model row."""
        rows = await _rows_of_pairs(self.reader, _branch_treatments_of_pairs, pairs)
        self.prime_methods([method for _, method, _ in rows])
        grouped: dict[tuple[int, int], list[TreatmentRow]] = defaultdict(list)
        for treatment, _, node_id in rows:
            grouped[(node_id, treatment.model_id)].append(treatment)
        return [grouped.get(pair, []) for pair in pairs]

    async def _branches_by_model_level(
        self, keys: list[tuple[int, int]]
    ) -> list[list[BranchModelRow]]:
        """For (model, level): the model's strongest treatment in each branch at that level."""
        rows = await _rows_of_pairs(self.reader, _branches_of_model_levels, keys)
        grouped: dict[tuple[int, int], list[BranchModelRow]] = defaultdict(list)
        for branch, node in rows:
            self.node_by_id.prime(node.id, node)
            grouped[(branch.model_id, node.level)].append(branch)
        return [grouped.get(key, []) for key in keys]

    async def _descendants_by_node(self, keys: list[tuple[int, int | None]]) -> list[list[NodeRow]]:
        """For (node, max depth): the nodes below it in pre-order, at most max depth down."""
        by_depth: dict[int | None, list[int]] = defaultdict(list)
        for node_id, max_depth in keys:
            by_depth[max_depth].append(node_id)
        grouped: dict[tuple[int, int | None], list[NodeRow]] = defaultdict(list)
        # One statement per distinct maxDepth in the request (in practice one).
        for max_depth, ids in by_depth.items():
            if max_depth is None:
                rows = await self.reader.rows(ALL_DESCENDANTS, {"keys": ids})
            else:
                rows = await self.reader.rows(
                    NEAR_DESCENDANTS, {"keys": ids, "max_depth": max_depth}
                )
            for node, ancestor_id in rows:
                grouped[(ancestor_id, max_depth)].append(node)
        return [grouped.get(key, []) for key in keys]
