"""Per-request DataLoaders: each batches one kind of lookup into one statement, and keeps
the values that other statements already read at hand.

A page of methods reads each method's node with it, a tree reads every node's children,
a By-model page reads its rows' methods ahead (`schema.lookahead`): those values are put
at hand here, and a field that asks for one gets it at once, without awaiting (a value at
once spares graphql-core a coroutine and a turn of the event loop per field, which cost
more than the field itself). Anything not at hand goes through Strawberry's DataLoader.
"""

import asyncio
from collections import defaultdict
from collections.abc import Awaitable, Callable, Hashable, Sequence
from functools import cached_property
from typing import Generic, NamedTuple, TypeVar, cast

from strawberry.dataloader import DataLoader

from store import evidence, methods, models, nodes, treatments
from store.evidence import RankedEvidence
from store.history import adoption, change_lists, record_history, releases
from store.history.change_lists import ChangeListRow
from store.history.record_history import Former
from store.methods import MethodWithStats, TreatmentOfModel
from store.models import BranchOfModel
from store.nodes import NodeAndRelative, NodeWithStats
from store.reader import Reader
from store.rows import id_of
from store.tables import EvidenceRow, MethodRow, ModelRow, NodeRow, ReleaseRow, SourceRow
from store.treatments import (
    BranchRowBySlugs,
    BranchTreatment,
    TreatmentBySlugs,
)

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
T = TypeVar("T")
R = TypeVar("R")  # a row a statement returns


class Batched(Generic[K, V]):
    """A DataLoader, and the values of keys already at hand."""

    def __init__(self, batch: Callable[[list[K]], Awaitable[Sequence[V]]]) -> None:
        self._at_hand: dict[K, V] = {}
        self._batch = batch
        self._loader = DataLoader(load_fn=self._fetch_and_keep)

    async def _fetch_and_keep(self, keys: list[K]) -> Sequence[V]:
        values = await self._batch(keys)
        for key, value in zip(keys, values, strict=True):
            self._at_hand.setdefault(key, value)
        return values

    def has(self, key: K) -> bool:
        """Whether the value of ``key`` is at hand."""
        return key in self._at_hand

    def put(self, key: K | None, value: V) -> None:
        """Keep ``value`` for ``key`` (a value already known stays). A key is a row's
        id or slug, which a row read from the database always has."""
        assert key is not None
        self._at_hand.setdefault(key, value)

    async def load(self, key: K) -> V:
        if key in self._at_hand:
            return self._at_hand[key]
        return await self._loader.load(key)

    async def fetch_ahead(self, keys: Sequence[K]) -> None:
        """Fetch the values of ``keys`` not at hand now, in one batch, and keep them: a
        page's sub-lists, read before its items' fields ask for them (a batch of its own,
        not the DataLoader's, whose futures per key would buy nothing here)."""
        missing = list(dict.fromkeys(key for key in keys if key not in self._at_hand))
        if missing:
            await self._fetch_and_keep(missing)

    def now_or_later(self, key: K, build: Callable[[V], T]) -> T | Awaitable[T]:
        """``build`` of the value of ``key``: at once when it is at hand, else an
        awaitable of it."""
        if key in self._at_hand:
            return build(self._at_hand[key])

        async def later() -> T:
            return build(await self._loader.load(key))

        return later()


def one_each(
    fetch: Callable[[list[K]], Awaitable[Sequence[R]]], key_of: Callable[[R], K]
) -> Batched[K, R | None]:
    """For each key, the one row that ``fetch`` returns for it (``key_of`` reads its key),
    None where there is none."""

    async def load(keys: list[K]) -> list[R | None]:
        by_key = {key_of(row): row for row in await fetch(keys)}
        return [by_key.get(key) for key in keys]

    return Batched(load)


def many_each(
    fetch: Callable[[list[K]], Awaitable[Sequence[R]]],
    key_of: Callable[[R], K],
    value_of: Callable[[R], V],
) -> Callable[[list[K]], Awaitable[list[list[V]]]]:
    """For each key, the rows that ``fetch`` returns for it (``value_of`` each: what is kept
    of a row once its key is read), in their order."""

    async def load(keys: list[K]) -> list[list[V]]:
        grouped: dict[K, list[V]] = defaultdict(list)
        for row in await fetch(keys):
            grouped[key_of(row)].append(value_of(row))
        return [grouped.get(key, []) for key in keys]

    return load


def _itself(row: R) -> R:
    return row


