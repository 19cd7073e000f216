"""The net change between two releases, from the change rows of the releases after the
first up to the second (no database here: store.change_rows reads them).

Each change row holds a record's state before its release and after. So a record's state
in release `a` is the "before" of its earliest row after `a` (or, with no row after `a`,
its state now), and the net change from `a` to `b` compares the record's states in `a`
and `b`: added then removed is no change; renamed twice is one rename, from the first
name to the last."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

# A record's state: (name, where it sits: a node's parent slug, a method's node slug), or
# None when it does not exist.
State = tuple[str, str | None] | None
PATH_SEPARATOR = " :: "

KIND_ORDER = ("added", "removed", "moved", "renamed", "strengthened", "weakened")


@dataclass(frozen=True)
class StateRow:
    """One change row: a record's key (its slug, or a pair of slugs) before and after."""

    release: int
    key: tuple[str, ...]
    before: State | int
    after: State | int  # a treatment's states are strength ranks


@dataclass(frozen=True)
class NetChange:
    kind: str  # one of KIND_ORDER
    key: tuple[str, ...]
    before: State | int | None
    after: State | int | None

    @property
    def sort_key(self) -> tuple[str, ...]:
        return (*self.key, self.kind)


def net_states(rows: Iterable[StateRow]) -> dict[tuple[str, ...], tuple[object, object]]:
    """Each key's (state at the start, state at the end) from ``rows`` in release order."""
    net: dict[tuple[str, ...], tuple[object, object]] = {}
    for row in rows:
        start = net[row.key][0] if row.key in net else row.before
        net[row.key] = (start, row.after)
    return net


def named_changes(rows: Iterable[StateRow], *, places: bool) -> list[NetChange]:
    """Nodes, methods (``places``: moves count) or models: added, removed, moved, renamed."""
    changes = []
    for key, (before, after) in net_states(rows).items():
        old, new = _state(before), _state(after)
        if old is None and new is None:
            continue
        if old is None or new is None:
            changes.append(NetChange("added" if old is None else "removed", key, old, new))
            continue
        if places and old[1] != new[1]:
            changes.append(NetChange("moved", key, old, new))
        if old[0] != new[0]:
            changes.append(NetChange("renamed", key, old, new))
    return sorted(changes, key=_order)


def treatment_changes(rows: Iterable[StateRow]) -> list[NetChange]:
    """(model, method) pairs: added, removed, strengthened or weakened (ranks: 1 strongest)."""
    changes = []
    for key, (before, after) in net_states(rows).items():
        old = before if isinstance(before, int) else None
        new = after if isinstance(after, int) else None
        if old == new:
            continue
        if old is None or new is None:
            kind = "added" if old is None else "removed"
        else:
            kind = "strengthened" if new < old else "weakened"
        changes.append(NetChange(kind, key, old, new))
    return sorted(changes, key=_order)


def _state(value: object) -> tuple[str, str | None] | None:
    return value if isinstance(value, tuple) else None


def _order(change: NetChange) -> tuple[object, ...]:
    return (*change.key, KIND_ORDER.index(change.kind))


# ---- the tree as it was ---------------------------------------------------------------


def tree_at(
    now: dict[str, tuple[str, str | None]], rows: Sequence[StateRow], release: int
) -> dict[str, tuple[str, str | None]]:
    """The nodes (slug -> (name, parent slug)) of ``release``: the nodes now, undone by
    the node change rows after it (``rows``: every node change row after some release at
    or before ``release``, in release order)."""
    tree = dict(now)
    for row in reversed(rows):  # the earliest row after `release` is undone last
        if row.release <= release:
            break
        (slug,) = row.key
        before = _state(row.before)
        if before is None:
            tree.pop(slug, None)
        else:
            tree[slug] = before
    return tree


def lineage(tree: dict[str, tuple[str, str | None]], slug: str | None) -> list[str]:
    """``slug`` and the slugs above it in ``tree``, nearest first; [] for an unknown one."""
    chain: list[str] = []
    while slug is not None and slug in tree and slug not in chain:
        chain.append(slug)
        slug = tree[slug][1]
    return chain


def path_in(tree: dict[str, tuple[str, str | None]], slug: str | None) -> str | None:
    """The names path of node ``slug`` in ``tree``; None when it has no such node."""
    chain = lineage(tree, slug)
    return PATH_SEPARATOR.join(tree[s][0] for s in reversed(chain)) if chain else None
