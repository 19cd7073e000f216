"""Adoption over time: per release month, the models that treat a method of a branch,
derived at load time (node_adoption), or that treat one method (read from its treatments,
one index range, with their models' release dates); and the series built from either.

A month is one integer, ``year * 12 + month - 1``, so that months sort and subtract as
numbers on both databases. A node's rows count at a threshold (`max_rank`: at that
strength or stronger), not at one strength: a method's first month depends on the
threshold, and a series then reads the rows of one threshold, already summed. Undated
models are in no row: adoption counts dated models only.
"""

from collections import defaultdict
from collections.abc import Callable, Sequence
from datetime import date, timedelta
from enum import Enum
from functools import lru_cache
from typing import NamedTuple, TypeVar

from sqlalchemy import (
    Connection,
    Integer,
    bindparam,
    func,
    literal,
    null,
    select,
    text,
    union_all,
)
from sqlmodel import col

from store.reader import Reader
from store.rows import AnySelect, Prepared, keys
from store.strength import RANKS
from store.tables import BranchModelRow, ModelRow, NodeAdoptionRow, TreatmentRow

# What a subject's adoption is read by: (node or method id, threshold).
Key = tuple[int, int]


class MonthFigures(NamedTuple):
    """A subject's adoption in one month with a model."""

    month: int
    models: int
    new_methods: int


class UndatedOf(NamedTuple):
    """How many models without a release date treat the subject of ``key``."""

    key: Key
    models: int


class _MethodDate(NamedTuple):
    subject_id: int
    released: date | None  # None: the models without a release date
    models: int


class _NodeMonth(NamedTuple):
    subject_id: int
    month: int | None  # None: the models without a release date
    models: int
    new_methods: int


# A row of either statement below: a node's month, or a method's release date.
_SubjectRow = TypeVar("_SubjectRow", _NodeMonth, _MethodDate)


class Adoption(NamedTuple):
    """A node's or a method's adoption at one threshold: its months with a model, by
    month, and how many models without a release date treat it so."""

    months: list[MonthFigures]
    undated: int


# Every threshold, as rows (1, 2, 3): a treatment at rank r counts at each threshold >= r.
_THRESHOLDS = " UNION ALL ".join(f"SELECT {rank} AS max_rank" for rank in RANKS.values())


def _month_sql(dialect: str, column: str) -> str:
    """SQL text of the month number of the date in ``column``. SQLite keeps a date as its
    ISO text; PostgreSQL as a date, whose text form would follow the session's DateStyle."""
    if dialect == "postgresql":
        return (
            f"(CAST(EXTRACT(YEAR FROM {column}) AS INTEGER) * 12"
            f" + CAST(EXTRACT(MONTH FROM {column}) AS INTEGER) - 1)"
        )
    return (
        f"(CAST(substr({column}, 1, 4) AS INTEGER) * 12"
        f" + CAST(substr({column}, 6, 2) AS INTEGER) - 1)"
    )


def _dated_models(dialect: str) -> str:
    return (
        f"SELECT id AS model_id, {_month_sql(dialect, 'release_date')} AS month"
        " FROM model WHERE release_date IS NOT NULL"
    )


