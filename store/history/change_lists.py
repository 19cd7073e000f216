"""The net changes of one kind of record between two releases as an SQL list, so that a
page of them (store.paging's keyset pages) reads the change rows of its own records, not
every change between the two releases.

The same rule as store.history.net_changes, in SQL: a record's state in release `since` is the
"before" of its earliest change row after `since`, its state in `until` the "after" of
its latest row up to `until`; it changed when the two differ (its name, its place, or
its other compared fields: store.history.field_values). A node or method both moved
and renamed is two changes (one per kind), so the list's order is the record's key, then
the kind's place in KIND_ORDER, as the in-memory list's (store.history.release_changes).

Slugs are in byte order on both databases, as in Python (store.tables: the change
tables' slugs are COLLATE "C" on PostgreSQL), and the tables are keyed by record, then
release: a page walks the rows of its records from its cursor on.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, NamedTuple, cast

from sqlalchemy import (
    ColumnElement,
    Integer,
    and_,
    bindparam,
    case,
    exists,
    false,
    func,
    literal,
    or_,
    select,
)
from sqlalchemy.orm import aliased, join
from sqlmodel import col

from store import paging
from store.history.net_changes import KIND_ORDER, NetChange, State
from store.paging import Page, SortKey, Template, Window
from store.reader import Reader
from store.rows import AnySelect, Prepared, keys
from store.tables import (
    ChangeKindRow,
    MethodChangeRow,
    MethodRow,
    ModelChangeRow,
    NodeChangeRow,
    NodeRow,
    TreatmentChangeRow,
)

_SINCE = bindparam("since", type_=Integer)
_UNTIL = bindparam("until", type_=Integer)
RANK = {kind: rank for rank, kind in enumerate(KIND_ORDER)}

# Per kind of record: its change table, its key columns, and for nodes and methods the
# columns of where it sits (a node's parent, a method's node): moves count there.
_TABLES: dict[str, Any] = {
    "node": NodeChangeRow,
    "method": MethodChangeRow,
    "model": ModelChangeRow,
    "treatment": TreatmentChangeRow,
}
_KEYS = {"treatment": ("model_slug", "method_slug")}
_PLACES = {"node": ("before_parent", "after_parent"), "method": ("before_node", "after_node")}


@dataclass(frozen=True)
class ChangeList:
    """The list's statement (parameters: since, until, and `kinds`, `branch`,
    `branch_then`, `branch_now`, `cause` as its shape asks) and its sort keys."""

    statement: AnySelect
    sort_keys: list[SortKey]


@dataclass(frozen=True)
class Shape:
    """What a change list's statement is built for: only the kinds `kinds` (``by_kind``),
    only the branch's (``in_branch``), from a release to the next (``one_release``); with
    ``combined`` one row per record (a node or method both moved and renamed is one row,
    MOVED, renamed ``also``) and no knock-on removals (a record removed because what it
    sat in went too: a node's parent, a method's node, a treatment's model or method);
    ``cause`` (place, model, method): only the knock-on removals of the removed record
    `cause` (its slug), a node's or method's place or a treatment's model or method;
    ``by_kind_order``: in the order of KIND_ORDER, then by key (else by key)."""

    by_kind: bool = False
    in_branch: bool = False
    one_release: bool = False
    combined: bool = False
    cause: str | None = None
    by_kind_order: bool = False


def _gone(table: Any, slug: Any, one_release: bool, dialect: str) -> Any:
    """Whether the record ``slug`` of ``table`` (a change table), there in `since`, is gone
    in `until`: the latest of its change rows up to `until` removed it."""
    if dialect == "postgresql":
        slug = slug.collate("C")  # the change tables' slugs: their index serves this one
    gone = aliased(table, name="gone")
    conditions = [gone.slug == slug, gone.after_name.is_(None)]
    if one_release:
        return exists().where(*conditions, gone.release == _UNTIL)
    later = aliased(table, name="gone_later")
    return exists().where(
        *conditions,
        gone.release > _SINCE,
        gone.release <= _UNTIL,
        # (`gone.slug`, not `slug`: a subquery correlates with the query right around it.)
        ~exists().where(
            later.slug == gone.slug, later.release > gone.release, later.release <= _UNTIL
        ),
    )


@cache
def change_list(kind: str, dialect: str, shape: Shape) -> ChangeList:
    """The net changes of ``kind`` (node, method, model, treatment) as ``shape`` says:
    only those of the kinds `kinds` (ranks in KIND_ORDER) when ``by_kind``; only those in
    the branch when ``in_branch``: nodes whose slugs are in `branch`; methods filed at a
    node of `branch_then` in `since` or of `branch_now` in `until`; treatments whose
    methods were.

    Each record's earliest change row after `since` (none of its rows lies between) is
    joined with its latest up to `until`: no grouping, so that both databases read the
    rows in key order and stop at the page's end. With ``one_release`` (`until` is the
    release after `since`, the common case) a record's one row of `until` is both."""
    table = _TABLES[kind]
    key_names = _KEYS.get(kind, ("slug",))
    one_release = shape.one_release
    start = aliased(table, name="start")
    if one_release:
        end: Any = start
        joined: Any = start
        in_range = [start.release == _UNTIL]
    else:
        end = aliased(table, name="finish")
        earlier, latest = aliased(table, name="earlier"), aliased(table, name="latest")

        def same_record(row: Any, as_row: Any) -> list[ColumnElement[bool]]:
            return [getattr(row, name) == getattr(as_row, name) for name in key_names]

        # Anti-joins both, not a max() or a grouping: PostgreSQL estimates those well
        # enough to keep the plan that reads in key order and stops at the page's end.
        first_in_range = ~exists().where(
            *same_record(earlier, start),
            earlier.release > _SINCE,
            earlier.release < start.release,
        )
        last_in_range = ~exists().where(
            *same_record(latest, end), latest.release > end.release, latest.release <= _UNTIL
        )
        joined = join(
            start,
            end,
            and_(*same_record(end, start), end.release >= start.release, end.release <= _UNTIL),
        )
        in_range = [start.release > _SINCE, start.release <= _UNTIL, first_in_range, last_in_range]
    key_columns = [getattr(start, name) for name in key_names]
    knocked_on: list[Any] = []  # per cause of a knock-on removal: whether it is one
    causes: list[Any] = []  # per cause: the slug of what the record went with
    if kind == "treatment":
        before, after = start.before_rank, end.after_rank
        # Its evidence (its compared field): unknown (null: a row older than it) is no change.
        evidence_before, evidence_after = start.before_fields, end.after_fields
        # A pair removed and added back in the range keeps no texts at either end (rows of
        # removals and additions keep none): its evidence digests tell whether it differs.
        other_evidence = or_(
            evidence_before != evidence_after, start.before_digest != end.after_digest
        )
        rank: Any = case(
            (before.is_(None), RANK["added"]),
            (after.is_(None), RANK["removed"]),
            (after < before, RANK["strengthened"]),
            (after > before, RANK["weakened"]),
            else_=RANK["changed"],
        )
        removal = after.is_(None)
        causes = [start.model_slug, start.method_slug]
        knocked_on = [
            and_(removal, _gone(ModelChangeRow, start.model_slug, one_release, dialect)),
            and_(removal, _gone(MethodChangeRow, start.method_slug, one_release, dialect)),
        ]
        also: Any = literal(None, type_=Integer)
        statement = (
            select(*key_columns, before, after, evidence_before, evidence_after, rank.label("rank"))
            .select_from(joined)
            .where(
                *in_range,
                or_(before.is_distinct_from(after), other_evidence),
            )
        )
        if shape.in_branch:
            method = start.method_slug
            statement = statement.where(
                or_(
                    _method_place(method, _SINCE, dialect).in_(keys("branch_then")),
                    _method_place(method, _UNTIL, dialect).in_(keys("branch_now")),
                )
            )
        # One change per pair: the pair alone orders them.
        sort_keys = [SortKey(column) for column in key_columns]
    else:
        was, now = start.before_name.is_not(None), end.after_name.is_not(None)
        both = and_(was, now)
        renamed = start.before_name != end.after_name
        places = _PLACES.get(kind)
        place_before: Any = getattr(start, places[0]) if places else literal(None)
        place_after: Any = getattr(end, places[1]) if places else literal(None)
        moved = place_before.is_distinct_from(place_after) if places else false()
        # Unknown fields (null: a row older than them) compare as no change.
        fields_before, fields_after = start.before_fields, end.after_fields
        changed = fields_before != fields_after
        # A record's kinds of change as at most two ranks (moved and renamed are the one
        # pair; a record moved or renamed is not also "changed": its change carries its
        # fields), which look up their change_kind rows: computed from the record's rows,
        # they make change_kind the inner side of the join, so both databases read the
        # records in key order from the cursor on.
        first = case(
            (and_(~was, now), RANK["added"]),
            (and_(was, ~now), RANK["removed"]),
            (and_(both, moved), RANK["moved"]),
            (and_(both, renamed), RANK["renamed"]),
            (and_(both, changed), RANK["changed"]),
        )
        second = case((and_(both, moved, renamed), RANK["renamed"]))
        if places:
            causes = [place_before]
            knocked_on = [
                and_(
                    was,
                    ~now,
                    place_before.is_not(None),
                    _gone(NodeChangeRow, place_before, one_release, dialect),
                )
            ]
        columns = [
            *key_columns,
            start.before_name,
            place_before.label("before_place"),
            end.after_name,
            place_after.label("after_place"),
            fields_before,
            fields_after,
        ]
        if shape.combined or shape.cause:
            # One row per record: its first kind of change, and its second (a rename with
            # a move) beside it.
            rank = first
            also = second
            statement = select(*columns, rank.label("rank")).select_from(joined).where(*in_range)
            # (`first` is null for a row that changed nothing named: no change here.)
            statement = statement.where(first.is_not(None))
            sort_keys = [SortKey(column) for column in key_columns]
        else:
            rank = col(ChangeKindRow.rank)
            also = literal(None, type_=Integer)
            which = or_(rank == first, rank == second)
            statement = (
                select(*columns, rank)
                .select_from(join(joined, ChangeKindRow, which))
                .where(*in_range)
            )
            sort_keys = [*(SortKey(column) for column in key_columns), SortKey(rank)]
        if shape.in_branch and kind == "node":
            statement = statement.where(start.slug.in_(keys("branch")))
        elif shape.in_branch:
            statement = statement.where(
                or_(place_before.in_(keys("branch_then")), place_after.in_(keys("branch_now")))
            )
    statement = statement.add_columns(
        also.label("also"),
        *(
            case((knocked, literal(True)), else_=literal(False)).label(f"knocked_{index}")
            for index, knocked in enumerate(knocked_on)
        ),
    )
    if shape.combined and knocked_on:
        statement = statement.where(~or_(*knocked_on))
    if shape.cause is not None:
        index = {"place": 0, "model": 0, "method": 1}[shape.cause]
        statement = statement.where(causes[index].in_(keys("cause")), knocked_on[index])
    if shape.by_kind:
        if shape.combined and kind != "treatment":
            statement = statement.where(or_(rank.in_(keys("kinds")), also.in_(keys("kinds"))))
        else:
            statement = statement.where(rank.in_(keys("kinds")))
    if shape.by_kind_order:
        sort_keys = [SortKey(rank), *(key for key in sort_keys if key.column is not rank)]
    return ChangeList(statement, sort_keys)


