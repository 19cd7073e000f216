from typing import Any, Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import (
    MethodOrderField,
    ModelOrderField,
    ModelTreatmentOrderField,
    OrderDirection,
    ReleaseOrderField,
    Strength,
    TreatmentsOfMethodOrderField,
    TreatmentsOfModelOrderField,
)


class EvidenceFilter(BaseModel):
    """Narrows a list of evidence; every given condition must hold."""

    min_strength: Optional[Strength] = Field(alias="minStrength", default=None)
    "Only evidence at least this strong."
    model: Optional[str] = None
    "Only evidence of this model (a Model ID)."
    method: Optional[str] = None
    "Only evidence on this method (a Method ID)."
    source: Optional[str] = None
    "Only evidence from this source (a Source ID)."
    within: Optional[str] = None
    "Only evidence on methods in the branch of this node (a Node ID)."
    branch: Optional["NodeRef"] = None
    "Only evidence on methods in the branch of this node (by ID, slug, slug path or names path)."


class MethodFilter(BaseModel):
    """Narrows a list of methods; every given condition must hold."""

    name_contains: Optional[str] = Field(alias="nameContains", default=None)
    "Only methods whose name contains this text (any case)."
    min_strength: Optional[Strength] = Field(alias="minStrength", default=None)
    "Only methods whose strongest treatment is at least this strong."
    has_evidence: Optional[bool] = Field(alias="hasEvidence", default=None)
    "true: only methods some model treats; false: only methods none treats."
    within: Optional[str] = None
    "Only methods in the branch of this node (a Node ID)."
    branch: Optional["NodeRef"] = None
    "Only methods in the branch of this node (by ID, slug, slug path or names path)."
    first_seen_after: Optional[int] = Field(alias="firstSeenAfter", default=None)
    "Only methods first seen in a release after this release number (new since that release; see `firstSeen` and `releases`)."


class MethodOrder(BaseModel):
    """How to order methods."""

    field: MethodOrderField
    "What to order by."
    direction: Optional[OrderDirection] = None
    "ASC or DESC; left out or null, the field's natural direction (its description says which: A to Z for names, tree order for nodes, the largest, strongest or newest first for the rest)."


class ModelFilter(BaseModel):
    """Narrows a list of models; every given condition must hold."""

    name_contains: Optional[str] = Field(alias="nameContains", default=None)
    "Only models whose name contains this text (any case)."
    organization: Optional[str] = None
    "Only models of this organization (exact, any case)."
    released_after: Optional[Any] = Field(alias="releasedAfter", default=None)
    "Only models released on or after this date."
    released_before: Optional[Any] = Field(alias="releasedBefore", default=None)
    "Only models released on or before this date."
    first_seen_after: Optional[int] = Field(alias="firstSeenAfter", default=None)
    "Only models first seen in a release after this release number (new since that release; see `firstSeen` and `releases`)."


class ModelOrder(BaseModel):
    """How to order models."""

    field: ModelOrderField
    "What to order by."
    direction: Optional[OrderDirection] = None
    "ASC or DESC; left out or null, the field's natural direction (its description says which: A to Z for names, tree order for nodes, the largest, strongest or newest first for the rest)."


class ModelTreatmentOrder(BaseModel):
    """How to order the rows of a By-model table."""

    field: ModelTreatmentOrderField
    "What to order by."
    direction: Optional[OrderDirection] = None
    "ASC or DESC; left out or null, the field's natural direction (its description says which: A to Z for names, tree order for nodes, the largest, strongest or newest first for the rest)."


class NodeRef(BaseModel):
    """A node, named by exactly one of its ID, slug, slug path or names path: what a page URL or a breadcrumb already has, with no lookup first."""

    id: Optional[str] = None
    "The node's ID."
    slug: Optional[str] = None
    "The node's slug, e.g. `training-parallelism`."
    slug_path: Optional[str] = Field(alias="slugPath", default=None)
    "The node's slug path, e.g. `optimization/training-parallelism`."
    path: Optional[str] = None
    "A names path as `Node.path` shows it (`optimization :: training parallelism`, any case; a root's is its name) or a slug path, as `node(path:)` takes it."


class ReleaseFilter(BaseModel):
    """Narrows a list of releases; every given condition must hold."""

    loaded_from: Optional[Any] = Field(alias="loadedFrom", default=None)
    "Only releases loaded on or after this day (UTC, as `loadedAt`)."
    loaded_to: Optional[Any] = Field(alias="loadedTo", default=None)
    "Only releases loaded on or before this day (UTC, as `loadedAt`)."
    note_contains: Optional[str] = Field(alias="noteContains", default=None)
    "Only releases whose note contains this text (any case)."


class ReleaseOrder(BaseModel):
    """How to order releases."""

    field: ReleaseOrderField
    "What to order by."
    direction: Optional[OrderDirection] = None
    "ASC or DESC; left out or null, the field's natural direction (its description says which: A to Z for names, tree order for nodes, the largest, strongest or newest first for the rest)."


class TreatmentsOfMethodOrder(BaseModel):
    """How to order a method's treatments (the models that treat it)."""

    field: TreatmentsOfMethodOrderField
    "What to order by."
    direction: Optional[OrderDirection] = None
    "ASC or DESC; left out or null, the field's natural direction (its description says which: A to Z for names, tree order for nodes, the largest, strongest or newest first for the rest)."


class TreatmentsOfModelOrder(BaseModel):
    """How to order a model's treatments (its methods)."""

    field: TreatmentsOfModelOrderField
    "What to order by."
    direction: Optional[OrderDirection] = None
    "ASC or DESC; left out or null, the field's natural direction (its description says which: A to Z for names, tree order for nodes, the largest, strongest or newest first for the rest)."


EvidenceFilter.model_rebuild()
MethodFilter.model_rebuild()
