"""How search reads text: words, their folded forms, stems and typo distances.

One definition for the index (store.search_catalogue), the query (store.search_rank) and
the highlights (store.search_snippet), so that what is found is what is highlighted."""

import re
import threading
import unicodedata
from collections.abc import Iterator, Sequence
from itertools import pairwise

import Stemmer
from rapidfuzz.distance import OSA

# A word: a run of letters and digits (an underscore separates words, as in slugs).
WORD = re.compile(r"[^\W_]+")
# Query words beyond this many are ignored: a pasted essay cannot make a huge query.
MAX_QUERY_WORDS = 32
# The runs of letters and the runs of digits of a word ("resnet50" -> "resnet", "50").
_PART = re.compile(r"[^\W\d_]+|\d+")


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


# PyStemmer's stemmers are not thread-safe, and catalogues are built in worker threads.
_stemmers = threading.local()


def _stemmer() -> "Stemmer.Stemmer":
    found: Stemmer.Stemmer | None = getattr(_stemmers, "english", None)
    if found is None:
        found = _stemmers.english = Stemmer.Stemmer("english")
    return found


def stem(word: str) -> str:
    """The word's English Snowball stem (PyStemmer): plurals and inflections fold together
    ("transformers" -> "transform", "functions" -> "function"); words with digits, or of
    3 letters or fewer, stay as they are."""
    if len(word) <= 3 or not word.isalpha():
        return word
    stemmed: str = _stemmer().stemWord(word)
    return stemmed


def stems(found: Sequence[str]) -> list[str]:
    """``stem`` of each of ``found``, in one call to the stemmer."""
    stemmed: list[str] = _stemmer().stemWords(found)
    return [
        word if len(word) <= 3 or not word.isalpha() else result
        for word, result in zip(found, stemmed, strict=True)
    ]


def stem_key(found: Sequence[str]) -> str:
    """The stems of ``found`` (folded words) joined by spaces: what names are compared by
    when plurals and inflections are set aside ("Activation Functions" ->
    "activ function", as "activation function" is)."""
    return " ".join(stem(word) for word in found)


def squashed(found: Sequence[str]) -> str:
    """``found`` (folded words) run together: what names are compared by when spaces and
    hyphens are set aside ("MobileNetV2", "mobilenet v2" -> "mobilenetv2"; "Batch
    Normalization" starts with "batchnorm")."""
    return "".join(found)


def parts(word: str) -> list[str]:
    """The runs of letters and of digits of a folded word that has both ("resnet50" ->
    ["resnet", "50"], "1x1" -> ["1", "x", "1"]); [] for a word of one kind."""
    found = _PART.findall(word)
    return found if len(found) > 1 else []


def split_words(found: Sequence[str]) -> list[str]:
    """Folded words with letters and digits run together split apart, so that "resnet50"
    finds what "resnet 50" and "ResNet-50" find."""
    result: list[str] = []
    for word in found:
        result.extend(parts(word) or [word])
    return result


def joined(found: Sequence[str]) -> list[str]:
    """Neighbouring words of a name run together ("batch normalization" ->
    "batchnormalization", "faster r cnn" -> "fasterr", "rcnn"): what a compound typed as
    one word ("batchnorm", "rcnn", "multihead") finds."""
    return [a + b for a, b in pairwise(found)]


def typos_allowed(word: str) -> int:
    """Edits a query word may be away from a word it finds: none below 4 letters (or for
    words with digits), one from 4 letters, two from 8."""
    if not word.isalpha() or len(word) < 4:
        return 0
    return 1 if len(word) < 8 else 2


def edit_distance(a: str, b: str, limit: int) -> int:
    """The optimal-string-alignment distance between ``a`` and ``b`` (insertions,
    deletions, substitutions and swaps of neighbours, so "dropuot" is one edit from
    "dropout"; rapidfuzz's), or ``limit + 1`` when it exceeds ``limit``."""
    distance: int = OSA.distance(a, b, score_cutoff=limit)
    return distance


def bigrams(word: str) -> set[str]:
    """The distinct letter pairs of ``word`` with its ends marked: what typo candidates
    are found by (each edit changes at most three of them)."""
    padded = f"^{word}$"
    return {padded[i : i + 2] for i in range(len(padded) - 1)}
