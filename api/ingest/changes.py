"""What a load changes against the release before it, as change rows by slug, and the
first release of each record it loads (DESIGN §5).

Compared by slug: a node is moved when its parent's slug differs, a method when its
node's slug does; any of them, models too, is renamed when its name differs, and changed
when another served field does (store.history.field_values: a row then keeps all of the record's
compared fields before and after, whatever changed). The first
load has no release before it and records no change (all of it would be a copy of the
data, which change rows are not): every record is first seen in it."""

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial

from api.ingest.dataset import Catalog
from store.history import field_values
from store.load.previous import Previous, Served, State
from store.load.release import ChangeRow


@dataclass
class Recorded:
    """The change rows of one load and each loaded record's first release, by kind."""

    nodes: list[ChangeRow] = field(default_factory=list)
    methods: list[ChangeRow] = field(default_factory=list)
    models: list[ChangeRow] = field(default_factory=list)
    first_seen: dict[str, dict[str, int]] = field(default_factory=dict)  # kind -> slug -> n


def _compare(
    release: int,
    kind: str,
    before: Served,
    after: dict[str, State],
    fields: dict[str, field_values.Values],
    *,
    places: bool,
) -> list[ChangeRow]:
    """The change rows of one kind: ``after`` and ``fields`` are the loaded records'
    states and compared fields' values, by slug; a row keeps the values as their text."""
    rows: list[ChangeRow] = []
    for slug in sorted(before.states.keys() | after.keys()):
        old, new = before.states.get(slug), after.get(slug)
        old_fields, new_fields = before.fields.get(slug), fields.get(slug)
        if old == new and old_fields == new_fields:
            continue
        row: ChangeRow = (release, slug, old[0] if old else None, new[0] if new else None)
        if places:
            row += (old[1] if old else None, new[1] if new else None)
        kept = [
            None if f is None else field_values.encode(kind, f) for f in (old_fields, new_fields)
        ]
        rows.append((*row, *kept))
    return rows


def _first_seen(
    release: int,
    before: Served,
    slugs: Iterable[str],
    earlier: Callable[[list[str]], dict[str, int]],
) -> dict[str, int]:
    seen = dict(before.first_seen)
    added = [slug for slug in slugs if slug not in seen]
    existed = earlier(added) if added else {}
    return {slug: seen.get(slug) or existed.get(slug) or release for slug in slugs}


def _nothing(table: str, slugs: list[str]) -> dict[str, int]:
    return {}


def record_changes(
    release: int,
    previous: Previous,
    catalog: Catalog,
    earlier: Callable[[str, list[str]], dict[str, int]],
    *,
    compare: bool = True,
) -> Recorded:
    """The load's change rows (none unless ``compare``) and first releases;
    ``earlier(table, slugs)`` says when an older release first had a slug that the
    release before this one lacked."""
    nodes: dict[str, State] = {
        p.record.slug: (p.record.name, p.record.parent) for p in catalog.nodes
    }
    methods: dict[str, State] = {m.slug: (m.name, m.node) for m in catalog.methods}
    models: dict[str, State] = {m.slug: (m.name, None) for m in catalog.models}
    recorded = Recorded()
    if previous.release is None:  # no release before: no history to look slugs up in
        earlier = _nothing
    for kind, before, after in (
        ("node", previous.nodes, nodes),
        ("method", previous.methods, methods),
        ("model", previous.models, models),
    ):
        recorded.first_seen[kind] = _first_seen(
            release, before, after, partial(earlier, f"{kind}_change")
        )
    if previous.release is None or not compare:  # the first load: nothing to compare with
        return recorded
    values = field_values.record_values
    node_fields = {p.record.slug: values("node", p.record) for p in catalog.nodes}
    method_fields = {m.slug: values("method", m) for m in catalog.methods}
    sources = field_values.sources_of(
        (s.model, field_values.SourceFields(s.slug, s.title, s.kind, s.url, s.published_on))
        for s in catalog.sources
    )
    model_fields = {m.slug: values("model", m, (sources.get(m.slug, []),)) for m in catalog.models}
    recorded.nodes = _compare(release, "node", previous.nodes, nodes, node_fields, places=True)
    recorded.methods = _compare(
        release, "method", previous.methods, methods, method_fields, places=True
    )
    recorded.models = _compare(
        release, "model", previous.models, models, model_fields, places=False
    )
    return recorded
