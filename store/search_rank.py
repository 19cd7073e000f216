"""The search ranking: the project's own rule, the same on every database.

A hit is an entry (node, method, model or source) in which every query word is found. A
query word finds a word of an entry when it is the same word (EXACT), the start of it or
the same stem (PREFIX_OR_STEM: "transf" finds "transformer", "parallelisms" finds
"parallelism"), or one edit away for query words of 4 letters or more, two for 8 or more
(TYPO: "dropuot" finds "dropout"; store.search_text.typos_allowed).

Spaces, hyphens and plurals aside, a name can also be the query as a whole: "mobilenet
v2" is MobileNetV2's name run together, "transformers" the Transformer's by its stems,
"batchnorm" starts Batch Normalization's name run together, "efficent net" is one typo
from EfficientNet's. Such an entry is a hit even when not every query word is found in it.
Query words with letters and digits run together count as their parts ("resnet50":
"resnet" and "50"), and a name's neighbouring words run together are among its words
("multihead" is in Multi-Head Attention's name).

Hits are ranked by tier, best first:

  0 the name is the query (words compared case- and accent-insensitively)
  1 an alias is the query
  2 the name is the query by its words' stems, or run together (no spaces or hyphens)
  3 an alias is the query so
  4 the name run together starts with the query run together ("transformer x" ->
    "Transformer-XL", "batchnorm" -> "Batch Normalization")
  5 every query word is in the name, or the name run together is one typo from the query
    run together (two from 8 letters), as a typo of a word
  6 every query word is in the aliases
  7 every query word is in the matching aids (nodes) or the organization (models)
  8 every query word is in the description
  9 the query words are spread over several of these fields

then, within a tier, by fewer typos, then fewer words found by prefix or stem, and then
by the tie-breaking key: shorter name, then type (node, method, model, source), then slug.
`score` condenses tier, typos and prefix-or-stem words into one number (higher first):
(10 - tier) * 10000 - 100 * typos - prefix-or-stem words.

An entry with several roles (a model that is also its paper, a source) is one hit; with
a `types` filter it stands as the first of its roles the filter allows. Facets count the
hits of each type (an entry with two roles counts for both), whatever the filter.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum

from cachetools import LRUCache

from store import search_text
from store.search_catalogue import (
    FIELDS,
    KINDS,
    Catalogue,
    Field,
    Hashes,
    Keys,
    bitmap_of,
    members,
)

TIERS = 10
# The tiers that compare the query with a name or alias as a whole (0 to 4).
WHOLE_TIERS = 5


def query_words(query: str) -> list[str]:
    """The words of ``query`` that a search looks for (at most MAX_QUERY_WORDS), as typed
    (folded); none for an empty or blank query, or one of punctuation only."""
    return search_text.words(query)[: search_text.MAX_QUERY_WORDS]


class Match(IntEnum):
    """How a query word found an entry's word, best first; (typos, prefix-or-stem) cost."""

    EXACT = 0
    PREFIX_OR_STEM = 1
    ONE_TYPO = 2
    TWO_TYPOS = 3


_COST = {
    Match.EXACT: (0, 0),
    Match.PREFIX_OR_STEM: (0, 1),
    Match.ONE_TYPO: (1, 0),
    Match.TWO_TYPOS: (2, 0),
}


@dataclass(frozen=True)
class WordTerms:
    """The catalogue's terms a query word finds, by how."""

    word: str
    exact: tuple[int, ...]
    prefix_ranges: tuple[tuple[int, int], ...]  # prefixes, without the exact term
    stems: tuple[int, ...]  # same stem, outside the prefix range
    typos: tuple[tuple[int, ...], tuple[int, ...]]  # one edit, two edits
    # The word as a compound of two: (a term it starts with, the range of the terms that
    # start with the rest): "batchnorm" is "batch" and a word starting with "norm".
    splits: tuple[tuple[int, int, int], ...] = ()

    def bitmaps(self, catalogue: Catalogue, field: Field) -> list[int]:
        """The entries this word finds in ``field``, one bitmap per Match."""
        postings = catalogue.postings[field]
        inexact = postings.bitmap(self.stems)
        for low, high in self.prefix_ranges:
            inexact |= postings.range_bitmap(low, high)
        if field in (Field.NAME, Field.ALIAS):
            for first, low, high in self.splits:
                both = postings.bitmap((first,))
                if both:
                    inexact |= both & postings.range_bitmap(low, high)
        return [
            postings.bitmap(self.exact),
            inexact,
            postings.bitmap(self.typos[0]),
            postings.bitmap(self.typos[1]),
        ]


