"""The net change between two retained releases as a whole: the trees of both releases
(for paths and branches) and the counts of each kind's changes, read once whatever the
fields asked of it, and kept for the next requests. The changes themselves are paged in
SQL (store.history.change_lists)."""

from dataclasses import dataclass, field

from cachetools import LRUCache

from store.history import change_rows
from store.history.change_lists import changes_by_kind
from store.history.net_changes import NetChange, lineage, path_in, tree_at
from store.reader import Reader

Tree = dict[str, tuple[str, str | None]]


@dataclass
class _Composed:
    """What a comparison has worked out so far."""

    counts: dict[str, dict[str, int]] = field(default_factory=dict)
    trees: tuple[Tree, Tree] | None = None


# Comparisons kept by (version of the newest release, since, until): the same key is the
# same answer, since releases never change and a new load makes a new newest version.
# Kept per app (store.caches.Caches.comparisons).
Comparisons = LRUCache[tuple[str, int, int], _Composed]


class Comparison:
    """From release ``since`` to release ``until``; ``newest`` is the release served
    now (its number and its version); what is worked out is ``kept`` for later requests."""

    def __init__(
        self, reader: Reader, since: int, until: int, newest: tuple[int, str], kept: Comparisons
    ) -> None:
        self.reader, self.since, self.until = reader, since, until
        self.newest = newest[0]
        key = (newest[1], since, until)
        composed = kept.get(key)  # a hit counts as a use: the least used goes first
        if composed is None:
            composed = kept[key] = _Composed()
        self._composed = composed

    async def trees(self) -> tuple[Tree, Tree]:
        """The nodes (slug -> (name, parent slug)) of release ``since`` and of ``until``."""
        composed = self._composed
        if composed.trees is None:
            rows = await change_rows.node_rows(self.reader, self.since, self.newest)
            now = await change_rows.nodes_now(self.reader)
            composed.trees = (tree_at(now, rows, self.since), tree_at(now, rows, self.until))
        return composed.trees

    async def counts(self, kind: str) -> dict[str, int]:
        """How many net changes of ``kind`` (node, method, model, treatment) there are of
        each kind of change (added, removed, ...)."""
        found = self._composed.counts
        if kind not in found:
            found[kind] = await changes_by_kind(self.reader, kind, self.since, self.until)
        return found[kind]

    async def paths(self, kind: str, change: NetChange) -> tuple[str | None, str | None]:
        """A node's or method's path (a method's: its node's) in ``since`` and ``until``."""
        before, after = await self.trees()
        if kind == "node":
            slug = change.key[0]
            return (
                path_in(before, slug) if change.before else None,
                path_in(after, slug) if change.after else None,
            )
        return (
            path_in(before, place_of(change.before)),
            path_in(after, place_of(change.after)),
        )

    async def branch_nodes(self, branch: str) -> tuple[list[str], list[str]]:
        """The slugs of the nodes in the branch of node ``branch`` (a slug, itself
        included) in release ``since`` and in ``until``."""
        before, after = await self.trees()
        return _branch_in(before, branch), _branch_in(after, branch)


def _branch_in(tree: Tree, branch: str) -> list[str]:
    return sorted(slug for slug in tree if branch in lineage(tree, slug))


def place_of(state: object) -> str | None:
    """Where a record's state says it sits (a node's parent, a method's node)."""
    return state[1] if isinstance(state, tuple) else None
