from pydantic import Field

from .base_model import BaseModel


class Tree(BaseModel):
    roots: list["TreeRoots"]


class TreeRoots(BaseModel):
    id: str
    name: str
    slug_path: str = Field(alias="slugPath")
    counts: "TreeRootsCounts"
    children: list["TreeRootsChildren"]


class TreeRootsCounts(BaseModel):
    methods_in_branch: int = Field(alias="methodsInBranch")
    models_in_branch: int = Field(alias="modelsInBranch")
    child_count: int = Field(alias="childCount")


class TreeRootsChildren(BaseModel):
    id: str
    name: str
    slug_path: str = Field(alias="slugPath")
    counts: "TreeRootsChildrenCounts"
    children: list["TreeRootsChildrenChildren"]


class TreeRootsChildrenCounts(BaseModel):
    methods_in_branch: int = Field(alias="methodsInBranch")
    child_count: int = Field(alias="childCount")


class TreeRootsChildrenChildren(BaseModel):
    id: str
    name: str
    slug_path: str = Field(alias="slugPath")
    counts: "TreeRootsChildrenChildrenCounts"


class TreeRootsChildrenChildrenCounts(BaseModel):
    methods_in_branch: int = Field(alias="methodsInBranch")
    child_count: int = Field(alias="childCount")


Tree.model_rebuild()
TreeRoots.model_rebuild()
TreeRootsChildren.model_rebuild()
TreeRootsChildrenChildren.model_rebuild()
