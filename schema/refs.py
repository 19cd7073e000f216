"""References between the object types, which refer to each other in circles (a Node
lists Methods, a Method has its Node): the one place that names another module's type, so
that the modules themselves import in one order (tests/test_layers.py).

A field is annotated with the lazy reference, as Strawberry's docs give lazy types
(Strawberry resolves it when the schema is built; mypy sees the real class through the
`TYPE_CHECKING` import), and builds the object through the builder below. The builders
make objects of the classes that registered here (`@refs.builds`) when their modules were
imported, which building the schema does for every one of them."""

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import strawberry

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

_CLASSES: dict[str, Callable[..., Any]] = {}


def builds(cls: T) -> T:
    """Register ``cls`` (placed above its `@strawberry.type`) as the class the builder of
    its name makes."""
    _CLASSES[cls.__name__] = cls
    return cls


def _made(name: str, **fields: Any) -> Any:
    return _CLASSES[name](**fields)


def node(row: Any, stats: Any) -> "Node":
    made: Node = _made("Node", row=row, stats=stats)
    return made


def method(row: Any, stats: Any, node: Any = None) -> "Method":
    made: Method = _made("Method", row=row, stats=stats, node_at_hand=node)
    return made


def model(row: Any) -> "Model":
    made: Model = _made("Model", row=row)
    return made


def source(row: Any) -> "Source":
    made: Source = _made("Source", row=row)
    return made


def evidence(row: Any) -> "Evidence":
    made: Evidence = _made("Evidence", row=row)
    return made


def method_treatment(row: Any, model: Any, method: "Method") -> "MethodTreatment":
    made: MethodTreatment = _made("MethodTreatment", row=row, model_row=model, method_object=method)
    return made


def model_treatment(row: Any, model: Any, node: Any) -> "ModelTreatment":
    made: ModelTreatment = _made("ModelTreatment", row=row, model_row=model, node_pair=node)
    return made


def changes(**fields: Any) -> "Changes":
    made: Changes = _made("Changes", **fields)
    return made
