"""The search catalogue: every searchable entry's words, held in memory, built from the
database once per data version.

Why in memory, and built here rather than by each database's full-text search: the
ranking is the project's own (store.search_rank) and must give the same hits on SQLite
and PostgreSQL; FTS5 and tsvector tokenise, stem and rank differently. The catalogue is
derived from the loaded tables alone, so every server process on one database builds
the same one, with no coordination: processes stay stateless (a new process, or one that
sees a new data version, builds its own on its first search; store.search_cache).

Memory: words are kept as posting lists (4 bytes per word occurrence) in one array per
field, sorted by word, so a word prefix is one contiguous slice; descriptions' text is not
kept (highlights are made from the rows a page reads anyway). Entries are numbered in
ranking order (shorter name, then type, then slug), so sets of entries are Python ints
used as bitmaps, and a set's members in ascending order are already ranked. At size L
(about 213,000 entries, 2.6 million word occurrences) a catalogue takes about 57 MB and
4-10 s to build on a busy 2-core machine (about 140 MB at its peak; names' keys for
whole-name equality kept as hashes, names run together as text for prefixes and
typos); a process builds it
as soon as it sees a new data version (store.search_cache). See bench/RESULTS.md.
"""

import bisect
import re
from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from enum import IntEnum
from itertools import accumulate
from typing import Any

from rapidfuzz import process
from rapidfuzz.distance import OSA
from sqlalchemy import select

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