def _method_place(method: Any, release: Any, dialect: str) -> Any:
    """The slug of the node method ``method`` was filed at in ``release`` (null when it
    did not exist then): the "before" of its earliest change row after that release,
    or, with none, where it is filed now."""
    later = aliased(MethodChangeRow, name="later")
    after_it = and_(col(later.slug) == method, col(later.release) > release)
    then = (
        select(col(later.before_node))
        .where(after_it)
        .order_by(col(later.release))
        .limit(1)
        .scalar_subquery()
    )
    now = (
        select(col(NodeRow.slug))
        .join(MethodRow, col(MethodRow.node_id) == col(NodeRow.id))
        .where(col(MethodRow.slug) == _as_served(method, dialect))
        .scalar_subquery()
    )
    return case((exists().where(after_it), then), else_=now)


def _as_served(slug: Any, dialect: str) -> Any:
    """A change table's slug compared in the served tables' collation: their indexes
    serve only that one (PostgreSQL; the change tables' are COLLATE "C")."""
    return slug.collate("default") if dialect == "postgresql" else slug


# A row of a change list: its columns depend on the kind of record and on the list's
# Shape (how many knock-on causes it flags), so it is its values, which net_change reads.
ChangeListRow = tuple[object, ...]
# What those values are for a treatment: its model's and method's slugs, its rank before
# and after, its compared fields before and after, the kind of change's rank, no other
# kind, whether each cause took it along.
_TreatmentValues = tuple[
    str, str, int | None, int | None, str | None, str | None, int, None, *tuple[bool, ...]
]
# For a node, method or model: its slug, name and place before, name and place after,
# compared fields before and after, the kind of change's rank and its other kind's, and
# whether its place took it along.
_RecordValues = tuple[
    str,
    str | None,
    str | None,
    str | None,
    str | None,
    str | None,
    str | None,
    int,
    int | None,
    *tuple[bool, ...],
]


