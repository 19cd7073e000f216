"""`Release`: one successful load, with its totals and what it changed (DESIGN §5)."""

from collections.abc import Awaitable
from datetime import datetime
from typing import TYPE_CHECKING

import strawberry

from schema import refs
from schema.base import Entity, RowBacked, row_field
from schema.context import Info
from schema.errors import BadUserInputError
from schema.ids import encode_id
from schema.inputs import (
    RELEASES_NEWEST_FIRST,
    ReleaseFilter,
    ReleaseOrder,
    list_name_of,
    release_selection,
    sort_of,
)
from schema.pagination import Connection, PageRequest, Paging, connection_of
from store.data_version import data_version
from store.history import releases
from store.history.release_changes import Comparison
from store.history.releases import retained_range
from store.tables import ReleaseRow

if TYPE_CHECKING:
    from schema.history.changes import Changes


def release_version(row: ReleaseRow) -> str:
    """The release's version: its number and its load's random identity, as the data
    version of the answers served from it (`taxonomy { dataVersion }`)."""
    return str(data_version(row.number, row.identity))


@strawberry.type(description="The totals of a release's data.")
class ReleaseTotals:
    nodes: int = strawberry.field(description="Nodes.")
    methods: int = strawberry.field(description="Methods.")
    models: int = strawberry.field(description="Models.")
    sources: int = strawberry.field(description="Sources.")
    evidence: int = strawberry.field(description="Pieces of evidence.")


@strawberry.type(
    description="One successful load of the data. Every load is one, kept after the "
    "next loads replace its data: what changed between any two is `changes(since:, until:)`."
)
class Release(RowBacked, Entity):
    row: strawberry.Private[ReleaseRow]

    id: strawberry.ID = row_field(
        "Stable, opaque ID; refetch the release with `entity(id:)`.",
        lambda release: strawberry.ID(encode_id("Release", release_version(release.row))),
    )
    number: int = row_field("Counts the releases of this database: 1 for its first load.")
    version: str = row_field(
        "Unique for all time, also across databases rebuilt from scratch: the number and "
        "a random identity (`7-3f2a...`), as `taxonomy { dataVersion }` while it was served.",
        lambda release: release_version(release.row),
    )
    loaded_at: datetime = row_field("When the load committed (UTC).")
    checksum: str = row_field(
        "SHA-256 of the release's records: two releases of the same data have the same one."
    )
    note: str | None = row_field('What the loader said of it: `taxonomy load --note "..."`.')

    @strawberry.field(description="How much data the release has.")
    def totals(self) -> ReleaseTotals:
        row = self.row
        return ReleaseTotals(
            nodes=row.nodes,
            methods=row.methods,
            models=row.models,
            sources=row.sources,
            evidence=row.evidence,
        )

    @strawberry.field(
        description="What this release changed against the release before it (see "
        "`changes.isEmpty`: a release may change nothing); null for the oldest retained "
        "release, which has no release before it to compare with.",
        graphql_type=refs.ChangesRef | None,
    )
    async def changes(self, info: Info) -> "Changes | None":
        before = await info.context.loaders.release_by_number.load(self.row.number - 1)
        return None if before is None else await changes_between(info, before.number, self.row)


@strawberry.type
class FirstSeen(RowBacked):
    """A record that says since which release it exists (its row's `first_seen`)."""

    @strawberry.field(
        description="The earliest retained release that has this record (by its slug): "
        "filter lists by it with `firstSeenAfter`.",
        graphql_type=Release,
    )
    def first_seen(self, info: Info) -> "Release | Awaitable[Release]":
        number = self.row.first_seen
        return info.context.loaders.release_by_number.now_or_later(number, _found)


def _found(row: ReleaseRow | None) -> Release:
    if row is None:  # only a half-written database could get here
        raise LookupError("a release that a record was first seen in is missing")
    return Release(row=row)


async def releases_connection(
    info: Info, paging: Paging, filter: ReleaseFilter | None, order_by: ReleaseOrder | None
) -> Connection[Release]:
    selection = release_selection(filter)
    sort = sort_of(order_by or RELEASES_NEWEST_FIRST)
    # The newest first keeps the list's name from before it had orders: its cursors still work.
    list_name = "releases" if sort.descending else list_name_of("releases", sort)
    request = PageRequest.of(info, list_name, paging)
    reader = info.context.reader
    page = await releases.releases_page(
        reader,
        info.context.caches.releases,
        window=request.window,
        selection=selection,
        newest_first=sort.descending,
    )
    items = [Release(row=row) for row in page.rows]
    for item in items:
        info.context.loaders.release_by_number.put(item.row.number, item.row)

    async def count() -> int:
        return await releases.releases_count(reader, selection)

    return connection_of(page, request.list_name, items, count)


async def release_lookup(info: Info, number: int | None, version: str | None) -> Release | None:
    """`release(number:, version:)`: exactly one of them."""
    if (number is None) == (version is None):
        raise BadUserInputError(
            "give exactly one of `number` or `version` (e.g. `release(number: 2)`)"
        )
    if version is not None:
        head, _, _ = version.partition("-")
        if not head.isdigit():
            return None
        number = int(head)
    assert number is not None
    row = await info.context.loaders.release_by_number.load(number)
    if row is None or (version is not None and release_version(row) != version):
        return None
    return Release(row=row)


async def changes_between(info: Info, since: int, to: ReleaseRow) -> "Changes":
    """The changes from release ``since`` to release ``to`` (both retained)."""
    loaders = info.context.loaders
    _, newest_number = await retained_range(info.context.reader, info.context.caches.releases)
    start = await loaders.release_by_number.load(since)
    newest = await loaders.release_by_number.load(newest_number or to.number)
    assert start is not None  # the callers checked
    assert newest is not None
    comparison = Comparison(
        info.context.reader,
        since,
        to.number,
        (newest.number, release_version(newest)),
        info.context.caches.comparisons,
    )
    return refs.changes(from_=Release(row=start), to=Release(row=to), comparison=comparison)
