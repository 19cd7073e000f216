"""Treatment changes of a load, in SQL inside its transaction: the treatments of the
release before, by slug, compared with the new ones once derived (store.derive). There
are up to a million of them at size L, too many to carry through Python.

Where the release before is read from: on PostgreSQL, a load that builds its tables
beside the served ones (store.load.beside) still has them, in the served schema, until it
swaps; otherwise they are kept aside in a temporary table before the load deletes them.

How they are compared differs by database, for speed: PostgreSQL hashes both sides in
one grouping (1.6 s at L, where looking each pair up took 4.8 s); SQLite, which has no
hash join, looks each pair up by index (1.7 s, where grouping took 2.9 s).
"""

from sqlalchemy import Connection, text

_KEEP = """CREATE TEMPORARY TABLE previous_treatment (
        model_slug VARCHAR NOT NULL, method_slug VARCHAR NOT NULL,
        strength_rank SMALLINT NOT NULL){on_commit}"""
# Built once the rows are in: one sorted build, not a million insertions into it.
_INDEX = "CREATE INDEX previous_treatment_pair ON previous_treatment (model_slug, method_slug)"

_PAIRS = """SELECT mo.slug AS model_slug, me.slug AS method_slug, t.strength_rank
    FROM {schema}treatment t JOIN {schema}model mo ON mo.id = t.model_id
    JOIN {schema}method me ON me.id = t.method_id"""

_FILL = f"INSERT INTO previous_treatment (model_slug, method_slug, strength_rank) {_PAIRS}"

_KEPT = "SELECT model_slug, method_slug, strength_rank FROM previous_treatment"

# Added, removed, strengthened or weakened: each pair's rank before and after, by one
# grouping of both sides.
_GROUPED = """INSERT INTO treatment_change (release, model_slug, method_slug, before_rank,
        after_rank)
    SELECT :release, model_slug, method_slug, MAX(before_rank), MAX(after_rank)
    FROM (SELECT model_slug, method_slug, strength_rank AS before_rank, NULL AS after_rank
          FROM ({before}) b
          UNION ALL
          SELECT model_slug, method_slug, NULL, strength_rank FROM ({after}) a) pairs
    GROUP BY model_slug, method_slug
    HAVING MAX(before_rank) IS NULL OR MAX(after_rank) IS NULL
        OR MAX(before_rank) <> MAX(after_rank)"""

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
    connection.execute(text(_FILL.format(schema="")))
    if postgresql:  # autovacuum never analyzes a temporary table: the planner needs figures
        connection.execute(text("ANALYZE previous_treatment"))
    else:
        connection.execute(text(_INDEX))


def record_treatment_changes(connection: Connection, release: int, served: str | None) -> int:
    """Once the new treatments are derived: a change row per pair added, removed,
    strengthened or weakened; returns how many. ``served``: the schema that still holds
    the release before (PostgreSQL, building beside it), or None if it was kept aside."""
    if connection.dialect.name == "postgresql":
        before = _KEPT if served is None else _PAIRS.format(schema=f"{served}.")
        statement = _GROUPED.format(before=before, after=_PAIRS.format(schema=""))
        return connection.execute(text(statement), {"release": release}).rowcount
    written = 0
    for statement in (_REMOVED_OR_CHANGED, _ADDED):
        written += connection.execute(text(statement), {"release": release}).rowcount
    connection.execute(text("DROP TABLE previous_treatment"))
    return written
