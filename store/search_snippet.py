"""A search hit's snippet: the text of the field it matched, with the found words marked
as ranges (offsets in Unicode code points), so that clients never render markup."""

from collections.abc import Sequence
from dataclasses import dataclass

from store import search_text
from store.search_rank import Highlighter

# A long text (a description) is cut to about this many characters around its first match.
WINDOW = 160
_BEFORE = 40
ELLIPSIS = "…"


@dataclass(frozen=True)
class Snippet:
    text: str
    ranges: list[tuple[int, int]]  # (start, end), end exclusive


def marked(text: str, highlighter: Highlighter) -> Snippet:
    """``text`` whole, with the words ``highlighter`` finds marked."""
    ranges: list[tuple[int, int]] = []
    for start, end, folded in search_text.spans(text):
        length = highlighter.marks(folded)
        if not length:
            continue
        # A prefix match marks the typed part, when the word's folded form lines up
        # with its text; otherwise (and for whole-word matches) the whole word.
        stop = start + length if len(folded) == end - start else end
        if ranges and ranges[-1][1] >= start:
            ranges[-1] = (ranges[-1][0], max(ranges[-1][1], stop))
        else:
            ranges.append((start, stop))
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