# A branch's models per month are its By-model rows (one per model, headed by the model's
# strongest treatment in the branch); its new methods per month are its methods by the
# first month of each at each threshold (the earliest at each exact strength first, a few
# rows per method), counted per node (by the pre-order position the treatment carries: no
# lookup per method) and then summed up the closure. Each is grouped by
# its exact strength before it is spread over the thresholds, and the two are merged by
# one grouping, not a join: each step reads rows already grouped.
def _node_adoption(dialect: str) -> str:
    return f"""WITH dated AS ({_dated_models(dialect)}), thresholds AS ({_THRESHOLDS}),
        by_strength AS (
            SELECT bm.node_id, bm.strongest_rank, d.month, COUNT(*) AS models
            FROM branch_model bm JOIN dated d ON d.model_id = bm.model_id
            GROUP BY bm.node_id, bm.strongest_rank, d.month),
        by_rank AS (
            SELECT t.method_id, t.node_pre, t.strength_rank, MIN(d.month) AS month
            FROM treatment t JOIN dated d ON d.model_id = t.model_id
            GROUP BY t.method_id, t.node_pre, t.strength_rank),
        firsts AS (
            SELECT b.node_pre, r.max_rank, MIN(b.month) AS month
            FROM by_rank b JOIN thresholds r ON b.strength_rank <= r.max_rank
            GROUP BY b.method_id, b.node_pre, r.max_rank),
        here AS (
            SELECT node_pre, max_rank, month, COUNT(*) AS methods FROM firsts
            GROUP BY node_pre, max_rank, month),
        both_counts AS (
            SELECT b.node_id, r.max_rank, b.month, b.models, 0 AS methods
            FROM by_strength b JOIN thresholds r ON b.strongest_rank <= r.max_rank
            UNION ALL
            SELECT c.ancestor_id, h.max_rank, h.month, 0, h.methods
            FROM here h JOIN node n ON n.pre = h.node_pre
            JOIN node_closure c ON c.descendant_id = n.id)
        INSERT INTO node_adoption (node_id, max_rank, month, models, new_methods)
        SELECT node_id, max_rank, month, SUM(models), SUM(methods) FROM both_counts
        GROUP BY node_id, max_rank, month"""


def derive_adoption(connection: Connection) -> None:
    """Fill node_adoption from the treatments, the By-model rows and the closure (derived
    before this runs)."""
    connection.execute(text(_node_adoption(connection.dialect.name)))


# ---- reading a series ---------------------------------------------------------------------


class Interval(Enum):
    MONTH = 1
    QUARTER = 3
    YEAR = 12


# A point of a series: (period's name, its first day, its last day, models, running total
# of models, new methods). Plain tuples: the schema makes its own objects of them.
Point = tuple[str, date, date, int, int, int]


def _first_day(month: int) -> date:
    year, month0 = divmod(month, 12)
    return date(year, month0 + 1, 1)


# The same few hundred periods come in every series: named once each.
@lru_cache(maxsize=4096)
def _label(period: int, interval: Interval) -> tuple[str, date, date]:
    first_month = period * interval.value
    start = _first_day(first_month)
    end = _first_day(first_month + interval.value) - timedelta(days=1)
    year, month0 = divmod(first_month, 12)
    if interval is Interval.YEAR:
        return f"{year:04d}", start, end
    if interval is Interval.QUARTER:
        return f"{year:04d}-Q{month0 // 3 + 1}", start, end
    return f"{year:04d}-{month0 + 1:02d}", start, end


