"""`changes(since:, until:)`: what changed between two releases, net (DESIGN §5)."""

from collections.abc import Awaitable, Callable
from datetime import datetime
from enum import Enum
from typing import Annotated, Any

import strawberry

from schema import refs
from schema.context import Info
from schema.enums import Strength
from schema.errors import BadUserInputError, NotFoundError
from schema.node_ref import WITHIN_DEPRECATED, NodeReference, branch_of
from schema.pagination import (
    DEFAULT_PAGE_SIZE,
    After,
    Before,
    Connection,
    First,
    Last,
    PageRequest,
    Paging,
    connection_of,
)
from schema.refs import MethodRef, ModelRef, NodeRef
from schema.release import Release, release_version
from schema.release_range import release_range
from store import field_values
from store.change_lists import Filters, changes_count, changes_page, net_change
from store.net_changes import NetChange
from store.release_changes import Comparison
from store.releases import release_served_at, retained_range
from store.tables import ReleaseRow


@strawberry.enum(description="How a record changed between two releases.")
class ChangeKind(Enum):
    ADDED = strawberry.enum_value("added", description="Not in the first release; in the second.")
    REMOVED = strawberry.enum_value(
        "removed", description="In the first release; not in the second."
    )
    MOVED = strawberry.enum_value(
        "moved", description="A node under another parent, a method filed at another node."
    )
    RENAMED = strawberry.enum_value("renamed", description="The same slug with another name.")
    STRENGTHENED = strawberry.enum_value(
        "strengthened", description="A model treats the method more strongly than before."
    )
    WEAKENED = strawberry.enum_value(
        "weakened", description="A model treats the method less strongly than before."
    )
    CHANGED = strawberry.enum_value(
        "changed",
        description="Another served field has another value (a description, matching aids, "
        "aliases, an organization, a release date: `fieldChanges` says which), and the record "
        "is neither moved nor renamed (a moved or renamed record's change carries its "
        "`fieldChanges` too).",
    )


Kinds = Annotated[
    list[ChangeKind] | None,
    strawberry.argument(description="Only changes of these kinds; every kind when null."),
]
Within = Annotated[
    strawberry.ID | None,
    strawberry.argument(
        description="Only changes in the branch of this node (a Node ID).",
        deprecation_reason=WITHIN_DEPRECATED,
    ),
]
Branch = Annotated[
    NodeReference | None,
    strawberry.argument(
        description="Only changes in the branch of this node (by ID, slug, slug path or names "
        "path) in either release: a method moved into the branch or out of it is in it."
    ),
]


@strawberry.type(
    description="A served field of a node, method or model with another value in the later "
    "release than in the earlier one. A field of one value says its values in `fromValue` "
    "and `toValue`, a list field its items in `fromItems` and `toItems`."
)
class FieldChange:
    field: str = strawberry.field(
        description="The field's name as the record's type serves it: `description` and "
        "`matchingAids` (nodes), `description` and `aliases` (methods), `organization` and "
        "`releaseDate` (models)."
    )
    from_value: str | None = strawberry.field(
        description="Its value in the earlier release (a date as YYYY-MM-DD); null when it "
        "had none, or for a list field."
    )
    to_value: str | None = strawberry.field(
        description="Its value in the later release; null when it has none, or for a list field."
    )
    from_items: list[str] | None = strawberry.field(
        description="A list field's items in the earlier release; null for a field of one value."
    )
    to_items: list[str] | None = strawberry.field(
        description="A list field's items in the later release; null for a field of one value."
    )


_FIELD_CHANGES = (
    "The served fields other than the name and place with other values in the later release "
    "(its description, ...); empty when none did, and for a record added or removed."
)


def _field_changes(kind: str, change: NetChange) -> list[FieldChange]:
    found = field_values.field_changes(kind, *change.fields)
    return [
        FieldChange(
            field=f.field,
            from_value=None if f.is_list else _one(f.before),
            to_value=None if f.is_list else _one(f.after),
            from_items=_items(f.before) if f.is_list else None,
            to_items=_items(f.after) if f.is_list else None,
        )
        for f in found
    ]


def _one(value: field_values.Value) -> str | None:
    return value if isinstance(value, str) else None


def _items(value: field_values.Value) -> list[str]:
    return value if isinstance(value, list) else []


def _named(change: NetChange, index: int) -> str | None:
    state = change.before if index == 0 else change.after
    return state[0] if isinstance(state, tuple) else None