def _values(*parts: object) -> ChangeListRow:
    return parts


def net_change(kind: str, row: ChangeListRow) -> NetChange:
    """A row of a change list as the change it stands for."""
    if kind == "treatment":
        model, method, before_rank, after_rank, evidence_before, evidence_after, rank, _ = cast(
            _TreatmentValues, row
        )[:8]
        went_with = tuple(
            cause for cause, is_one in zip(("model", "method"), row[8:], strict=True) if is_one
        )
        return NetChange(
            KIND_ORDER[rank],
            (model, method),
            before_rank,
            after_rank,
            (evidence_before, evidence_after),
            removed_with=went_with,
        )
    slug, before_name, before_place, after_name, after_place, *more = cast(_RecordValues, row)
    fields_before, fields_after, rank, also, *knocked = cast(
        tuple[str | None, str | None, int, int | None, *tuple[bool, ...]], more
    )
    before: State = None if before_name is None else (before_name, before_place)
    after: State = None if after_name is None else (after_name, after_place)
    return NetChange(
        KIND_ORDER[rank],
        (slug,),
        before,
        after,
        (fields_before, fields_after),
        also=None if also is None else KIND_ORDER[also],
        removed_with=("place",) if knocked and knocked[0] else (),
    )


@dataclass(frozen=True)
class Filters:
    """Which changes of a list: from release ``since`` to ``until``, of the kinds
    ``kinds`` (names in KIND_ORDER; all when None), in a branch (``branch``: its nodes'
    slugs in ``since`` and in ``until``; everywhere when None); ``combined``, ``cause``
    (what a knock-on removal went with and its slug) and ``by_kind_order`` as Shape's."""

    since: int
    until: int
    kinds: Sequence[str] | None = None
    branch: tuple[Sequence[str], Sequence[str]] | None = None
    combined: bool = False
    cause: tuple[str, str] | None = None
    by_kind_order: bool = False


