"""`changes(since:, until:)`: what changed between two releases, net (DESIGN §5)."""

from collections.abc import Awaitable, Callable
from datetime import datetime
from enum import Enum
from typing import TYPE_CHECKING, Annotated, TypedDict, TypeVar

import strawberry
from strawberry.types.field import StrawberryField

from schema import refs
from schema.base import declared
from schema.context import Info
from schema.enums import Strength
from schema.errors import BadUserInputError, NotFoundError
from schema.history.release import Release, changes_between
from schema.history.release_range import release_range
from schema.node_ref import WITHIN_DEPRECATED, NodeReference, branch_of
from schema.pagination import FIRST_PAGE, Connection, Paged, PageRequest, Paging, connection_of
from schema.refs import MethodRef, ModelRef, NodeRef
from store.history import field_values
from store.history.change_lists import (
    ChangeListRow,
    Filters,
    changes_count,
    changes_page,
    net_change,
)
from store.history.net_changes import NetChange, path_in
from store.history.release_changes import Comparison, place_of
from store.history.releases import release_served_at
from store.paging import CursorValue, Page, Window
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
        "aliases, an organization, a release date, documents, a treatment's evidence: "
        "`fieldChanges` says which), and the record is neither moved nor renamed (a moved "
        "or renamed record's change carries its `fieldChanges` too), nor a treatment's "
        "strength changed.",
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
        "`matchingAids` (nodes), `description` and `aliases` (methods), `organization`, "
        "`releaseDate` and `sources` (models: each document one item, its title then its "
        "kind, date and URL where it has them), `evidence` (treatments: each piece one item "
        "in its key order, its strength, then its quote in quotation marks, then its "
        "locator and source's slug in brackets where it has them)."
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


@strawberry.enum(description="The order of a list of changes.")
class ChangeOrder(Enum):
    KEY = strawberry.enum_value(
        "key", description="By the record's slug (a treatment's: its model's, then its method's)."
    )
    KIND = strawberry.enum_value(
        "kind",
        description="By the kind of change (added, removed, moved, renamed, strengthened, "
        "weakened), then by slug.",
    )


Combined = Annotated[
    bool,
    strawberry.argument(
        description="One row per record (a move with a rename is one MOVED row, `kinds` "
        "says both), and no knock-on removals: a record removed because what it sat in was "
        "removed too (a node's parent, a method's node, a treatment's model or method) is "
        "listed under that removal's `knockOn`, not here."
    ),
]
OrderBy = Annotated[
    ChangeOrder, strawberry.argument(description="The list's order; by slug when not given.")
]


def _named(change: NetChange, index: int) -> str | None:
    state = change.before if index == 0 else change.after
    return state[0] if isinstance(state, tuple) else None


_KINDS_DESCRIPTION = (
    "Every kind of change of this row: `[kind]`, or in a combined list (`combined: true`) "
    "and a history `[MOVED, RENAMED]` for a record both moved and renamed."
)
_RELEASE_DESCRIPTION = (
    "The release that made this change, when it is one release's: an entry of a record's "
    "`history`; null in a list of changes between two releases."
)
_KNOCK_ON_DESCRIPTION = (
    "For a removal: the records removed with it (knock-on removals), which a combined list "
    "(`combined: true`) leaves out of its own rows; null for any other change."
)


@strawberry.type
class _RecordChange:
    """The fields a node's, method's and model's change share beyond their own."""

    if TYPE_CHECKING:
        kind: ChangeKind
        slug: str

    # Its other kind of change (`kinds`), its release (`release`), the comparison it was
    # read from, what it went with and where it sat (a knock-on removal's: `removedWith`).
    also: strawberry.Private[str | None] = None
    release_row: strawberry.Private[ReleaseRow | None] = None
    comparison: strawberry.Private[Comparison | None] = None
    went_with: strawberry.Private[tuple[str, ...]] = ()
    place: strawberry.Private[str | None] = None

    @strawberry.field(description=_KINDS_DESCRIPTION)
    def kinds(self) -> list[ChangeKind]:
        return [self.kind] if self.also is None else [self.kind, ChangeKind(self.also)]

    @strawberry.field(description=_RELEASE_DESCRIPTION)
    def release(self) -> Release | None:
        return None if self.release_row is None else Release(row=self.release_row)

    @strawberry.field(description=_KNOCK_ON_DESCRIPTION)
    def knock_on(self) -> "KnockOn | None":
        return _knock_on(self)