def terms_of(catalogue: Catalogue, word: str) -> WordTerms:
    exact_id = catalogue.term_id(word)
    low, high = catalogue.prefix_range(word)
    ranges: tuple[tuple[int, int], ...]
    if exact_id is None:
        ranges = ((low, high),) if high > low else ()
    else:
        ranges = tuple((a, b) for a, b in ((low, exact_id), (exact_id + 1, high)) if b > a)
    stems = tuple(t for t in catalogue.same_stem(word) if not low <= t < high)
    same_stem = set(stems)
    one: list[int] = []
    two: list[int] = []
    limit = search_text.typos_allowed(word)
    if limit:
        for term_id, edits in catalogue.near(word, limit):
            if term_id not in same_stem and not low <= term_id < high:
                (one if edits == 1 else two).append(term_id)
    return WordTerms(
        word,
        () if exact_id is None else (exact_id,),
        ranges,
        stems,
        (tuple(one), tuple(two)),
        _splits(catalogue, word),
    )


# The shortest query word split as a compound, and the shortest second part.
_COMPOUND = 4
_REST = 2


def _splits(catalogue: Catalogue, word: str) -> tuple[tuple[int, int, int], ...]:
    """``word`` as a term and the start of another ("batchnorm": "batch" + "norm...";
    "rcnn": "r" + "cnn"), for each way the catalogue has: a compound typed as one word
    finds a name or alias with both (Match.PREFIX_OR_STEM)."""
    if len(word) < _COMPOUND:
        return ()
    found = []
    for cut in range(1, len(word) - _REST + 1):
        first = catalogue.term_id(word[:cut])
        if first is None:
            continue
        low, high = catalogue.prefix_range(word[cut:])
        if high > low:
            found.append((first, low, high))
    return tuple(found)


@dataclass(frozen=True)
class Highlighter:
    """What to highlight in a field's text: whole words (exact, same stem, typo) and
    word starts (the query words, as prefixes)."""

    whole: frozenset[str]
    prefixes: tuple[str, ...]

    def marks(self, folded: str) -> int:
        """How many leading characters of the folded word ``folded`` to highlight."""
        if folded in self.whole:
            return len(folded)
        return max((len(p) for p in self.prefixes if folded.startswith(p)), default=0)


@dataclass(frozen=True)
class Hit:
    kind: str
    ref_id: int
    tier: int
    # The field that decided the tier; None for tier 9 (the first field with a match).
    field: Field | None
    score: int
    # Every role of the entry (kinds, in KINDS order): ("model", "source") for a paper.
    roles: tuple[str, ...]
    # For a name or alias matched as a whole (tiers 0 to 4, and a name a typo away): how
    # many of its letters to mark (the query's, run together); None for word matches.
    whole: int | None = None


@dataclass(frozen=True)
class Ranked:
    hits: list[Hit]
    total: int
    highlighter: Highlighter
    # Hits by kind, whatever the `types` filter (an entry counts for each of its roles).
    facets: dict[str, int]


# Marks for a name equal to the query (loosely): all of it.
ALL = 1 << 30


@dataclass(frozen=True)
class Whole:
    """The entries a query matches as a whole: one bitmap per whole tier (0 to 4), and
    the names a few typos away, by edits."""

    tiers: tuple[int, ...]
    near: tuple[tuple[int, int], ...]  # (edits, bitmap), fewer edits first
    squashed: str

    @property
    def entries(self) -> int:
        return _union((*self.tiers, *(bitmap for _, bitmap in self.near)))


