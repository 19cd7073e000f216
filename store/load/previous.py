"""What the release before a load held, read inside the load's transaction before the
load deletes it: each node's, method's and model's name, place, compared fields
(store.history.field_values) and first release, by slug (the catalog's size: the treatments stay
in the database, see store.history.treatment_changes)."""

from collections.abc import Iterable
from dataclasses import dataclass, field

from sqlalchemy import Connection, TextClause, bindparam, text

from store.history import field_values

# (name, where it sits: a node's parent slug, a method's node slug, None for a model)
State = tuple[str, str | None]


@dataclass(frozen=True)
class Served:
    """One kind's records as served: slug -> state, slug -> its compared fields' values
    (store.history.field_values), and slug -> first release."""

    states: dict[str, State] = field(default_factory=dict)
    fields: dict[str, field_values.Values] = field(default_factory=dict)
    first_seen: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Previous:
    release: int | None  # None: nothing was loaded before
    nodes: Served
    methods: Served
    models: Served


def _compared(kind: str, alias: str) -> str:
    return "".join(f", {alias}.{column}" for column in field_values.columns(kind))


_NODES = text(
    f"SELECT n.slug, n.name, p.slug, n.first_seen{_compared('node', 'n')}"
    " FROM node n LEFT JOIN node p ON p.id = n.parent_id"
)
_METHODS = text(
    f"SELECT m.slug, m.name, n.slug, m.first_seen{_compared('method', 'm')}"
    " FROM method m JOIN node n ON n.id = m.node_id"
)
_MODELS = text(f"SELECT m.slug, m.name, NULL, m.first_seen{_compared('model', 'm')} FROM model m")
# A model's sources, its compared field of no column (store.history.field_values).
_SOURCES = text(
    "SELECT m.slug, s.slug, s.title, s.kind, s.url, s.published_on"
    " FROM source s JOIN model m ON m.id = s.model_id"
)


def _served(connection: Connection, kind: str, statement: TextClause) -> Served:
    served = Served()
    read = field_values.reader(kind)
    states, fields, first_seen = served.states, served.fields, served.first_seen
    for slug, name, place, first, *values in connection.execute(statement):
        states[slug] = (name, place)
        fields[slug] = read(values)
        first_seen[slug] = first
    return served


def _with_sources(connection: Connection, models: Served) -> Served:
    """The models' values with their sources' items after their columns' values."""
    sources = field_values.sources_of(
        (model, field_values.SourceFields(*source))
        for model, *source in connection.execute(_SOURCES)
    )
    fields = models.fields
    for slug, values in fields.items():
        fields[slug] = (*values, sources.get(slug, []))
    return models


def read_previous(connection: Connection) -> Previous:
    release = connection.execute(text("SELECT version FROM dataset")).scalar()
    if release is None:
        return Previous(None, Served(), Served(), Served())
    return Previous(
        release,
        _served(connection, "node", _NODES),
        _served(connection, "method", _METHODS),
        _with_sources(connection, _served(connection, "model", _MODELS)),
    )


_BATCH = 500


def first_existed(connection: Connection, table: str, slugs: Iterable[str]) -> dict[str, int]:
    """For slugs absent from the release before (added by this load) that an older
    retained release had: the earliest release that had each. A slug's earliest change
    row tells: added there, or (it had a before) already there in the oldest retained
    release."""
    statement = text(
        f"SELECT c.slug, c.release, c.before_name FROM {table} c "
        f"WHERE c.slug IN :slugs ORDER BY c.slug, c.release"
    ).bindparams(bindparam("slugs", expanding=True))
    oldest = connection.execute(text("SELECT MIN(number) FROM release")).scalar()
    found: dict[str, int] = {}
    wanted = list(slugs)
    for start in range(0, len(wanted), _BATCH):
        rows = connection.execute(statement, {"slugs": wanted[start : start + _BATCH]})
        for slug, release, before_name in rows:
            if slug not in found:
                found[slug] = release if before_name is None or oldest is None else oldest
    return found