# A removed record's knock-on removals of one kind: (since, until, kind of record, cause,
# the removed record's slug), as store.history.change_lists.knock_on_counts takes them.
KnockOnKey = tuple[int, int, str, str, str]
# What is read of a cause's removed records: (reader, kind, filters, cause, their slugs)
# to each slug's value.
PerCause = Callable[[Reader, str, change_lists.Filters, str, list[str]], Awaitable[dict[str, V]]]


def _per_cause(
    read: PerCause[V], reader: Reader, missing: V
) -> Callable[[list[KnockOnKey]], Awaitable[list[V]]]:
    """A batch of knock-on keys read by ``read`` (reader, kind, filters, cause, slugs) once
    per comparison, kind and cause; ``missing`` for a slug it does not name."""

    async def fetch(keys: list[KnockOnKey]) -> list[V]:
        groups: dict[tuple[int, int, str, str], list[str]] = defaultdict(list)
        for since, until, kind, cause, slug in keys:
            groups[(since, until, kind, cause)].append(slug)
        found: dict[KnockOnKey, V] = {}
        for (since, until, kind, cause), slugs in groups.items():
            filters = change_lists.Filters(since, until)
            values = await read(reader, kind, filters, cause, slugs)
            for slug in slugs:
                found[(since, until, kind, cause, slug)] = values.get(slug, missing)
        return [found[key] for key in keys]

    return fetch


def _months_of(
    whole: Batched[adoption.Key, adoption.Adoption],
) -> Batched[adoption.Key, list[adoption.MonthFigures]]:
    """The series of ``whole``'s adoptions. Read through its DataLoader, so that a page's
    series and undated count, asked in one pass of the loop, are one batch."""

    async def fetch(keys: list[adoption.Key]) -> list[list[adoption.MonthFigures]]:
        found = await asyncio.gather(*(whole.load(key) for key in keys))
        return [subject.months for subject in found]

    return Batched(fetch)


def _undated_of(
    whole: Batched[adoption.Key, adoption.Adoption],
) -> Batched[adoption.Key, adoption.UndatedOf | None]:
    """The undated counts of ``whole``'s adoptions (None for none), as `_months_of`."""

    async def fetch(keys: list[adoption.Key]) -> list[adoption.UndatedOf | None]:
        found = await asyncio.gather(*(whole.load(key) for key in keys))
        return [
            adoption.UndatedOf(key, subject.undated) if subject.undated else None
            for key, subject in zip(keys, found, strict=True)
        ]

    return Batched(fetch)