class Postings:
    """One field's posting lists, one contiguous run per term, in term order."""

    def __init__(self, by_term: dict[str, list[int]], vocabulary: list[str], size: int) -> None:
        self.offsets = array(
            "i", accumulate((len(by_term.get(t, ())) for t in vocabulary), initial=0)
        )
        self.entries = array("i")
        self._dense: dict[int, int] = {}
        self._size = size
        threshold = max(1, size * 8 // _DENSE_FRACTION)
        # Terms absent from this field (most, for all but descriptions) cost nothing more.
        for term in sorted(by_term):
            found = by_term[term]
            self.entries.extend(found)
            if len(found) >= threshold:
                self._dense[bisect.bisect_left(vocabulary, term)] = bitmap_of(found, size)

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

    def __init__(self, keys: list[str], entries: Sequence[int]) -> None:
        # By key, then entry (entries come in ascending order; the sort is stable).
        order = sorted(range(len(keys)), key=keys.__getitem__)
        self.keys = [keys[position] for position in order]
        self.entries = array("i", [entries[position] for position in order])

    def equal(self, key: str) -> Sequence[int]:
        low = bisect.bisect_left(self.keys, key)
        return self.entries[low : bisect.bisect_right(self.keys, key, lo=low)]

    def starting_with(self, prefix: str) -> Sequence[int]:
        low = bisect.bisect_left(self.keys, prefix)
        return self.entries[low : bisect.bisect_left(self.keys, prefix + "\U0010ffff", lo=low)]


class Hashes:
    """Entries by a text's key, for equality only: each key kept as its hash (12 bytes an
    entry with its entry number, not the key's text). Python's 64-bit string hash, the
    same for every lookup of the process: a false match of a query with one of 213,000
    keys (size L) comes about once in 10^14 searches."""

    def __init__(self) -> None:
        self.hashes = array("q")
        self.entries = array("i")

    def add(self, key: str, entry: int) -> None:
        self.hashes.append(hash(key))
        self.entries.append(entry)

    def sort(self) -> "Hashes":
        order = sorted(range(len(self.hashes)), key=self.hashes.__getitem__)
        self.hashes = array("q", [self.hashes[position] for position in order])
        self.entries = array("i", [self.entries[position] for position in order])
        return self

    def equal(self, key: str) -> Sequence[int]:
        value = hash(key)
        low = bisect.bisect_left(self.hashes, value)
        return self.entries[low : bisect.bisect_right(self.hashes, value, lo=low)]


def _terms(found: list[str]) -> set[str]:
    """A name's or alias's words and their runs of letters and of digits ("resnet50" ->
    "resnet", "50")."""
    terms = set(found)
    for word in found:
        if not word.isalpha() and not word.isdigit():
            terms.update(search_text.parts(word))
    return terms


class Catalogue:
    """Every entry's words, for one data version."""

    def __init__(self, version: str | None, entries: list[Entry]) -> None:
        self.version = version
        type_order = {kind: order for order, kind in enumerate(KINDS)}
        # The ranking's final keys, in its order: shorter name, type, slug.
        keyed = sorted(
            ((" ".join(search_text.words(entry.name)), entry) for entry in entries),
            key=lambda pair: (len(pair[0]), type_order[pair[1].kind], pair[1].slug),
        )
        self.count = len(keyed)
        self.size = (self.count + 7) // 8
        self.kinds = [entry.kind for _, entry in keyed]
        self.ref_ids = array("i", [entry.ref_id for _, entry in keyed])
        # Entries with more than one role (a model and its paper): index -> other roles.
        self.also = {index: entry.also for index, (_, entry) in enumerate(keyed) if entry.also}
        self.all = (1 << self.count) - 1
        # Entries by role: an entry that is a model and a source is in both.
        of_kind: dict[str, list[int]] = {kind: [] for kind in KINDS}
        for index, kind in enumerate(self.kinds):
            of_kind[kind].append(index)
        for index, roles in self.also.items():
            for kind, _ in roles:
                of_kind[kind].append(index)
        self.by_kind = {kind: bitmap_of(found, self.size) for kind, found in of_kind.items()}
        del of_kind
        stem_of: dict[str, str] = {}

        def stem_key(found: list[str]) -> str:
            for word in found:
                if word not in stem_of:
                    stem_of[word] = search_text.stem(word)
            return " ".join([stem_of[word] for word in found])

        by_field: list[dict[str, list[int]]] = [{} for _ in FIELDS]
        names, aliases, stemmed_names, loose_aliases = Hashes(), Hashes(), Hashes(), Hashes()
        squashed_names: list[str] = []
        words = search_text.words
        for index, (name_key, entry) in enumerate(keyed):
            name_words = name_key.split()
            names.add(name_key, index)
            squashed = search_text.squashed(name_words)
            squashed_names.append(squashed)
            stemmed = stem_key(name_words)
            if stemmed != squashed:
                stemmed_names.add(stemmed, index)
            name_terms = _terms(name_words)
            alias_words: set[str] = set()
            for alias in entry.aliases:
                found = words(alias)
                aliases.add(" ".join(found), index)
                squashed = search_text.squashed(found)
                loose_aliases.add(squashed, index)
                stemmed = stem_key(found)
                if stemmed != squashed:
                    loose_aliases.add(stemmed, index)
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
        self.vocabulary = sorted(set().union(*by_field))
        self.postings = [Postings(by_term, self.vocabulary, self.size) for by_term in by_field]
        del by_field
        self.names = names.sort()
        self.aliases = aliases.sort()
        # Names and aliases by their stems' key (search_text.stem_key, where it is not the
        # name run together) and run together (squashed): "transformers" is the
        # Transformer's name so, "mobilenet v2" MobileNetV2's; names run together also by
        # their starts ("batchnorm").
        self.squashed_names = Keys(squashed_names, range(self.count))
        self.stemmed_names = stemmed_names.sort()
        self.loose_aliases = loose_aliases.sort()
        # Names run together, by length: those a few typos from a query run together.
        by_length: dict[int, tuple[list[str], list[int]]] = {}
        for index, squashed in enumerate(squashed_names):
            bucket = by_length.setdefault(len(squashed), ([], []))
            bucket[0].append(squashed)
            bucket[1].append(index)
        self._by_length = {
            length: (keys, array("i", found)) for length, (keys, found) in by_length.items()
        }
        del squashed_names
        # Typo and stem lookups consider words of letters only (numbers are not misspelt).
        self._stems: dict[str, list[int]] = {}
        self._bigrams: dict[str, array[int]] = {}
        alphabetic = [(t, term) for t, term in enumerate(self.vocabulary) if term.isalpha()]
        stems = search_text.stems([term for _, term in alphabetic])
        for (term_id, term), stemmed in zip(alphabetic, stems, strict=True):
            self._stems.setdefault(stemmed, []).append(term_id)
            if len(term) >= 3:
                for pair in search_text.bigrams(term):
                    self._bigrams.setdefault(pair, array("i")).append(term_id)

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

    def same_stem(self, word: str) -> list[int]:
        """The terms (of letters) of ``word``'s stem."""
        return self._stems.get(search_text.stem(word), [])

    def near(self, word: str, limit: int) -> list[tuple[int, int]]:
        """(term id, edits) of the terms 1 to ``limit`` edits from ``word``."""
        wanted = search_text.bigrams(word)
        shared: dict[int, int] = {}
        for pair in wanted:
            for term_id in self._bigrams.get(pair, ()):
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


async def read_entries(reader: Any) -> tuple[str | None, list[Entry]]:
    """The data version and every searchable entry, read in one snapshot through
    ``reader`` (a store.reader.Reader)."""
    version = await reader.open_snapshot()  # read with the snapshot's first statement
    node, method = table_of(NodeRow), table_of(MethodRow)
    model, source = table_of(ModelRow), table_of(SourceRow)
    entries: list[Entry] = []
    for row in (
        await reader.execute(
            select(node.c.id, node.c.slug, node.c.name, node.c.matching_aids, node.c.description)
        )
    ).all():
        entries.append(Entry("node", row[0], row[1], row[2], (), row[3] or (), row[4]))
    for row in (
        await reader.execute(
            select(
                method.c.id, method.c.slug, method.c.name, method.c.aliases, method.c.description
            )
        )
    ).all():
        entries.append(Entry("method", row[0], row[1], row[2], row[3] or (), (), row[4]))
    models: dict[int, Entry] = {}
    for row in (
        await reader.execute(select(model.c.id, model.c.slug, model.c.name, model.c.organization))
    ).all():
        models[row[0]] = Entry(
            "model", row[0], row[1], row[2], (), [row[3]] if row[3] else (), None
        )
    # A source titled as its model names it (a paper standing as its model, as in Papers
    # with Code) is the same thing: one entry, the model's, with the source as a role.
    also: dict[int, list[tuple[str, int]]] = {}
    for row in (
        await reader.execute(select(source.c.id, source.c.slug, source.c.title, source.c.model_id))
    ).all():
        owner = models.get(row[3])
        if owner is not None and search_text.key(row[2]) == search_text.key(owner.name):
            also.setdefault(row[3], []).append(("source", row[0]))
        else:
            entries.append(Entry("source", row[0], row[1], row[2], (), (), None))
    for model_id, entry in models.items():
        roles = also.get(model_id)
        entries.append(replace(entry, also=tuple(sorted(roles))) if roles else entry)
    return version, entries
