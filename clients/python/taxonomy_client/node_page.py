from typing import Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import Strength


class NodePage(BaseModel):
    node: Optional["NodePageNode"]


class NodePageNode(BaseModel):
    id: str
    name: str
    level: int
    path: str
    matching_aids: list[str] = Field(alias="matchingAids")
    counts: "NodePageNodeCounts"
    children: list["NodePageNodeChildren"]
    by_model: Optional["NodePageNodeByModel"] = Field(alias="byModel")


class NodePageNodeCounts(BaseModel):
    methods_in_branch: int = Field(alias="methodsInBranch")
    methods_filed_here: int = Field(alias="methodsFiledHere")
    models_in_branch: int = Field(alias="modelsInBranch")


class NodePageNodeChildren(BaseModel):
    id: str
    name: str
    counts: "NodePageNodeChildrenCounts"


class NodePageNodeChildrenCounts(BaseModel):
    methods_in_branch: int = Field(alias="methodsInBranch")
    methods_filed_here: int = Field(alias="methodsFiledHere")


class NodePageNodeByModel(BaseModel):
    nodes: list["NodePageNodeByModelNodes"]


class NodePageNodeByModelNodes(BaseModel):
    id: str
    model: "NodePageNodeByModelNodesModel"
    strongest: Strength
    method_count: int = Field(alias="methodCount")
    methods: list["NodePageNodeByModelNodesMethods"]


class NodePageNodeByModelNodesModel(BaseModel):
    id: str
    name: str


class NodePageNodeByModelNodesMethods(BaseModel):
    id: str
    method: "NodePageNodeByModelNodesMethodsMethod"
    strength: Strength


class NodePageNodeByModelNodesMethodsMethod(BaseModel):
    id: str
    name: str


NodePage.model_rebuild()
NodePageNode.model_rebuild()
NodePageNodeChildren.model_rebuild()
NodePageNodeByModel.model_rebuild()
NodePageNodeByModelNodes.model_rebuild()
NodePageNodeByModelNodesMethods.model_rebuild()
