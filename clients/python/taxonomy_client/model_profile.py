from typing import Any, Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import Strength


class ModelProfile(BaseModel):
    model: Optional["ModelProfileModel"]


class ModelProfileModel(BaseModel):
    id: str
    name: str
    organization: Optional[str]
    release_date: Optional[Any] = Field(alias="releaseDate")
    branches: Optional[list["ModelProfileModelBranches"]]
    treatments: Optional["ModelProfileModelTreatments"]


class ModelProfileModelBranches(BaseModel):
    id: str
    node: "ModelProfileModelBranchesNode"
    strongest: Strength
    method_count: int = Field(alias="methodCount")


class ModelProfileModelBranchesNode(BaseModel):
    id: str
    path: str


class ModelProfileModelTreatments(BaseModel):
    total_count: int = Field(alias="totalCount")
    nodes: list["ModelProfileModelTreatmentsNodes"]


class ModelProfileModelTreatmentsNodes(BaseModel):
    id: str
    method: "ModelProfileModelTreatmentsNodesMethod"
    strength: Strength


class ModelProfileModelTreatmentsNodesMethod(BaseModel):
    id: str
    name: str
    node: "ModelProfileModelTreatmentsNodesMethodNode"


class ModelProfileModelTreatmentsNodesMethodNode(BaseModel):
    id: str
    path: str


ModelProfile.model_rebuild()
ModelProfileModel.model_rebuild()
ModelProfileModelBranches.model_rebuild()
ModelProfileModelTreatments.model_rebuild()
ModelProfileModelTreatmentsNodes.model_rebuild()
ModelProfileModelTreatmentsNodesMethod.model_rebuild()
