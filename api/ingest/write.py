"""Replacing the database's data with a dataset's, in one transaction, streaming the
evidence: memory holds the catalog (nodes, models, sources, methods), never the evidence."""

import logging
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import UTC, date, datetime
from functools import partial
from pathlib import Path
from typing import TypedDict

from api.ingest.changes import record_changes
from api.ingest.checksum import DataChecksum
from api.ingest.child import computed_in_child, rows_from_child
from api.ingest.dataset import (
    Catalog,
    DatasetError,
    check_directory,
    checked_evidence,
    read_catalog,
    stopped_note,
)
from api.ingest.lines import ProblemLimitError, Problems
from api.ingest.lock import one_load_at_a_time
from api.ingest.progress import Meter, Quiet, timed
from api.ingest.release_dates import suspect_placeholder, undate
from api.ingest.shrink import evidence_lines, refuse_shrink
from api.ingest.turns import Say
from store import search_catalogue, search_index, search_saved
from store.derive import derive_read_model
from store.history.treatment_changes import keep_previous_treatments
from store.load.beside import build_beside, swap_in, why_not_beside
from store.load.bulk import DeferredChecks, check_sqlite_keys
from store.load.catalog import clear_served, write_loaded
from store.load.counts import served_counts
from store.load.previous import first_existed, read_previous
from store.load.release import Release, write_dataset, write_release
from store.load.transaction import LoadEngine, LoadTransaction, is_postgresql, tune_for_load
from store.load.vacuum import VacuumError, reclaim_replaced_rows
from store.orders import name_ranks, release_ranks
from store.tables import (
    TABLES_IN_LOAD_ORDER,
    BranchModelRow,
    EvidenceRow,
    MethodRow,
    MethodStatsRow,
    NodeAdoptionRow,
    NodeClosureRow,
    NodeStatsRow,
    TreatmentRow,
    table_of,
)

log = logging.getLogger("taxonomy.load")

# The read model's tables whose indexes and keys are built after their rows.
# node_adoption's key too: kept while its rows went in, it cost 2 s of an L load on
# PostgreSQL (366,783 rows in hash order), built after them a fraction of that.
DERIVED_WITH_CHECKS = (
    TreatmentRow,
    MethodStatsRow,
    BranchModelRow,
    NodeStatsRow,
    NodeAdoptionRow,
)
# The last step inside the load's transaction that writes served rows (tests hook it).
SEARCH_INDEX_STEP = "search index"


class LoadOptions(TypedDict, total=False):
    """replace_data's options, for the functions that pass them on (api.ingest.load)."""

    meter: Meter | None
    max_problems: int
    allow_shrink: bool
    wait: bool
    say: Say
    note: str | None
    history: bool
    unknown_release_date: date | None


@dataclass(frozen=True)
class LoadSummary:
    version: int  # the release's number
    counts: dict[str, int]
    seconds: float
    # Change rows recorded against the release before; None for the first release.
    changes: int | None = None


def replace_data(
    engine: LoadEngine,
    directory: Path,
    *,
    meter: Meter | None = None,
    max_problems: int = 50,
    allow_shrink: bool = True,
    wait: bool = True,
    say: Say = log.warning,
    note: str | None = None,
    history: bool = True,
    unknown_release_date: date | None = None,
) -> LoadSummary:
    """Swap the served data for ``directory``'s, all or nothing: readers see the old data
    or the new, never a mix; on any problem the database is left as it was. Unless
    ``allow_shrink``, a load that would wipe what is served raises ShrinkError. Loads go
    one at a time: another one running is waited for (saying so through ``say``), or if
    not ``wait``, LoadBusyError is raised. The load becomes a release (with ``note``)
    that records what it changed against the one before, unless ``history`` is false
    (to measure what recording costs). Models dated ``unknown_release_date`` are loaded
    undated (api.ingest.release_dates)."""
    started = time.perf_counter()
    meter = meter or Quiet()
    check_directory(directory)
    problems = Problems(limit=max_problems)
    try:
        catalog = read_catalog(directory, problems, meter)
        if unknown_release_date is not None:
            undated = undate(catalog, unknown_release_date)
            say(f"{undated:,} models dated {unknown_release_date.isoformat()}: loaded undated")
        elif (warning := suspect_placeholder(catalog)) is not None:
            say(warning)
        if problems.items:
            # The load is lost; read the evidence only to report its problems too.
            for _ in checked_evidence(directory, catalog, problems):
                pass
            raise DatasetError([str(p) for p in problems.items])
        # Counted before the load takes its lock, which the evidence file's lines are not
        # worth holding it for.
        expected = None if allow_shrink else _counts(catalog, evidence_lines(directory))
        version, changes = _write(
            engine,
            directory,
            catalog,
            problems,
            meter,
            expected,
            Turn(wait=wait, say=say, note=note, history=history),
        )
        _reclaim_replaced_rows(engine, meter)
    except ProblemLimitError:
        problems.items.append(stopped_note(max_problems))
        raise DatasetError([str(p) for p in problems.items]) from None
    counts = _counts(catalog, catalog.evidence_count)
    return LoadSummary(version, counts, time.perf_counter() - started, changes)


