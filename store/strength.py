"""The strength of a treatment, defined once: its names, strongest first, and the rank the
database stores (1 for the strongest). Every SQL expression of a rank is generated here."""

from sqlalchemy import ColumnElement, SQLColumnExpression, case

STRENGTHS = ("core", "used", "mentioned")  # strongest first
RANKS = {name: index for index, name in enumerate(STRENGTHS, start=1)}
WEAKEST_RANK = len(STRENGTHS)
# Sorts after every strength: what a method without any treatment is ordered as.
UNTREATED_RANK = WEAKEST_RANK + 1


def rank_of(name: str) -> int:
    return RANKS[name]


def name_of(rank: int) -> str:
    return STRENGTHS[rank - 1]


def max_rank(min_strength: str | None) -> int:
    """The weakest rank that a "at least this strong" condition lets through."""
    return WEAKEST_RANK if min_strength is None else rank_of(min_strength)


def rank_sql(column: str) -> str:
    """SQL text of the rank of the strength name in ``column`` (for the read model's
    statements, which are written as text)."""
    whens = " ".join(f"WHEN '{name}' THEN {rank}" for name, rank in RANKS.items())
    return f"CASE {column} {whens} END"


def strongest_order_sql(rank: str) -> str:
    """SQL text of a method's place by its strongest treatment's ``rank``, strongest first
    (core 1 ... mentioned 3), a method no model treats (no rank) last."""
    return f"COALESCE({rank}, {UNTREATED_RANK})"


def weakest_order_sql(rank: str) -> str:
    """The same place, weakest first (mentioned 1 ... core 3), untreated last still."""
    return f"{UNTREATED_RANK} - COALESCE({rank}, 0)"


def rank_expression(column: SQLColumnExpression[str]) -> ColumnElement[int]:
    """The rank of the strength name in ``column``, as a SQLAlchemy expression."""
    return case(RANKS, value=column)
