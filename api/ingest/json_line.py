"""One line of a JSON Lines file decoded into a value, or a sentence saying what is wrong.

orjson reads the good lines fast. A line it refuses is read again by the standard
library, which says where the JSON breaks, and accepts what orjson refuses but a field
check names better (an unpaired surrogate, a number too large for a double). That second
reading keeps numbers as the text they were written in: no field takes a number, so a
number is only ever shown in a problem, as written (`1e3`, not `1000.0`), and a
5,000-digit one is never converted (Python's int() refuses strings over 4,300 digits
with a ValueError). Whatever either parser raises, nesting too deep for it included,
becomes a `LineError`: a bad line is reported at its line, never as a traceback.
"""

import json
from typing import NoReturn

import orjson


class LineError(ValueError):
    """What is wrong with a line, as the end of a sentence: "is not valid JSON (...)"."""


class Number:
    """A JSON number as the line wrote it."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def decode(raw: bytes) -> object:
    """The line's value; raises LineError."""
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        return decode_as_written(raw)


def decode_as_written(raw: bytes) -> object:
    """The line's value with its numbers as `Number`s (slower than `decode`); raises
    LineError."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LineError(f"is not valid UTF-8 (byte {exc.start + 1})") from None
    try:
        return json.loads(
            text.rstrip("\r\n"), parse_int=Number, parse_float=Number, parse_constant=_constant
        )
    except json.JSONDecodeError as exc:
        raise LineError(f"is not valid JSON ({exc.msg} at column {exc.colno})") from None
    except RecursionError:
        raise LineError(
            f"is nested too deeply: arrays or objects {_depth(text):,} levels inside each other"
        ) from None
    except ValueError as exc:  # raised by a hook (_constant), or anything else the parser raises
        raise LineError(f"is not valid JSON ({exc})") from None


def _constant(name: str) -> NoReturn:
    # The standard library reads NaN and Infinity, which JSON does not have.
    raise ValueError(f"{name} is not a JSON number")


def _depth(text: str) -> int:
    """How deep arrays and objects nest in ``text`` (brackets inside strings aside)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def kind(value: object) -> str:
    """The JSON kind of a decoded value, for "must be an object, got <kind>"."""
    if isinstance(value, Number | int | float) and not isinstance(value, bool):
        return "number"
    return {dict: "object", list: "list", str: "string", bool: "boolean"}.get(type(value), "null")


def shown(value: object, limit: int = 80) -> str:
    """``value`` as JSON for a message, numbers as written, cut to about ``limit``
    characters (a line can hold a megabyte, or nest a thousand levels deep)."""
    text = _render(value, limit, levels=3)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text):,} characters)"


def _render(value: object, budget: int, levels: int) -> str:
    """JSON text of ``value``; a list or object stops after about ``budget`` characters
    and ``levels`` levels down, so that neither size nor depth costs anything."""
    if isinstance(value, Number):
        return value.text
    if isinstance(value, list | dict):
        if levels == 0:
            return "[…]" if isinstance(value, list) else "{…}"
        items = value.items() if isinstance(value, dict) else ((None, item) for item in value)
        parts: list[str] = []
        size = 0
        for key, item in items:
            if size > budget:
                parts.append("…")
                break
            part = _render(item, budget, levels - 1)
            parts.append(part if key is None else f"{json.dumps(key)}: {part}")
            size += len(parts[-1]) + 2
        inside = ", ".join(parts)
        return f"[{inside}]" if isinstance(value, list) else f"{{{inside}}}"
    return json.dumps(value)
