"""A test oracle for history (DESIGN.md section 5): the net change between two dataset
folders, worked out from the folders alone, with nothing but the standard library.

A net change between two releases is the difference between their data, so it is computed
here by comparing the two folders record by record (by slug), never from change rows.
Answers are sets of plain tuples, in the API's terms (kinds in capitals, strengths as the
`Strength` enum's values), for tests to compare with the API's `changes`."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

_STRENGTHS = ("CORE", "USED", "MENTIONED")  # strongest first

# The served fields compared beyond name and place: (API name, file key, is a list), in
# the order each record's type declares them. A missing or empty text is no value, a
# missing list no items (DESIGN.md section 4).
_COMPARED = {
    "nodes": (("description", "description", False), ("matchingAids", "matching_aids", True)),
    "methods": (("description", "description", False), ("aliases", "aliases", True)),
    "models": (
        ("organization", "organization", False),
        ("releaseDate", "release_date", False),
        ("sources", "sources", True),
    ),
}

# (field, fromValue, toValue, fromItems, toItems), as `FieldChange` answers them.
FieldChange = tuple[str, str | None, str | None, tuple[str, ...] | None, tuple[str, ...] | None]


def field_changes(
    kind_of_record: str, old: dict[str, Any], new: dict[str, Any]
) -> tuple[FieldChange, ...]:
    """The compared fields whose values differ between two versions of a record."""
    changes: list[FieldChange] = []
    for field, key, is_list in _COMPARED[kind_of_record]:
        if is_list:
            before, after = tuple(old.get(key) or ()), tuple(new.get(key) or ())
            if before != after:
                changes.append((field, None, None, before, after))
        else:
            value_before, value_after = old.get(key) or None, new.get(key) or None
            if value_before != value_after:
                changes.append((field, value_before, value_after, None, None))
    return tuple(changes)


def _records(folder: Path, name: str) -> list[dict[str, Any]]:
    with (folder / f"{name}.jsonl").open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def _evidence_item(piece: dict[str, Any]) -> tuple[str, str]:
    """A piece of evidence's key (the hash of its content the loader gives it, which
    orders a pair's pieces) and its item: `strength: "quote" (locator; source)`, with the
    quote, locator and source where it has them."""
    content = [piece["model"], piece["method"]] + [
        piece.get(field) or None for field in ("source", "locator", "quote")
    ]
    text = json.dumps(content, separators=(",", ":"), ensure_ascii=False).encode()
    key = hashlib.blake2b(text, digest_size=12).hexdigest()
    quote, locator, source = (piece.get(f) or None for f in ("quote", "locator", "source"))
    item = piece["strength"] if quote is None else f'{piece["strength"]}: "{quote}"'
    details = "; ".join(d for d in (locator, source) if d)
    return key, f"{item} ({details})" if details else item


class Snapshot:
    """One dataset folder: its records by slug and its treatments."""

    def __init__(self, folder: Path) -> None:
        self.nodes = {n["slug"]: n for n in _records(folder, "nodes")}
        self.methods = {m["slug"]: m for m in _records(folder, "methods")}
        self.models = {m["slug"]: m for m in _records(folder, "models")}
        # A model's `sources`: each of its documents as one item, "title (kind, date,
        # URL)" with what it has of them, in the documents' slug order.
        for source in sorted(_records(folder, "sources"), key=lambda s: s["slug"]):
            details = [source["kind"], source.get("published_on"), source.get("url")]
            item = f"{source['title']} ({', '.join(d for d in details if d)})"
            self.models[source["model"]].setdefault("sources", []).append(item)
        self.treatments: dict[tuple[str, str], str] = {}
        # A pair's `evidence`: (key, item) per piece, sorted by key (the API's order).
        self.evidence: dict[tuple[str, str], list[tuple[str, str]]] = {}
        for piece in _records(folder, "evidence"):
            pair = (piece["model"], piece["method"])
            strength = piece["strength"].upper()
            known = self.treatments.get(pair)
            if known is None or _STRENGTHS.index(strength) < _STRENGTHS.index(known):
                self.treatments[pair] = strength
            self.evidence.setdefault(pair, []).append(_evidence_item(piece))
        for pieces in self.evidence.values():
            pieces.sort()

    def path(self, slug: str | None) -> str | None:
        """A node's names path, root first, joined by ` :: `."""
        names: list[str] = []
        while slug is not None:
            node = self.nodes[slug]
            names.append(node["name"])
            slug = node["parent"]
        return " :: ".join(reversed(names)) or None

    def in_branch(self, node: str | None, branch: str) -> bool:
        while node is not None:
            if node == branch:
                return True
            node = self.nodes[node]["parent"]
        return False


