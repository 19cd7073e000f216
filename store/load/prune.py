"""Forgetting all but the newest releases (`taxonomy prune`, api.ingest.prune), inside a
transaction that holds the load lock: the pruned releases and their change rows, and the
change rows of the oldest release kept too, which compare it with a release no longer
there. Records first seen in a pruned release are seen anew, and the served data takes a
new identity."""

import uuid
from collections import defaultdict

from sqlalchemy import Connection, bindparam, text

from store.load.previous import first_existed

# (served table, its change table)
_RECORDS = (("node", "node_change"), ("method", "method_change"), ("model", "model_change"))
_CHANGE_TABLES = (*(change for _, change in _RECORDS), "treatment_change")


def release_numbers(connection: Connection) -> list[int]:
    """Every release's number, oldest first."""
    return [n for (n,) in connection.execute(text("SELECT number FROM release ORDER BY number"))]


def forget_releases(connection: Connection, *, oldest_kept: int, newest: int) -> int:
    """Delete the releases before ``oldest_kept``, and the change rows up to it; returns
    how many change rows were deleted."""
    change_rows = 0
    for table in _CHANGE_TABLES:
        deleted = connection.execute(
            text(f"DELETE FROM {table} WHERE release <= :oldest"), {"oldest": oldest_kept}
        )
        change_rows += deleted.rowcount
    connection.execute(text("DELETE FROM release WHERE number < :oldest"), {"oldest": oldest_kept})
    for served, changes in _RECORDS:
        _see_anew(connection, served, changes, oldest_kept)
    _new_identity(connection, newest)
    return change_rows


def _new_identity(connection: Connection, newest: int) -> None:
    """The served data under a new identity, the newest release's too: the same data
    version (number-identity) must never tag two different answers, and `firstSeen`,
    `releases` and `changes` answer otherwise now. Servers see the new version at their
    next poll and drop the answers and cursors cached under the old one."""
    identity = {"identity": uuid.uuid4().hex, "newest": newest}
    connection.execute(text("UPDATE dataset SET identity = :identity"), identity)
    connection.execute(
        text("UPDATE release SET identity = :identity WHERE number = :newest"), identity
    )


def _see_anew(connection: Connection, served: str, changes: str, oldest_kept: int) -> None:
    """The first_seen of ``served`` records first seen before ``oldest_kept``, recomputed."""
    slugs = [
        slug
        for (slug,) in connection.execute(
            text(f"SELECT slug FROM {served} WHERE first_seen < :oldest"), {"oldest": oldest_kept}
        )
    ]
    earliest = first_existed(connection, changes, slugs)
    by_release: dict[int, list[str]] = defaultdict(list)
    for slug in slugs:
        # No change row since the oldest release kept: unchanged since then, so there.
        by_release[earliest.get(slug, oldest_kept)].append(slug)
    update = text(f"UPDATE {served} SET first_seen = :release WHERE slug IN :slugs").bindparams(
        bindparam("slugs", expanding=True)
    )
    for release, group in by_release.items():
        for start in range(0, len(group), 500):
            connection.execute(update, {"release": release, "slugs": group[start : start + 500]})