_Change = TypeVar("_Change", bound=_RecordChange)


@strawberry.type
class _PlacedChange(_RecordChange):
    """A change of a node or a method, which have a place in the tree; each type says its
    own of `slug`, `fromPath` and `toPath`."""

    kind: ChangeKind = strawberry.field(description="What changed.")
    slug: str
    name: str = strawberry.field(description="Its name in the later release (if removed: before).")
    from_path: str | None
    to_path: str | None
    from_name: str | None = strawberry.field(description="Its name in the earlier release.")
    to_name: str | None = strawberry.field(description="Its name in the later release.")
    field_changes: list[FieldChange] = strawberry.field(description=_FIELD_CHANGES)


@strawberry.type(description="A change of a node, named by its slug (it may be gone now).")
class NodeChange(_PlacedChange):
    slug: str = strawberry.field(description="The node's slug.")
    from_path: str | None = strawberry.field(
        description="Its names path in the earlier release; null if it was not there."
    )
    to_path: str | None = strawberry.field(
        description="Its names path in the later release; null if it is not there."
    )

    @strawberry.field(description="The node as served now; null when it no longer exists.")
    async def node(self, info: Info) -> NodeRef | None:
        found = await info.context.loaders.node_by_slug.load(self.slug)
        return refs.node(*found) if found else None

    @strawberry.field(
        description="For a node removed because its parent was removed too (a knock-on "
        "removal): the parent's removal; null otherwise."
    )
    async def removed_with(self) -> "NodeChange | None":
        return await _removed_with(self)


@strawberry.type(description="A change of a method, named by its slug (it may be gone now).")
class MethodChange(_PlacedChange):
    slug: str = strawberry.field(description="The method's slug.")
    from_path: str | None = strawberry.field(
        description="The names path of the node it was filed at in the earlier release."
    )
    to_path: str | None = strawberry.field(
        description="The names path of the node it is filed at in the later release."
    )

    @strawberry.field(description="The method as served now; null when it no longer exists.")
    async def method(self, info: Info) -> MethodRef | None:
        found = await info.context.loaders.method_by_slug.load(self.slug)
        return refs.method(*found) if found else None

    @strawberry.field(
        description="For a method removed because the node it was filed at was removed too "
        "(a knock-on removal): the node's removal; null otherwise."
    )
    async def removed_with(self) -> NodeChange | None:
        return await _removed_with(self)


@strawberry.type(description="A model added, removed, renamed or changed, named by its slug.")
class ModelChange(_RecordChange):
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