@strawberry.type(description="A change of a node, named by its slug (it may be gone now).")
class NodeChange:
    kind: ChangeKind = strawberry.field(description="What changed.")
    slug: str = strawberry.field(description="The node's slug.")
    name: str = strawberry.field(description="Its name in the later release (if removed: before).")
    from_path: str | None = strawberry.field(
        description="Its names path in the earlier release; null if it was not there."
    )
    to_path: str | None = strawberry.field(
        description="Its names path in the later release; null if it is not there."
    )
    from_name: str | None = strawberry.field(description="Its name in the earlier release.")
    to_name: str | None = strawberry.field(description="Its name in the later release.")
    field_changes: list[FieldChange] = strawberry.field(description=_FIELD_CHANGES)

    @strawberry.field(description="The node as served now; null when it no longer exists.")
    async def node(self, info: Info) -> NodeRef | None:
        found = await info.context.loaders.node_by_slug.load(self.slug)
        return refs.node(*found) if found else None


@strawberry.type(description="A change of a method, named by its slug (it may be gone now).")
class MethodChange:
    kind: ChangeKind = strawberry.field(description="What changed.")
    slug: str = strawberry.field(description="The method's slug.")
    name: str = strawberry.field(description="Its name in the later release (if removed: before).")
    from_path: str | None = strawberry.field(
        description="The names path of the node it was filed at in the earlier release."
    )
    to_path: str | None = strawberry.field(
        description="The names path of the node it is filed at in the later release."
    )
    from_name: str | None = strawberry.field(description="Its name in the earlier release.")
    to_name: str | None = strawberry.field(description="Its name in the later release.")
    field_changes: list[FieldChange] = strawberry.field(description=_FIELD_CHANGES)

    @strawberry.field(description="The method as served now; null when it no longer exists.")
    async def method(self, info: Info) -> MethodRef | None:
        found = await info.context.loaders.method_by_slug.load(self.slug)
        return refs.method(*found) if found else None


@strawberry.type(description="A model added, removed, renamed or changed, named by its slug.")
class ModelChange:
    kind: ChangeKind = strawberry.field(
        description="What changed: ADDED, REMOVED, RENAMED or CHANGED."
    )
    slug: str = strawberry.field(description="The model's slug.")
    name: str = strawberry.field(description="Its name in the later release (if removed: before).")
    from_name: str | None = strawberry.field(
        description="Its name in the earlier release; null if it was not there."
    )
    to_name: str | None = strawberry.field(
        description="Its name in the later release; null if it is not there."
    )
    field_changes: list[FieldChange] = strawberry.field(description=_FIELD_CHANGES)

    @strawberry.field(description="The model as served now; null when it no longer exists.")
    async def model(self, info: Info) -> ModelRef | None:
        found = await info.context.loaders.model_by_slug.load(self.slug)
        return refs.model(found) if found else None


@strawberry.type(description="A change of how strongly a model treats a method.")
class TreatmentChange:
    kind: ChangeKind = strawberry.field(description="ADDED, REMOVED, STRENGTHENED or WEAKENED.")
    model_slug: str = strawberry.field(description="The model's slug.")
    method_slug: str = strawberry.field(description="The method's slug.")
    before: Strength | None = strawberry.field(
        description="The treatment in the earlier release; null if there was none.",
        deprecation_reason="Use `fromStrength`, named as `fromName` and `fromPath` are.",
    )
    after: Strength | None = strawberry.field(
        description="The treatment in the later release; null if there is none.",
        deprecation_reason="Use `toStrength`, named as `toName` and `toPath` are.",
    )

    @strawberry.field(description="The treatment in the earlier release; null if there was none.")
    def from_strength(self) -> Strength | None:
        return self.before

    @strawberry.field(description="The treatment in the later release; null if there is none.")
    def to_strength(self) -> Strength | None:
        return self.after

    @strawberry.field(description="The model as served now; null when it no longer exists.")
    async def model(self, info: Info) -> ModelRef | None:
        found = await info.context.loaders.model_by_slug.load(self.model_slug)
        return refs.model(found) if found else None

    @strawberry.field(description="The method as served now; null when it no longer exists.")
    async def method(self, info: Info) -> MethodRef | None:
        found = await info.context.loaders.method_by_slug.load(self.method_slug)
        return refs.method(*found) if found else None


