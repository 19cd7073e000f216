"""The `Date` and `DateTime` scalars, with `@specifiedBy` naming the format they are
written in, so that client generators (gql.tada, graphql-codegen, Apollo Kotlin) and
GraphiQL can tell what a value looks like instead of treating it as unknown."""

from collections.abc import Callable
from datetime import date, datetime
from typing import TypeVar

import strawberry
from strawberry.types.scalar import ScalarDefinition

T = TypeVar("T")


class ScalarValueError(ValueError):
    """A value the client sent that a scalar refuses: graphql-core reports it with where it
    is in the document, and schema.errors codes it as the client's (not INTERNAL)."""


# RFC 3339 §5.6: `full-date` (2025-07-01) and `date-time` (2025-07-01T12:00:00+00:00),
# the internet profile of ISO 8601.
RFC_3339 = "https://datatracker.ietf.org/doc/html/rfc3339#section-5.6"


def _isoformat(value: date) -> str:
    return value.isoformat()


def _parser(kind: str, example: str, parse: Callable[[str], T]) -> Callable[[object], T]:
    """``parse`` for values a client sent, written inline or as variables alike: what it
    refuses is the client's error, said as such, never a fault of ours (a bare ValueError
    or TypeError was answered INTERNAL)."""

    def parse_value(value: object) -> T:
        if not isinstance(value, str):
            raise ScalarValueError(f"a {kind} is written as a string, e.g. {example!r}")
        try:
            return parse(value)
        except ValueError as exc:
            raise ScalarValueError(f"not a {kind}, e.g. {example!r}: {exc}") from None

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
