"""Reading the five JSON Lines files into typed records, one checked line at a time.

Every problem is reported as ``file:line: what is wrong``; reading goes on after a bad
line so that one run reports as many problems as it can (up to a cap).
"""

import hashlib
import re
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import Any

import orjson

from api.ingest.json_line import LineError, decode, decode_as_written, kind, shown
from api.ingest.progress import Meter, Quiet
from store.strength import STRENGTHS
from store.tables import SOURCE_KINDS


@dataclass(frozen=True)
class Problem:
    """What is wrong at a line; ``count`` lines of the file share it, and then ``many``
    says so (after the count), the first of them being ``line``."""

    file: str
    line: int
    message: str
    count: int = 1
    many: str = ""

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        said = f"{self.count:,} {self.many}" if self.count > 1 else self.message
        return f"{where}: {said}"


class ProblemLimitError(Exception):
    pass


@dataclass
class Problems:
    """Collects problems; stops reading once there are more than anyone will read.

    A problem given a ``key`` is reported once: the lines after the first with the same
    key only count (and do not count towards the limit), so that one bad line does not
    come back once for every line that depends on it. ``rejected`` holds the slug of
    each rejected line, so that lines naming it can say why it is missing."""

    limit: int = 50
    items: list[Problem] = field(default_factory=list)
    rejected: dict[tuple[str, str], int] = field(default_factory=dict)  # (file, slug): line
    _first: dict[Hashable, int] = field(default_factory=dict, repr=False)  # key: index

    def add(
        self, file: str, line: int, message: str, *, key: Hashable = None, many: str = ""
    ) -> None:
        if key is not None and key in self._first:
            first = self.items[self._first[key]]
            self.items[self._first[key]] = replace(first, count=first.count + 1)
            return
        if len(self.items) >= self.limit:
            raise ProblemLimitError
        if key is not None:
            self._first[key] = len(self.items)
        self.items.append(Problem(file, line, message, many=many))

    def reject(self, file: str, slug: str, line: int) -> None:
        self.rejected.setdefault((file, slug), line)

    def in_file(self, file: str) -> bool:
        return any(problem.file == file for problem in self.items)


@dataclass(slots=True)
class NodeRecord:
    line: int
    slug: str
    name: str
    parent: str | None
    description: str | None
    matching_aids: list[str]


@dataclass(slots=True)
class ModelRecord:
    line: int
    slug: str
    name: str
    organization: str | None
    release_date: date | None


@dataclass(slots=True)
class SourceRecord:
    line: int
    slug: str
    model: str
    title: str
    kind: str
    url: str | None
    published_on: date | None


@dataclass(slots=True)
class MethodRecord:
    line: int
    slug: str
    name: str
    node: str
    description: str | None
    aliases: list[str]


@dataclass(slots=True)
class EvidenceRecord:
    line: int
    model: str
    method: str
    strength: str
    source: str | None
    quote: str | None
    locator: str | None

    def identity(self) -> str:
        """What makes this evidence the same evidence across loads (not its strength,
        which a re-classification may change)."""
        content = orjson.dumps([self.model, self.method, self.source, self.locator, self.quote])
        return hashlib.blake2b(content, digest_size=12).hexdigest()


class FieldError(ValueError):
    pass


# ---- field readers: each returns the value or raises FieldError saying what is wrong --------


def _storable(value: str) -> str:
    """``value`` if both databases can store it: no NUL, no unpaired surrogate (JSON's
    `\\ud800` escapes can make one, and no UTF-8 encoder accepts it)."""
    if value.isascii() and "\x00" not in value:  # the common case, checked fast
        return value
    if "\x00" in value:
        raise FieldError("contains a NUL character (\\u0000), which databases cannot store")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise FieldError("contains an unpaired UTF-16 surrogate (\\ud800-\\udfff)") from None
    return value


