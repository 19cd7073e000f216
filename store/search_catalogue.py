"""The search catalogue: every searchable entry's words, built by the load and kept in
the database beside the data (store.search_parts), read into memory by each server
process once per data version.

Why the project's own, not each database's full-text search: the ranking is the
project's own (store.search_rank) and must give the same hits on SQLite and PostgreSQL;
FTS5 and tsvector tokenise, stem and rank differently. Why built by the load: building
takes seconds at size L (stemming, posting lists, letter pairs), where reading the
built form back is a few arrays' bytes; every server process on one database reads the
same catalogue, written in the load's transaction, so it always matches the data of its
snapshot.

Memory: words are kept as posting lists (4 bytes per word occurrence) in one array per
field, sorted by word, so a word prefix is one contiguous slice; descriptions' text is not
kept (highlights are made from the rows a page reads anyway). Entries are numbered in
ranking order (shorter name, then type, then slug), so sets of entries are Python ints
used as bitmaps, and a set's members in ascending order are already ranked. Every
structure is held as the arrays and texts it is stored as (Catalogue.parts), so reading
it back is a copy, not a build. See bench/RESULTS.md for its size and times at L.
"""

import bisect
import hashlib
import json
import re
import sys
from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import IntEnum
from itertools import accumulate
from typing import NamedTuple

from rapidfuzz import process
from rapidfuzz.distance import OSA
from sqlalchemy import Connection, select

from store import search_text
from store.tables import MethodRow, ModelRow, NodeRow, SourceRow, table_of

# The kinds of entries, in their tie-breaking order.
KINDS = ("node", "method", "model", "source")


class Field(IntEnum):
    """Where in an entry a word was found, best first."""

    NAME = 0  # a node's, method's or model's name; a source's title
    ALIAS = 1  # a method's aliases
    OTHER = 2  # a node's matching aids; a model's organization
    DESCRIPTION = 3


FIELDS = tuple(Field)
_NONZERO_BYTE = re.compile(rb"[^\x00]")
# A term seen in at least 1/32 of the entries keeps a ready bitmap (no larger than its
# posting list); rarer terms' bitmaps are made from their postings when asked for.
_DENSE_FRACTION = 32
# Stored texts are lists of words, letter pairs or names run together (search_text.WORD
# matches no line break), one a line.
_LINE = "\n"

Parts = dict[str, bytes]


@dataclass(frozen=True)
class Entry:
    kind: str
    ref_id: int
    slug: str
    name: str
    aliases: Sequence[str]
    other: Sequence[str]
    description: str | None
    # The entry's other roles, (kind, ref_id): a model's paper of the same title.
    also: tuple[tuple[str, int], ...] = ()


def bitmap_of(indices: Iterable[int], size: int) -> int:
    """The set of ``indices`` as a bitmap (an int) over ``size`` bytes."""
    bits = bytearray(size)
    for index in indices:
        bits[index >> 3] |= 1 << (index & 7)
    return int.from_bytes(bits, "little")


def members(bitmap: int, size: int) -> Iterator[int]:
    """The indices set in ``bitmap``, ascending (scanned by the regex engine, not bit by
    bit in Python)."""
    if not bitmap:
        return
    data = bitmap.to_bytes(size, "little")
    for found in _NONZERO_BYTE.finditer(data):
        position = found.start()
        byte = data[position]
        for bit in range(8):
            if byte >> bit & 1:
                yield position * 8 + bit


# ---- the stored form: arrays as little-endian bytes, texts one a line ----------------------


def _packed(numbers: "array[int]") -> bytes:
    if sys.byteorder == "big":
        numbers = array(numbers.typecode, numbers)
        numbers.byteswap()
    return numbers.tobytes()


def _unpacked(typecode: str, data: bytes) -> "array[int]":
    numbers = array(typecode)
    numbers.frombytes(data)
    if sys.byteorder == "big":
        numbers.byteswap()
    return numbers


def _lines(texts: Iterable[str]) -> bytes:
    return _LINE.join(texts).encode()


def _texts(data: bytes) -> list[str]:
    return data.decode().split(_LINE) if data else []


def stable_hash(key: str) -> int:
    """A 64-bit hash of ``key``, the same in every process (Python's own ``hash`` of a
    str is salted per process, and the catalogue is built by the load, read by servers)."""
    return int.from_bytes(
        hashlib.blake2b(key.encode(), digest_size=8).digest(), "little", signed=True
    )