class Loaders:
    """Every loader of one request, named for what they map. Each is made on first use: a
    request uses a few of them."""

    def __init__(self, reader: Reader, known_releases: releases.KnownReleases) -> None:
        self.reader = reader
        self.known_releases = known_releases
        # Loaders of the first N rows of many lists, one per N (a page size) asked for.
        self._per_limit: dict[tuple[str, int], Batched[Hashable, object]] = {}

    def _nodes_by(
        self, column: str, key_of: Callable[[NodeRow], K]
    ) -> Batched[K, NodeWithStats | None]:
        async def fetch(keys: list[K]) -> list[NodeWithStats]:
            return await nodes.nodes_where(self.reader, column=column, values=keys)

        return one_each(fetch, lambda row: key_of(row.node))

    @cached_property
    def node_by_id(self) -> Batched[int, NodeWithStats | None]:
        return self._nodes_by("id", id_of)

    @cached_property
    def node_by_slug(self) -> Batched[str, NodeWithStats | None]:
        return self._nodes_by("slug", lambda node: node.slug)

    @cached_property
    def node_by_slug_path(self) -> Batched[str, NodeWithStats | None]:
        return self._nodes_by("slug_path", lambda node: node.slug_path)

    @cached_property
    def children_by_node_id(self) -> Batched[int, list[NodeWithStats]]:
        async def fetch(keys: list[int]) -> list[NodeWithStats]:
            children = await nodes.children_of(self.reader, node_ids=keys)
            self.put_nodes(children)
            return children

        return Batched(many_each(fetch, _parent_id, _itself))

    @cached_property
    def ancestors_by_node_id(self) -> Batched[int, list[NodeWithStats]]:
        """Node id to its ancestors, root first. The nodes themselves come in the same
        statement and are put at hand by id: `node_with_ancestors`."""

        async def fetch(keys: list[int]) -> list[NodeAndRelative]:
            lineages = await nodes.lineages_of(self.reader, node_ids=keys)
            itself = [row for row in lineages if row.node.id == row.relative_id]
            self.put_nodes([_node_with_stats(row) for row in itself])
            return [row for row in lineages if row.node.id != row.relative_id]

        return Batched(many_each(fetch, lambda row: row.relative_id, _node_with_stats))

    @cached_property
    def descendants_by_node(self) -> Batched[tuple[int, int | None], list[NodeWithStats]]:
        async def fetch(keys: list[tuple[int, int | None]]) -> list[_AtDepth]:
            # One statement per distinct maxDepth in the request (in practice one).
            by_depth: dict[int | None, list[int]] = defaultdict(list)
            for node_id, max_depth in keys:
                by_depth[max_depth].append(node_id)
            found: list[_AtDepth] = []
            for max_depth, ids in by_depth.items():
                rows = await nodes.descendants_of(self.reader, node_ids=ids, max_depth=max_depth)
                found.extend(_AtDepth(row, max_depth) for row in rows)
            return found

        return Batched(
            many_each(
                fetch,
                lambda found: (found.row.relative_id, found.max_depth),
                lambda found: _node_with_stats(found.row),
            )
        )

    def _methods_by(
        self, column: str, key_of: Callable[[MethodRow], K]
    ) -> Batched[K, MethodWithStats | None]:
        async def fetch(keys: list[K]) -> list[MethodWithStats]:
            return await methods.methods_where(self.reader, column=column, values=keys)

        return one_each(fetch, lambda row: key_of(row.method))

    @cached_property
    def method_by_id(self) -> Batched[int, MethodWithStats | None]:
        return self._methods_by("id", id_of)

    @cached_property
    def method_by_slug(self) -> Batched[str, MethodWithStats | None]:
        return self._methods_by("slug", lambda method: method.slug)

    @cached_property
    def treatments_by_method_id(self) -> Batched[int, list[TreatmentOfModel]]:
        async def fetch(keys: list[int]) -> list[TreatmentOfModel]:
            rows = await methods.treatments_of_methods(self.reader, method_ids=keys)
            for row in rows:
                self.model_by_id.put(row.model.id, row.model)
            return rows

        return Batched(many_each(fetch, lambda row: row.treatment.method_id, _itself))

    @cached_property
    def adoption_of_node(self) -> Batched[adoption.Key, adoption.Adoption]:
        """(node id, threshold) to its adoption: its months' figures and its undated
        models, which the two loaders below read, in one statement when a page asks for
        both."""
        return Batched(lambda keys: adoption.node_adoption(self.reader, keys))

    @cached_property
    def adoption_by_node(self) -> Batched[adoption.Key, list[adoption.MonthFigures]]:
        """(node id, threshold) to its months' figures, by month."""
        return _months_of(self.adoption_of_node)

    @cached_property
    def undated_by_node(self) -> Batched[adoption.Key, adoption.UndatedOf | None]:
        """(node id, threshold) to its models without a release date, None for none."""
        return _undated_of(self.adoption_of_node)

    @cached_property
    def adoption_of_method(self) -> Batched[adoption.Key, adoption.Adoption]:
        """(method id, threshold) to its adoption, as `adoption_of_node`."""
        return Batched(lambda keys: adoption.method_adoption(self.reader, keys))

    @cached_property
    def adoption_by_method(self) -> Batched[adoption.Key, list[adoption.MonthFigures]]:
        """(method id, threshold) to its months' figures, by month."""
        return _months_of(self.adoption_of_method)

    @cached_property
    def undated_by_method(self) -> Batched[adoption.Key, adoption.UndatedOf | None]:
        """(method id, threshold) to its models without a release date, None for none."""
        return _undated_of(self.adoption_of_method)

    def _models_by(
        self, column: str, key_of: Callable[[ModelRow], K]
    ) -> Batched[K, ModelRow | None]:
        async def fetch(keys: list[K]) -> list[ModelRow]:
            return await models.models_where(self.reader, column=column, values=keys)

        return one_each(fetch, key_of)

    @cached_property
    def model_by_id(self) -> Batched[int, ModelRow | None]:
        return self._models_by("id", id_of)

    @cached_property
    def model_by_slug(self) -> Batched[str, ModelRow | None]:
        return self._models_by("slug", lambda model: model.slug)

    def _sources_by(self, column: str) -> Callable[[list[K]], Awaitable[list[SourceRow]]]:
        async def fetch(keys: list[K]) -> list[SourceRow]:
            return await models.sources_where(self.reader, column=column, values=keys)

        return fetch

    @cached_property
    def source_by_id(self) -> Batched[int, SourceRow | None]:
        return one_each(self._sources_by("id"), id_of)

    @cached_property
    def source_by_slug(self) -> Batched[str, SourceRow | None]:
        return one_each(self._sources_by("slug"), lambda row: row.slug)

    @cached_property
    def sources_by_model_id(self) -> Batched[int, list[SourceRow]]:
        return Batched(many_each(self._sources_by("model_id"), lambda row: row.model_id, _itself))

    @cached_property
    def branches_by_model_level(self) -> Batched[tuple[int, int], list[BranchOfModel]]:
        async def fetch(keys: list[tuple[int, int]]) -> list[BranchOfModel]:
            return await models.branches_of_models(self.reader, model_levels=keys)

        return Batched(many_each(fetch, lambda row: (row.row.model_id, row.node.level), _itself))

    @cached_property
    def branch_treatments_by_pair(self) -> Batched[tuple[int, int], list[BranchTreatment]]:
        async def fetch(keys: list[tuple[int, int]]) -> list[BranchTreatment]:
            return await treatments.branch_treatments(self.reader, node_models=keys)

        return Batched(many_each(fetch, _node_and_model, _itself))

    def first_branch_treatments(
        self, limit: int
    ) -> Batched[tuple[int, int], list[BranchTreatment]]:
        """(node id, model id) -> the first ``limit`` of branch_treatments_by_pair's list:
        the first pages of By-model rows' `methodsConnection`, one statement a page."""

        async def fetch(keys: list[tuple[int, int]]) -> list[BranchTreatment]:
            return await treatments.first_branch_treatments(
                self.reader, node_models=keys, limit=limit
            )

        return self._of_limit(
            "branch treatments", limit, lambda: Batched(many_each(fetch, _node_and_model, _itself))
        )

    def first_evidence(self, limit: int) -> Batched[tuple[int, int], list[RankedEvidence]]:
        """(method id, model id) -> the first ``limit`` of the pair's evidence, strongest
        first, then in file order, with its count: the first pages of many treatments'
        `evidenceConnection`, one statement a page."""

        async def fetch(keys: list[tuple[int, int]]) -> list[RankedEvidence]:
            return await evidence.first_evidence_of_pairs(
                self.reader, method_models=keys, limit=limit
            )

        return self._of_limit(
            "evidence", limit, lambda: Batched(many_each(fetch, _method_and_model, _itself))
        )

    def _of_limit(self, kind: str, limit: int, make: Callable[[], Batched[K, V]]) -> Batched[K, V]:
        """The request's loader of the first ``limit`` rows of lists of ``kind``, made by
        ``make`` on first use."""
        key = (kind, limit)
        if key not in self._per_limit:
            self._per_limit[key] = cast(Batched[Hashable, object], make())
        return cast(Batched[K, V], self._per_limit[key])

    @cached_property
    def evidence_by_key(self) -> Batched[str, EvidenceRow | None]:
        async def fetch(keys: list[str]) -> list[EvidenceRow]:
            return await evidence.evidence_where(self.reader, column="key", values=keys)

        return one_each(fetch, lambda row: row.key)

    @cached_property
    def evidence_by_pair(self) -> Batched[tuple[int, int], list[EvidenceRow]]:
        async def fetch(keys: list[tuple[int, int]]) -> list[EvidenceRow]:
            return await evidence.evidence_of_pairs(self.reader, model_methods=keys)

        return Batched(many_each(fetch, lambda row: (row.model_id, row.method_id), _itself))

    @cached_property
    def treatment_by_slugs(self) -> Batched[tuple[str, str], TreatmentBySlugs | None]:
        """(model slug, method slug) -> the treatment, its model, its method and figures."""

        async def fetch(keys: list[tuple[str, str]]) -> list[TreatmentBySlugs]:
            return await treatments.treatments_by_slugs(self.reader, model_methods=keys)

        return one_each(fetch, lambda row: (row.model.slug, row.method.slug))

    @cached_property
    def branch_row_by_slugs(self) -> Batched[tuple[str, str], BranchRowBySlugs | None]:
        """(model slug, node slug) -> the By-model row, its model, its node and counts."""

        async def fetch(keys: list[tuple[str, str]]) -> list[BranchRowBySlugs]:
            return await treatments.branch_rows_by_slugs(self.reader, model_nodes=keys)

        return one_each(fetch, lambda row: (row.model.slug, row.node.slug))

    def _former(self, kind: str) -> Batched[str, Former | None]:
        async def fetch(keys: list[str]) -> list[Former | None]:
            found = await record_history.former_states(self.reader, kind, keys)
            return [found.get(key) for key in keys]

        return Batched(fetch)

    @cached_property
    def former_method(self) -> Batched[str, Former | None]:
        """A method's slug -> its state before the latest release that changed it."""
        return self._former("method")

    @cached_property
    def former_model(self) -> Batched[str, Former | None]:
        """A model's slug -> its state before the latest release that changed it."""
        return self._former("model")

    @cached_property
    def knock_on_count(self) -> Batched[KnockOnKey, int]:
        """(since, until, kind of record, cause, slug of a removed record) -> how many
        records of that kind its removal took with it (store.history.change_lists): one statement
        per kind and cause for a whole page of removals."""
        return Batched(_per_cause(change_lists.knock_on_counts, self.reader, 0))

    def knock_on_first(self, first: int) -> Batched[KnockOnKey, list[ChangeListRow]]:
        """As knock_on_count: the first ``first`` of those records (change list rows)."""

        async def firsts(
            reader: Reader,
            kind: str,
            filters: change_lists.Filters,
            cause: str,
            slugs: list[str],
        ) -> dict[str, list[ChangeListRow]]:
            return await change_lists.knock_on_firsts(reader, kind, filters, cause, slugs, first)

        missing: list[ChangeListRow] = []
        return self._of_limit(
            "knock-on", first, lambda: Batched(_per_cause(firsts, self.reader, missing))
        )

    async def node_with_ancestors(self, node_id: int) -> NodeWithStats | None:
        """The node of ``node_id``, its ancestors read in the same statement and kept for
        its `ancestors` (a page that shows a node shows its breadcrumb). Through the
        DataLoader: the nodes of a list's items are one batch."""
        await self.ancestors_by_node_id.load(node_id)
        return await self.node_by_id.load(node_id)

    async def node_by_slug_path_with_ancestors(self, slug_path: str) -> NodeWithStats | None:
        """The node of ``slug_path``. Its ancestors' slug paths are its prefixes: they are
        read in the same statement and kept for its `ancestors`."""
        slugs = slug_path.split("/")
        prefixes = ["/".join(slugs[:end]) for end in range(1, len(slugs) + 1)]
        # Through the DataLoader: another field of the request that asks for the same node
        # (a `branch: {path}` argument) joins the same batch.
        found = await asyncio.gather(*(self.node_by_slug_path.load(path) for path in prefixes))
        lineage = [row for row in found if row is not None]
        # Kept only as a whole line from a root, each node the parent of the next; else
        # (the node is not there) `ancestors` reads them as any node's.
        if len(lineage) == len(found) and all(
            child.node.parent_id == (parent.node.id if parent else None)
            for parent, child in zip([None, *lineage[:-1]], lineage, strict=True)
        ):
            *ancestors, node = lineage
            self.ancestors_by_node_id.put(node.node.id, ancestors)
        return found[-1]

    def put_nodes(self, found: Sequence[NodeWithStats]) -> None:
        for row in found:
            self.node_by_id.put(row.node.id, row)

    async def top_nodes(self, levels_below_roots: int) -> list[NodeWithStats]:
        """The roots; the nodes of the ``levels_below_roots`` levels below them come in
        the same statement and are put at hand as their parents' children (a node on the
        last of those levels is left to the loader, should anyone ask for its children)."""
        found = await nodes.top_nodes(self.reader, levels_below_roots=levels_below_roots)
        self.put_nodes(found)
        roots = [row for row in found if row.node.parent_id is None]
        if not levels_below_roots:
            return roots
        depth: dict[int | None, int] = {row.node.id: 0 for row in roots}
        children: dict[int | None, list[NodeWithStats]] = {row.node.id: [] for row in roots}
        for row in found:
            node = row.node
            if node.parent_id is None:
                continue
            children[node.parent_id].append(row)
            depth[node.id] = depth[node.parent_id] + 1
            if depth[node.id] < levels_below_roots:
                children[node.id] = []
        for node_id, below in children.items():
            assert node_id is not None  # rows read from the database have ids
            self.children_by_node_id.put(node_id, below)
        return roots

    @cached_property
    def release_by_number(self) -> Batched[int, ReleaseRow | None]:
        async def fetch(keys: list[int]) -> list[ReleaseRow]:
            return await releases.releases_by_number(self.reader, keys, self.known_releases)

        return one_each(fetch, lambda row: row.number)


class _AtDepth(NamedTuple):
    """A descendant read for a `descendants(maxDepth:)` of this depth."""

    row: NodeAndRelative
    max_depth: int | None


def _parent_id(row: NodeWithStats) -> int:
    assert row.node.parent_id is not None  # a child has a parent
    return row.node.parent_id


def _node_with_stats(row: NodeAndRelative) -> NodeWithStats:
    return NodeWithStats(row.node, row.stats)


def _node_and_model(row: BranchTreatment) -> tuple[int, int]:
    return (row.node_id, row.treatment.model_id)


def _method_and_model(row: RankedEvidence) -> tuple[int, int]:
    return (row.evidence.method_id, row.evidence.model_id)
