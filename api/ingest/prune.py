"""`taxonomy prune --keep N`: forget all but the newest N releases, in one transaction
that holds the load lock (so never beside a load).

What goes: the pruned releases and their change rows, and the change rows of the oldest
release kept too, which compare it with a release no longer there (its `changes` is null
once nothing is before it). That keeps the rule store.load.previous.first_existed reads
by: the oldest retained release has no change rows.

`firstSeen` is the earliest retained release with a record's slug (DESIGN §5), so records
first seen in a pruned release are seen anew: in the oldest release kept if they were
there, else in the release whose change row added them back (first_existed again).
The served data takes a new identity, so that no answer cached before is served after."""

import logging
from dataclasses import dataclass

from api.commands import migrate
from api.ingest.lock import one_load_at_a_time
from api.ingest.lock_postgres import loader_url
from api.ingest.turns import Say
from store.load.prune import forget_releases, release_numbers
from store.load.transaction import LoadTransaction, load_engine

log = logging.getLogger("taxonomy.prune")


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
    with (
        load_engine(loader_url(database_url)) as engine,
        one_load_at_a_time(engine, wait=wait, say=say) as connection,
    ):
        return _prune(connection, keep)


def _prune(connection: LoadTransaction, keep: int) -> Pruned:
    numbers = release_numbers(connection)
    if not numbers:
        raise PruneError("no release yet: load data first (`taxonomy load DIRECTORY`)")
    removed, kept = numbers[:-keep], numbers[-keep:]
    if not removed:
        return Pruned([], kept, 0)
    change_rows = forget_releases(connection, oldest_kept=kept[0], newest=kept[-1])
    return Pruned(removed, kept, change_rows)
