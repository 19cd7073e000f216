"""The `Date` and `DateTime` scalars, with `@specifiedBy` naming the format they are
written in, so that client generators (gql.tada, graphql-codegen, Apollo Kotlin) and
GraphiQL can tell what a value looks like instead of treating it as unknown.

A value they cannot read is not refused by GraphQL's validation (which would refuse the
whole request): it is read as an Unreadable, which schema.readable refuses on the field
it was given to, with BAD_USER_INPUT, its siblings answered (docs/api-guide.md, "Errors
stay on their field"). Inline and as a variable alike: a literal goes through
``parse_value`` too (graphql-core's default ``parse_literal`` reads it as JSON-like first)."""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from typing import TypeVar

import strawberry
from strawberry.types.scalar import ScalarDefinition

T = TypeVar("T")


@dataclass(frozen=True)
class Unreadable:
    """A value a scalar could not read, and why, in place of the value it would have been."""

    value: object
    why: str


# RFC 3339 §5.6: `full-date` (2025-07-01) and `date-time` (2025-07-01T12:00:00+00:00),
# the internet profile of ISO 8601.
RFC_3339 = "https://datatracker.ietf.org/doc/html/rfc3339#section-5.6"


def _isoformat(value: date) -> str:
    return value.isoformat()


def _parser(
    kind: str, example: str, parse: Callable[[str], T]
) -> Callable[[object], T | Unreadable]:
    """``parse`` for values a client sent, written inline or as variables alike: what it
    cannot read is an Unreadable saying what a ``kind`` looks like (never an exception,
    which graphql-core turns into a refusal of the whole request)."""

    def parse_value(value: object) -> T | Unreadable:
        if not isinstance(value, str):
            return Unreadable(value, f"not a string, as a {kind} is written: e.g. {example!r}")
        try:
            return parse(value)
        except ValueError as exc:
            return Unreadable(value, f"not a {kind}, written like {example!r} ({exc})")

    return parse_value


Date = strawberry.scalar(
    name="Date",
    description="A calendar date, `YYYY-MM-DD` (RFC 3339 `full-date`, ISO 8601), e.g. "
    "`2025-07-01`.",
    specified_by_url=RFC_3339,
    serialize=_isoformat,
    parse_value=_parser("Date", "2025-07-01", date.fromisoformat),
)

DateTime = strawberry.scalar(
    name="DateTime",
    description="A moment with its UTC offset (RFC 3339 `date-time`, ISO 8601), e.g. "
    "`2025-07-01T12:00:00+00:00`.",
    specified_by_url=RFC_3339,
    serialize=_isoformat,
    parse_value=_parser("DateTime", "2025-07-01T12:00:00+00:00", datetime.fromisoformat),
)

# StrawberryConfig.scalar_map: what `date` and `datetime` annotations become.
SCALAR_MAP: dict[object, ScalarDefinition] = {date: Date, datetime: DateTime}
