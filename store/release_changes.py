"""The net change between two retained releases, read and composed for one request:
each kind's change rows are read once, the trees of both releases (for paths and
branches) once, whatever the fields asked of it."""

from collections.abc import Sequence

from store import change_rows
from store.net_changes import (
    NetChange,
    lineage,
    named_changes,
    path_in,
    treatment_changes,
    tree_at,
)
from store.reader import Reader

Tree = dict[str, tuple[str, str | None]]
KINDS = ("node", "method", "model", "treatment")


class Comparison:
    """From release ``since`` to release ``until`` (``newest``: the one served now)."""

    def __init__(self, reader: Reader, since: int, until: int, newest: int) -> None:
        self.reader, self.since, self.until, self.newest = reader, since, until, newest
        self._changes: dict[str, list[NetChange]] = {}
        self._trees: tuple[Tree, Tree] | None = None

    async def trees(self) -> tuple[Tree, Tree]:
        """The nodes (slug -> (name, parent slug)) of release ``since`` and of ``until``."""
        if self._trees is None:
            rows = await change_rows.named_rows(self.reader, "node", self.since, self.newest)
            now = await change_rows.nodes_now(self.reader)
            self._trees = (tree_at(now, rows, self.since), tree_at(now, rows, self.until))
        return self._trees

    async def changes(self, kind: str) -> list[NetChange]:
        """The net changes of ``kind`` (node, method, model, treatment), by key."""
        if kind not in self._changes:
            if self.since == self.until:
                self._changes[kind] = []
            elif kind == "treatment":
                rows = await change_rows.treatment_rows(self.reader, self.since, self.until)
                self._changes[kind] = treatment_changes(rows)
            else:
                rows = await change_rows.named_rows(self.reader, kind, self.since, self.until)
                self._changes[kind] = named_changes(rows, places=kind != "model")
        return self._changes[kind]

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
            path_in(before, _place(change.before)),
            path_in(after, _place(change.after)),
        )

    async def within(self, kind: str, changes: Sequence[NetChange], branch: str) -> list[NetChange]:
        """The ``changes`` in the branch of node ``branch`` (a slug) in ``since`` or in
        ``until``: a method moved out of the branch, or into it, is in both branches."""
        before, after = await self.trees()
        places: dict[tuple[str, ...], tuple[str | None, str | None]]
        if kind == "node":
            places = {c.key: (c.key[0], c.key[0]) for c in changes}
        elif kind == "method":
            places = {c.key: (_place(c.before), _place(c.after)) for c in changes}
        else:  # treatments: their methods' nodes then
            places = await self._treatment_places(changes)
        return [
            change
            for change in changes
            if branch in lineage(before, places[change.key][0])
            or branch in lineage(after, places[change.key][1])
        ]

    async def _treatment_places(
        self, changes: Sequence[NetChange]
    ) -> dict[tuple[str, ...], tuple[str | None, str | None]]:
        slugs = sorted({change.key[1] for change in changes})
        now, rows = await change_rows.methods_now_and_after(self.reader, slugs, self.since)
        then, later = tree_at(now, rows, self.since), tree_at(now, rows, self.until)
        return {
            change.key: (_place(then.get(change.key[1])), _place(later.get(change.key[1])))
            for change in changes
        }


def _place(state: object) -> str | None:
    return state[1] if isinstance(state, tuple) else None