def _counts(catalog: Catalog, evidence: int) -> dict[str, int]:
    return {
        "nodes": len(catalog.nodes),
        "models": len(catalog.models),
        "sources": len(catalog.sources),
        "methods": len(catalog.methods),
        "evidence": evidence,
    }


@dataclass(frozen=True)
class Turn:
    """How a load takes its turn (waiting for another, saying so) and what it records."""

    wait: bool
    say: Say
    note: str | None
    history: bool


def _write(
    engine: LoadEngine,
    directory: Path,
    catalog: Catalog,
    problems: Problems,
    meter: Meter,
    expected: dict[str, int] | None,
    turn: Turn,
) -> tuple[int, int | None]:
    """Replace the data; ``expected`` (the dataset's counts) is checked against what is
    served before anything is deleted, unless it is None (shrinking allowed). Returns the
    release's number and how many change rows it recorded (None: the first release)."""
    # One load at a time; readers are not blocked (see DeferredChecks).
    with (
        one_load_at_a_time(engine, wait=turn.wait, say=turn.say) as connection,
        ExitStack() as children,
    ):
        tune_for_load(connection)
        # Under the lock: what this load replaces, not what a load before it served.
        rows: dict[str, int] = {}
        if expected is not None:
            rows = served_counts(connection)
            refuse_shrink(rows, expected)
        with timed(meter, "the release before"):
            previous = read_previous(connection)
            served = previous.release is not None  # all or nothing: no version, no data
            # PostgreSQL over served data: the new tables go beside the served ones
            # (store.load.beside), if this load's role may put them there.
            builds_beside = False
            if served and is_postgresql(connection):
                not_beside = why_not_beside(connection)
                builds_beside = not_beside is None
                if not_beside is not None:
                    turn.say(
                        f"this load writes over the served rows, which is slower: {not_beside}"
                    )
            compare = served and turn.history
            if compare and not builds_beside:  # beside, they stay there until the swap
                keep_previous_treatments(connection)
            version = (previous.release or 0) + 1
            recorded = record_changes(
                version,
                previous,
                catalog,
                lambda table, slugs: first_existed(connection, table, slugs),
                compare=turn.history,
            )
        # PostgreSQL: the served schema, if this load builds its tables beside it.
        beside_of = None
        if builds_beside:
            with timed(meter, "new tables beside the served ones"):
                beside_of = build_beside(connection)
        # Tables that readers read while this load writes them.
        writes_served = served and beside_of is None
        loaded = DeferredChecks.drop(
            connection,
            table_of(NodeClosureRow),
            table_of(MethodRow),
            table_of(EvidenceRow),
            served=writes_served,
        )
        derived = DeferredChecks.drop(
            connection, *(table_of(row) for row in DERIVED_WITH_CHECKS), served=writes_served
        )
        if beside_of is None:
            with timed(meter, "clearing the served rows"):
                clear_served(connection)
        data_checksum = DataChecksum(catalog)
        with timed(meter, "writing the catalog"):
            _write_catalog(connection, catalog, recorded.first_seen)
        # Counted here: the rows are checked in a child process (rows_from_child).
        catalog.evidence_count = write_loaded(
            connection,
            table="evidence",
            rows=data_checksum.evidence(
                rows_from_child(
                    lambda problems, meter: checked_evidence(directory, catalog, problems, meter),
                    problems,
                    meter,
                )
            ),
        )
        if problems.items:  # leaving the block by an exception rolls everything back
            raise DatasetError([str(p) for p in problems.items])
        if expected is not None:  # the rows, exactly: the file may have changed since
            refuse_shrink(rows, {"evidence": catalog.evidence_count})
        # The search catalogue needs only the catalog: it is built (5-6 s of Python at L)
        # on the other core while the database indexes and derives, which hold one core.
        # Started earlier, it would slow the evidence's writer and reader, which hold two.
        catalogue_parts = children.enter_context(
            computed_in_child("the search catalogue", partial(_search_catalogue, catalog))
        )
        with timed(meter, "indexes and keys of the loaded rows"):
            loaded.restore()
        with timed(meter, "deriving the read model"):
            derive_read_model(connection)
        with timed(meter, "indexes of the read model"):
            derived.restore()
        with timed(meter, "search catalogue"):
            search_saved.write(connection, catalogue_parts())
        with timed(meter, SEARCH_INDEX_STEP):
            search_index.rebuild(connection, served=writes_served)
        release = Release(
            number=version,
            identity=uuid.uuid4().hex,
            checksum=data_checksum.hexdigest(),
            loaded_at=datetime.now(UTC),
            note=turn.note,
            counts=_counts(catalog, catalog.evidence_count),
        )
        write_dataset(connection, release=release, source_dir=directory)
        with timed(meter, "changes against the release before"):
            changes = write_release(
                connection,
                release=release,
                changes={
                    "node": recorded.nodes,
                    "method": recorded.methods,
                    "model": recorded.models,
                },
                compare=compare,
                served=beside_of,
            )
        if not is_postgresql(connection):
            with timed(meter, "checking keys"):
                check_sqlite_keys(connection, map(table_of, TABLES_IN_LOAD_ORDER))
        if beside_of is not None:
            with timed(meter, "swapping the new tables in"):
                swap_in(connection, beside_of, turn.say)
        step = time.perf_counter()
    meter.step("commit", time.perf_counter() - step)
    return version, (changes if served else None)