@strawberry.type(description="How many changes of each kind.")
class ChangeCounts:
    added: int = strawberry.field(description="ADDED.")
    removed: int = strawberry.field(description="REMOVED.")
    moved: int = strawberry.field(description="MOVED.")
    renamed: int = strawberry.field(description="RENAMED.")
    strengthened: int = strawberry.field(description="STRENGTHENED.")
    weakened: int = strawberry.field(description="WEAKENED.")
    changed: int = strawberry.field(description="CHANGED.")
    total: int = strawberry.field(description="All of them.")


def _counts(counts: dict[str, int]) -> ChangeCounts:
    return ChangeCounts(**counts, total=sum(counts.values()))


@strawberry.type(description="How many changes of each kind, per kind of record.")
class ChangeSummary:
    nodes: ChangeCounts = strawberry.field(description="Of nodes.")
    methods: ChangeCounts = strawberry.field(description="Of methods.")
    models: ChangeCounts = strawberry.field(description="Of models.")
    treatments: ChangeCounts = strawberry.field(description="Of (model, method) treatments.")
    total: int = strawberry.field(description="All changes.")


@strawberry.type(
    description="What changed from one release to a later one, net: a record added then "
    "removed in between is no change, one renamed twice is one rename from the first name "
    "to the last. Records are the same record across releases when their slugs are."
)
class Changes:
    from_: Release = strawberry.field(name="from", description="The earlier release.")
    to: Release = strawberry.field(description="The later release.")
    comparison: strawberry.Private[Comparison]

    @strawberry.field(description="Counts of the changes of each kind.")
    async def summary(self) -> ChangeSummary:
        nodes, methods, models, treatments = [
            _counts(await self.comparison.counts(kind)) for kind in _KINDS
        ]
        return ChangeSummary(
            nodes=nodes,
            methods=methods,
            models=models,
            treatments=treatments,
            total=nodes.total + methods.total + models.total + treatments.total,
        )

    @strawberry.field(description="Whether nothing changed between the two releases.")
    async def is_empty(self) -> bool:
        for kind in _KINDS:
            if any((await self.comparison.counts(kind)).values()):
                return False
        return True

    @strawberry.field(
        description="Nodes added, removed, moved (new parent), renamed or changed (another field)."
    )
    async def nodes(
        self,
        info: Info,
        first: First = DEFAULT_PAGE_SIZE,
        after: After = None,
        last: Last = None,
        before: Before = None,
        kinds: Kinds = None,
        branch: Branch = None,
        within: Within = None,
    ) -> Connection[NodeChange] | None:
        paging = Paging(first, after, last, before)
        return await self._page(info, "node", _node_change, paging, kinds, branch, within)

    @strawberry.field(
        description="Methods added, removed, moved (filed at another node), renamed or "
        "changed (another field)."
    )
    async def methods(
        self,
        info: Info,
        first: First = DEFAULT_PAGE_SIZE,
        after: After = None,
        last: Last = None,
        before: Before = None,
        kinds: Kinds = None,
        branch: Branch = None,
        within: Within = None,
    ) -> Connection[MethodChange] | None:
        paging = Paging(first, after, last, before)
        return await self._page(info, "method", _method_change, paging, kinds, branch, within)

    @strawberry.field(description="Models added, removed, renamed or changed (another field).")
    async def models(
        self,
        info: Info,
        first: First = DEFAULT_PAGE_SIZE,
        after: After = None,
        last: Last = None,
        before: Before = None,
        kinds: Kinds = None,
    ) -> Connection[ModelChange] | None:
        paging = Paging(first, after, last, before)
        return await self._page(info, "model", _model_change, paging, kinds, None, None)

    @strawberry.field(
        description="(model, method) treatments added, removed, strengthened or weakened; "
        "`branch`: of the methods in the branch in either release."
    )
    async def treatments(
        self,
        info: Info,
        first: First = DEFAULT_PAGE_SIZE,
        after: After = None,
        last: Last = None,
        before: Before = None,
        kinds: Kinds = None,
        branch: Branch = None,
        within: Within = None,
    ) -> Connection[TreatmentChange] | None:
        paging = Paging(first, after, last, before)
        return await self._page(info, "treatment", _treatment_change, paging, kinds, branch, within)

    async def _page(
        self,
        info: Info,
        kind: str,
        build: Callable[[Comparison, NetChange], Awaitable[Any]],
        paging: Paging,
        kinds: list[ChangeKind] | None,
        branch: NodeReference | None,
        within: str | None,
    ) -> Connection[Any]:
        request = PageRequest.of(
            info, f"changes:{kind}:{self.comparison.since}:{self.comparison.until}", paging
        )
        node = await branch_of(info, within=within, branch=branch)
        comparison = self.comparison
        filters = Filters(
            comparison.since,
            comparison.until,
            kinds=None if kinds is None else [str(k.value) for k in kinds],
            branch=None if node is None else await comparison.branch_nodes(node.slug),
        )
        reader = info.context.reader
        page = await changes_page(reader, kind, filters, request.window)
        items = [await build(comparison, net_change(kind, row)) for row in page.rows]

        async def count() -> int:
            return await changes_count(reader, kind, filters)

        return connection_of(page, request.list_name, items, count)


