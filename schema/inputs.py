"""Filter and order inputs of the list fields."""

from datetime import date
from typing import Annotated, Any

import strawberry

from schema.enums import (
    MethodOrderField,
    ModelOrderField,
    ModelTreatmentOrderField,
    OrderDirection,
    Strength,
)
from schema.errors import BadUserInputError
from schema.node_ref import NodeReference, branch_field, within_field
from store.paging import Sort


def first_seen_after_field(what: str) -> Any:
    """A filter's `firstSeenAfter: Int`: "new since release N"."""
    return strawberry.field(
        default=None,
        description=f"Only {what} first seen in a release after this release number (new "
        "since that release; see `firstSeen` and `releases`).",
    )


@strawberry.input(description="Narrows a list of methods; every given condition must hold.")
class MethodFilter:
    name_contains: str | None = strawberry.field(
        default=None, description="Only methods whose name contains this text (any case)."
    )
    min_strength: Strength | None = strawberry.field(
        default=None,
        description="Only methods whose strongest treatment is at least this strong.",
    )
    has_evidence: bool | None = strawberry.field(
        default=None,
        description="true: only methods some model treats; false: only methods none treats.",
    )
    within: strawberry.ID | None = within_field("methods")
    branch: NodeReference | None = branch_field("methods")
    first_seen_after: int | None = first_seen_after_field("methods")


@strawberry.input(description="How to order methods.")
class MethodOrder:
    field: MethodOrderField = strawberry.field(description="What to order by.")
    direction: OrderDirection = strawberry.field(
        default=OrderDirection.ASC, description="Ascending or descending."
    )


@strawberry.input(description="Narrows a list of models; every given condition must hold.")
class ModelFilter:
    name_contains: str | None = strawberry.field(
        default=None, description="Only models whose name contains this text (any case)."
    )
    organization: str | None = strawberry.field(
        default=None, description="Only models of this organization (exact, any case)."
    )
    released_after: date | None = strawberry.field(
        default=None, description="Only models released on or after this date."
    )
    released_before: date | None = strawberry.field(
        default=None, description="Only models released on or before this date."
    )
    first_seen_after: int | None = first_seen_after_field("models")


@strawberry.input(description="How to order models.")
class ModelOrder:
    field: ModelOrderField = strawberry.field(description="What to order by.")
    direction: OrderDirection = strawberry.field(
        default=OrderDirection.ASC, description="Ascending or descending."
    )


@strawberry.input(description="How to order the rows of a By-model table.")
class ModelTreatmentOrder:
    field: ModelTreatmentOrderField = strawberry.field(description="What to order by.")
    direction: OrderDirection = strawberry.field(
        default=OrderDirection.DESC, description="Ascending or descending."
    )


@strawberry.input(description="Narrows a list of evidence; every given condition must hold.")
class EvidenceFilter:
    min_strength: Strength | None = strawberry.field(
        default=None, description="Only evidence at least this strong."
    )
    model: strawberry.ID | None = strawberry.field(
        default=None, description="Only evidence of this model (a Model ID)."
    )
    method: strawberry.ID | None = strawberry.field(
        default=None, description="Only evidence on this method (a Method ID)."
    )
    source: strawberry.ID | None = strawberry.field(
        default=None, description="Only evidence from this source (a Source ID)."
    )
    within: strawberry.ID | None = within_field("evidence on methods")
    branch: NodeReference | None = branch_field("evidence on methods")


# Longer than any name here; SQLite refuses LIKE patterns over 50,000 bytes.
MAX_NAME_CONTAINS = 200


def name_contains(given: MethodFilter | ModelFilter | None) -> str | None:
    """A filter's `nameContains`, refused when it could name nothing (too long)."""
    text = given.name_contains if given is not None else None
    if text is not None and len(text) > MAX_NAME_CONTAINS:
        raise BadUserInputError(
            f"`filter.nameContains` is {len(text):,} characters; at most "
            f"{MAX_NAME_CONTAINS} are looked for in names"
        )
    return text


def sort_of(order: MethodOrder | ModelOrder | ModelTreatmentOrder) -> Sort:
    """An order argument as the data layer takes it."""
    return Sort(str(order.field.value), order.direction is OrderDirection.DESC)


# The list fields' filter and order arguments, described once.
MethodFilterArgument = Annotated[
    MethodFilter | None, strawberry.argument(description="Narrow the list of methods.")
]
MethodOrderArgument = Annotated[
    MethodOrder | None,
    strawberry.argument(description="Order of the list; by name if not given."),
]
ModelFilterArgument = Annotated[
    ModelFilter | None, strawberry.argument(description="Narrow the list of models.")
]
ModelOrderArgument = Annotated[
    ModelOrder | None,
    strawberry.argument(description="Order of the list; by name if not given."),
]
EvidenceFilterArgument = Annotated[
    EvidenceFilter | None, strawberry.argument(description="Narrow the list of evidence.")
]
