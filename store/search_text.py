"""How search reads text: words, their folded forms, stems and typo distances.

One definition for the index (store.search_catalogue), the query (store.search_rank) and
the highlights (store.search_snippet), so that what is found is what is highlighted."""

import re
import unicodedata
from collections.abc import Iterator

# A word: a run of letters and digits (an underscore separates words, as in slugs).
WORD = re.compile(r"[^\W_]+")
# Query words beyond this many are ignored: a pasted essay cannot make a huge query.
MAX_QUERY_WORDS = 32


def fold(text: str) -> str:
    """``text`` case-folded and without diacritics ("Poincaré" -> "poincare")."""
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def words(text: str) -> list[str]:
    """The folded words of ``text``, in order."""
    return WORD.findall(fold(text))


def key(text: str) -> str:
    """``text`` as its folded words joined by single spaces: what exact and prefix name
    matches compare ("Multi-Head Attention" -> "multi head attention")."""
    return " ".join(words(text))


def spans(text: str) -> Iterator[tuple[int, int, str]]:
    """(start, end, folded word) of each word of ``text``, at its place in ``text``."""
    for match in WORD.finditer(text):
        for folded in WORD.findall(fold(match.group())):
            yield match.start(), match.end(), folded


def stem(word: str) -> str:
    """A light English stem: plurals and the like ("parallelisms" -> "parallelism",
    "policies" -> "policy"), nothing cleverer; words of digits, or of 3 letters or fewer,
    stay as they are."""
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "shes", "ches", "xes", "zes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def typos_allowed(word: str) -> int:
    """Edits a query word may be away from a word it finds: none below 4 letters (or for
    words with digits), one from 4 letters, two from 8."""
    if not word.isalpha() or len(word) < 4:
        return 0
    return 1 if len(word) < 8 else 2


def edit_distance(a: str, b: str, limit: int) -> int:
    """The optimal-string-alignment distance between ``a`` and ``b`` (insertions,
    deletions, substitutions and swaps of neighbours, so "dropuot" is one edit from
    "dropout"), or ``limit + 1`` as soon as it must exceed ``limit``."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                value = min(value, previous2[j - 2] + 1)
            current[j] = value
        if min(current) > limit:
            return limit + 1
        previous2, previous = previous, current
    return min(previous[-1], limit + 1)


def bigrams(word: str) -> set[str]:
    """The distinct letter pairs of ``word`` with its ends marked: what typo candidates
    are found by (each edit changes at most three of them)."""
    padded = f"^{word}$"
    return {padded[i : i + 2] for i in range(len(padded) - 1)}
