"""Treatment changes of a load, in SQL inside its transaction: the treatments of the
release before, by slug, compared with the new ones once derived (store.derive). There
are up to a million of them at size L, too many to carry through Python.

Where the release before is read from: on PostgreSQL, a load that builds its tables
beside the served ones (store.load.beside) still has them, in the served schema, until it
swaps; otherwise they are kept aside in a temporary table before the load deletes them.

How they are compared differs by database, for speed: PostgreSQL hashes both sides in
one grouping (1.6 s at L, where looking each pair up took 4.8 s); SQLite, which has no
hash join, looks each pair up by index (1.7 s, where grouping took 2.9 s).

A pair whose strength stays is changed when its evidence did (a quote or locator edited, a
piece added or removed): its evidence digest (store.derive) differs, compared in the
same statement. Only the pairs of the release's change rows then have their evidence
read, before and after, as their compared field `evidence` (store.history.field_values):
the release before's evidence is kept aside for that, as its treatments are.
"""

from collections.abc import Iterable

from sqlalchemy import Connection, text
from sqlalchemy.schema import CreateTable

from store.history import field_values
from store.tables import EvidenceRow, table_of

_KEEP = """CREATE TEMPORARY TABLE previous_treatment (
        model_slug VARCHAR NOT NULL, method_slug VARCHAR NOT NULL,
        strength_rank SMALLINT NOT NULL, evidence_digest BIGINT,
        model_id INTEGER NOT NULL, method_id INTEGER NOT NULL){on_commit}"""
# Built once the rows are in: one sorted build, not a million insertions into it.
_INDEX = "CREATE INDEX previous_treatment_pair ON previous_treatment (model_slug, method_slug)"

_PAIRS = """SELECT mo.slug AS model_slug, me.slug AS method_slug, t.strength_rank,
        t.evidence_digest, t.model_id, t.method_id
    FROM {schema}treatment t JOIN {schema}model mo ON mo.id = t.model_id
    JOIN {schema}method me ON me.id = t.method_id"""

_FILL = f"""INSERT INTO previous_treatment (model_slug, method_slug, strength_rank,
        evidence_digest, model_id, method_id) {_PAIRS}"""

# The release before's evidence, by its pairs' ids then (a plain copy, no join: the few
# pairs a load changes are looked up in it afterwards; PostgreSQL writing over the served
# rows), and its sources' slugs.
_KEEP_EVIDENCE = """CREATE TEMPORARY TABLE previous_evidence{on_commit} AS
    SELECT model_id, method_id, key, strength, quote, locator, source_id FROM evidence"""
_KEEP_SOURCES = """CREATE TEMPORARY TABLE previous_source{on_commit} AS
    SELECT id, slug FROM source"""

_KEPT = """SELECT model_slug, method_slug, strength_rank, evidence_digest
    FROM previous_treatment"""

# Added, removed, strengthened, weakened or with other evidence: each pair's rank and
# digest before and after, by one grouping of both sides (a digest unknown on either side
# is no change), both kept in its row.
_GROUPED = """INSERT INTO treatment_change (release, model_slug, method_slug, before_rank,
        after_rank, before_digest, after_digest)
    SELECT :release, model_slug, method_slug, MAX(before_rank), MAX(after_rank),
        MAX(before_digest), MAX(after_digest)
    FROM (SELECT model_slug, method_slug, strength_rank AS before_rank, NULL AS after_rank,
              evidence_digest AS before_digest, NULL AS after_digest
          FROM ({before}) b
          UNION ALL
          SELECT model_slug, method_slug, NULL, strength_rank, NULL, evidence_digest
          FROM ({after}) a) pairs
    GROUP BY model_slug, method_slug
    HAVING MAX(before_rank) IS NULL OR MAX(after_rank) IS NULL
        OR MAX(before_rank) <> MAX(after_rank) OR MAX(before_digest) <> MAX(after_digest)"""

# Removed (no treatment now), changed strength or other evidence, by looking each kept
# pair up by its slugs in the new rows; then added, by looking each new pair up among the
# kept ones.
_REMOVED_OR_CHANGED = """INSERT INTO treatment_change (release, model_slug, method_slug,
        before_rank, after_rank, before_digest, after_digest)
    SELECT :release, p.model_slug, p.method_slug, p.strength_rank, t.strength_rank,
        p.evidence_digest, t.evidence_digest
    FROM previous_treatment p
    LEFT JOIN model mo ON mo.slug = p.model_slug
    LEFT JOIN method me ON me.slug = p.method_slug
    LEFT JOIN treatment t ON t.model_id = mo.id AND t.method_id = me.id
    WHERE t.strength_rank IS NULL OR t.strength_rank <> p.strength_rank
        OR t.evidence_digest <> p.evidence_digest"""

_ADDED = """INSERT INTO treatment_change (release, model_slug, method_slug, before_rank,
        after_rank, before_digest, after_digest)
    SELECT :release, mo.slug, me.slug, NULL, t.strength_rank, NULL, t.evidence_digest
    FROM treatment t
    JOIN model mo ON mo.id = t.model_id JOIN method me ON me.id = t.method_id
    WHERE NOT EXISTS (SELECT 1 FROM previous_treatment p
                      WHERE p.model_slug = mo.slug AND p.method_slug = me.slug)"""

