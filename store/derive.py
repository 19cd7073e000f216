"""The read model, derived in SQL from the loaded rows inside the load's transaction.

After this runs, every figure a request asks for is a lookup: treatments per (model,
method) pair, each model's strongest treatment per branch, each node's counts.
"""

from sqlalchemy import Connection, text

from store.history.adoption import derive_adoption
from store.strength import RANKS, rank_sql, strongest_order_sql, weakest_order_sql

_STRENGTH_RANK = rank_sql("strength")
# One count per strength (`core`, `used`, `mentioned`) of a method's treatments.
_PAIRS_BY_STRENGTH = ",\n".join(
    f"SUM(CASE WHEN strength_rank = {rank} THEN 1 ELSE 0 END) AS {name}"
    for name, rank in RANKS.items()
)
# One count per strength of the methods whose strongest treatment it is (`core_methods`...).
_METHODS_BY_STRONGEST = ",\n".join(
    f"SUM(CASE WHEN ms.strongest_rank = {rank} THEN 1 ELSE 0 END) AS {name}_methods"
    for name, rank in RANKS.items()
)
_BRANCH_SUMS = ", ".join(
    f"SUM(h.{name}) AS {name}, SUM(h.{name}_methods) AS {name}_methods" for name in RANKS
)
_STRENGTH_COLUMNS = ", ".join(f"{name}_pairs, {name}_methods" for name in RANKS)
_STRENGTH_VALUES = ", ".join(
    f"COALESCE(branch.{name}, 0), COALESCE(branch.{name}_methods, 0)" for name in RANKS
)


# Each pair with its method's node's pre-order position and its method's name rank (see
# TreatmentRow.node_pre and method_name_rank), joined after grouping: once per pair, not
# once per piece of evidence; and its evidence's digest: the sum over its pieces of a
# number made of the piece's key (a hash of its content: api.ingest.lines) and its
# strength's rank, so that any piece added, removed, edited or re-classified changes it,
# whatever the pieces' order. Each database makes the number its own way (SQLite has no
# hexadecimal parser: a function of this connection does, `evidence_number`), and only
# compares digests it made itself.
_KEY_BITS = 40  # hexadecimal digits of a key read: 10; a sum of up to 2M pieces fits 63 bits
_PIECE_NUMBER = {
    "sqlite": "evidence_number(key)",
    "postgresql": f"('x' || substr(key, 1, {_KEY_BITS // 4}))::bit({_KEY_BITS})::bigint",
}
_DIGEST = {
    "sqlite": "SUM({number} * 4 + {rank})",
    "postgresql": "SUM({number} * 4 + {rank})::bigint",
}
_TREATMENTS = """INSERT INTO treatment (method_id, model_id, strength_rank, node_pre,
        method_name_rank, evidence_digest)
    SELECT t.method_id, t.model_id, t.strength_rank, n.pre, m.name_rank, t.digest
    FROM (SELECT method_id, model_id, MIN({rank}) AS strength_rank, {digest} AS digest
          FROM evidence GROUP BY method_id, model_id) t
    JOIN method m ON m.id = t.method_id JOIN node n ON n.id = m.node_id"""


