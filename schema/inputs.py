"""Filter and order inputs of the list fields."""

from datetime import date
from typing import Annotated, Generic, TypeVar

import strawberry

from schema.base import optional_input
from schema.enums import (
    ASCENDING_BY_NATURE,
    SAME_ORDER_AS,
    MethodOrderField,
    ModelOrderField,
    ModelTreatmentOrderField,
    OrderDirection,
    ReleaseOrderField,
    Strength,
    TreatmentsOfMethodOrderField,
    TreatmentsOfModelOrderField,
)
from schema.errors import BadUserInputError
from schema.node_ref import NodeReference, branch_field, within_field
from store.history.releases import ReleaseSelection
from store.models import ModelSelection
from store.paging import Sort

OrderField = TypeVar("OrderField")


def first_seen_after_field(what: str) -> int | None:
    """A filter's `firstSeenAfter: Int`: "new since release N"."""
    return optional_input(
        int,
        f"Only {what} first seen in a release after this release number (new since that "
        "release; see `firstSeen` and `releases`).",
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


def _direction() -> OrderDirection | None:
    """Each order's direction, described once."""
    return optional_input(
        OrderDirection,
        "ASC or DESC; left out or null, the field's natural direction (its description "
        "says which: A to Z for names, tree order for nodes, the largest, strongest or "
        "newest first for the rest).",
    )


@strawberry.input
class Order(Generic[OrderField]):
    """Every order input: a field (each list's own enum) and a direction."""

    field: OrderField = strawberry.field(description="What to order by.")
    direction: OrderDirection | None = _direction()


@strawberry.input(description="How to order methods.")
class MethodOrder(Order[MethodOrderField]):
    pass


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
class ModelOrder(Order[ModelOrderField]):
    pass


@strawberry.input(description="Narrows a list of releases; every given condition must hold.")
class ReleaseFilter:
    loaded_from: date | None = strawberry.field(
        default=None,
        description="Only releases loaded on or after this day (UTC, as `loadedAt`).",
    )
    loaded_to: date | None = strawberry.field(
        default=None,
        description="Only releases loaded on or before this day (UTC, as `loadedAt`).",
    )
    note_contains: str | None = strawberry.field(
        default=None,
        description="Only releases whose note contains this text (any case).",
    )


@strawberry.input(description="How to order releases.")
class ReleaseOrder(Order[ReleaseOrderField]):
    pass


@strawberry.input(description="How to order the rows of a By-model table.")
class ModelTreatmentOrder(Order[ModelTreatmentOrderField]):
    pass


@strawberry.input(description="How to order a model's treatments (its methods).")
class TreatmentsOfModelOrder(Order[TreatmentsOfModelOrderField]):
    pass


@strawberry.input(description="How to order a method's treatments (the models that treat it).")
class TreatmentsOfMethodOrder(Order[TreatmentsOfMethodOrderField]):
    pass


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


# Longer than any name here; SQLite refuses LIKE patterns over 50,000 bytes. A release's
# note is a line of the loader's (`taxonomy load --note`): 1,000 characters is a page of it.
MAX_NAME_CONTAINS = 200
MAX_NOTE_CONTAINS = 1_000


def _contains(text: str | None, argument: str, where: str, most: int) -> str | None:
    """A filter's text to look for, refused when it is longer than ``most`` characters."""
    if text is not None and len(text) > most:
        raise BadUserInputError(
            f"`{argument}` is {len(text):,} characters; at most {most:,} are looked for in {where}"
        )
    return text


def name_contains(given: MethodFilter | ModelFilter | None) -> str | None:
    """A filter's `nameContains`, refused when it could name nothing (too long)."""
    text = given.name_contains if given is not None else None
    return _contains(text, "filter.nameContains", "names", MAX_NAME_CONTAINS)


def release_selection(given: ReleaseFilter | None) -> ReleaseSelection:
    """A releases filter as the data layer takes it: a day range that ends before it
    starts is refused (it could hold no release), as a note text too long to be in one."""
    if given is None:
        return ReleaseSelection()
    start, end = given.loaded_from, given.loaded_to
    if start is not None and end is not None and start > end:
        raise BadUserInputError(
            f"`filter.loadedFrom` ({start.isoformat()}) is after `filter.loadedTo` "
            f"({end.isoformat()}): no day is in that range; give the earlier day as "
            "`loadedFrom`",
            argument="filter.loadedFrom",
        )
    return ReleaseSelection(
        loaded_from=start,
        loaded_to=end,
        note_contains=_contains(
            given.note_contains, "filter.noteContains", "notes", MAX_NOTE_CONTAINS
        ),
    )


def model_selection(given: ModelFilter | None) -> ModelSelection:
    """A models filter as the data layer takes it (the models list's, and byModel's)."""
    if given is None:
        return ModelSelection()
    return ModelSelection(
        name_contains=name_contains(given),
        organization=given.organization,
        released_after=given.released_after,
        released_before=given.released_before,
        first_seen_after=given.first_seen_after,
    )


def sort_of(
    order: MethodOrder
    | ModelOrder
    | ModelTreatmentOrder
    | ReleaseOrder
    | TreatmentsOfModelOrder
    | TreatmentsOfMethodOrder,
) -> Sort:
    """An order argument as the data layer takes it: an old name of a field as the field,
    a direction left out as the field's natural one."""
    field = str(order.field.value)
    field = SAME_ORDER_AS.get(field, field)
    if order.direction is None:
        return Sort(field, descending=field not in ASCENDING_BY_NATURE)
    return Sort(field, descending=order.direction is OrderDirection.DESC)


def list_name_of(list_field: str, sort: Sort) -> str:
    """What a list's cursors name it by: the field and the order it was read in (an order
    asked for by an old name or with its natural direction left out is the same list)."""
    return f"{list_field}:{sort.field}:{'desc' if sort.descending else 'asc'}"


# The list fields' filter and order arguments, described once.
MethodFilterArgument = Annotated[
    MethodFilter | None, strawberry.argument(description="Narrow the list of methods.")
]
MethodOrderArgument = Annotated[
    MethodOrder | None,
    strawberry.argument(description="Order of the list; null: the default, by name."),
]
ModelFilterArgument = Annotated[
    ModelFilter | None, strawberry.argument(description="Narrow the list of models.")
]
ModelOrderArgument = Annotated[
    ModelOrder | None,
    strawberry.argument(description="Order of the list; null: the default, by name."),
]
ReleaseFilterArgument = Annotated[
    ReleaseFilter | None, strawberry.argument(description="Narrow the list of releases.")
]
ReleaseOrderArgument = Annotated[
    ReleaseOrder | None,
    strawberry.argument(description="Order of the list; null: the default, the newest first."),
]
EvidenceFilterArgument = Annotated[
    EvidenceFilter | None, strawberry.argument(description="Narrow the list of evidence.")
]
_STRONGEST_FIRST_BY_DEFAULT = "Order of the list; null: the default, the strongest first."
TreatmentsOfModelOrderArgument = Annotated[
    TreatmentsOfModelOrder | None, strawberry.argument(description=_STRONGEST_FIRST_BY_DEFAULT)
]
TreatmentsOfMethodOrderArgument = Annotated[
    TreatmentsOfMethodOrder | None, strawberry.argument(description=_STRONGEST_FIRST_BY_DEFAULT)
]
MinTreatmentStrength = Annotated[
    Strength | None, strawberry.argument(description="Only treatments at least this strong.")
]

# The lists' default orders, as the schema states them (`orderBy: MethodOrder = {field:
# NAME}`); an order given as null is the default too. Never changed: shared defaults.
METHODS_BY_NAME = MethodOrder(field=MethodOrderField.NAME)
MODELS_BY_NAME = ModelOrder(field=ModelOrderField.NAME)
RELEASES_NEWEST_FIRST = ReleaseOrder(field=ReleaseOrderField.NUMBER)
BY_MODEL_NEWEST_FIRST = ModelTreatmentOrder(field=ModelTreatmentOrderField.RELEASE_DATE)
TREATMENTS_STRONGEST_FIRST = TreatmentsOfModelOrder(field=TreatmentsOfModelOrderField.STRONGEST)
MODELS_STRONGEST_FIRST = TreatmentsOfMethodOrder(field=TreatmentsOfMethodOrderField.STRONGEST)


def treatments_list_name(list_field: str, sort: Sort) -> str:
    """What a list of treatments' cursors name it by: in the default order (strongest
    first) the name its cursors had before it had other orders, so that they still work;
    in the others, the field and the order (list_name_of)."""
    if sort == Sort("strongest", descending=True):
        return list_field
    return list_name_of(list_field, sort)
