"""The search ranking: the project's own rule, the same on every database.

A hit is an entry (node, method, model or source) in which every query word is found. A
query word finds a word of an entry when it is the same word (EXACT), the start of it or
the same stem (PREFIX_OR_STEM: "transf" finds "transformer", "parallelisms" finds
"parallelism"), or one edit away for query words of 4 letters or more, two for 8 or more
(TYPO: "dropuot" finds "dropout"; store.search_text.typos_allowed).

Hits are ranked by tier, best first:

  0 the name is the query (words compared case- and accent-insensitively)
  1 an alias is the query
  2 the name starts with the query ("transformer x" -> "Transformer-XL")
  3 every query word is in the name
  4 every query word is in the aliases
  5 every query word is in the matching aids (nodes) or the organization (models)
  6 every query word is in the description
  7 the query words are spread over several of these fields

then, within a tier, by fewer typos, then fewer words found by prefix or stem, and then
by the tie-breaking key: shorter name, then type (node, method, model, source), then slug.
`score` condenses tier, typos and prefix-or-stem words into one number (higher first):
(8 - tier) * 10000 - 100 * typos - prefix-or-stem words.
"""

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum

from cachetools import LRUCache

from store import search_text
from store.search_catalogue import FIELDS, Catalogue, Field, bitmap_of, members

TIERS = 8


def query_words(query: str) -> list[str]:
    """The words of ``query`` that a search looks for (at most MAX_QUERY_WORDS); none for
    an empty or blank query, or one of punctuation only."""
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

    def bitmaps(self, catalogue: Catalogue, field: Field) -> list[int]:
        """The entries this word finds in ``field``, one bitmap per Match."""
        postings = catalogue.postings[field]
        inexact = postings.bitmap(self.stems)
        for low, high in self.prefix_ranges:
            inexact |= postings.range_bitmap(low, high)
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
        word, () if exact_id is None else (exact_id,), ranges, stems, (tuple(one), tuple(two))
    )


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
    # The field that decided the tier; None for tier 7 (the first field with a match).
    field: Field | None
    score: int


@dataclass(frozen=True)
class Ranked:
    hits: list[Hit]
    total: int
    highlighter: Highlighter


class Searcher:
    """Searches of one catalogue, with each query word's terms remembered (a typo
    lookup costs a few milliseconds; autocomplete asks for the same words again and again)."""

    def __init__(self, catalogue: Catalogue) -> None:
        self.catalogue = catalogue
        self._terms: LRUCache[str, WordTerms] = LRUCache(maxsize=4096)

    def terms(self, word: str) -> WordTerms:
        found = self._terms.get(word)
        if found is None:
            found = self._terms[word] = terms_of(self.catalogue, word)
        return found

    def search(
        self, words: Sequence[str], kinds: Sequence[str] | None, offset: int, limit: int
    ) -> Ranked:
        catalogue = self.catalogue
        plans = [self.terms(word) for word in words]
        allowed = catalogue.all
        if kinds:
            allowed = 0
            for kind in kinds:
                allowed |= catalogue.by_kind[kind]
        by_field = [[plan.bitmaps(catalogue, field) for field in FIELDS] for plan in plans]
        anywhere = [[_union(fields[f][m] for f in FIELDS) for m in Match] for fields in by_field]
        found = allowed
        for matches in anywhere:
            found &= _union(matches)
        highlighter = Highlighter(
            frozenset(
                catalogue.vocabulary[t]
                for plan in plans
                for t in (*plan.exact, *plan.stems, *plan.typos[0], *plan.typos[1])
            ),
            tuple(words),
        )
        page = _Page(catalogue, offset, limit)
        if found:
            _rank(catalogue, words, found, by_field, anywhere, page)
        return Ranked(page.hits, found.bit_count(), highlighter)


def _union(bitmaps: Iterable[int]) -> int:
    result = 0
    for bitmap in bitmaps:
        result |= bitmap
    return result


class _Page:
    """The hits of one page, taken from ranked groups of entries in order."""

    def __init__(self, catalogue: Catalogue, offset: int, limit: int) -> None:
        self._catalogue = catalogue
        self._skip = offset
        self._limit = limit
        self.hits: list[Hit] = []

    @property
    def full(self) -> bool:
        return len(self.hits) >= self._limit

    def take(self, group: int, tier: int, field: Field | None, typos: int, inexact: int) -> None:
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
            self.hits.append(
                Hit(catalogue.kinds[index], catalogue.ref_ids[index], tier, field, score)
            )
            if self.full:
                return


def _rank(
    catalogue: Catalogue,
    words: Sequence[str],
    found: int,
    by_field: list[list[list[int]]],
    anywhere: list[list[int]],
    page: _Page,
) -> None:
    query = " ".join(words)
    seen = 0
    whole_text_tiers: list[tuple[Field, Callable[[str], Sequence[int]]]] = [
        (Field.NAME, catalogue.names.equal),
        (Field.ALIAS, catalogue.aliases.equal),
        (Field.NAME, catalogue.names.starting_with),
    ]
    for tier, (field, lookup) in enumerate(whole_text_tiers):
        group = bitmap_of(lookup(query), catalogue.size) & found & ~seen
        page.take(group, tier, field, 0, 0)
        seen |= group
        if page.full:
            return
    word_tiers: list[tuple[Field | None, list[list[int]]]] = [
        *((field, [fields[field] for fields in by_field]) for field in FIELDS),
        (None, anywhere),
    ]
    for tier, (tier_field, matches) in enumerate(word_tiers, start=len(whole_text_tiers)):
        group = found & ~seen
        for word_matches in matches:
            group &= _union(word_matches)
        for (typos, inexact), members_of_rank in _by_cost(group, matches):
            page.take(members_of_rank, tier, tier_field, typos, inexact)
        seen |= group
        if page.full:
            return


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