def _listing(reader: Reader, kind: str, filters: Filters) -> tuple[Template, list[SortKey]]:
    shape = Shape(
        by_kind=filters.kinds is not None,
        in_branch=filters.branch is not None,
        # The common case: a lighter statement.
        one_release=filters.until == filters.since + 1,
        combined=filters.combined,
        cause=None if filters.cause is None else filters.cause[0],
        by_kind_order=filters.by_kind_order,
    )
    listed = change_list(kind, reader.dialect, shape)
    params: dict[str, object] = {"since": filters.since, "until": filters.until}
    if filters.kinds is not None:
        params["kinds"] = [RANK[name] for name in filters.kinds]
    if filters.branch is not None:
        then, now = filters.branch
        if kind == "node":
            params["branch"] = sorted({*then, *now})
        else:
            params["branch_then"], params["branch_now"] = list(then), list(now)
    if filters.cause is not None:
        params["cause"] = [filters.cause[1]]
    return Template(listed.statement, ("changes", kind, reader.dialect, shape), params), (
        listed.sort_keys
    )


async def changes_page(
    reader: Reader, kind: str, filters: Filters, window: Window
) -> Page[ChangeListRow]:
    """A page of the net changes of ``kind`` (rows for net_change)."""
    listing, sort_keys = _listing(reader, kind, filters)
    return await paging.keyset_page(reader, listing, sort_keys, window, rows=_values)


