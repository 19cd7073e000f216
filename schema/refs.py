"""References between the object types, which refer to each other in circles (a Node
lists Methods, a Method has its Node): the one place that names another module's type, so
that the modules themselves import in one order (tests/test_layers.py).

A field is annotated with the lazy reference, as Strawberry's docs give lazy types
(Strawberry resolves it when the schema is built; mypy sees the real class through the
`TYPE_CHECKING` import), and builds the object through the builder below. The builders
make objects of the classes that registered here (`@refs.builds`) when their modules were
imported, which building the schema does for every one of them."""

from typing import TYPE_CHECKING, Annotated, TypeVar

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
    from schema.evidence import Evidence
    from schema.history.changes import Changes
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
ChangesRef = Annotated["Changes", strawberry.lazy("schema.history.changes")]

T = TypeVar("T", bound=type)

# The registered classes by name. Each builder below annotates what it makes: a class's
# constructor called through `type` is not typed further.
_CLASSES: dict[str, type] = {}


def builds(cls: T) -> T:
    """Register ``cls`` (placed above its `@strawberry.type`) as the class the builder of
    its name makes."""
    _CLASSES[cls.__name__] = cls
    return cls


def node(row: NodeRow, stats: NodeStatsRow) -> "Node":
    made: Node = _CLASSES["Node"](row=row, stats=stats)
    return made


def method(row: MethodRow, stats: MethodStatsRow) -> "Method":
    made: Method = _CLASSES["Method"](row=row, stats=stats)
    return made


def model(row: ModelRow) -> "Model":
    made: Model = _CLASSES["Model"](row=row)
    return made


def source(row: SourceRow) -> "Source":
    made: Source = _CLASSES["Source"](row=row)
    return made


def evidence(row: EvidenceRow) -> "Evidence":
    made: Evidence = _CLASSES["Evidence"](row=row)
    return made


def method_treatment(row: TreatmentRow, model: ModelRow, method: "Method") -> "MethodTreatment":
    made: MethodTreatment = _CLASSES["MethodTreatment"](
        row=row, model_row=model, method_object=method
    )
    return made


def model_treatment(row: BranchModelRow, model: ModelRow, node: NodeWithStats) -> "ModelTreatment":
    made: ModelTreatment = _CLASSES["ModelTreatment"](row=row, model_row=model, node_pair=node)
    return made


def changes(**fields: object) -> "Changes":
    made: Changes = _CLASSES["Changes"](**fields)
    return made
