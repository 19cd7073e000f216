from typing import Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import Strength


class NodePage(BaseModel):
    node: Optional["NodePageNode"]


class NodePageNode(BaseModel):
    name: str
    level: int
    path: str
    matching_aids: list[str] = Field(alias="matchingAids")
    counts: "NodePageNodeCounts"
    children: list["NodePageNodeChildren"]
    by_model: "NodePageNodeByModel" = Field(alias="byModel")


class NodePageNodeCounts(BaseModel):
    methods_in_branch: int = Field(alias="methodsInBranch")
    methods_filed_here: int = Field(alias="methodsFiledHere")
    models_in_branch: int = Field(alias="modelsInBranch")


class NodePageNodeChildren(BaseModel):
    name: str
    counts: "NodePageNodeChildrenCounts"


class NodePageNodeChildrenCounts(BaseModel):
    methods_in_branch: int = Field(alias="methodsInBranch")
    methods_filed_here: int = Field(alias="methodsFiledHere")


class NodePageNodeByModel(BaseModel):
    nodes: list["NodePageNodeByModelNodes"]


class NodePageNodeByModelNodes(BaseModel):
    model: "NodePageNodeByModelNodesModel"
    strongest: Strength
    method_count: int = Field(alias="methodCount")
    methods: list["NodePageNodeByModelNodesMethods"]


class NodePageNodeByModelNodesModel(BaseModel):
    name: str


class NodePageNodeByModelNodesMethods(BaseModel):
    method: "NodePageNodeByModelNodesMethodsMethod"
    strength: Strength


class NodePageNodeByModelNodesMethodsMethod(BaseModel):
    name: str


NodePage.model_rebuild()
NodePageNode.model_rebuild()
NodePageNodeChildren.model_rebuild()
NodePageNodeByModel.model_rebuild()
NodePageNodeByModelNodes.model_rebuild()
NodePageNodeByModelNodesMethods.model_rebuild()
