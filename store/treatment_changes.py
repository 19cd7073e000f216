"""Treatment changes of a load, in SQL inside its transaction: the treatments of the
release before are kept aside by slug before the load deletes them, and compared with the
new ones once derived (store.derive). There are up to a million of them at size L, too
many to carry through Python."""

from sqlalchemy import Connection, text

_KEEP = """CREATE TEMPORARY TABLE previous_treatment (
        model_slug VARCHAR NOT NULL, method_slug VARCHAR NOT NULL,
        strength_rank SMALLINT NOT NULL){on_commit}"""
# Built once the rows are in: one sorted build, not a million insertions into it.
_INDEX = "CREATE INDEX previous_treatment_pair ON previous_treatment (model_slug, method_slug)"

_FILL = """INSERT INTO previous_treatment (model_slug, method_slug, strength_rank)
    SELECT mo.slug, me.slug, t.strength_rank FROM treatment t
    JOIN model mo ON mo.id = t.model_id JOIN method me ON me.id = t.method_id"""

# Removed (no treatment now) or changed strength, by looking each kept pair up by its
# slugs in the new rows; then added, by looking each new pair up among the kept ones.
_REMOVED_OR_CHANGED = """INSERT INTO treatment_change (release, model_slug, method_slug,
        before_rank, after_rank)
    SELECT :release, p.model_slug, p.method_slug, p.strength_rank, t.strength_rank
    FROM previous_treatment p
    LEFT JOIN model mo ON mo.slug = p.model_slug
    LEFT JOIN method me ON me.slug = p.method_slug
    LEFT JOIN treatment t ON t.model_id = mo.id AND t.method_id = me.id
    WHERE t.strength_rank IS NULL OR t.strength_rank <> p.strength_rank"""

_ADDED = """INSERT INTO treatment_change (release, model_slug, method_slug, before_rank,
        after_rank)
    SELECT :release, mo.slug, me.slug, NULL, t.strength_rank FROM treatment t
    JOIN model mo ON mo.id = t.model_id JOIN method me ON me.id = t.method_id
    WHERE NOT EXISTS (SELECT 1 FROM previous_treatment p
                      WHERE p.model_slug = mo.slug AND p.method_slug = me.slug)"""


def keep_previous_treatments(connection: Connection) -> None:
    """Before the load deletes the served rows: their treatments, by slugs, in a
    temporary table of this transaction."""
    postgresql = connection.dialect.name == "postgresql"
    connection.execute(text(_KEEP.format(on_commit=" ON COMMIT DROP" if postgresql else "")))
    connection.execute(text(_FILL))
    connection.execute(text(_INDEX))
    if postgresql:  # autovacuum never analyzes a temporary table: the planner needs figures
        connection.execute(text("ANALYZE previous_treatment"))


def record_treatment_changes(connection: Connection, release: int) -> int:
    """Once the new treatments are derived: a change row per pair added, removed,
    strengthened or weakened; returns how many."""
    written = 0
    for statement in (_REMOVED_OR_CHANGED, _ADDED):
        written += connection.execute(text(statement), {"release": release}).rowcount
    if connection.dialect.name != "postgresql":  # PostgreSQL drops it at commit
        connection.execute(text("DROP TABLE previous_treatment"))
    return written
