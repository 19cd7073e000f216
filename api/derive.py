"""The read model, derived in SQL from the loaded rows inside the load's transaction.

After this runs, every figure a request asks for is a lookup: treatments per (model,
method) pair, each model's strongest treatment per branch, each node's counts.
"""

from sqlalchemy import Connection, text

_STRENGTH_RANK = "CASE strength WHEN 'core' THEN 1 WHEN 'used' THEN 2 ELSE 3 END"


def _in_branches(alias: str) -> str:
    """Join rows of ``alias`` (which have a method_id) to every branch their method is in."""
    return (
        f"JOIN method m ON m.id = {alias}.method_id "
        "JOIN node_closure c ON c.descendant_id = m.node_id"
    )


STATEMENTS = (
    f"""INSERT INTO treatment (method_id, model_id, strength_rank)
        SELECT method_id, model_id, MIN({_STRENGTH_RANK}) FROM evidence
        GROUP BY method_id, model_id""",
    """INSERT INTO method_stats (method_id, strongest_rank, model_count)
        SELECT m.id, MIN(t.strength_rank), COUNT(t.model_id)
        FROM method m LEFT JOIN treatment t ON t.method_id = m.id GROUP BY m.id""",
    f"""INSERT INTO branch_model (node_id, model_id, strongest_rank, method_count, recency_rank)
        SELECT b.node_id, b.model_id, b.strongest_rank, b.method_count, model.recency_rank
        FROM (SELECT c.ancestor_id AS node_id, t.model_id,
                     MIN(t.strength_rank) AS strongest_rank, COUNT(*) AS method_count
              FROM treatment t {_in_branches("t")}
              GROUP BY c.ancestor_id, t.model_id) b
        JOIN model ON model.id = b.model_id""",
    f"""INSERT INTO node_stats (node_id, methods_in_branch, methods_filed_here,
            models_in_branch, evidence_in_branch, child_count, descendant_count,
            core_pairs, used_pairs, mentioned_pairs)
        SELECT n.id, COALESCE(branch_methods.n, 0), COALESCE(here.n, 0),
            COALESCE(models.n, 0), COALESCE(branch_evidence.n, 0), COALESCE(children.n, 0),
            n.last - n.pre,
            COALESCE(pairs.core, 0), COALESCE(pairs.used, 0), COALESCE(pairs.mentioned, 0)
        FROM node n
        LEFT JOIN (SELECT c.ancestor_id AS node_id, COUNT(*) AS n
                   FROM method m JOIN node_closure c ON c.descendant_id = m.node_id
                   GROUP BY c.ancestor_id) branch_methods ON branch_methods.node_id = n.id
        LEFT JOIN (SELECT node_id, COUNT(*) AS n FROM method GROUP BY node_id) here
            ON here.node_id = n.id
        LEFT JOIN (SELECT node_id, COUNT(*) AS n FROM branch_model GROUP BY node_id) models
            ON models.node_id = n.id
        LEFT JOIN (SELECT c.ancestor_id AS node_id, COUNT(*) AS n
                   FROM evidence e {_in_branches("e")}
                   GROUP BY c.ancestor_id) branch_evidence ON branch_evidence.node_id = n.id
        LEFT JOIN (SELECT parent_id AS node_id, COUNT(*) AS n FROM node
                   WHERE parent_id IS NOT NULL GROUP BY parent_id) children
            ON children.node_id = n.id
        LEFT JOIN (SELECT c.ancestor_id AS node_id,
                       SUM(CASE WHEN t.strength_rank = 1 THEN 1 ELSE 0 END) AS core,
                       SUM(CASE WHEN t.strength_rank = 2 THEN 1 ELSE 0 END) AS used,
                       SUM(CASE WHEN t.strength_rank = 3 THEN 1 ELSE 0 END) AS mentioned
                   FROM treatment t {_in_branches("t")}
                   GROUP BY c.ancestor_id) pairs ON pairs.node_id = n.id""",
)


def derive_read_model(connection: Connection) -> None:
    for statement in STATEMENTS:
        connection.execute(text(statement))
