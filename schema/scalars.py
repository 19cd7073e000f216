"""The `Date` and `DateTime` scalars, with `@specifiedBy` naming the format they are
written in, so that client generators (gql.tada, graphql-codegen, Apollo Kotlin) and
GraphiQL can tell what a value looks like instead of treating it as unknown."""

from datetime import date, datetime

import strawberry
from strawberry.types.scalar import ScalarDefinition

# RFC 3339 §5.6: `full-date` (2025-07-01) and `date-time` (2025-07-01T12:00:00+00:00),
# the internet profile of ISO 8601.
RFC_3339 = "https://datatracker.ietf.org/doc/html/rfc3339#section-5.6"


def _isoformat(value: date) -> str:
    return value.isoformat()


Date = strawberry.scalar(
    name="Date",
    description="A calendar date, `YYYY-MM-DD` (RFC 3339 `full-date`, ISO 8601), e.g. "
    "`2025-07-01`.",
    specified_by_url=RFC_3339,
    serialize=_isoformat,
    parse_value=date.fromisoformat,
)

DateTime = strawberry.scalar(
    name="DateTime",
    description="A moment with its UTC offset (RFC 3339 `date-time`, ISO 8601), e.g. "
    "`2025-07-01T12:00:00+00:00`.",
    specified_by_url=RFC_3339,
    serialize=_isoformat,
    parse_value=datetime.fromisoformat,
)

# StrawberryConfig.scalar_map: what `date` and `datetime` annotations become.
SCALAR_MAP: dict[object, ScalarDefinition] = {date: Date, datetime: DateTime}
