"""References between the object types, which refer to each other in circles (a Node
lists Methods, a Method has its Node): the one place that names another module's type, so
that the modules themselves import in one order (tests/test_layers.py).

A field is annotated with the lazy reference, as Strawberry's docs give lazy types
(Strawberry resolves it when the schema is built; mypy sees the real class through the
`TYPE_CHECKING` import), and builds the object through the builder below. The builders
make objects of the classes that registered here (`@refs.builds`) when their modules were
imported, which building the schema does for every one of them."""

from typing import TYPE_CHECKING, Annotated, TypeVar, cast

import strawberry

from store.nodes import NodeWithStats
from store.tables import (
    BranchModelRow,
    EvidenceRow,
    MethodRow,
    MethodStatsRow,
    ModelRow,
    NodeRow,
    NodeStatsRow,
    SourceRow,
    TreatmentRow,
)

if TYPE_CHECKING:
    from schema.changes import Changes
    from schema.evidence import Evidence
    from schema.method import Method
    from schema.model import Model
    from schema.node import Node
    from schema.source import Source
    from schema.treatment import MethodTreatment, ModelTreatment

NodeRef = Annotated["Node", strawberry.lazy("schema.node")]
MethodRef = Annotated["Method", strawberry.lazy("schema.method")]
ModelRef = Annotated["Model", strawberry.lazy("schema.model")]
SourceRef = Annotated["Source", strawberry.lazy("schema.source")]
EvidenceRef = Annotated["Evidence", strawberry.lazy("schema.evidence")]
MethodTreatmentRef = Annotated["MethodTreatment", strawberry.lazy("schema.treatment")]
ModelTreatmentRef = Annotated["ModelTreatment", strawberry.lazy("schema.treatment")]
ChangesRef = Annotated["Changes", strawberry.lazy("schema.changes")]

T = TypeVar("T", bound=type)

_CLASSES: dict[str, type] = {}


def builds(cls: T) -> T:
    """Register ``cls`` (placed above its `@strawberry.type`) as the class the builder of
    its name makes."""
    _CLASSES[cls.__name__] = cls
    return cls


def _made(name: str, **fields: object) -> object:
    return _CLASSES[name](**fields)


def node(row: NodeRow, stats: NodeStatsRow) -> "Node":
    return cast("Node", _made("Node", row=row, stats=stats))


def method(row: MethodRow, stats: MethodStatsRow, node: NodeWithStats | None = None) -> "Method":
    return cast("Method", _made("Method", row=row, stats=stats, node_at_hand=node))


def model(row: ModelRow) -> "Model":
    return cast("Model", _made("Model", row=row))


def source(row: SourceRow) -> "Source":
    return cast("Source", _made("Source", row=row))


def evidence(row: EvidenceRow) -> "Evidence":
    return cast("Evidence", _made("Evidence", row=row))


def method_treatment(row: TreatmentRow, model: ModelRow, method: "Method") -> "MethodTreatment":
    made = _made("MethodTreatment", row=row, model_row=model, method_object=method)
    return cast("MethodTreatment", made)


def model_treatment(row: BranchModelRow, model: ModelRow, node: NodeWithStats) -> "ModelTreatment":
    made = _made("ModelTreatment", row=row, model_row=model, node_pair=node)
    return cast("ModelTreatment", made)


def changes(**fields: object) -> "Changes":
    return cast("Changes", _made("Changes", **fields))
