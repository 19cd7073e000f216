"""A record's history (`history` on Node, Method and Model) and records that are no more
(`formerNode`, `formerMethod`, `formerModel`): read from the change rows (DESIGN §5)."""

import strawberry
from strawberry.types.field import StrawberryField

from schema import refs
from schema.base import RowBacked, declared
from schema.context import Info
from schema.history.changes import CHANGE_OF, ChangeItem, ChangeKind, TreatmentChange
from schema.history.release import Release, release_version
from schema.pagination import FIRST_PAGE, Connection, Paged, PageRequest, Paging, connection_of
from schema.refs import NodeRef
from store.history import record_history
from store.history.net_changes import NetChange, kinds_of, path_in
from store.history.release_changes import Comparison
from store.history.releases import retained_range


async def _newest(info: Info) -> tuple[int, str]:
    _, newest = await retained_range(info.context.reader, info.context.caches.releases)
    row = await info.context.loaders.release_by_number.load(newest or 0)
    assert row is not None  # a record is served: there is a release
    return row.number, release_version(row)


async def history_connection(
    info: Info, kind: str, slug: str, paging: Paging
) -> Connection[ChangeItem]:
    """The changes of the ``kind`` (node, method, model) ``slug``, oldest first, each with
    its release."""
    request = PageRequest.of(info, f"history:{kind}:{slug}", paging)
    reader = info.context.reader
    page = await record_history.history_page(reader, kind, slug, request.window)
    newest = await _newest(info)
    items: list[ChangeItem] = []
    for release, before_name, before_place, after_name, after_place, *fields in page.rows:
        before = None if before_name is None else (before_name, before_place)
        after = None if after_name is None else (after_name, after_place)
        changed = None not in fields and fields[0] != fields[1]
        first, *also = kinds_of(before, after, fields_changed=changed)
        change = NetChange(
            first, (slug,), before, after, (fields[0], fields[1]), also=also[0] if also else None
        )
        comparison = Comparison(
            reader, release - 1, release, newest, info.context.caches.comparisons
        )
        item = await CHANGE_OF[kind](comparison, change)
        assert not isinstance(item, TreatmentChange)  # a record's history: no treatments
        item.release_row = await info.context.loaders.release_by_number.load(release)
        items.append(item)

    async def count() -> int:
        return await record_history.history_count(reader, kind, slug)

    return connection_of(page, request.list_name, items, count)


@strawberry.type(
    description="A node as it was at a path where it is no more: moved (it or a node above "
    "it under another parent), renamed (a names path) or removed."
)
class FormerNode:
    slug: str = strawberry.field(description="The node's slug.")
    name: str = strawberry.field(description="Its name then.")
    path: str = strawberry.field(description="Its names path then (`A :: B`).")
    slug_path: str = strawberry.field(description="Its slug path then (`a/b`).")
    kind: ChangeKind = strawberry.field(
        description="What took it from the path: MOVED (it or a node above it moved), "
        "RENAMED (it or a node above it renamed: a names path) or REMOVED."
    )
    last_seen_in: Release = strawberry.field(
        description="The last release that had the node at this path."
    )
    changed_in: Release = strawberry.field(
        description="The release that moved, renamed or removed it from the path."
    )

    @strawberry.field(description="The node as served now; null when it was removed.")
    async def node(self, info: Info) -> NodeRef | None:
        found = await info.context.loaders.node_by_slug.load(self.slug)
        return refs.node(*found) if found else None


@strawberry.type(description="A method or a model removed by a release: what it was.")
class FormerRecord:
    slug: str = strawberry.field(description="Its slug.")
    name: str = strawberry.field(description="Its name before it was removed.")
    path: str | None = strawberry.field(
        description="A method's: the names path of the node it was filed at then; null for a model."
    )
    last_seen_in: Release | None = strawberry.field(
        description="The last release that had it; null when that release was pruned."
    )
    removed_in: Release = strawberry.field(description="The release that removed it.")


async def _release(info: Info, number: int) -> Release | None:
    row = await info.context.loaders.release_by_number.load(number)
    return None if row is None else Release(row=row)


async def _retained(info: Info, number: int) -> Release:
    found = await _release(info, number)
    assert found is not None  # a retained release's number
    return found


async def former_node(info: Info, path: str) -> FormerNode | None:
    """`formerNode(path:)`: the node that was at ``path`` (a slug path or a names path) in
    the latest retained release that had one there, and the release that took it away;
    null when a node is there now, or none ever was in a retained release."""
    reader = info.context.reader
    oldest, newest = await retained_range(reader, info.context.caches.releases)
    if oldest is None or newest is None:
        return None
    version = (await _newest(info))[1]
    trees = await record_history.release_trees(
        reader, oldest, newest, version, info.context.caches.release_trees
    )
    if record_history.node_at_path(trees[newest], path) is not None:
        return None
    for number in range(newest - 1, oldest - 1, -1):
        tree = trees[number]
        slug = record_history.node_at_path(tree, path)
        if slug is None:
            continue
        later = trees[number + 1]
        if slug not in later:
            kind = ChangeKind.REMOVED
        elif record_history.slug_path(later, slug) != record_history.slug_path(tree, slug):
            kind = ChangeKind.MOVED
        else:
            kind = ChangeKind.RENAMED
        return FormerNode(
            slug=slug,
            name=tree[slug][0],
            path=str(path_in(tree, slug)),
            slug_path=record_history.slug_path(tree, slug),
            kind=kind,
            last_seen_in=await _retained(info, number),
            changed_in=await _retained(info, number + 1),
        )
    return None


async def former_record(info: Info, kind: str, slug: str) -> FormerRecord | None:
    """`formerMethod(slug:)`, `formerModel(slug:)`: the method or model ``slug`` as it was
    before the latest retained release removed it; null while it is served, or when no
    retained release removed it."""
    loaders = info.context.loaders
    now = loaders.method_by_slug if kind == "method" else loaders.model_by_slug
    if await now.load(slug) is not None:
        return None
    removal = await record_history.removal(info.context.reader, kind, slug)
    if removal is None:
        return None
    path = None
    if kind == "method":
        reader = info.context.reader
        comparison = Comparison(
            reader,
            removal.release - 1,
            removal.release,
            await _newest(info),
            info.context.caches.comparisons,
        )
        path = path_in((await comparison.trees())[0], removal.place)
    return FormerRecord(
        slug=slug,
        name=removal.name,
        path=path,
        last_seen_in=await _release(info, removal.release - 1),
        removed_in=await _retained(info, removal.release),
    )


def history_field(kind: str, graphql_type: object) -> StrawberryField:
    """Declare ``history = history_field(kind, Connection[its change type] | None)`` on a
    node, method or model."""

    async def resolve(
        root: RowBacked, info: Info, paging: Paging = FIRST_PAGE
    ) -> Connection[ChangeItem] | None:
        return await history_connection(info, kind, root.row.slug, paging)

    return declared(
        strawberry.field(
            resolver=resolve,
            extensions=[Paged()],
            description=f"What the retained releases changed of this {kind}, oldest first: "
            "added, moved, renamed (each entry's `release` says which); `firstSeen` says since "
            "when it exists. A change older than the oldest retained release is not here.",
            graphql_type=graphql_type,
        )
    )
