"""What an app keeps between requests of what it read from the database: made by
api.app.create_app, one set per app (two apps, even on one database, share nothing), and
reached by each request through its context (schema.context.Context.caches).

Every entry is keyed by a data version, so a load needs no eviction by hand: its new
version makes new keys, and the old entries go as the caches fill."""

from dataclasses import dataclass, field

from store.history.record_history import ReleaseTrees, Tree
from store.history.release_changes import Comparisons
from store.history.releases import KnownReleases
from store.search_cache import SearchCache

# What one node of a release's tree takes in memory, counted high: tracemalloc measured 41
# bytes a node on the fixtures' trees (the trees share the slugs and names read once, so a
# node costs its dict slot and little more), and a node whose name or parent differs from
# one release to the next costs its own tuple (56 bytes) too.
NODE_BYTES = 100


def _trees_bytes(trees: dict[int, Tree]) -> int:
    return NODE_BYTES * sum(len(tree) for tree in trees.values())


@dataclass
class Caches:
    # The search catalogue of the latest data version (store.search_cache).
    searchers: SearchCache = field(default_factory=SearchCache)
    # Net changes between two releases, by (newest version, since, until): few, as each
    # fills with two trees and counts as it is used (store.history.release_changes).
    comparisons: Comparisons = field(default_factory=lambda: Comparisons(maxsize=8))
    # Every retained release's tree, by the newest version (store.history.record_history): sized
    # in bytes, as the trees grow with the taxonomy and the releases retained.
    release_trees: ReleaseTrees = field(
        default_factory=lambda: ReleaseTrees(maxsize=64 << 20, getsizeof=_trees_bytes)
    )
    # The retained range and the release rows read, by data version (store.history.releases).
    releases: KnownReleases = field(default_factory=lambda: KnownReleases(maxsize=4))

    async def stop(self) -> None:
        """Stop the work under way (the search catalogue's read): the app is stopping."""
        await self.searchers.stop()
