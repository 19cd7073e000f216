from typing import Optional

from pydantic import Field

from .base_model import BaseModel
from .enums import Strength


class MethodsPage(BaseModel):
    methods: Optional["MethodsPageMethods"]


class MethodsPageMethods(BaseModel):
    total_count: int = Field(alias="totalCount")
    nodes: list["MethodsPageMethodsNodes"]
    page_info: "MethodsPageMethodsPageInfo" = Field(alias="pageInfo")


class MethodsPageMethodsNodes(BaseModel):
    id: str
    slug: str
    name: str
    strongest: Optional[Strength]
    model_count: int = Field(alias="modelCount")
    node: "MethodsPageMethodsNodesNode"


class MethodsPageMethodsNodesNode(BaseModel):
    id: str
    path: str


class MethodsPageMethodsPageInfo(BaseModel):
    has_next_page: bool = Field(alias="hasNextPage")
    end_cursor: Optional[str] = Field(alias="endCursor")


MethodsPage.model_rebuild()
MethodsPageMethods.model_rebuild()
MethodsPageMethodsNodes.model_rebuild()