class Searcher:
    """Searches of one catalogue, with each query word's terms remembered (a typo
    lookup costs a few milliseconds; autocomplete asks for the same words again and again)."""

    def __init__(self, catalogue: Catalogue) -> None:
        self.catalogue = catalogue
        self._terms: LRUCache[str, WordTerms] = LRUCache(maxsize=4096)
        self._wholes: LRUCache[tuple[str, ...], Whole] = LRUCache(maxsize=1024)

    def terms(self, word: str) -> WordTerms:
        found = self._terms.get(word)
        if found is None:
            found = self._terms[word] = terms_of(self.catalogue, word)
        return found

    def whole(self, typed: Sequence[str]) -> Whole:
        key = tuple(typed)
        found = self._wholes.get(key)
        if found is None:
            found = self._wholes[key] = _whole(self.catalogue, typed)
        return found

    def search(
        self, typed: Sequence[str], kinds: Sequence[str] | None, offset: int, limit: int
    ) -> Ranked:
        """``typed``: the query's words as typed (query_words)."""
        catalogue = self.catalogue
        words = search_text.split_words(typed)
        plans = [self.terms(word) for word in words]
        allowed = catalogue.all
        if kinds:
            allowed = 0
            for kind in kinds:
                allowed |= catalogue.by_kind[kind]
        by_field = [[plan.bitmaps(catalogue, field) for field in FIELDS] for plan in plans]
        anywhere = [[_union(fields[f][m] for f in FIELDS) for m in Match] for fields in by_field]
        whole = self.whole(typed)
        every = catalogue.all
        for matches in anywhere:
            every &= _union(matches)
        every |= whole.entries
        facets = {kind: (every & catalogue.by_kind[kind]).bit_count() for kind in KINDS}
        found = every & allowed
        highlighter = Highlighter(
            frozenset(
                catalogue.vocabulary[t]
                for plan in plans
                for t in (*plan.exact, *plan.stems, *plan.typos[0], *plan.typos[1])
            ),
            tuple(words),
        )
        page = _Page(catalogue, kinds, offset, limit)
        if found:
            _rank(found, whole, by_field, anywhere, page)
        return Ranked(page.hits, found.bit_count(), highlighter, facets)


# The longest query run together whose names a typo or two away are looked for: longer
# queries are several words, each with its own typos, and their band of name lengths is
# the crowded one (up to 14 ms a first asking at size L, against under 1 ms up to here).
_NEAR_LONGEST = 20


def _whole(catalogue: Catalogue, typed: Sequence[str]) -> Whole:
    key = " ".join(typed)
    squashed = search_text.squashed(typed)
    stemmed = search_text.stem_key(typed)
    size = catalogue.size

    def loose(*keys: Keys | Hashes) -> int:
        texts = {squashed, stemmed}
        return bitmap_of((entry for found in keys for t in texts for entry in found.equal(t)), size)

    tiers = (
        bitmap_of(catalogue.names.equal(key), size),
        bitmap_of(catalogue.aliases.equal(key), size),
        loose(catalogue.squashed_names, catalogue.stemmed_names),
        loose(catalogue.loose_aliases),
        bitmap_of(catalogue.squashed_names.starting_with(squashed), size),
    )
    near: dict[int, list[int]] = {}
    limit = search_text.typos_allowed(squashed) if len(squashed) <= _NEAR_LONGEST else 0
    if limit:
        for edits, entry in catalogue.near_names(squashed, limit):
            near.setdefault(edits, []).append(entry)
    return Whole(
        tiers,
        tuple((edits, bitmap_of(entries, size)) for edits, entries in sorted(near.items())),
        squashed,
    )


def _union(bitmaps: Iterable[int]) -> int:
    result = 0
    for bitmap in bitmaps:
        result |= bitmap
    return result


