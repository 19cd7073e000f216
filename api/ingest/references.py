"""Lines that name a record another file does not hold: a method's node, an evidence
line's model.

Each missing record is one problem, at the first line naming it, with the count of the
lines that do, and with its cause when that is known: the record's own line was rejected
(and is reported itself), or its file is empty. A bad model line is then one problem, and
one more for the 10,000 evidence lines that use it, not 10,000 more; an empty nodes.jsonl
is named as the reason every method is homeless.
"""

from collections.abc import Collection
from dataclasses import dataclass

from api.ingest.lines import Problems

# How a message names a file's lines: "3 evidence lines refer to ...".
_LINES = {
    "nodes.jsonl": "node lines",
    "models.jsonl": "model lines",
    "sources.jsonl": "source lines",
    "methods.jsonl": "method lines",
    "evidence.jsonl": "evidence lines",
}


@dataclass(frozen=True)
class Target:
    """A file whose records lines name by slug, as a ``noun``."""

    file: str
    noun: str
    empty: bool
    absent: str  # said of a slug the file does not hold: "is not in models.jsonl"


def target(
    file: str, noun: str, slugs: Collection[str], problems: Problems, absent: str = ""
) -> Target:
    """``file``'s records as a target; it is empty when it has neither records nor
    problems (a file of bad lines is not empty: those lines are its problems)."""
    empty = not slugs and not problems.in_file(file)
    return Target(file, noun, empty, absent or f"is not in {file}")


def missing(problems: Problems, file: str, line: int, slug: str, to: Target) -> None:
    """Report that ``file``:``line`` names ``slug``, which ``to`` does not hold (once per
    missing record and naming file; the caller has looked it up, on its hot path)."""
    lines = _LINES[file]
    rejected = problems.rejected.get((to.file, slug))
    if to.empty:
        # One problem for the whole file: every line naming a record of it fails alike.
        key: tuple[str, ...] = (file, to.file)
        message = f"{to.noun} {slug!r} {to.absent}, which is empty"
        many = f"{lines} name a {to.noun}, but {to.file} is empty"
    elif rejected is not None:
        key = (file, to.file, slug)
        message = f"{to.noun} {slug!r} was rejected at {to.file}:{rejected}"
        many = f"{lines} refer to {to.noun} {slug!r}, rejected at {to.file}:{rejected}"
    else:
        key = (file, to.file, slug)
        message = f"{to.noun} {slug!r} {to.absent}"
        many = f"{lines} refer to {to.noun} {slug!r}, which {to.absent}"
    problems.add(file, line, message, key=key, many=f"{many} (this is the first)")
