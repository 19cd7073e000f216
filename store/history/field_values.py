"""The served fields of nodes, methods and models that history compares beyond a record's
name and place (DESIGN §5: every served field's change is reported), how a load reads
them, and how a change row keeps them.

A change row keeps the compared fields of its record before its release and after, all
of them, as one JSON text (`before_fields`, `after_fields`: keys sorted, so that equal
values are equal texts on both databases): the net change between two releases compares
the "before" of a record's earliest row with the "after" of its latest, as it does names
(store.history.change_lists), and a text compares in SQL. A row recorded before the fields were
(migration 0012) has none: the fields of such a release are unknown, never reported as
changed.
"""

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from operator import attrgetter
from typing import Any

Value = str | list[str] | None


@dataclass(frozen=True)
class Compared:
    """A served field: its name in the API, its column (and a record's attribute), and
    whether it is a list of strings (else a string, or a date served as its ISO text). A
    field of no column of its record's table (a model's sources) is read apart: its
    values follow the columns' in a record's values (`sources_of`)."""

    field: str
    column: str | None
    is_list: bool = False


# Per kind of record, in the order a change lists them.
COMPARED: dict[str, tuple[Compared, ...]] = {
    "node": (
        Compared("description", "description"),
        Compared("matchingAids", "matching_aids", True),
    ),
    "method": (Compared("description", "description"), Compared("aliases", "aliases", True)),
    "model": (
        Compared("organization", "organization"),
        Compared("releaseDate", "release_date"),
        Compared("sources", None, True),
    ),
    # A (model, method) pair's: its evidence, read apart (`evidence_of`).
    "treatment": (Compared("evidence", None, True),),
}


def columns(kind: str) -> list[str]:
    """The columns of the compared fields of ``kind`` in its served table (the fields of
    no column are read apart, and follow them)."""
    return [c.column for c in COMPARED[kind] if c.column is not None]


# The most field changes one change can carry: the cost rule's length of `fieldChanges`.
MOST_COMPARED = max(len(fields) for fields in COMPARED.values())


def _text(value: Any) -> Value:
    """A value of one field as kept: its text (a date's ISO text), or None."""
    if value is None or type(value) is str:
        return value  # None or a str
    return value.isoformat() if isinstance(value, date) else str(value)


def _items(value: Any) -> Value:
    """A list field's items as kept (SQLite gives the JSON text of the list)."""
    if value is None or type(value) is list:
        return value  # None or a list (of strings, as loaded or as PostgreSQL gives it)
    if value == "[]":  # most methods have no aliases: no JSON parser for those
        return []
    return list(json.loads(value) if isinstance(value, str) else value)


# A record's compared fields' values, in COMPARED's order: compared as they are (a load
# compares every record), made the kept text only for the rows it writes.
Values = tuple[Value, ...]


# Per kind, how each compared column's value is read (once per record and load: a plain
# function per field, 200k methods at size L).
_READ = {
    kind: tuple(_items if c.is_list else _text for c in fields if c.column is not None)
    for kind, fields in COMPARED.items()
}


def reader(kind: str) -> Callable[[Sequence[Any]], Values]:
    """What reads the values of the columns of `columns(kind)` as the served tables of
    either database give them: a function made for the kind's two columns, since a load
    calls it for each of its records."""
    first, second = _READ[kind]  # every kind compares two columns (COMPARED)

    def read(raw: Sequence[Any]) -> Values:
        return first(raw[0]), second(raw[1])

    return read


_RECORD = {kind: attrgetter(*columns(kind)) for kind in COMPARED if columns(kind)}


def record_values(kind: str, record: object, apart: Values = ()) -> Values:
    """A loaded record's values: its texts and lists of texts as they are, a date as its
    ISO text; then ``apart``, the values of its fields of no column (`sources_of`)."""
    found: Values = _RECORD[kind](record)
    if any(isinstance(value, date) for value in found):
        found = tuple([_text(value) for value in found])  # a model's fields are all texts
    return found + apart


@dataclass(frozen=True)
class SourceFields:
    """A source's served fields, as a model's `sources` item shows them."""

    slug: str
    title: str
    kind: str
    url: str | None
    published_on: date | str | None


def source_item(source: SourceFields) -> str:
    """One source as an item of its model's `sources`: its title, then its kind, date and
    URL where it has them (any change of its served fields changes the item)."""
    published = source.published_on
    day = published.isoformat() if isinstance(published, date) else published
    details = [source.kind, day, source.url]
    return f"{source.title} ({', '.join(d for d in details if d)})"


def sources_of(sources: Iterable[tuple[str, SourceFields]]) -> dict[str, list[str]]:
    """Each model's `sources` items, by the model's slug, in the sources' slug order, from
    (model slug, source) pairs: one function for the served rows and the loaded files."""
    by_model: dict[str, list[SourceFields]] = {}
    for model, source in sources:
        by_model.setdefault(model, []).append(source)
    return {
        model: [source_item(s) for s in sorted(found, key=attrgetter("slug"))]
        for model, found in by_model.items()
    }


def encode(kind: str, kept: Values) -> str:
    """The kept text of a record's values (`values`)."""
    named = {c.field: value for c, value in zip(COMPARED[kind], kept, strict=True)}
    return json.dumps(named, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True)
class FieldChange:
    """One served field's value in the earlier release and in the later one."""

    field: str
    is_list: bool
    before: Value
    after: Value


def field_changes(kind: str, before: str | None, after: str | None) -> list[FieldChange]:
    """The fields of ``kind`` whose kept values differ between the texts ``before`` and
    ``after``; none when either is unknown (None: the record was not there, or its row
    predates migration 0012)."""
    if before is None or after is None or before == after:
        return []
    old, new = json.loads(before), json.loads(after)
    # A field a row does not keep is unknown there (the row was recorded before the field
    # was compared), never reported as changed.
    return [
        FieldChange(c.field, c.is_list, old[c.field], new[c.field])
        for c in COMPARED[kind]
        if c.field in old and c.field in new and old[c.field] != new[c.field]
    ]


@dataclass(frozen=True)
class EvidenceFields:
    """A piece of evidence's served fields, as its pair's `evidence` item shows them."""

    key: str
    strength: str
    quote: str | None
    locator: str | None
    source: str | None  # the source's slug


def evidence_item(piece: EvidenceFields) -> str:
    """One piece of evidence as an item of its pair's `evidence`: its strength, then its
    quote in quotation marks, and its locator and source's slug in brackets where it has
    them (any change of its served fields changes the item)."""
    details = "; ".join(d for d in (piece.locator, piece.source) if d)
    text = piece.strength if piece.quote is None else f'{piece.strength}: "{piece.quote}"'
    return f"{text} ({details})" if details else text


def evidence_of(
    pieces: Iterable[tuple[str, str, EvidenceFields]],
) -> dict[tuple[str, str], list[str]]:
    """Each pair's `evidence` items, by (model slug, method slug), in the pieces' key order
    (stable across loads: a key is a hash of the piece's content), from (model slug,
    method slug, piece) triples: one function for the release before and the loaded one."""
    by_pair: dict[tuple[str, str], list[EvidenceFields]] = {}
    for model, method, piece in pieces:
        by_pair.setdefault((model, method), []).append(piece)
    return {
        pair: [evidence_item(p) for p in sorted(found, key=attrgetter("key"))]
        for pair, found in by_pair.items()
    }