@strawberry.type(
    description="A change of how strongly a model treats a method, or of the evidence it rests on."
)
class TreatmentChange:
    kind: ChangeKind = strawberry.field(
        description="ADDED, REMOVED, STRENGTHENED or WEAKENED; CHANGED when its strength "
        "stayed but its evidence changed (`fieldChanges`)."
    )
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
    field_changes: list[FieldChange] = strawberry.field(
        description="Its `evidence` when it changed and the pair has a treatment in both "
        "releases (whatever its strength did): one item per piece, its strength, quote, "
        "locator and source; empty otherwise, and for a pair removed and added back in "
        "between, whose texts are not kept (CHANGED then says its evidence differs)."
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

    comparison: strawberry.Private[Comparison | None] = None
    went_with: strawberry.Private[tuple[str, ...]] = ()

    @strawberry.field(
        description="The model's name: as served now, or if it is gone, as it was before "
        "the release that removed it (the slug when no retained release knew it)."
    )
    async def model_name(self, info: Info) -> str:
        return await _record_name(info, "model", self.model_slug)

    @strawberry.field(
        description="The method's name: as served now, or if it is gone, as it was before "
        "the release that removed it (the slug when no retained release knew it)."
    )
    async def method_name(self, info: Info) -> str:
        return await _record_name(info, "method", self.method_slug)

    @strawberry.field(
        description="For a treatment removed because its model was removed too (a "
        "knock-on removal): the model's removal; null otherwise."
    )
    async def removed_with_model(self, info: Info) -> "ModelChange | None":
        if "model" not in self.went_with or self.comparison is None:
            return None
        name = await _record_name(info, "model", self.model_slug)
        return _removal(ModelChange, self.comparison, self.model_slug, name)

    @strawberry.field(
        description="For a treatment removed because its method was removed too (a "
        "knock-on removal): the method's removal; null otherwise."
    )
    async def removed_with_method(self, info: Info) -> "MethodChange | None":
        if "method" not in self.went_with or self.comparison is None:
            return None
        return await _removed_method(info, self.comparison, self.method_slug)


# A change of any kind of record.
ChangeItem = NodeChange | MethodChange | ModelChange | TreatmentChange


def _sort_key(kind: str, row: ChangeListRow) -> tuple[CursorValue, ...]:
    """A knock-on removal's sort-key values: its slugs (a treatment's two), which come
    first in its row."""
    return tuple(str(slug) for slug in row[: 2 if kind == "treatment" else 1])


def _knock_on_list(kind: str, graphql_type: object, description: str) -> StrawberryField:
    """Declare a `KnockOn` list of the records of ``kind`` removed with the record."""

    async def resolve(
        root: "KnockOn", info: Info, paging: Paging = FIRST_PAGE
    ) -> Connection[ChangeItem] | None:
        knock_on: KnockOn = root
        # A node takes sub-nodes and methods with it; a method or a model, treatments.
        if (kind == "treatment") == (knock_on.cause_kind == "node"):
            return None
        cause = knock_on.cause_kind if kind == "treatment" else "place"
        comparison = knock_on.comparison
        filters = Filters(comparison.since, comparison.until, cause=(cause, knock_on.cause))
        name = f"knock-on:{kind}:{knock_on.cause_kind}:{knock_on.cause}"
        read = None
        if paging.is_first_page:
            # A first page: read with those of every removal of the request (one statement).
            key = (comparison.since, comparison.until, kind, cause, knock_on.cause)
            loaders = info.context.loaders

            async def read(window: Window) -> Page[ChangeListRow]:
                rows = await loaders.knock_on_first(window.size).load(key)
                total = await loaders.knock_on_count.load(key)
                keys = [_sort_key(kind, row) for row in rows]
                return Page(rows, keys, total > len(rows), False, total)

        return await change_connection(info, comparison, kind, name, paging, filters, read=read)

    return declared(
        strawberry.field(
            resolver=resolve,
            description=description,
            extensions=[Paged()],
            graphql_type=graphql_type,
        )
    )


@strawberry.type(
    description="The records removed with a removed record, because they sat in it: a "
    "node's sub-nodes and the methods filed at it; a method's or a model's treatments. "
    "Each list is null where the record can take none of that kind with it."
)
class KnockOn:
    comparison: strawberry.Private[Comparison]
    cause_kind: strawberry.Private[str]  # node, method, model
    cause: strawberry.Private[str]  # its slug

    @strawberry.field(
        description="How many sub-nodes were removed with this node; null for a method or "
        "a model (one statement for a page of removals)."
    )
    async def node_count(self, info: Info) -> int | None:
        return await self._count(info, "node", "node", "place")

    @strawberry.field(
        description="How many methods filed at this node were removed with it; null for a "
        "method or a model."
    )
    async def method_count(self, info: Info) -> int | None:
        return await self._count(info, "node", "method", "place")

    @strawberry.field(
        description="How many treatments of this method or model were removed with it; null "
        "for a node."
    )
    async def treatment_count(self, info: Info) -> int | None:
        if self.cause_kind == "node":
            return None
        return await self._count(info, self.cause_kind, "treatment", self.cause_kind)

    async def _count(self, info: Info, of: str, kind: str, cause: str) -> int | None:
        if self.cause_kind != of:
            return None
        comparison = self.comparison
        key = (comparison.since, comparison.until, kind, cause, self.cause)
        return await info.context.loaders.knock_on_count.load(key)

    nodes = _knock_on_list(
        "node", Connection[NodeChange] | None, "The sub-nodes removed with this node."
    )
    methods = _knock_on_list(
        "method",
        Connection[MethodChange] | None,
        "The methods filed at this node, removed with it.",
    )
    treatments = _knock_on_list(
        "treatment",
        Connection[TreatmentChange] | None,
        "The treatments of this method or model, removed with it.",
    )


def _knock_on(change: _RecordChange) -> KnockOn | None:
    if change.kind != ChangeKind.REMOVED or change.comparison is None:
        return None
    cause_kind = {NodeChange: "node", MethodChange: "method", ModelChange: "model"}[type(change)]
    return KnockOn(comparison=change.comparison, cause_kind=cause_kind, cause=change.slug)


async def _removed_with(change: _PlacedChange) -> "NodeChange | None":
    """The removal of the node that ``change`` (a knock-on removal) went with."""
    if "place" not in change.went_with or change.comparison is None or change.place is None:
        return None
    return await _removed_node(change.comparison, change.place)


def _removal(
    make: Callable[..., _Change], comparison: Comparison, slug: str, name: str, **placed: object
) -> _Change:
    """Record ``slug``'s removal (there in `since`, gone in `until`) as ``make``; a node's
    or a method's says its ``placed`` fields (its path, the node it sat in)."""
    return make(
        kind=ChangeKind.REMOVED,
        slug=slug,
        name=name,
        from_name=name,
        to_name=None,
        field_changes=[],
        comparison=comparison,
        **placed,
    )


async def _removed_in(
    make: Callable[..., _Change], comparison: Comparison, slug: str, name: str, place: str | None
) -> _Change:
    """The removal of a node or method that sat in node ``place`` (a node's parent, a
    method's node); a knock-on removal when that node went too."""
    before, after = await comparison.trees()
    # Its path: a node's own, a method's node's.
    path = path_in(before, slug if make is NodeChange else place)
    went_with = ("place",) if place is not None and place not in after else ()
    return _removal(
        make, comparison, slug, name, from_path=path, to_path=None, went_with=went_with, place=place
    )


async def _removed_node(comparison: Comparison, slug: str) -> "NodeChange":
    """Node ``slug``'s removal."""
    name, parent = (await comparison.trees())[0][slug]
    return await _removed_in(NodeChange, comparison, slug, name, parent)


async def _removed_method(info: Info, comparison: Comparison, slug: str) -> "MethodChange":
    """Method ``slug``'s removal, named and placed as the release before it had it."""
    former = await info.context.loaders.former_method.load(slug)
    name, place = (former.name, former.place) if former else (slug, None)
    return await _removed_in(MethodChange, comparison, slug, name, place)


async def _record_name(info: Info, kind: str, slug: str) -> str:
    """A model's or method's name now, or before it was removed; the slug if unknown."""
    loaders = info.context.loaders
    if kind == "model":
        model = await loaders.model_by_slug.load(slug)
        if model is not None:
            return model.name
        former = await loaders.former_model.load(slug)
    else:
        method = await loaders.method_by_slug.load(slug)
        if method is not None:
            return str(method[0].name)
        former = await loaders.former_method.load(slug)
    return former.name if former else slug


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


def _change_list(kind: str, graphql_type: object, description: str) -> StrawberryField:
    """Declare a `Changes` list of the changes of ``kind`` (node, method...)."""

    async def in_branch(
        root: "Changes",
        info: Info,
        paging: Paging = FIRST_PAGE,
        kinds: Kinds = None,
        branch: Branch = None,
        within: Within = None,
        combined: Combined = False,
        order_by: OrderBy = ChangeOrder.KEY,
    ) -> Connection[ChangeItem] | None:
        node = await branch_of(info, within=within, branch=branch)
        comparison: Comparison = root.comparison
        by_kind_order = order_by == ChangeOrder.KIND
        filters = Filters(
            comparison.since,
            comparison.until,
            kinds=None if kinds is None else [str(k.value) for k in kinds],
            branch=None if node is None else await comparison.branch_nodes(node.slug),
            combined=combined,
            by_kind_order=by_kind_order,
        )
        # A cursor belongs to its list's order and rows: one of another is refused.
        name = f"changes:{kind}" + ":combined" * combined + ":by-kind" * by_kind_order
        return await change_connection(info, comparison, kind, name, paging, filters)

    async def anywhere(
        root: "Changes",
        info: Info,
        paging: Paging = FIRST_PAGE,
        kinds: Kinds = None,
        combined: Combined = False,
        order_by: OrderBy = ChangeOrder.KEY,
    ) -> Connection[ChangeItem] | None:
        return await in_branch(root, info, paging, kinds, None, None, combined, order_by)

    return declared(
        strawberry.field(
            resolver=anywhere if kind == "model" else in_branch,  # a model is in no branch
            description=description,
            extensions=[Paged()],
            graphql_type=graphql_type,
        )
    )


@refs.builds
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

    nodes = _change_list(
        "node",
        Connection[NodeChange] | None,
        "Nodes added, removed, moved (new parent), renamed or changed (another field).",
    )
    methods = _change_list(
        "method",
        Connection[MethodChange] | None,
        "Methods added, removed, moved (filed at another node), renamed or changed (another "
        "field).",
    )
    models = _change_list(
        "model",
        Connection[ModelChange] | None,
        "Models added, removed, renamed or changed (another field).",
    )
    treatments = _change_list(
        "treatment",
        Connection[TreatmentChange] | None,
        "(model, method) treatments added, removed, strengthened or weakened; `branch`: of "
        "the methods in the branch in either release.",
    )


async def change_connection(
    info: Info,
    comparison: Comparison,
    kind: str,
    name: str,
    paging: Paging,
    filters: Filters,
    read: Callable[[Window], Awaitable[Page[ChangeListRow]]] | None = None,
) -> Connection[ChangeItem]:
    """A page of the changes of ``kind`` (node, method...) that ``filters`` pick, each made
    as CHANGE_OF says; ``name``: the list's, for its cursors; ``read``: how to read the page
    when not on its own."""
    request = PageRequest.of(info, f"{name}:{comparison.since}:{comparison.until}", paging)
    reader = info.context.reader
    if read is None:
        page = await changes_page(reader, kind, filters, request.window)
    else:
        page = await read(request.window)
    build = CHANGE_OF[kind]
    items = [await build(comparison, net_change(kind, row)) for row in page.rows]

    async def count() -> int:
        return await changes_count(reader, kind, filters)

    return connection_of(page, request.list_name, items, count)


_KINDS = ("node", "method", "model", "treatment")


class _RecordFields(TypedDict):
    kind: ChangeKind
    slug: str
    name: str
    from_name: str | None
    to_name: str | None
    field_changes: list[FieldChange]
    also: str | None
    comparison: Comparison


def _record_fields(kind: str, comparison: Comparison, change: NetChange) -> _RecordFields:
    """What a node's, method's and model's change say alike."""
    return {
        "kind": ChangeKind(change.kind),
        "slug": change.key[0],
        "name": str(_named(change, 1) or _named(change, 0)),
        "from_name": _named(change, 0),
        "to_name": _named(change, 1),
        "field_changes": _field_changes(kind, change),
        "also": change.also,
        "comparison": comparison,
    }


def _placed_change(
    kind: str, make: Callable[..., _Change]
) -> Callable[[Comparison, NetChange], Awaitable[_Change]]:
    """How a change of a node or method (``kind``), records with a place, is built."""

    async def build(comparison: Comparison, change: NetChange) -> _Change:
        from_path, to_path = await comparison.paths(kind, change)
        return make(
            **_record_fields(kind, comparison, change),
            from_path=from_path,
            to_path=to_path,
            went_with=change.removed_with,
            place=place_of(change.before),
        )

    return build


async def _model_change(comparison: Comparison, change: NetChange) -> ModelChange:
    return ModelChange(**_record_fields("model", comparison, change))


async def _treatment_change(comparison: Comparison, change: NetChange) -> TreatmentChange:
    def strength(rank: object) -> Strength | None:
        return Strength.from_rank(rank) if isinstance(rank, int) else None

    return TreatmentChange(
        kind=ChangeKind(change.kind),
        model_slug=change.key[0],
        method_slug=change.key[1],
        before=strength(change.before),
        after=strength(change.after),
        field_changes=_field_changes("treatment", change),
        comparison=comparison,
        went_with=change.removed_with,
    )


# How the change of each kind of record is made from its net change (history's too).
CHANGE_OF: dict[str, Callable[[Comparison, NetChange], Awaitable[ChangeItem]]] = {
    "node": _placed_change("node", NodeChange),
    "method": _placed_change("method", MethodChange),
    "model": _model_change,
    "treatment": _treatment_change,
}


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
