"""Per-request DataLoaders: each batches the lookups of one resolver into one statement.

Batch functions return results in key order. Loaders that fetch rows another loader
would fetch again (models beside their treatments, say) prime that loader with them.
"""

from collections import defaultdict
from collections.abc import Awaitable, Callable, Hashable, Sequence
from typing import Any, TypeVar

from sqlalchemy import and_, or_, select
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
from schema.pagination import AnySelect
from schema.reader import Reader

K = TypeVar("K", bound=Hashable)
R = TypeVar("R")
T = TypeVar("T")


async def required(loader: DataLoader[K, R] | DataLoader[K, R | None], key: K) -> R:
    """The row for ``key`` where a foreign key guarantees there is one."""
    row = await loader.load(key)
    if row is None:  # only a half-written database could get here
        raise LookupError(f"no row for {key!r}, which a foreign key refers to")
    return row


def now_or_later(
    loader: DataLoader[K, R] | DataLoader[K, R | None], key: K, build: Callable[[R], T]
) -> T | Awaitable[T]:
    """``build`` of the row (or list of rows) for ``key`` (a row a foreign key guarantees):
    at once when the loader already holds it (primed by the statement that fetched the
    parent, or fetched ahead: `schema.lookahead`), else an awaitable of it. A value at
    once spares graphql-core a coroutine, a task and a turn of the event loop for the
    field, which cost more than the field itself."""
    future = loader.cache_map.get(key)
    if future is not None and future.done() and not future.cancelled():
        row = future.result()  # a batch that failed fails here, as an await would
        if row is not None:
            return build(row)

    async def later() -> T:
        return build(await required(loader, key))

    return later()


def _one_each(
    reader: Reader, entity: type[R], column: Any
) -> Callable[[list[K]], Awaitable[list[R | None]]]:
    """Rows of ``entity`` whose unique ``column`` is each key (None where none is)."""

    async def load(keys: list[K]) -> list[R | None]:
        result = await reader.execute(select(entity).where(col(column).in_(keys)))
        by_key = {getattr(row, column.key): row for row in result.scalars()}
        return [by_key.get(key) for key in keys]

    return load


def _many_each(
    reader: Reader, statement: Callable[[list[K]], AnySelect], key_of: Callable[[Any], K]
) -> Callable[[list[K]], Awaitable[list[list[Any]]]]:
    """For each key, the entities of ``statement`` (in its order) that ``key_of`` maps to it.

    ``statement`` selects the entity first; ``key_of`` reads the key off the whole row."""

    async def load(keys: list[K]) -> list[list[Any]]:
        grouped: dict[K, list[Any]] = defaultdict(list)
        for row in (await reader.execute(statement(keys))).all():
            grouped[key_of(row)].append(row[0])
        return [grouped.get(key, []) for key in keys]

    return load


def _pairs_in(columns: Sequence[Any], keys: list[tuple[int, int]]) -> Any:
    """(a, b) in ``keys``, written as `a = x AND b IN (...)` for each x: SQLite cannot use an
    index for a row-value IN list (it scans the table), but can for this."""
    first, second = columns
    grouped: dict[int, list[int]] = defaultdict(list)
    for a, b in keys:
        grouped[a].append(b)
    return or_(*(and_(first == a, second.in_(bs)) for a, bs in grouped.items()))