def text(value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise FieldError(f"must be a non-empty string, got {shown(value)}")
    return _storable(value)


def optional_text(value: object) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise FieldError(f"must be a string or null, got {shown(value)}")
    return _storable(value)


# A record's own slug goes into URLs as it is (IDs, slug paths joined by '/', lookups by
# slug), so it is URL-safe: RFC 3986's unreserved characters less capitals and '~' (one
# spelling per slug, no case folding), starting with a letter or digit (no '.' or '..'
# path segments).
SLUG = re.compile(r"[a-z0-9][a-z0-9._-]*")
SLUG_RULE = "lowercase letters a-z, digits, '-', '_' and '.', starting with a letter or digit"


def slug(value: object) -> str:
    checked = text(value)
    if not SLUG.fullmatch(checked):
        raise FieldError(f"{checked!r} is not URL-safe: a slug is {SLUG_RULE}{_like(checked)}")
    return checked


def _like(value: str) -> str:
    """A URL-safe slug close to ``value``, as an example to follow (none if nothing of it
    is left)."""
    near = re.sub(r"[^a-z0-9._-]+", "-", value.lower()).strip("-._")
    return f" (such as {near!r})" if near else ""


def reference(value: object) -> str:
    """A slug naming another record: one that is not URL-safe names no record, and is
    reported as missing (with where it was rejected), once for all the lines naming it."""
    return text(value)


def optional_reference(value: object) -> str | None:
    return None if value is None else reference(value)


# date.fromisoformat also takes the basic format (20260220) and week dates (2026-W08-5);
# the dataset format has one way to write a date. ASCII digits only (\d takes any script's).
_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def optional_date(value: object) -> date | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise FieldError(f"must be an ISO date (YYYY-MM-DD) or null, got {shown(value)}")
    try:
        if _ISO_DATE.fullmatch(value):
            return date.fromisoformat(value)
    except ValueError:
        pass
    raise FieldError(f"{value!r} is not an ISO date (YYYY-MM-DD)")


def text_list(value: object) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise FieldError(f"must be a list of strings, got {shown(value)}")
    return [_storable(item) for item in value]


def one_of(*allowed: str) -> Callable[[object], str]:
    def read(value: object) -> str:
        if value not in allowed:
            raise FieldError(f"must be one of {', '.join(allowed)}, got {shown(value)}")
        return str(value)

    return read


# Per file: field -> (reader, required). Unknown fields are errors: a misspelt field name
# (`release-date`) would otherwise be dropped without a word.
Spec = dict[str, tuple[Callable[[object], object], bool]]
SPECS: dict[str, tuple[Spec, type]] = {
    "nodes.jsonl": (
        {
            "slug": (slug, True),
            "name": (text, True),
            "parent": (optional_reference, True),
            "description": (optional_text, False),
            "matching_aids": (text_list, True),
        },
        NodeRecord,
    ),
    "models.jsonl": (
        {
            "slug": (slug, True),
            "name": (text, True),
            "organization": (optional_text, False),
            "release_date": (optional_date, False),
        },
        ModelRecord,
    ),
    "sources.jsonl": (
        {
            "slug": (slug, True),
            "model": (reference, True),
            "title": (text, True),
            "kind": (one_of(*SOURCE_KINDS), True),
            "url": (optional_text, False),
            "published_on": (optional_date, False),
        },
        SourceRecord,
    ),
    "methods.jsonl": (
        {
            "slug": (slug, True),
            "name": (text, True),
            "node": (reference, True),
            "description": (optional_text, False),
            "aliases": (text_list, False),
        },
        MethodRecord,
    ),
    "evidence.jsonl": (
        {
            "model": (reference, True),
            "method": (reference, True),
            "strength": (one_of(*STRENGTHS), True),
            "source": (optional_reference, False),
            "quote": (optional_text, False),
            "locator": (optional_text, False),
        },
        EvidenceRecord,
    ),
}


def read_file(path: Path, problems: Problems, meter: Meter | None = None) -> Iterator[Any]:
    """Yield one record per good line of ``path``; report the bad ones to ``problems``.

    Lines are read one at a time: memory does not grow with the file."""
    name = path.name
    spec, record_class = SPECS[name]
    meter = meter or Quiet()
    try:
        # Bytes, decoded line by line, so that bad UTF-8 is reported at its own line and
        # the lines around it are still read.
        handle = path.open("rb")
        size = path.stat().st_size
    except OSError as exc:
        problems.add(name, 0, f"cannot be read: {exc.strerror}")
        return
    meter.start(name, size)
    bytes_read = 0
    line_number = 0
    with handle:
        for line_number, raw_bytes in enumerate(handle, start=1):
            bytes_read += len(raw_bytes)
            if line_number % 8192 == 0:
                meter.advance(bytes_read, line_number)
            if raw_bytes.isspace():
                continue  # blank lines (a trailing newline, say) carry nothing
            record = _record(raw_bytes, spec, record_class, name, line_number, problems)
            if record is not None:
                yield record
    meter.advance(bytes_read, line_number)
    meter.finish()


def _record(
    raw: bytes, spec: Spec, record_class: type, name: str, line: int, problems: Problems
) -> Any:
    """The line's record, or None once its problems are reported."""
    try:
        obj = decode(raw)
        values, wrong = _fields(obj, spec)
        if wrong:  # said again from the line as written: orjson reads 1e3 as 1000.0
            obj = decode_as_written(raw)
            values, wrong = _fields(obj, spec)
    except LineError as exc:
        problems.add(name, line, str(exc))
        return None
    if not wrong:
        return record_class(line=line, **values)
    for message in wrong:
        problems.add(name, line, message)
    slug = obj.get("slug") if isinstance(obj, dict) else None
    if isinstance(slug, str):
        problems.reject(name, slug, line)
    return None


def _fields(obj: object, spec: Spec) -> tuple[dict[str, object], list[str]]:
    """The record's values, and what is wrong with them."""
    if not isinstance(obj, dict):
        return {}, [f"must be a JSON object, got {kind(obj)}"]
    if not obj.keys() <= spec.keys():
        unknown = sorted(set(obj) - set(spec))
        return {}, [f"unknown field(s) {', '.join(unknown)}; expected {', '.join(spec)}"]
    values: dict[str, object] = {}
    wrong: list[str] = []
    for field_name, (reader, required) in spec.items():
        if field_name not in obj and required:
            wrong.append(f"missing required field '{field_name}'")
            continue
        try:
            values[field_name] = reader(obj.get(field_name))
        except FieldError as exc:
            wrong.append(f"field '{field_name}' {exc}")
    return values, wrong
