"""A search hit's snippet: the text of the field it matched, with the found words marked
as ranges (offsets in Unicode code points), so that clients never render markup."""

from collections.abc import Sequence
from dataclasses import dataclass

from store import search_text
from store.search_rank import ALL, Highlighter

__all__ = ["ALL", "Snippet", "best", "marked", "marked_start"]

# A long text (a description) is cut to about this many characters around its first match.
WINDOW = 160
_BEFORE = 40
ELLIPSIS = "…"


@dataclass(frozen=True)
class Snippet:
    text: str
    ranges: list[tuple[int, int]]  # (start, end), end exclusive


def _add(ranges: list[tuple[int, int]], start: int, stop: int) -> None:
    if ranges and ranges[-1][1] >= start:
        ranges[-1] = (ranges[-1][0], max(ranges[-1][1], stop))
    else:
        ranges.append((start, stop))


def _typed(start: int, end: int, folded: str, length: int) -> int:
    """Where the mark of the first ``length`` letters of a word ends: the typed part, when
    the word's folded form lines up with its text; otherwise the whole word."""
    return start + length if len(folded) == end - start and length < len(folded) else end


def marked(text: str, highlighter: Highlighter) -> Snippet:
    """``text`` whole, with the words ``highlighter`` finds marked, and neighbouring words
    it finds run together ("multihead" in "Multi-Head")."""
    ranges: list[tuple[int, int]] = []
    found = list(search_text.spans(text))
    for number, (start, end, folded) in enumerate(found):
        length = highlighter.marks(folded)
        if length:
            _add(ranges, start, _typed(start, end, folded, length))
        if number + 1 < len(found):
            after_start, after_end, after = found[number + 1]
            both = highlighter.marks(folded + after)
            if both > len(folded) and both > highlighter.marks(after):
                _add(ranges, start, end)
                _add(ranges, after_start, _typed(after_start, after_end, after, both - len(folded)))
    return Snippet(text, sorted(ranges))


def marked_start(text: str, letters: int) -> Snippet:
    """``text`` with the first ``letters`` letters of its words marked, all of them for a
    large number: a name matched as a whole ("batchnorm" marks "Batch Norm" in "Batch
    Normalization")."""
    ranges: list[tuple[int, int]] = []
    for start, end, folded in search_text.spans(text):
        if letters <= 0:
            break
        _add(ranges, start, _typed(start, end, folded, min(letters, len(folded))))
        letters -= len(folded)
    return Snippet(text, ranges)


def _cut(snippet: Snippet) -> Snippet:
    """A long ``snippet`` cut to a window around its first mark, at word boundaries."""
    text = snippet.text
    if len(text) <= WINDOW:
        return snippet
    first = snippet.ranges[0][0] if snippet.ranges else 0
    start = max(0, first - _BEFORE)
    if start:
        space = text.find(" ", start, first)
        start = space + 1 if space != -1 else start
    end = min(len(text), start + WINDOW)
    if end < len(text):
        space = text.rfind(" ", max(first, start + WINDOW // 2), end)
        end = space if space != -1 else end
    prefix = ELLIPSIS if start else ""
    suffix = ELLIPSIS if end < len(text) else ""
    shift = len(prefix) - start
    ranges = [(a + shift, min(b, end) + shift) for a, b in snippet.ranges if a >= start and a < end]
    return Snippet(prefix + text[start:end].replace("\r", " ").replace("\n", " ") + suffix, ranges)


def best(texts: Sequence[str | None], highlighter: Highlighter) -> Snippet | None:
    """The snippet of the text (of ``texts``, one field's) with the most marked characters;
    None when none has a mark."""
    found: Snippet | None = None
    marks = 0
    for text in texts:
        if not text:
            continue
        snippet = marked(text, highlighter)
        count = sum(end - start for start, end in snippet.ranges)
        if count > marks:
            found, marks = snippet, count
    return None if found is None else _cut(found)