# The evidence of the release's changed pairs that have a treatment before and after (as
# a record added or removed has no field changes, a pair added or removed keeps no
# evidence: a load that removes a thousand models removes some 150,000 pairs at size L),
# in the tables of ``schema``: the loaded ones, or on PostgreSQL the served ones still
# beside them.
_EVIDENCE = """SELECT c.model_slug, c.method_slug, e.key, e.strength, e.quote, e.locator,
        s.slug
    FROM treatment_change c
    JOIN {schema}model mo ON mo.slug = c.model_slug{collate}
    JOIN {schema}method me ON me.slug = c.method_slug{collate}
    JOIN {schema}evidence e ON e.model_id = mo.id AND e.method_id = me.id
    LEFT JOIN {schema}source s ON s.id = e.source_id
    WHERE c.release = :release AND c.before_rank IS NOT NULL AND c.after_rank IS NOT NULL"""
# The same, before, from the kept tables: the kept evidence has no index (built, it would
# cost more than the rest of the step), so it is read once, each piece looked up among
# the few changed pairs, made a table first (MATERIALIZED; CROSS JOIN: SQLite keeps that
# order): 0.14 s at size L, where a join the other way round took 2.3 s.
_KEPT_EVIDENCE = """WITH p AS MATERIALIZED (
        SELECT p.model_id, p.method_id, p.model_slug, p.method_slug
        FROM treatment_change c
        JOIN previous_treatment p ON p.model_slug = c.model_slug{collate}
            AND p.method_slug = c.method_slug{collate}
        WHERE c.release = :release AND c.before_rank IS NOT NULL
            AND c.after_rank IS NOT NULL)
    SELECT p.model_slug, p.method_slug, e.key, e.strength, e.quote, e.locator, s.slug
    FROM previous_evidence e CROSS JOIN p
    LEFT JOIN previous_source s ON s.id = e.source_id
    WHERE e.model_id = p.model_id AND e.method_id = p.method_id"""

_SET_FIELDS = """UPDATE treatment_change SET {side}_fields = :fields
    WHERE release = :release AND model_slug = :model AND method_slug = :method"""


def keep_previous_treatments(connection: Connection) -> None:
    """Before the load deletes the served rows: their treatments, by slugs, and their
    evidence, in tables of this transaction (temporary ones, but for SQLite's evidence:
    the served table itself, renamed, and an empty one made in its place without its
    indexes, which the load drops and builds anyway: a million rows are not copied)."""
    postgresql = connection.dialect.name == "postgresql"
    on_commit = " ON COMMIT DROP" if postgresql else ""
    connection.execute(text(_KEEP.format(on_commit=on_commit)))
    connection.execute(text(_FILL.format(schema="")))
    if postgresql:
        connection.execute(text(_KEEP_EVIDENCE.format(on_commit=on_commit)))
    else:
        connection.execute(text("ALTER TABLE evidence RENAME TO previous_evidence"))
        connection.execute(CreateTable(table_of(EvidenceRow)))
    connection.execute(text(_KEEP_SOURCES.format(on_commit=on_commit)))
    if postgresql:  # autovacuum never analyzes a temporary table: the planner needs figures
        connection.execute(text("ANALYZE previous_treatment"))
    else:
        connection.execute(text(_INDEX))


def _pieces(
    rows: Iterable[tuple[str, ...]],
) -> Iterable[tuple[str, str, field_values.EvidenceFields]]:
    for model, method, key, strength, quote, locator, source in rows:
        yield model, method, field_values.EvidenceFields(key, strength, quote, locator, source)


def _write_fields(connection: Connection, release: int, side: str, statement: str) -> None:
    """Each changed pair's `evidence` items on ``side`` (before, after), read by
    ``statement``, kept in its change row as its compared fields' text."""
    rows = connection.execute(text(statement), {"release": release})
    items = field_values.evidence_of(_pieces(rows))
    if items:
        connection.execute(
            text(_SET_FIELDS.format(side=side)),
            [
                {
                    "fields": field_values.encode("treatment", (found,)),
                    "release": release,
                    "model": model,
                    "method": method,
                }
                for (model, method), found in items.items()
            ],
        )


def record_treatment_changes(connection: Connection, release: int, served: str | None) -> int:
    """Once the new treatments are derived: a change row per pair added, removed,
    strengthened, weakened or whose evidence changed, with its evidence before and after;
    returns how many. ``served``: the schema that still holds the release before
    (PostgreSQL, building beside it), or None if it was kept aside."""
    postgresql = connection.dialect.name == "postgresql"
    collate = ' COLLATE "default"' if postgresql else ""
    if postgresql:
        before = _KEPT if served is None else _PAIRS.format(schema=f"{served}.")
        statement = _GROUPED.format(before=before, after=_PAIRS.format(schema=""))
        written = connection.execute(text(statement), {"release": release}).rowcount
    else:
        written = 0
        for statement in (_REMOVED_OR_CHANGED, _ADDED):
            written += connection.execute(text(statement), {"release": release}).rowcount
    if served is None:
        earlier = _KEPT_EVIDENCE.format(collate=collate)
    else:
        earlier = _EVIDENCE.format(schema=f"{served}.", collate=collate)
    _write_fields(connection, release, "before", earlier)
    now = _EVIDENCE.format(schema="", collate=collate)
    _write_fields(connection, release, "after", now)
    if not postgresql:
        for table in ("previous_treatment", "previous_evidence", "previous_source"):
            connection.execute(text(f"DROP TABLE {table}"))
    return written