_KINDS = ("node", "method", "model", "treatment")


async def _node_change(comparison: Comparison, change: NetChange) -> NodeChange:
    from_path, to_path = await comparison.paths("node", change)
    return NodeChange(
        kind=ChangeKind(change.kind),
        slug=change.key[0],
        name=str(_named(change, 1) or _named(change, 0)),
        from_path=from_path,
        to_path=to_path,
        from_name=_named(change, 0),
        to_name=_named(change, 1),
        field_changes=_field_changes("node", change),
    )


async def _method_change(comparison: Comparison, change: NetChange) -> MethodChange:
    from_path, to_path = await comparison.paths("method", change)
    return MethodChange(
        kind=ChangeKind(change.kind),
        slug=change.key[0],
        name=str(_named(change, 1) or _named(change, 0)),
        from_path=from_path,
        to_path=to_path,
        from_name=_named(change, 0),
        to_name=_named(change, 1),
        field_changes=_field_changes("method", change),
    )


async def _model_change(comparison: Comparison, change: NetChange) -> ModelChange:
    return ModelChange(
        kind=ChangeKind(change.kind),
        slug=change.key[0],
        name=str(_named(change, 1) or _named(change, 0)),
        from_name=_named(change, 0),
        to_name=_named(change, 1),
        field_changes=_field_changes("model", change),
    )


async def _treatment_change(comparison: Comparison, change: NetChange) -> TreatmentChange:
    def strength(rank: object) -> Strength | None:
        return Strength.from_rank(rank) if isinstance(rank, int) else None

    return TreatmentChange(
        kind=ChangeKind(change.kind),
        model_slug=change.key[0],
        method_slug=change.key[1],
        before=strength(change.before),
        after=strength(change.after),
    )


async def changes_between(info: Info, since: int, to: ReleaseRow) -> Changes:
    """The changes from release ``since`` to release ``to`` (both retained)."""
    loaders = info.context.loaders
    _, newest_number = await retained_range(info.context.reader)
    start = await loaders.release_by_number.load(since)
    newest = await loaders.release_by_number.load(newest_number or to.number)
    assert start is not None  # the callers checked
    assert newest is not None
    comparison = Comparison(
        info.context.reader, since, to.number, (newest.number, release_version(newest))
    )
    return Changes(from_=Release(row=start), to=Release(row=to), comparison=comparison)


async def _served_at(info: Info, argument: str, moment: datetime) -> int:
    number = await release_served_at(info.context.reader, moment)
    if number is None:
        raise NotFoundError(
            f"`{argument}`: no release was served at {moment.isoformat()}, before the first "
            "load; see `releases` for when each was loaded"
        )
    return number


async def changes_query(
    info: Info,
    since: int | None,
    until: int | None,
    from_: datetime | None = None,
    to: datetime | None = None,
) -> Changes:
    """`changes(since:, until:)` or `changes(from:, to:)`, its releases checked against
    those retained."""
    if (since is None) == (from_ is None):
        raise BadUserInputError(
            "give the earlier release by exactly one of `since` (its number) or `from` (a "
            "moment it was served at)"
        )
    if until is not None and to is not None:
        raise BadUserInputError(
            "give the later release by at most one of `until` (its number) or `to` (a moment "
            "it was served at); the newest when neither"
        )
    if from_ is not None:
        since = await _served_at(info, "from", from_)
    if to is not None:
        until = await _served_at(info, "to", to)
    assert since is not None
    _, until = await release_range(info, ("since", since), ("until", until))
    later = await info.context.loaders.release_by_number.load(until)
    assert later is not None  # every number from the oldest to the newest is retained
    return await changes_between(info, since, later)