async def changes_count(reader: Reader, kind: str, filters: Filters) -> int:
    listing, _ = _listing(reader, kind, filters)
    return await paging.count(reader, listing)


# The column of a knock-on removal's row that names what it went with, by cause.
_CAUSE_COLUMNS = {"place": "before_place", "model": "model_slug", "method": "method_slug"}


class _Counted(NamedTuple):
    """How many rows have one value."""

    value: str | int
    rows: int


@cache
def _knock_on_counts(kind: str, dialect: str, cause: str, one_release: bool) -> Prepared[_Counted]:
    listed = change_list(kind, dialect, Shape(one_release=one_release, cause=cause))
    changes = listed.statement.subquery("changes")
    column = changes.c[_CAUSE_COLUMNS[cause]]
    return Prepared.of(select(column, func.count()).group_by(column), _Counted)


async def knock_on_counts(
    reader: Reader, kind: str, filters: Filters, cause: str, slugs: Sequence[str]
) -> dict[str, int]:
    """How many knock-on removals of ``kind`` (node, method, treatment) each of the removed
    records ``slugs`` took with it (``cause``: what they are to them, as Shape's), in the
    changes ``filters`` pick (their releases): one statement for all of them."""
    statement = _knock_on_counts(kind, reader.dialect, cause, filters.until == filters.since + 1)
    params = {"since": filters.since, "until": filters.until, "cause": list(slugs)}
    return {str(row.value): int(row.rows) for row in await reader.rows(statement, params)}


@cache
def _knock_on_firsts(
    kind: str, dialect: str, cause: str, one_release: bool
) -> Prepared[ChangeListRow]:
    listed = change_list(kind, dialect, Shape(one_release=one_release, cause=cause))
    statement = listed.statement
    names = [column.name for column in statement.selected_columns]
    place = func.row_number().over(
        partition_by=statement.selected_columns[_CAUSE_COLUMNS[cause]],
        order_by=[key.column for key in listed.sort_keys],
    )
    changes = statement.add_columns(place.label("place_in_cause")).subquery("changes")
    return Prepared.of(
        select(*(changes.c[name] for name in names))
        .where(changes.c.place_in_cause <= bindparam("first", type_=Integer))
        .order_by(changes.c[_CAUSE_COLUMNS[cause]], changes.c.place_in_cause),
        _values,
    )


async def knock_on_firsts(
    reader: Reader, kind: str, filters: Filters, cause: str, slugs: Sequence[str], first: int
) -> dict[str, list[ChangeListRow]]:
    """The first ``first`` knock-on removals of ``kind`` of each of the removed records
    ``slugs`` (as knock_on_counts), rows for net_change in the list's order, and each
    row's sort-key values: one statement for all of them."""
    one_release = filters.until == filters.since + 1
    statement = _knock_on_firsts(kind, reader.dialect, cause, one_release)
    params = {"since": filters.since, "until": filters.until, "cause": list(slugs)}
    index = 0 if kind == "treatment" and cause == "model" else 1 if kind == "treatment" else 2
    found: dict[str, list[ChangeListRow]] = {}
    for row in await reader.rows(statement, {**params, "first": first}):
        found.setdefault(str(row[index]), []).append(row)
    return found


@cache
def _by_kind(kind: str, dialect: str, one_release: bool) -> Prepared[_Counted]:
    listed = change_list(kind, dialect, Shape(one_release=one_release))
    changes = listed.statement.subquery("changes")
    return Prepared.of(select(changes.c.rank, func.count()).group_by(changes.c.rank), _Counted)


async def changes_by_kind(reader: Reader, kind: str, since: int, until: int) -> dict[str, int]:
    """How many net changes of ``kind`` (node, method, ...) there are of each kind of
    change (added, removed, ...) from release ``since`` to ``until``: the same list's
    rows, counted in one statement."""
    counts = dict.fromkeys(KIND_ORDER, 0)
    statement = _by_kind(kind, reader.dialect, until == since + 1)
    for row in await reader.rows(statement, {"since": since, "until": until}):
        assert isinstance(row.value, int)
        counts[KIND_ORDER[row.value]] = row.rows
    return counts