class Loaders:
    """Every loader of one request. Named for what they map."""

    def __init__(self, reader: Reader) -> None:
        self.reader = reader
        self.node_by_id: DataLoader[int, NodeRow | None] = DataLoader(
            _one_each(reader, NodeRow, NodeRow.id)
        )
        self.node_by_slug: DataLoader[str, NodeRow | None] = DataLoader(
            _one_each(reader, NodeRow, NodeRow.slug)
        )
        self.node_by_slug_path: DataLoader[str, NodeRow | None] = DataLoader(
            _one_each(reader, NodeRow, NodeRow.slug_path)
        )
        self.stats_by_node_id: DataLoader[int, NodeStatsRow | None] = DataLoader(
            _one_each(reader, NodeStatsRow, NodeStatsRow.node_id)
        )
        self.method_by_id: DataLoader[int, MethodRow | None] = DataLoader(
            _one_each(reader, MethodRow, MethodRow.id)
        )
        self.method_by_slug: DataLoader[str, MethodRow | None] = DataLoader(
            _one_each(reader, MethodRow, MethodRow.slug)
        )
        self.method_stats_by_id: DataLoader[int, MethodStatsRow | None] = DataLoader(
            _one_each(reader, MethodStatsRow, MethodStatsRow.method_id)
        )
        self.model_by_id: DataLoader[int, ModelRow | None] = DataLoader(
            _one_each(reader, ModelRow, ModelRow.id)
        )
        self.model_by_slug: DataLoader[str, ModelRow | None] = DataLoader(
            _one_each(reader, ModelRow, ModelRow.slug)
        )
        self.source_by_id: DataLoader[int, SourceRow | None] = DataLoader(
            _one_each(reader, SourceRow, SourceRow.id)
        )
        self.source_by_slug: DataLoader[str, SourceRow | None] = DataLoader(
            _one_each(reader, SourceRow, SourceRow.slug)
        )
        self.evidence_by_key: DataLoader[str, EvidenceRow | None] = DataLoader(
            _one_each(reader, EvidenceRow, EvidenceRow.key)
        )

        self.children_by_node_id: DataLoader[int, list[NodeRow]] = DataLoader(
            self._children_by_node_id
        )
        self.ancestors_by_node_id: DataLoader[int, list[Any]] = DataLoader(
            _many_each(
                reader,
                lambda ids: (
                    select(NodeRow, col(NodeClosureRow.descendant_id))
                    .join(NodeClosureRow, col(NodeClosureRow.ancestor_id) == col(NodeRow.id))
                    .where(
                        col(NodeClosureRow.descendant_id).in_(ids), col(NodeClosureRow.depth) > 0
                    )
                    .order_by(col(NodeRow.level))
                ),
                lambda row: row[1],
            )
        )
        self.sources_by_model_id: DataLoader[int, list[Any]] = DataLoader(
            _many_each(
                reader,
                lambda ids: (
                    select(SourceRow)
                    .where(col(SourceRow.model_id).in_(ids))
                    .order_by(col(SourceRow.id))
                ),
                lambda row: row[0].model_id,
            )
        )
        self.evidence_by_pair: DataLoader[tuple[int, int], list[Any]] = DataLoader(
            _many_each(
                reader,
                lambda pairs: (
                    select(EvidenceRow)
                    .where(
                        _pairs_in([col(EvidenceRow.model_id), col(EvidenceRow.method_id)], pairs)
                    )
                    .order_by(col(EvidenceRow.id))
                ),
                lambda row: (row[0].model_id, row[0].method_id),
            )
        )
        self.treatments_by_method_id: DataLoader[int, list[Any]] = DataLoader(
            self._treatments_by_method_id
        )
        self.branch_treatments_by_pair: DataLoader[tuple[int, int], list[Any]] = DataLoader(
            self._branch_treatments_by_pair
        )
        self.branches_by_model_level: DataLoader[tuple[int, int], list[Any]] = DataLoader(
            self._branches_by_model_level
        )
        self.descendants_by_node: DataLoader[tuple[int, int | None], list[NodeRow]] = DataLoader(
            self._descendants_by_node
        )

    def prime_models(self, models: Sequence[ModelRow]) -> None:
        for model in models:
            if model.id is not None:
                self.model_by_id.prime(model.id, model)

    async def nodes_with_counts(self, statement: AnySelect) -> list[NodeRow]:
        """The nodes of ``statement`` (a select of NodeRow), their counts fetched with them
        by a join: a tree's pages almost always show them, and a count at hand is a field
        that needs no await (`now_or_later`)."""
        joined = statement.add_columns(NodeStatsRow).join(
            NodeStatsRow, col(NodeStatsRow.node_id) == col(NodeRow.id)
        )
        nodes = []
        for row in (await self.reader.execute(joined)).all():
            node, stats = row[0], row[-1]
            self.stats_by_node_id.prime(node.id, stats)
            nodes.append(node)
        return nodes

    async def _children_by_node_id(self, ids: list[int]) -> list[list[NodeRow]]:
        """Each node's children in pre-order (by name), with their counts."""
        statement = (
            select(NodeRow).where(col(NodeRow.parent_id).in_(ids)).order_by(col(NodeRow.pre))
        )
        grouped: dict[int, list[NodeRow]] = defaultdict(list)
        for node in await self.nodes_with_counts(statement):
            assert node.parent_id is not None  # selected by parent
            grouped[node.parent_id].append(node)
        return [grouped.get(node_id, []) for node_id in ids]

    async def prefetch_children(self, parents: list[NodeRow], levels: int) -> None:
        """Fetch the nodes up to ``levels`` below ``parents`` (with their counts) in one
        statement, and prime `children_by_node_id` with the children of every node above the
        last of those levels (an empty list for a leaf)."""
        statement = (
            select(NodeRow)
            .join(NodeClosureRow, col(NodeClosureRow.descendant_id) == col(NodeRow.id))
            .where(
                col(NodeClosureRow.ancestor_id).in_([parent.id for parent in parents]),
                col(NodeClosureRow.depth).between(1, levels),
            )
            .order_by(col(NodeRow.pre))
        )
        # A node's distance below the nearest of the parents; pre-order lists a node's parent
        # before it. A node below two of the parents comes once for each.
        below: dict[int | None, int] = {parent.id: 0 for parent in parents}
        children: dict[int | None, list[NodeRow]] = {parent.id: [] for parent in parents}
        seen: set[int | None] = set()
        for node in await self.nodes_with_counts(statement):
            if node.id in seen:
                continue
            seen.add(node.id)
            children[node.parent_id].append(node)
            if node.id not in below:  # (one of the parents keeps its 0)
                below[node.id] = below[node.parent_id] + 1
                if below[node.id] < levels:
                    children[node.id] = []
        for node_id, rows in children.items():
            assert node_id is not None  # rows read from the database have ids
            self.children_by_node_id.prime(node_id, rows)

    def prime_methods(self, methods: Sequence[MethodRow]) -> None:
        for method in methods:
            if method.id is not None:
                self.method_by_id.prime(method.id, method)

    async def _treatments_by_method_id(self, ids: list[int]) -> list[list[TreatmentRow]]:
        """Each method's treatments, strongest first, then by model name."""
        statement = (
            select(TreatmentRow, ModelRow)
            .join(ModelRow, col(ModelRow.id) == col(TreatmentRow.model_id))
            .where(col(TreatmentRow.method_id).in_(ids))
            .order_by(col(TreatmentRow.strength_rank), col(ModelRow.name_rank))
        )
        rows = (await self.reader.execute(statement)).all()
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
        statement = (
            select(TreatmentRow, MethodRow, col(NodeClosureRow.ancestor_id))
            .join(MethodRow, col(MethodRow.id) == col(TreatmentRow.method_id))
            .join(NodeClosureRow, col(NodeClosureRow.descendant_id) == col(MethodRow.node_id))
            .where(_pairs_in([col(NodeClosureRow.ancestor_id), col(TreatmentRow.model_id)], pairs))
            .order_by(col(TreatmentRow.strength_rank), col(MethodRow.name_rank))
        )
        rows = (await self.reader.execute(statement)).all()
        self.prime_methods([method for _, method, _ in rows])
        grouped: dict[tuple[int, int], list[TreatmentRow]] = defaultdict(list)
        for treatment, _, node_id in rows:
            grouped[(node_id, treatment.model_id)].append(treatment)
        return [grouped.get(pair, []) for pair in pairs]

    async def _branches_by_model_level(
        self, keys: list[tuple[int, int]]
    ) -> list[list[BranchModelRow]]:
        """For (model, level): the model's strongest treatment in each branch at that level."""
        statement = (
            select(BranchModelRow, NodeRow)
            .join(NodeRow, col(NodeRow.id) == col(BranchModelRow.node_id))
            .where(_pairs_in([col(BranchModelRow.model_id), col(NodeRow.level)], keys))
            .order_by(col(NodeRow.pre))
        )
        rows = (await self.reader.execute(statement)).all()
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
            statement = (
                select(NodeRow, col(NodeClosureRow.ancestor_id))
                .join(NodeClosureRow, col(NodeClosureRow.descendant_id) == col(NodeRow.id))
                .where(col(NodeClosureRow.ancestor_id).in_(ids), col(NodeClosureRow.depth) > 0)
                .order_by(col(NodeRow.pre))
            )
            if max_depth is not None:
                statement = statement.where(col(NodeClosureRow.depth) <= max_depth)
            for node, ancestor_id in (await self.reader.execute(statement)).all():
                grouped[(ancestor_id, max_depth)].append(node)
        return [grouped.get(key, []) for key in keys]
