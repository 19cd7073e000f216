"""One record's history, and records that are no more: read from the change rows.

A node's, method's or model's history is its own change rows, oldest first: each says
what the record was before its release and after (store.tables). A record no longer
served is found by its latest change row: its name and place before the release that
removed it. A node's former slug path is found in the trees of the retained releases
(store.history.net_changes undoes them from the rows)."""

from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass
from typing import NamedTuple

from cachetools import LRUCache
from sqlalchemy import SQLColumnExpression, String, bindparam, literal, select
from sqlmodel import col

from store import paging
from store.history import change_rows
from store.history.net_changes import PATH_SEPARATOR, lineage, path_in, tree_at
from store.paging import Page, SortKey, Template, Window
from store.reader import Reader
from store.rows import AnySelect, Prepared, keys
from store.tables import MethodChangeRow, ModelChangeRow, NodeChangeRow

_TABLES: dict[str, type[NodeChangeRow] | type[MethodChangeRow] | type[ModelChangeRow]] = {
    "node": NodeChangeRow,
    "method": MethodChangeRow,
    "model": ModelChangeRow,
}
# Where a node or a method sits (a node's parent, a method's node); a model sits nowhere.
_PLACES = {"node": ("before_parent", "after_parent"), "method": ("before_node", "after_node")}
_SLUG = bindparam("slug", type_=String)


Place = SQLColumnExpression[str | None]


def _places(kind: str) -> tuple[Place, Place]:
    table = _TABLES[kind]
    if kind not in _PLACES:
        return literal(None), literal(None)
    before, after = _PLACES[kind]
    return col(getattr(table, before)), col(getattr(table, after))


class HistoryRow(NamedTuple):
    """A change of one record (a row of `history_page`): its name and place (a node's
    parent's slug, a method's node's) before and after, and its other fields (JSON text:
    store.history.field_values)."""

    release: int
    before_name: str | None
    before_place: str | None
    after_name: str | None
    after_place: str | None
    before_fields: str | None
    after_fields: str | None


def _history(kind: str) -> tuple[AnySelect, list[SortKey]]:
    """The change rows of one record (`slug`) that moved or renamed it, added or removed
    it, or changed its other fields (`HistoryRow`). Unknown fields (null: a row older than
    them) compare as no change, as in the change lists."""
    table = _TABLES[kind]
    before_place, after_place = _places(kind)
    statement: AnySelect = select(
        col(table.release),
        col(table.before_name),
        before_place.label("before_place"),
        col(table.after_name),
        after_place.label("after_place"),
        col(table.before_fields),
        col(table.after_fields),
    ).where(
        col(table.slug) == _SLUG,
        col(table.before_name).is_distinct_from(col(table.after_name))
        | before_place.is_distinct_from(after_place)
        | (col(table.before_fields) != col(table.after_fields)),
    )
    return statement, [SortKey(col(table.release))]


async def history_page(reader: Reader, kind: str, slug: str, window: Window) -> Page[HistoryRow]:
    """A page of the history of the ``kind`` (node, method, model) ``slug``, oldest
    change first."""
    statement, sort_keys = _history(kind)
    listing = Template(statement, ("history", kind), {"slug": slug})
    return await paging.keyset_page(reader, listing, sort_keys, window, rows=HistoryRow)


async def history_count(reader: Reader, kind: str, slug: str) -> int:
    statement, _ = _history(kind)
    return await paging.count(reader, Template(statement, ("history", kind), {"slug": slug}))


class _Named(NamedTuple):
    """A record's name and place before a release."""

    slug: str
    release: int
    name: str
    place: str | None


class _Removed(NamedTuple):
    release: int
    name: str
    place: str | None


def _latest_names(kind: str) -> Prepared[_Named]:
    table = _TABLES[kind]
    before_place, _ = _places(kind)
    return Prepared.of(
        select(col(table.slug), col(table.release), col(table.before_name), before_place).where(
            col(table.slug).in_(keys()), col(table.before_name).is_not(None)
        ),
        _Named,
    )


_LATEST_NAMES = {kind: _latest_names(kind) for kind in _TABLES}


@dataclass(frozen=True)
class Former:
    """A record as it was before the release that last changed it: its name and place
    (a method's node slug) then, and that release's number."""

    slug: str
    name: str
    place: str | None
    release: int


async def former_states(reader: Reader, kind: str, slugs: Sequence[str]) -> dict[str, Former]:
    """The latest former state of each of ``slugs`` (records of ``kind``) that some
    release changed or removed: its name and place before that release."""
    found: dict[str, Former] = {}
    for row in await reader.rows(_LATEST_NAMES[kind], {"keys": list(dict.fromkeys(slugs))}):
        known = found.get(row.slug)
        if known is None or row.release > known.release:
            found[row.slug] = Former(row.slug, row.name, row.place, int(row.release))
    return found


def _removal(kind: str) -> Prepared[_Removed]:
    table = _TABLES[kind]
    before_place, _ = _places(kind)
    return Prepared.of(
        select(col(table.release), col(table.before_name), before_place)
        .where(col(table.slug) == _SLUG, col(table.after_name).is_(None))
        .order_by(col(table.release).desc())
        .limit(1),
        _Removed,
    )


_REMOVALS = {kind: _removal(kind) for kind in _TABLES}


async def removal(reader: Reader, kind: str, slug: str) -> Former | None:
    """The latest release that removed the ``kind`` ``slug``, with its name and place
    before; None when no retained release removed it."""
    rows = await reader.rows(_REMOVALS[kind], {"slug": slug})
    if not rows:
        return None
    removed = rows[0]
    return Former(slug, removed.name, removed.place, int(removed.release))


# ---- a node's former paths ----------------------------------------------------------------

Tree = dict[str, tuple[str, str | None]]
# The trees of the retained releases (number -> tree) by the newest release's version: a
# new load makes a new key. Kept per app (store.caches.Caches.release_trees).
ReleaseTrees = LRUCache[str, dict[int, Tree]]


async def release_trees(
    reader: Reader, oldest: int, newest: int, version: str, kept: ReleaseTrees
) -> dict[int, Tree]:
    """The nodes (slug -> (name, parent slug)) of each retained release, oldest to newest."""
    trees = kept.get(version)
    if trees is None:
        rows = await change_rows.node_rows(reader, oldest, newest)
        now = await change_rows.nodes_now(reader)
        trees = {number: tree_at(now, rows, number) for number in range(oldest, newest + 1)}
        # Larger than the whole cache (a ValueError): read again by the next request.
        with suppress(ValueError):
            kept[version] = trees
    return trees


def slug_path(tree: Tree, slug: str) -> str:
    """Node ``slug``'s slug path (`a/b/c`) in ``tree`` (it is there)."""
    return "/".join(reversed(lineage(tree, slug)))


def node_at_path(tree: Tree, path: str) -> str | None:
    """The slug of the node at ``path`` in ``tree``: a slug path (`a/b`) or a names path
    (`A :: B`); None when no node is there."""
    path = path.strip().strip("/")
    if PATH_SEPARATOR not in path:
        slug = path.rsplit("/", 1)[-1]
        if slug in tree and slug_path(tree, slug) == path:
            return slug
    last = path.rsplit(PATH_SEPARATOR, 1)[-1]
    for slug, (name, _) in tree.items():
        if name == last and path_in(tree, slug) == path:
            return slug
    return None
