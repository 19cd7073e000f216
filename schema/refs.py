"""Lazy references between the object types, which refer to each other in circles
(a Node lists Methods, a Method has its Node): Strawberry resolves them when the schema
is built; mypy sees the real classes."""

from typing import TYPE_CHECKING, Annotated

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