def series(months: Sequence[tuple[int, int, int]], interval: Interval) -> list[Point]:
    """The points of (month, models, new methods) rows, summed per period (months since
    year 0 divided by the interval's length; a model is released in one month, so summing
    months counts each model once), with every period from the first to the last, the
    empty ones as zeros."""
    length = interval.value
    models_in: dict[int, int] = defaultdict(int)
    new_in: dict[int, int] = defaultdict(int)
    for month, models, new in months:
        models_in[month // length] += models
        new_in[month // length] += new
    if not models_in:
        return []
    points, total = [], 0
    for period in range(min(models_in), max(models_in) + 1):
        models = models_in.get(period, 0)
        total += models
        points.append((*_label(period, interval), models, total, new_in.get(period, 0)))
    return points


def month_of(day: date) -> int:
    return day.year * 12 + day.month - 1


# A method's treatments at a threshold, per release date (one group without: the undated
# models): one range of the treatment key (method, model) per method, whatever the size
# of the data. The series and the undated count of a method page in one statement.
_METHOD_DATES = Prepared.of(
    select(col(TreatmentRow.method_id), col(ModelRow.release_date), func.count())
    .join(ModelRow, col(ModelRow.id) == col(TreatmentRow.model_id))
    .where(
        col(TreatmentRow.method_id).in_(keys()),
        col(TreatmentRow.strength_rank) <= bindparam("max_rank"),
    )
    .group_by(col(TreatmentRow.method_id), col(ModelRow.release_date))
    .order_by(col(ModelRow.release_date)),
    _MethodDate,
)


# A node's months at a threshold (node_adoption) and, as one more row without a month, its
# undated models, which no period counts: its By-model rows whose model has no release
# date, headed at the threshold or stronger. One statement for every node asked for at one
# threshold: a node page's series and undated count. The newest-first order puts every
# undated model after every dated one (store.orders), so a branch's undated rows are the
# end of its index by recency: a root's read is its few hundred undated rows at L, not its
# thousands of rows joined to their models (at L on SQLite, a request for all 12 roots'
# counts took 33 ms with the join and 8.6 ms reading the recency range).
def _node_adoption_statement() -> AnySelect:
    months = select(
        col(NodeAdoptionRow.node_id),
        col(NodeAdoptionRow.month),
        col(NodeAdoptionRow.models),
        col(NodeAdoptionRow.new_methods),
    ).where(
        col(NodeAdoptionRow.node_id).in_(keys()),
        col(NodeAdoptionRow.max_rank) == bindparam("max_rank"),
    )
    undated = (
        select(
            col(BranchModelRow.node_id),
            null().cast(Integer),
            func.count(),
            literal(0, Integer),
        )
        .where(
            col(BranchModelRow.node_id).in_(keys()),
            col(BranchModelRow.strongest_rank) <= bindparam("max_rank"),
            col(BranchModelRow.recency_rank)
            >= select(func.min(col(ModelRow.recency_rank)))
            .where(col(ModelRow.release_date).is_(None))
            .scalar_subquery(),
        )
        .group_by(col(BranchModelRow.node_id))
    )
    both = union_all(months, undated).subquery()
    return select(*both.columns).order_by(both.c.month)


_NODE_ADOPTION = Prepared.of(_node_adoption_statement(), _NodeMonth)


def _by_rank(keys: Sequence[Key]) -> dict[int, list[int]]:
    """(subject id, threshold) keys as each threshold's subject ids: a statement each."""
    by_rank: dict[int, list[int]] = defaultdict(list)
    for subject_id, rank in keys:
        by_rank[rank].append(subject_id)
    return by_rank


async def _adoptions(
    reader: Reader,
    statement: Prepared[_SubjectRow],
    keys: Sequence[Key],
    figures: Callable[[_SubjectRow, bool], MonthFigures | None],
) -> list[Adoption]:
    """For (subject id, threshold) keys, in their order: the adoption that ``statement``'s
    rows make, one statement per threshold asked for (in practice one). ``figures`` makes
    a row's month (given whether its subject has had one already); None for the row of
    its undated models."""
    months: dict[Key, list[MonthFigures]] = defaultdict(list)
    undated: dict[Key, int] = {}
    for rank, subject_ids in _by_rank(keys).items():
        for row in await reader.rows(statement, {"keys": subject_ids, "max_rank": rank}):
            key = (row.subject_id, rank)
            month = figures(row, key in months)
            if month is None:  # NULL sorts first on SQLite, last on PostgreSQL
                undated[key] = row.models
            else:
                months[key].append(month)
    return [Adoption(months.get(key, []), undated.get(key, 0)) for key in keys]


def _node_month(row: _NodeMonth, _: bool) -> MonthFigures | None:
    return None if row.month is None else MonthFigures(row.month, row.models, row.new_methods)


def _method_month(row: _MethodDate, seen: bool) -> MonthFigures | None:
    """A method is new in its first month."""
    if row.released is None:
        return None
    return MonthFigures(month_of(row.released), row.models, 0 if seen else 1)


async def node_adoption(reader: Reader, keys: Sequence[Key]) -> list[Adoption]:
    """For (node id, threshold) keys, in their order: each node's months with a model, by
    month, and its models without a release date."""
    return await _adoptions(reader, _NODE_ADOPTION, keys, _node_month)


async def method_adoption(reader: Reader, keys: Sequence[Key]) -> list[Adoption]:
    """For (method id, threshold) keys, in their order: each method's months with a model,
    by month, and its models without a release date."""
    return await _adoptions(reader, _METHOD_DATES, keys, _method_month)
