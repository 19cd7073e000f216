from typing import Annotated, Literal, Optional, Union

from pydantic import Field

from .base_model import BaseModel


class Search(BaseModel):
    search: Optional["SearchSearch"]


class SearchSearch(BaseModel):
    total_count: int = Field(alias="totalCount")
    nodes: list[
        Annotated[
            Union[
                "SearchSearchNodesNode",
                "SearchSearchNodesMethod",
                "SearchSearchNodesModel",
                "SearchSearchNodesSource",
            ],
            Field(discriminator="typename__"),
        ]
    ]


class SearchSearchNodesNode(BaseModel):
    typename__: Literal["Node"] = Field(alias="__typename")
    id: str
    slug_path: str = Field(alias="slugPath")
    path: str


class SearchSearchNodesMethod(BaseModel):
    typename__: Literal["Method"] = Field(alias="__typename")
    id: str
    slug: str
    name: str


class SearchSearchNodesModel(BaseModel):
    typename__: Literal["Model"] = Field(alias="__typename")
    id: str
    slug: str
    name: str


class SearchSearchNodesSource(BaseModel):
    typename__: Literal["Source"] = Field(alias="__typename")


Search.model_rebuild()
SearchSearch.model_rebuild()