# (kind, slug, name, fromPath, toPath, fromName, toName, fieldChanges)
NamedChange = tuple[
    str, str, str, str | None, str | None, str | None, str | None, tuple[FieldChange, ...]
]


def _named(
    before: Snapshot, after: Snapshot, kind_of_record: str, place: str | None
) -> set[NamedChange]:
    old_records = getattr(before, kind_of_record)
    new_records = getattr(after, kind_of_record)
    changes: set[NamedChange] = set()
    for slug in old_records.keys() | new_records.keys():
        old, new = old_records.get(slug), new_records.get(slug)

        def paths(old: Any = old, new: Any = new, slug: str = slug) -> tuple[Any, Any]:
            if place is None:
                return None, None
            if kind_of_record == "nodes":
                return (before.path(slug) if old else None, after.path(slug) if new else None)
            return (
                before.path(old[place]) if old else None,
                after.path(new[place]) if new else None,
            )

        from_path, to_path = paths()
        names = (old["name"] if old else None, new["name"] if new else None)
        name = (new or old)["name"]
        if old is None or new is None:
            kind = "ADDED" if old is None else "REMOVED"
            changes.add((kind, slug, name, from_path, to_path, *names, ()))
            continue
        # A record moved or renamed is that, with its fields' changes; one neither moved
        # nor renamed whose fields changed is CHANGED.
        fields = field_changes(kind_of_record, old, new)
        kinds = []
        if place is not None and old[place] != new[place]:
            kinds.append("MOVED")
        if old["name"] != new["name"]:
            kinds.append("RENAMED")
        if not kinds and fields:
            kinds.append("CHANGED")
        for kind in kinds:
            changes.add((kind, slug, name, from_path, to_path, *names, fields))
    return changes


def node_changes(before: Snapshot, after: Snapshot) -> set[NamedChange]:
    return _named(before, after, "nodes", "parent")


def method_changes(before: Snapshot, after: Snapshot) -> set[NamedChange]:
    return _named(before, after, "methods", "node")


def model_changes(before: Snapshot, after: Snapshot) -> set[tuple[Any, ...]]:
    """(kind, slug, name, fromName, toName, fieldChanges): models added, removed, renamed
    or changed."""
    return {(*change[:3], *change[5:]) for change in _named(before, after, "models", None)}


def treatment_changes(
    before: Snapshot, after: Snapshot
) -> set[tuple[str, str, str, str | None, str | None, tuple[FieldChange, ...]]]:
    """(kind, model slug, method slug, before, after, fieldChanges): a pair there in both
    whose evidence differs has the field change `evidence` (its items before and after),
    and is CHANGED if its strength is the same."""
    changes = set()
    for pair in before.treatments.keys() | after.treatments.keys():
        old, new = before.treatments.get(pair), after.treatments.get(pair)
        fields: tuple[FieldChange, ...] = ()
        if old is not None and new is not None:
            items = [tuple(item for _, item in s.evidence[pair]) for s in (before, after)]
            if items[0] != items[1]:
                fields = (("evidence", None, None, items[0], items[1]),)
        if old == new and not fields:
            continue
        if old is None or new is None:
            kind = "ADDED" if old is None else "REMOVED"
        elif old == new:
            kind = "CHANGED"
        else:
            kind = "STRENGTHENED" if _STRENGTHS.index(new) < _STRENGTHS.index(old) else "WEAKENED"
        changes.add((kind, *pair, old, new, fields))
    return changes


def method_in_branch(before: Snapshot, after: Snapshot, slug: str, branch: str) -> bool:
    """Whether method ``slug`` is in the branch of node ``branch`` in either dataset."""
    return any(
        snapshot.methods.get(slug) is not None
        and snapshot.in_branch(snapshot.methods[slug]["node"], branch)
        for snapshot in (before, after)
    )


def knocked_on(before: Snapshot, after: Snapshot, record: str, key: Any) -> bool:
    """Whether the removal of ``key`` (a slug; a treatment's (model, method) pair) from
    ``record`` (nodes, methods, treatments) is a knock-on removal: what it sat in (a node's
    parent, a method's node, a treatment's model or method) was removed too."""
    if record == "treatments":
        model, method = key
        gone = key in before.treatments and key not in after.treatments
        return gone and (model not in after.models or method not in after.methods)
    old, new = getattr(before, record).get(key), getattr(after, record).get(key)
    if old is None or new is not None:
        return False
    place = old["parent"] if record == "nodes" else old["node"]
    return place is not None and place not in after.nodes
