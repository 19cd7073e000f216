"""References between the object types, which refer to each other in circles (a Node
lists Methods, a Method has its Node): the one place that names another module's type.

A type's field is annotated with the lazy reference (Strawberry resolves it when the
schema is built; mypy sees the real class), and builds the object through the builder
(the class found once, at the first call, when every module is loaded)."""

from collections.abc import Callable
from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING, Annotated, Any

import strawberry

if TYPE_CHECKING:
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


@cache
def _class(module: str, name: str) -> Callable[..., Any]:
    return getattr(import_module(module), name)  # type: ignore[no-any-return]


def node(row: Any, stats: Any) -> "Node":
    return _class("schema.node", "Node")(row=row, stats=stats)  # type: ignore[no-any-return]


def method(row: Any, stats: Any, node: Any = None) -> "Method":
    return _class("schema.method", "Method")(row=row, stats=stats, node_at_hand=node)  # type: ignore[no-any-return]


def model(row: Any) -> "Model":
    return _class("schema.model", "Model")(row=row)  # type: ignore[no-any-return]


def source(row: Any) -> "Source":
    return _class("schema.source", "Source")(row=row)  # type: ignore[no-any-return]


def evidence(row: Any) -> "Evidence":
    return _class("schema.evidence", "Evidence")(row=row)  # type: ignore[no-any-return]


def method_treatment(row: Any, model: Any, method: "Method") -> "MethodTreatment":
    build = _class("schema.treatment", "MethodTreatment")
    return build(row=row, model_row=model, method_object=method)  # type: ignore[no-any-return]


def model_treatment(row: Any, model: Any, node: Any) -> "ModelTreatment":
    build = _class("schema.treatment", "ModelTreatment")
    return build(row=row, model_row=model, node_pair=node)  # type: ignore[no-any-return]