def evidence_number(key: str) -> int:
    """The number a piece of evidence's key stands for in its pair's digest (SQLite)."""
    return int(key[: _KEY_BITS // 4], 16)


def treatments_statement(dialect: str) -> str:
    """The statement that derives the treatments on ``dialect``."""
    digest = _DIGEST[dialect].format(number=_PIECE_NUMBER[dialect], rank=_STRENGTH_RANK)
    return _TREATMENTS.format(rank=_STRENGTH_RANK, digest=digest)


# With each method's earliest-released model (`firstTreatedBy`): the dated model that comes
# first by `age_rank` (oldest first, equal dates by name case-insensitively, then slug:
# store.orders), none when no model that treats it is dated. Found by its rank, which is
# unique, in the same pass: no statement per method (during a first load on PostgreSQL the
# treatment table has no index to look a method's treatments up by). The treatments are
# grouped by method before they meet the methods (a method none treats gets no group):
# 0.9 s of an L reload on PostgreSQL where joining every method to its treatments first
# and grouping the joined rows took 1.3-1.6 s.
METHOD_STATS = f"""INSERT INTO method_stats (method_id, strongest_rank, model_count,
        first_model_id, name_rank, most_models_order, strongest_order, weakest_order)
    SELECT m.id, s.strongest_rank, COALESCE(s.model_count, 0), earliest.id, m.name_rank,
        -COALESCE(s.model_count, 0),
        {strongest_order_sql("s.strongest_rank")}, {weakest_order_sql("s.strongest_rank")}
    FROM method m
    LEFT JOIN (SELECT t.method_id, MIN(t.strength_rank) AS strongest_rank,
                   COUNT(*) AS model_count,
                   MIN(CASE WHEN mo.release_date IS NOT NULL THEN mo.age_rank END) AS first_age
               FROM treatment t JOIN model mo ON mo.id = t.model_id
               GROUP BY t.method_id) s ON s.method_id = m.id
    LEFT JOIN model earliest ON earliest.age_rank = s.first_age"""

# The By-model rows of the nodes at one level, from the treatments of the methods filed at
# them and the rows of their children (one level down, derived just before). A branch is
# its node's methods and its children's branches, which share no method: so a model's
# method count in it is the sum of theirs and its strongest treatment the strongest of
# theirs. Level by level from the bottom, each treatment and each row is read once, where
# joining treatments to every ancestor would read each treatment once per level above it.
BRANCH_MODELS_AT_LEVEL = """INSERT INTO branch_model (node_id, model_id, strongest_rank,
        method_count, recency_rank)
    SELECT b.node_id, b.model_id, MIN(b.strength_rank), SUM(b.methods), model.recency_rank
    FROM (SELECT m.node_id, t.model_id, t.strength_rank, 1 AS methods
          FROM node n JOIN method m ON m.node_id = n.id JOIN treatment t ON t.method_id = m.id
          WHERE n.level = :level
          UNION ALL
          SELECT child.parent_id, bm.model_id, bm.strongest_rank, bm.method_count
          FROM node child JOIN branch_model bm ON bm.node_id = child.id
          WHERE child.level = :level + 1) b
    JOIN model ON model.id = b.model_id
    GROUP BY b.node_id, b.model_id, model.recency_rank"""

NODE_STATS = (
    # Each node's own figures first (one pass over methods, evidence and treatments),
    # then each branch's as the sum over its nodes: the closure has a row per (ancestor,
    # descendant) node, far fewer than one per (ancestor, evidence).
    f"""WITH here AS (
            SELECT m.node_id, COUNT(*) AS methods, SUM(COALESCE(e.n, 0)) AS evidence,
                SUM(COALESCE(p.core, 0)) AS core, SUM(COALESCE(p.used, 0)) AS used,
                SUM(COALESCE(p.mentioned, 0)) AS mentioned,
                {_METHODS_BY_STRONGEST}
            FROM method m
            JOIN method_stats ms ON ms.method_id = m.id
            LEFT JOIN (SELECT method_id, COUNT(*) AS n FROM evidence GROUP BY method_id) e
                ON e.method_id = m.id
            LEFT JOIN (SELECT method_id,
                           {_PAIRS_BY_STRENGTH}
                       FROM treatment GROUP BY method_id) p ON p.method_id = m.id
            GROUP BY m.node_id),
        branch AS (
            SELECT c.ancestor_id AS node_id, SUM(h.methods) AS methods,
                SUM(h.evidence) AS evidence, {_BRANCH_SUMS}
            FROM node_closure c JOIN here h ON h.node_id = c.descendant_id
            GROUP BY c.ancestor_id)
        INSERT INTO node_stats (node_id, methods_in_branch, methods_filed_here,
            models_in_branch, evidence_in_branch, child_count, descendant_count,
            {_STRENGTH_COLUMNS})
        SELECT n.id, COALESCE(branch.methods, 0), COALESCE(here.methods, 0),
            COALESCE(models.n, 0), COALESCE(branch.evidence, 0), COALESCE(children.n, 0),
            n.last - n.pre,
            {_STRENGTH_VALUES}
        FROM node n
        LEFT JOIN here ON here.node_id = n.id
        LEFT JOIN branch ON branch.node_id = n.id
        LEFT JOIN (SELECT node_id, COUNT(*) AS n FROM branch_model GROUP BY node_id) models
            ON models.node_id = n.id
        LEFT JOIN (SELECT parent_id AS node_id, COUNT(*) AS n FROM node
                   WHERE parent_id IS NOT NULL GROUP BY parent_id) children
            ON children.node_id = n.id"""
)


def derive_read_model(connection: Connection) -> None:
    dialect = connection.dialect.name
    if dialect == "sqlite":  # this connection's: the sqlite3 module's own API
        driver = connection.connection.driver_connection
        assert driver is not None
        driver.create_function("evidence_number", 1, evidence_number, deterministic=True)
    connection.execute(text(treatments_statement(dialect)))
    connection.execute(text(METHOD_STATS))
    deepest = connection.execute(text("SELECT MAX(level) FROM node")).scalar() or 0
    for level in range(deepest, 0, -1):
        connection.execute(text(BRANCH_MODELS_AT_LEVEL), {"level": level})
    connection.execute(text(NODE_STATS))
    derive_adoption(connection)