def _reclaim_replaced_rows(engine: LoadEngine, meter: Meter) -> None:
    """PostgreSQL, once the load has committed: vacuum what it rewrote
    (store.load.vacuum). The data is already committed and served; a vacuum that fails
    is only logged."""
    step = time.perf_counter()
    try:
        vacuumed = reclaim_replaced_rows(engine)
    except VacuumError as exc:
        log.warning("the load committed, but vacuuming after it failed: %s", exc)
        return
    if vacuumed:
        meter.step("vacuum", time.perf_counter() - step)


def _write_catalog(
    connection: LoadTransaction, catalog: Catalog, first_seen: dict[str, dict[str, int]]
) -> None:
    ids = catalog
    nodes_seen, models_seen, methods_seen = (first_seen[k] for k in ("node", "model", "method"))
    write_loaded(
        connection,
        table="node",
        rows=(
            (
                placed.pre + 1,
                placed.record.slug,
                placed.record.name,
                placed.record.description,
                ids.node_ids[placed.record.parent] if placed.record.parent else None,
                placed.record.matching_aids,
                placed.level,
                placed.path,
                placed.slug_path,
                placed.path.casefold(),
                placed.pre,
                placed.last,
                nodes_seen[placed.record.slug],
            )
            for placed in catalog.nodes
        ),
    )
    write_loaded(connection, table="node_closure", rows=_closure(catalog))
    models = catalog.models
    names = [(model.name, model.slug) for model in models]
    releases = [(model.release_date, model.name, model.slug) for model in models]
    model_ranks = zip(
        name_ranks(names),
        name_ranks(names, z_to_a=True),
        release_ranks(releases, newest_first=True),
        release_ranks(releases, newest_first=False),
        strict=True,
    )
    write_loaded(
        connection,
        table="model",
        rows=(
            (index + 1, m.slug, m.name, m.organization, m.release_date, *ranks, models_seen[m.slug])
            for index, (m, ranks) in enumerate(zip(models, model_ranks, strict=True))
        ),
    )
    write_loaded(
        connection,
        table="source",
        rows=(
            (index + 1, s.slug, ids.model_ids[s.model], s.title, s.kind, s.url, s.published_on)
            for index, s in enumerate(catalog.sources)
        ),
    )
    method_names = [(method.name, method.slug) for method in catalog.methods]
    method_rank = name_ranks(method_names)
    method_desc_rank = name_ranks(method_names, z_to_a=True)
    write_loaded(
        connection,
        table="method",
        rows=(
            (
                index + 1,
                m.slug,
                m.name,
                m.description,
                m.aliases,
                ids.node_ids[m.node],
                method_rank[index],
                method_desc_rank[index],
                methods_seen[m.slug],
            )
            for index, m in enumerate(catalog.methods)
        ),
    )


def _search_catalogue(catalog: Catalog) -> search_catalogue.Parts:
    """The search catalogue of the rows ``_write_catalog`` writes, with their ids, made
    from the catalog in memory: the child process that builds it cannot read this load's
    uncommitted rows, and reading them here took the load about 1 s at size L."""
    return search_catalogue.build(
        search_catalogue.entries_of(
            (
                search_catalogue.NodeFields(
                    catalog.node_ids[p.record.slug],
                    p.record.slug,
                    p.record.name,
                    p.record.matching_aids,
                    p.record.description,
                )
                for p in catalog.nodes
            ),
            (
                search_catalogue.MethodFields(
                    catalog.method_ids[m.slug], m.slug, m.name, m.aliases, m.description
                )
                for m in catalog.methods
            ),
            (
                search_catalogue.ModelFields(
                    catalog.model_ids[m.slug], m.slug, m.name, m.organization
                )
                for m in catalog.models
            ),
            (
                search_catalogue.SourceFields(
                    catalog.source_ids[s.slug], s.slug, s.title, catalog.model_ids[s.model]
                )
                for s in catalog.sources
            ),
        )
    )


def _closure(catalog: Catalog) -> Iterator[tuple[int, int, int]]:
    """(ancestor, descendant, depth) for every node and each node above it (and itself)."""
    ancestors: dict[str, list[int]] = {}
    for placed in catalog.nodes:  # pre-order: a parent's chain is known before its children
        parent = placed.record.parent
        chain = [*ancestors[parent], catalog.node_ids[parent]] if parent else []
        ancestors[placed.record.slug] = chain
        own = catalog.node_ids[placed.record.slug]
        yield (own, own, 0)
        for depth, ancestor in enumerate(reversed(chain), start=1):
            yield (ancestor, own, depth)
