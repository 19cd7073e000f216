"""The served fields of nodes, methods and models that history compares beyond a record's
name and place (DESIGN §5: every served field's change is reported), how a load reads
them, and how a change row keeps them.

A change row keeps the compared fields of its record before its release and after, all
of them, as one JSON text (`before_fields`, `after_fields`: keys sorted, so that equal
values are equal texts on both databases): the net change between two releases compares
the "before" of a record's earliest row with the "after" of its latest, as it does names
(store.change_lists), and a text compares in SQL. A row recorded before the fields were
(migration 0012) has none: the fields of such a release are unknown, never reported as
changed.
"""

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

Value = str | list[str] | None


@dataclass(frozen=True)
class Compared:
    """A served field: its name in the API, its column (and a record's attribute), and
    whether it is a list of strings (else a string, or a date served as its ISO text)."""

    field: str
    column: str
    is_list: bool = False


# Per kind of record, in the order a change lists them.
COMPARED: dict[str, tuple[Compared, ...]] = {
    "node": (
        Compared("description", "description"),
        Compared("matchingAids", "matching_aids", True),
    ),
    "method": (Compared("description", "description"), Compared("aliases", "aliases", True)),
    "model": (Compared("organization", "organization"), Compared("releaseDate", "release_date")),
}
# The most field changes one change can carry: the cost rule's length of `fieldChanges`.
MOST_COMPARED = max(len(fields) for fields in COMPARED.values())


def _value(compared: Compared, value: Any) -> Value:
    """A field's value as kept: a list of strings, or a string (a date as its ISO text),
    or None; read from a record or from a column of either database (SQLite gives a JSON
    list or a date as text)."""
    if value is None:
        return None
    if compared.is_list:
        items = json.loads(value) if isinstance(value, str) else value
        return [str(item) for item in items]
    if isinstance(value, date):
        return value.isoformat()
    return str(value)


def encode(kind: str, values: Mapping[str, Any]) -> str:
    """The kept text of a record's compared fields; ``values``: column -> value, as read
    from the served tables or as a loaded record has them."""
    kept = {c.field: _value(c, values[c.column]) for c in COMPARED[kind]}
    return json.dumps(kept, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def encode_record(kind: str, record: object) -> str:
    """The kept text of a loaded record's compared fields."""
    return encode(kind, {c.column: getattr(record, c.column) for c in COMPARED[kind]})


def columns(kind: str) -> list[str]:
    """The columns of the compared fields of ``kind`` in its served table."""
    return [c.column for c in COMPARED[kind]]


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
    return [
        FieldChange(c.field, c.is_list, old.get(c.field), new.get(c.field))
        for c in COMPARED[kind]
        if old.get(c.field) != new.get(c.field)
    ]
