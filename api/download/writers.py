"""Rows as CSV (RFC 4180) or as a JSON array of one object a line, written a chunk at a
time, and the marker that ends a download cut short (docs/operations.md "Downloads")."""

import csv
import io
from collections.abc import Sequence
from typing import Any, Protocol

import orjson

# A cell starting with one of these is read as a formula by spreadsheets (CSV injection):
# it is written with a leading apostrophe, which they show as text.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# Between the items of a list in one CSV cell (a row's methods).
LIST_SEPARATOR = "; "
# What the last line of a CSV download cut short begins with.
INCOMPLETE = "DOWNLOAD INCOMPLETE"

Row = dict[str, Any]


def guarded(text: str) -> str:
    """``text`` as a spreadsheet will show it, never run it."""
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def cell(value: object) -> str:
    """A value as a CSV cell: nothing for null, a list's items joined, text guarded."""
    if value is None:
        return ""
    if isinstance(value, list):
        return guarded(LIST_SEPARATOR.join(str(item) for item in value))
    if isinstance(value, bool | int | float):
        return str(value).lower() if isinstance(value, bool) else str(value)
    return guarded(str(value))


class Writer(Protocol):
    media_type: str
    extension: str

    def start(self, columns: Sequence[str]) -> bytes: ...

    def rows(self, rows: Sequence[Row]) -> bytes: ...

    def end(self) -> bytes: ...

    def stopped(self, code: str, message: str) -> bytes:
        """The end of a download cut short: a last line that says so, and why."""
        ...


class CsvWriter:
    """A header row, then a line a row, CRLF-ended and quoted as RFC 4180 says."""

    media_type = "text/csv; charset=utf-8; header=present"
    extension = "csv"

    def __init__(self) -> None:
        self._columns: Sequence[str] = ()

    def _lines(self, rows: Sequence[Sequence[str]]) -> bytes:
        buffer = io.StringIO()
        csv.writer(buffer, lineterminator="\r\n").writerows(rows)
        return buffer.getvalue().encode()

    def start(self, columns: Sequence[str]) -> bytes:
        self._columns = columns
        return self._lines([list(columns)])

    def rows(self, rows: Sequence[Row]) -> bytes:
        return self._lines([[cell(row[name]) for name in self._columns] for row in rows])

    def end(self) -> bytes:
        return b""

    def stopped(self, code: str, message: str) -> bytes:
        return self._lines([[f"{INCOMPLETE} ({code}): {message}"]])


class JsonWriter:
    """A JSON array, an object a line (`[`, the rows each on its own line, `]`)."""

    media_type = "application/json"
    extension = "json"

    def __init__(self) -> None:
        self._written = False

    def start(self, columns: Sequence[str]) -> bytes:
        del columns  # each object names its own
        return b"["

    def _line(self, value: object) -> bytes:
        line = (b",\n" if self._written else b"\n") + orjson.dumps(value)
        self._written = True
        return line

    def rows(self, rows: Sequence[Row]) -> bytes:
        return b"".join(self._line(row) for row in rows)

    def end(self) -> bytes:
        return b"\n]\n"

    def stopped(self, code: str, message: str) -> bytes:
        return self._line({"error": {"code": code, "message": message}}) + self.end()


WRITERS: dict[str, type[CsvWriter] | type[JsonWriter]] = {"csv": CsvWriter, "json": JsonWriter}
