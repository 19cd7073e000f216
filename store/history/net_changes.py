"""The net change between two releases: its records, and the tree of nodes as it was in
a release (no database here: store.history.change_lists pages the changes in SQL,
store.history.change_rows reads the node rows the trees are undone from).

Each change row holds a record's state before its release and after. So a record's state
in release `a` is the "before" of its earliest row after `a` (or, with no row after `a`,
its state now), and the net change from `a` to `b` compares the record's states in `a`
and `b`: added then removed is no change; renamed twice is one rename, from the first
name to the last."""

from collections.abc import Sequence
from dataclasses import dataclass

# A record's state: (name, where it sits: a node's parent slug, a method's node slug), or
# None when it does not exist.
State = tuple[str, str | None] | None
PATH_SEPARATOR = " :: "

# Ranks are kept in the change_kind table: a new kind goes last (migration 0012 added
# "changed": a served field other than the name and place, store.history.field_values).
KIND_ORDER = ("added", "removed", "moved", "renamed", "strengthened", "weakened", "changed")


@dataclass(frozen=True)
class StateRow:
    """One node change row: the node's key (its slug) before and after."""

    release: int
    key: tuple[str, ...]
    before: State
    after: State


@dataclass(frozen=True)
class NetChange:
    """One change of a record from one release to another (a node or method both moved
    and renamed has two)."""

    kind: str  # one of KIND_ORDER
    key: tuple[str, ...]
    before: State | int | None
    after: State | int | None
    # The compared fields' kept texts in the two releases (store.history.field_values); a node's,
    # method's or model's, whatever its kind of change.
    fields: tuple[str | None, str | None] = (None, None)
    # In a combined list (one row per record): its other kind of change (renamed, when it
    # also moved); and for a removal, what it went with: "place" (a node's parent, a
    # method's node, removed too), "model" and "method" (a treatment's, removed too).
    also: str | None = None
    removed_with: tuple[str, ...] = ()


def _state(value: object) -> tuple[str, str | None] | None:
    return value if isinstance(value, tuple) else None


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


def kinds_of(before: State, after: State, *, fields_changed: bool = False) -> list[str]:
    """The kinds of change (in KIND_ORDER) from state ``before`` to ``after`` of one
    record: what the change lists say of it (moved and renamed may both be; "changed",
    when ``fields_changed``, only when neither is: a move or rename carries its fields)."""
    if before is None:
        return [] if after is None else ["added"]
    if after is None:
        return ["removed"]
    moved = ["moved"] if before[1] != after[1] else []
    named = [*moved, *(["renamed"] if before[0] != after[0] else [])]
    return named or (["changed"] if fields_changed else [])
