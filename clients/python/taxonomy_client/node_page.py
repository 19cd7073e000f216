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
    methods_connection: Optional["NodePageNodeByModelNodesMethodsConnection"] = Field(
        alias="methodsConnection"
    )


class NodePageNodeByModelNodesModel(BaseModel):
    id: str
    name: str


class NodePageNodeByModelNodesMethodsConnection(BaseModel):
    nodes: list["NodePageNodeByModelNodesMethodsConnectionNodes"]


class NodePageNodeByModelNodesMethodsConnectionNodes(BaseModel):
    id: str
    method: "NodePageNodeByModelNodesMethodsConnectionNodesMethod"
    strength: Strength


class NodePageNodeByModelNodesMethodsConnectionNodesMethod(BaseModel):
    id: str
    name: str


NodePage.model_rebuild()
NodePageNode.model_rebuild()
NodePageNodeChildren.model_rebuild()
NodePageNodeByModel.model_rebuild()
NodePageNodeByModelNodes.model_rebuild()
NodePageNodeByModelNodesMethodsConnection.model_rebuild()
NodePageNodeByModelNodesMethodsConnectionNodes.model_rebuild()