class Postings:
    """One field's posting lists, one contiguous run per term, in term order."""

    def __init__(self, parts: Mapping[str, bytes], name: str, size: int) -> None:
        self.offsets = _unpacked("i", parts[f"{name}.offsets"])
        self.entries = _unpacked("i", parts[f"{name}.entries"])
        dense = parts[f"{name}.dense"]
        self._dense = {
            term_id: int.from_bytes(dense[at * size : (at + 1) * size], "little")
            for at, term_id in enumerate(_unpacked("i", parts[f"{name}.dense_ids"]))
        }
        self._size = size

    @staticmethod
    def parts(name: str, by_term: dict[str, list[int]], vocabulary: list[str], size: int) -> Parts:
        offsets = array("i", accumulate((len(by_term.get(t, ())) for t in vocabulary), initial=0))
        entries = array("i")
        dense_ids, dense = array("i"), bytearray()
        threshold = max(1, size * 8 // _DENSE_FRACTION)
        # Terms absent from this field (most, for all but descriptions) cost nothing more.
        for term in sorted(by_term):
            found = by_term[term]
            entries.extend(found)
            if len(found) >= threshold:
                dense_ids.append(bisect.bisect_left(vocabulary, term))
                dense += bitmap_of(found, size).to_bytes(size, "little")
        return {
            f"{name}.offsets": _packed(offsets),
            f"{name}.entries": _packed(entries),
            f"{name}.dense_ids": _packed(dense_ids),
            f"{name}.dense": bytes(dense),
        }

    def bitmap(self, term_ids: Iterable[int]) -> int:
        """Entries having any of ``term_ids`` in this field."""
        result = 0
        rare: list[int] = []
        offsets, entries = self.offsets, self.entries
        for term_id in term_ids:
            dense = self._dense.get(term_id)
            if dense is not None:
                result |= dense
            elif offsets[term_id] != offsets[term_id + 1]:
                rare.extend(entries[offsets[term_id] : offsets[term_id + 1]])
        return result | bitmap_of(rare, self._size) if rare else result

    def range_bitmap(self, low: int, high: int) -> int:
        """Entries having any term of ids ``low`` to ``high - 1`` in this field."""
        if high - low <= 256:
            return self.bitmap(range(low, high))
        return bitmap_of(self.entries[self.offsets[low] : self.offsets[high]], self._size)


class Keys:
    """Entries by a text's key, sorted: exact and prefix lookups."""

    def __init__(self, parts: Mapping[str, bytes], name: str) -> None:
        self.keys = _texts(parts[f"{name}.keys"])
        self.entries = _unpacked("i", parts[f"{name}.entries"])

    @staticmethod
    def parts(name: str, keys: list[str], entries: Sequence[int]) -> Parts:
        # By key, then entry (entries come in ascending order; the sort is stable).
        order = sorted(range(len(keys)), key=keys.__getitem__)
        return {
            f"{name}.keys": _lines(keys[position] for position in order),
            f"{name}.entries": _packed(array("i", [entries[position] for position in order])),
        }

    def equal(self, key: str) -> Sequence[int]:
        low = bisect.bisect_left(self.keys, key)
        return self.entries[low : bisect.bisect_right(self.keys, key, lo=low)]

    def starting_with(self, prefix: str) -> Sequence[int]:
        low = bisect.bisect_left(self.keys, prefix)
        return self.entries[low : bisect.bisect_left(self.keys, prefix + "\U0010ffff", lo=low)]


class Hashes:
    """Entries by a text's key, for equality only: each key kept as its stable_hash (12
    bytes an entry with its entry number, not the key's text). A false match of a query
    with one of 213,000 keys (size L) comes about once in 10^14 searches."""

    def __init__(self, parts: Mapping[str, bytes], name: str) -> None:
        self.hashes = _unpacked("q", parts[f"{name}.hashes"])
        self.entries = _unpacked("i", parts[f"{name}.entries"])

    @staticmethod
    def parts(name: str, keyed: Iterable[tuple[str, int]]) -> Parts:
        pairs = sorted((stable_hash(key), entry) for key, entry in keyed)
        return {
            f"{name}.hashes": _packed(array("q", [hashed for hashed, _ in pairs])),
            f"{name}.entries": _packed(array("i", [entry for _, entry in pairs])),
        }

    def equal(self, key: str) -> Sequence[int]:
        value = stable_hash(key)
        low = bisect.bisect_left(self.hashes, value)
        return self.entries[low : bisect.bisect_right(self.hashes, value, lo=low)]


class Groups:
    """Numbers by a text (a stem's terms, a letter pair's terms), sorted by text."""

    def __init__(self, parts: Mapping[str, bytes], name: str) -> None:
        self.keys = _texts(parts[f"{name}.keys"])
        self.offsets = _unpacked("i", parts[f"{name}.offsets"])
        self.members = _unpacked("i", parts[f"{name}.members"])

    @staticmethod
    def parts(name: str, groups: dict[str, list[int]]) -> Parts:
        keys = sorted(groups)
        return {
            f"{name}.keys": _lines(keys),
            f"{name}.offsets": _packed(
                array("i", accumulate((len(groups[key]) for key in keys), initial=0))
            ),
            f"{name}.members": _packed(array("i", [m for key in keys for m in groups[key]])),
        }

    def get(self, key: str) -> Sequence[int]:
        at = bisect.bisect_left(self.keys, key)
        if at == len(self.keys) or self.keys[at] != key:
            return ()
        return self.members[self.offsets[at] : self.offsets[at + 1]]


def _terms(found: list[str]) -> set[str]:
    """A name's or alias's words and their runs of letters and of digits ("resnet50" ->
    "resnet", "50")."""
    terms = set(found)
    for word in found:
        if not word.isalpha() and not word.isdigit():
            terms.update(search_text.parts(word))
    return terms


def build(entries: list[Entry]) -> Parts:
    """The stored form of the catalogue of ``entries`` (Catalogue reads it)."""
    type_order = {kind: order for order, kind in enumerate(KINDS)}
    # The ranking's final keys, in its order: shorter name, type, slug.
    keyed = sorted(
        ((" ".join(search_text.words(entry.name)), entry) for entry in entries),
        key=lambda pair: (len(pair[0]), type_order[pair[1].kind], pair[1].slug),
    )
    count = len(keyed)
    size = (count + 7) // 8
    parts: Parts = {
        "kinds": bytes(type_order[entry.kind] for _, entry in keyed),
        "ref_ids": _packed(array("i", [entry.ref_id for _, entry in keyed])),
        # Entries with more than one role (a model and its paper): index -> other roles.
        "also": json.dumps(
            {index: entry.also for index, (_, entry) in enumerate(keyed) if entry.also}
        ).encode(),
    }
    # Entries by role: an entry that is a model and a source is in both.
    of_kind: dict[str, list[int]] = {kind: [] for kind in KINDS}
    for index, (_, entry) in enumerate(keyed):
        of_kind[entry.kind].append(index)
        for kind, _ in entry.also:
            of_kind[kind].append(index)
    for kind, indices in of_kind.items():
        parts[f"by_kind.{kind}"] = bitmap_of(indices, size).to_bytes(size, "little")
    del of_kind
    stem_of: dict[str, str] = {}

    def stem_key(found: list[str]) -> str:
        for word in found:
            if word not in stem_of:
                stem_of[word] = search_text.stem(word)
        return " ".join([stem_of[word] for word in found])

    by_field: list[dict[str, list[int]]] = [{} for _ in FIELDS]
    names: list[tuple[str, int]] = []
    aliases: list[tuple[str, int]] = []
    stemmed_names: list[tuple[str, int]] = []
    loose_aliases: list[tuple[str, int]] = []
    squashed_names: list[str] = []
    words = search_text.words
    for index, (name_key, entry) in enumerate(keyed):
        name_words = name_key.split()
        names.append((name_key, index))
        squashed = search_text.squashed(name_words)
        squashed_names.append(squashed)
        stemmed = stem_key(name_words)
        if stemmed != squashed:
            stemmed_names.append((stemmed, index))
        name_terms = _terms(name_words)
        alias_words: set[str] = set()
        for alias in entry.aliases:
            found = words(alias)
            aliases.append((" ".join(found), index))
            squashed = search_text.squashed(found)
            loose_aliases.append((squashed, index))
            stemmed = stem_key(found)
            if stemmed != squashed:
                loose_aliases.append((stemmed, index))
            alias_words.update(_terms(found))
        other_words: set[str] = set()
        for other in entry.other:
            other_words.update(words(other))
        for field, found_words in (
            (Field.NAME, name_terms),
            (Field.ALIAS, alias_words),
            (Field.OTHER, other_words),
            (Field.DESCRIPTION, set(words(entry.description)) if entry.description else ()),
        ):
            postings = by_field[field]
            for word in found_words:
                found_in = postings.get(word)
                if found_in is None:
                    postings[word] = [index]
                else:
                    found_in.append(index)
    vocabulary = sorted(set().union(*by_field))
    parts["vocabulary"] = _lines(vocabulary)
    for field in FIELDS:
        parts |= Postings.parts(f"postings.{field.name}", by_field[field], vocabulary, size)
    del by_field
    parts |= Hashes.parts("names", names)
    parts |= Hashes.parts("aliases", aliases)
    # Names and aliases by their stems' key (search_text.stem_key, where it is not the
    # name run together) and run together (squashed): "transformers" is the
    # Transformer's name so, "mobilenet v2" MobileNetV2's; names run together also by
    # their starts ("batchnorm").
    parts |= Keys.parts("squashed_names", squashed_names, range(count))
    parts |= Hashes.parts("stemmed_names", stemmed_names)
    parts |= Hashes.parts("loose_aliases", loose_aliases)
    # Typo and stem lookups consider words of letters only (numbers are not misspelt).
    by_stem: dict[str, list[int]] = {}
    by_pair: dict[str, list[int]] = {}
    alphabetic = [(t, term) for t, term in enumerate(vocabulary) if term.isalpha()]
    stems = search_text.stems([term for _, term in alphabetic])
    for (term_id, term), stemmed in zip(alphabetic, stems, strict=True):
        by_stem.setdefault(stemmed, []).append(term_id)
        if len(term) >= 3:
            for pair in search_text.bigrams(term):
                by_pair.setdefault(pair, []).append(term_id)
    parts |= Groups.parts("stems", by_stem)
    parts |= Groups.parts("bigrams", by_pair)
    return parts


def _digest(parts: Mapping[str, bytes]) -> str:
    digest = hashlib.sha256()
    for name in sorted(parts):
        data = parts[name]
        digest.update(f"{name}:{len(data)}:".encode())
        digest.update(data)
    return digest.hexdigest()[:20]


class Catalogue:
    """Every entry's words, for one data version, read from its stored form."""

    def __init__(self, version: str | None, parts: Mapping[str, bytes]) -> None:
        self.version = version
        # What the hits and their order follow from, whatever the data version: a load
        # that leaves every entry as it was makes the same digest (16 ms at size L).
        self.digest = _digest(parts)
        self.kinds = [KINDS[kind] for kind in parts["kinds"]]
        self.ref_ids = _unpacked("i", parts["ref_ids"])
        self.count = len(self.ref_ids)
        self.size = (self.count + 7) // 8
        self.also: dict[int, tuple[tuple[str, int], ...]] = {
            int(index): tuple((kind, ref_id) for kind, ref_id in roles)
            for index, roles in json.loads(parts["also"]).items()
        }
        self.all = (1 << self.count) - 1
        self.by_kind = {kind: int.from_bytes(parts[f"by_kind.{kind}"], "little") for kind in KINDS}
        self.vocabulary = _texts(parts["vocabulary"])
        self.postings = [Postings(parts, f"postings.{field.name}", self.size) for field in FIELDS]
        self.names = Hashes(parts, "names")
        self.aliases = Hashes(parts, "aliases")
        self.squashed_names = Keys(parts, "squashed_names")
        self.stemmed_names = Hashes(parts, "stemmed_names")
        self.loose_aliases = Hashes(parts, "loose_aliases")
        # Names run together, by length: those a few typos from a query run together.
        by_length: dict[int, tuple[list[str], list[int]]] = {}
        for squashed, entry in zip(
            self.squashed_names.keys, self.squashed_names.entries, strict=True
        ):
            bucket = by_length.setdefault(len(squashed), ([], []))
            bucket[0].append(squashed)
            bucket[1].append(entry)
        self._by_length = {
            length: (keys, array("i", found)) for length, (keys, found) in by_length.items()
        }
        self._stems = Groups(parts, "stems")
        self._bigrams = Groups(parts, "bigrams")

    def near_names(self, squashed: str, limit: int) -> list[tuple[int, int]]:
        """(edits, entry) of the names that, run together, are 1 to ``limit`` edits from
        ``squashed`` (a query run together: "efficent net" finds EfficientNet)."""
        found: list[tuple[int, int]] = []
        for length in range(len(squashed) - limit, len(squashed) + limit + 1):
            bucket = self._by_length.get(length)
            if bucket is None:
                continue
            keys, entries = bucket
            for _, distance, position in process.extract_iter(
                squashed, keys, scorer=OSA.distance, score_cutoff=limit
            ):
                if distance:
                    found.append((int(distance), entries[position]))
        return found

    def term_id(self, term: str) -> int | None:
        found = bisect.bisect_left(self.vocabulary, term)
        if found < len(self.vocabulary) and self.vocabulary[found] == term:
            return found
        return None

    def prefix_range(self, prefix: str) -> tuple[int, int]:
        """The ids of the terms starting with ``prefix``: ``low`` to ``high - 1``."""
        low = bisect.bisect_left(self.vocabulary, prefix)
        return low, bisect.bisect_left(self.vocabulary, prefix + "\U0010ffff", lo=low)

    def same_stem(self, word: str) -> Sequence[int]:
        """The terms (of letters) of ``word``'s stem."""
        return self._stems.get(search_text.stem(word))

    def near(self, word: str, limit: int) -> list[tuple[int, int]]:
        """(term id, edits) of the terms 1 to ``limit`` edits from ``word``."""
        wanted = search_text.bigrams(word)
        shared: dict[int, int] = {}
        for pair in wanted:
            for term_id in self._bigrams.get(pair):
                shared[term_id] = shared.get(term_id, 0) + 1
        # Each edit changes at most three of a word's letter pairs.
        least = max(1, len(wanted) - 3 * limit)
        found = []
        for term_id, count in shared.items():
            if count < least:
                continue
            distance = search_text.edit_distance(word, self.vocabulary[term_id], limit)
            if 0 < distance <= limit:
                found.append((term_id, distance))
        return sorted(found)


# What each kind contributes, read in the load's transaction (or a migration's).
_NODES = select(
    *(table_of(NodeRow).c[c] for c in ("id", "slug", "name", "matching_aids", "description"))
)
_METHODS = select(
    *(table_of(MethodRow).c[c] for c in ("id", "slug", "name", "aliases", "description"))
)
_MODELS = select(*(table_of(ModelRow).c[c] for c in ("id", "slug", "name", "organization")))
_SOURCES = select(*(table_of(SourceRow).c[c] for c in ("id", "slug", "title", "model_id")))


class NodeFields(NamedTuple):
    id: int
    slug: str
    name: str
    matching_aids: Sequence[str] | None
    description: str | None


class MethodFields(NamedTuple):
    id: int
    slug: str
    name: str
    aliases: Sequence[str] | None
    description: str | None


class ModelFields(NamedTuple):
    id: int
    slug: str
    name: str
    organization: str | None


class SourceFields(NamedTuple):
    id: int
    slug: str
    title: str
    model_id: int


def read_entries(connection: Connection) -> list[Entry]:
    """Every searchable entry of the data ``connection`` sees."""
    return entries_of(
        (NodeFields(*row) for row in connection.execute(_NODES)),
        (MethodFields(*row) for row in connection.execute(_METHODS)),
        (ModelFields(*row) for row in connection.execute(_MODELS)),
        (SourceFields(*row) for row in connection.execute(_SOURCES)),
    )


def entries_of(
    nodes: Iterable[NodeFields],
    methods: Iterable[MethodFields],
    models: Iterable[ModelFields],
    sources: Iterable[SourceFields],
) -> list[Entry]:
    """The searchable entries of these rows, as the tables hold them (read_entries) or as
    a load is about to write them (api.ingest.write, which builds its catalogue from them
    in a child process)."""
    entries: list[Entry] = []
    for n in nodes:
        aids = n.matching_aids or ()
        entries.append(Entry("node", n.id, n.slug, n.name, (), aids, n.description))
    for m in methods:
        entries.append(Entry("method", m.id, m.slug, m.name, m.aliases or (), (), m.description))
    owners: dict[int, Entry] = {}
    for model in models:
        owners[model.id] = Entry(
            "model",
            model.id,
            model.slug,
            model.name,
            (),
            [model.organization] if model.organization else (),
            None,
        )
    # A source titled as its model names it (a paper standing as its model, as in Papers
    # with Code) is the same thing: one entry, the model's, with the source as a role.
    also: dict[int, list[tuple[str, int]]] = {}
    for source in sources:
        owner = owners.get(source.model_id)
        if owner is not None and search_text.key(source.title) == search_text.key(owner.name):
            also.setdefault(source.model_id, []).append(("source", source.id))
        else:
            entries.append(Entry("source", source.id, source.slug, source.title, (), (), None))
    for model_id, entry in owners.items():
        roles = also.get(model_id)
        entries.append(replace(entry, also=tuple(sorted(roles))) if roles else entry)
    return entries