class _Page:
    """The hits of one page, taken from ranked groups of entries in order."""

    def __init__(
        self, catalogue: Catalogue, kinds: Sequence[str] | None, offset: int, limit: int
    ) -> None:
        self._catalogue = catalogue
        self._kinds = kinds
        self._skip = offset
        self._limit = limit
        self.hits: list[Hit] = []

    @property
    def full(self) -> bool:
        return len(self.hits) >= self._limit

    def take(
        self,
        group: int,
        tier: int,
        field: Field | None,
        typos: int,
        inexact: int,
        whole: int | None = None,
    ) -> None:
        """The entries of ``group`` (all of one rank but for the tie-breaking key)."""
        if self.full or not group:
            return
        size = group.bit_count()
        if self._skip >= size:
            self._skip -= size
            return
        score = (TIERS - tier) * 10_000 - 100 * typos - inexact
        catalogue = self._catalogue
        for index in members(group, catalogue.size):
            if self._skip:
                self._skip -= 1
                continue
            kind, ref_id = catalogue.kinds[index], catalogue.ref_ids[index]
            roles: tuple[str, ...] = (kind,)
            also = catalogue.also.get(index)
            if also:
                roles = tuple(k for k in KINDS if k == kind or any(k == a for a, _ in also))
                if self._kinds and kind not in self._kinds:
                    kind, ref_id = next((k, r) for k, r in also if k in self._kinds)
            self.hits.append(Hit(kind, ref_id, tier, field, score, roles, whole))
            if self.full:
                return


def _rank(
    found: int,
    whole: Whole,
    by_field: list[list[list[int]]],
    anywhere: list[list[int]],
    page: _Page,
) -> None:
    seen = 0
    whole_fields = (Field.NAME, Field.ALIAS, Field.NAME, Field.ALIAS, Field.NAME)
    for tier, (field, matched) in enumerate(zip(whole_fields, whole.tiers, strict=True)):
        group = matched & found & ~seen
        marks = len(whole.squashed) if tier == WHOLE_TIERS - 1 else ALL
        page.take(group, tier, field, 0, 0, marks if field is Field.NAME else None)
        seen |= group
        if page.full:
            return
    word_tiers: list[tuple[Field | None, list[list[int]]]] = [
        *((field, [fields[field] for fields in by_field]) for field in FIELDS),
        (None, anywhere),
    ]
    for tier, (tier_field, matches) in enumerate(word_tiers, start=WHOLE_TIERS):
        group = found & ~seen
        for word_matches in matches:
            group &= _union(word_matches)
        ranks = _by_cost(group, matches)
        if tier_field is Field.NAME and whole.near:
            ranks = _with_near_names(ranks, whole, found & ~seen)
            group = _union(bitmap for _, bitmap in ranks)
        for (typos, inexact), members_of_rank in ranks:
            page.take(members_of_rank, tier, tier_field, typos, inexact)
        seen |= group
        if page.full:
            return


def _with_near_names(
    ranks: list[tuple[tuple[int, int], int]], whole: Whole, open_: int
) -> list[tuple[tuple[int, int], int]]:
    """The name tier's ranks with the names a few typos from the query run together: each
    at the cost of its typos, unless its words cost less."""
    costs = dict(ranks)
    for edits, bitmap in whole.near:
        cost = (edits, 0)
        cheaper = _union(found for other, found in costs.items() if other <= cost)
        moved = bitmap & open_ & ~cheaper
        if moved:
            costs = {other: found & ~moved for other, found in costs.items()}
            costs[cost] = costs.get(cost, 0) | moved
    return sorted((cost, found) for cost, found in costs.items() if found)


def _by_cost(group: int, matches: list[list[int]]) -> list[tuple[tuple[int, int], int]]:
    """``group`` split by (typos, prefix-or-stem words), cheapest first: each entry costs,
    for each query word, its best Match among ``matches`` (per word, a bitmap per Match)."""
    costs: dict[tuple[int, int], int] = {}

    def walk(word: int, entries: int, typos: int, inexact: int) -> None:
        if not entries:
            return
        if word == len(matches):
            costs[typos, inexact] = costs.get((typos, inexact), 0) | entries
            return
        better = 0
        for match in Match:
            bitmap = matches[word][match]
            extra_typos, extra_inexact = _COST[match]
            walk(word + 1, entries & bitmap & ~better, typos + extra_typos, inexact + extra_inexact)
            better |= bitmap

    walk(0, group, 0, 0)
    return sorted(costs.items())
