"""`taxonomy prune --keep N`: forget all but the newest N releases, in one transaction
that holds the load lock (so never beside a load).

What goes: the pruned releases and their change rows, and the change rows of the oldest
release kept too, which compare it with a release no longer there (its `changes` is null
once nothing is before it). That keeps the rule api.ingest.previous.first_existed reads
by: the oldest retained release has no change rows.

`firstSeen` is the earliest retained release with a record's slug (DESIGN §5), so records
first seen in a pruned release are seen anew: in the oldest release kept if they were
there, else in the release whose change row added them back (first_existed again).
The served data takes a new identity, so that no answer cached before is served after."""

import logging
import uuid
from collections import defaultdict
from dataclasses import dataclass

from sqlalchemy import Connection, bindparam, text

from api import migrate
from api.ingest.lock import one_load_at_a_time
from api.ingest.lock_postgres import loader_url
from api.ingest.previous import first_existed
from api.ingest.turns import Say
from store.engines import make_sync_engine

log = logging.getLogger("taxonomy.prune")

# (served table, its change table)
_RECORDS = (("node", "node_change"), ("method", "method_change"), ("model", "model_change"))
_CHANGE_TABLES = (*(change for _, change in _RECORDS), "treatment_change")


class PruneError(Exception):
    """Why nothing was pruned, said so that the user knows what to do."""


@dataclass(frozen=True)
class Pruned:
    removed: list[int]  # the release numbers removed, oldest first
    kept: list[int]  # the release numbers kept, oldest first
    change_rows: int  # change rows deleted (the oldest kept release's too)

    def __str__(self) -> str:
        kept = _span(self.kept)
        if not self.removed:
            count = f"{len(self.kept)} release" + ("" if len(self.kept) == 1 else "s")
            return f"nothing to prune: {count} ({kept}), all kept"
        return (
            f"removed releases {_span(self.removed)} and {self.change_rows:,} change rows; "
            f"kept {kept}"
        )


def _span(numbers: list[int]) -> str:
    if not numbers:
        return "none"
    return str(numbers[0]) if len(numbers) == 1 else f"{numbers[0]}-{numbers[-1]}"


def prune_releases(
    database_url: str, keep: int, *, wait: bool = True, say: Say = log.warning
) -> Pruned:
    """Keep the newest ``keep`` releases (at least 1) and delete the rest."""
    if keep < 1:
        raise PruneError(
            f"--keep {keep}: at least the newest release must be kept (the served data "
            "is that release); give --keep 1 or more"
        )
    migrate.upgrade(database_url)  # as a load does: a database of an older schema has no releases
    engine = make_sync_engine(loader_url(database_url))
    try:
        with one_load_at_a_time(engine, wait=wait, say=say) as connection:
            return _prune(connection, keep)
    finally:
        engine.dispose()


def _prune(connection: Connection, keep: int) -> Pruned:
    numbers = [n for (n,) in connection.execute(text("SELECT number FROM release ORDER BY number"))]
    if not numbers:
        raise PruneError("no release yet: load data first (`taxonomy load DIRECTORY`)")
    removed, kept = numbers[:-keep], numbers[-keep:]
    if not removed:
        return Pruned([], kept, 0)
    oldest_kept = kept[0]
    change_rows = 0
    for table in _CHANGE_TABLES:
        deleted = connection.execute(
            text(f"DELETE FROM {table} WHERE release <= :oldest"), {"oldest": oldest_kept}
        )
        change_rows += deleted.rowcount
    connection.execute(text("DELETE FROM release WHERE number < :oldest"), {"oldest": oldest_kept})
    for served, changes in _RECORDS:
        _see_anew(connection, served, changes, oldest_kept)
    _new_identity(connection, kept[-1])
    return Pruned(removed, kept, change_rows)


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
