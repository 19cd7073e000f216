from typing import Any, Optional, Union

from .async_base_client import AsyncBaseClient
from .base_model import UNSET, UnsetType
from .enums import Strength
from .input_types import MethodFilter, MethodOrder
from .methods_page import MethodsPage
from .model_profile import ModelProfile
from .node_page import NodePage
from .search import Search
from .tree import Tree


def gql(q: str) -> str:
    return q


class TaxonomyClient(AsyncBaseClient):
    async def methods_page(
        self,
        first: Union[Optional[int], UnsetType] = UNSET,
        after: Union[Optional[str], UnsetType] = UNSET,
        order_by: Union[Optional[MethodOrder], UnsetType] = UNSET,
        filter_: Union[Optional[MethodFilter], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> MethodsPage:
        query = gql("""
            query MethodsPage($first: Int = 20, $after: String, $orderBy: MethodOrder = {field: MODEL_COUNT, direction: DESC}, $filter: MethodFilter) {
              methods(first: $first, after: $after, orderBy: $orderBy, filter: $filter) {
                totalCount
                nodes {
                  id
                  slug
                  name
                  strongest
                  modelCount
                  node {
                    id
                    path
                  }
                }
                pageInfo {
                  hasNextPage
                  endCursor
                }
              }
            }
            """)
        variables: dict[str, object] = {
            "first": first,
            "after": after,
            "orderBy": order_by,
            "filter": filter_,
        }
        response = await self.execute(
            query=query, operation_name="MethodsPage", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return MethodsPage.model_validate(data)

    async def model_profile(
        self,
        slug: str,
        level: Union[Optional[int], UnsetType] = UNSET,
        min_strength: Union[Optional[Strength], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> ModelProfile:
        query = gql("""
            query ModelProfile($slug: String!, $level: Int = 1, $minStrength: Strength = CORE) {
              model(slug: $slug) {
                id
                name
                organization
                releaseDate
                branches(level: $level) {
                  id
                  node {
                    id
                    path
                  }
                  strongest
                  methodCount
                }
                treatments(minStrength: $minStrength, first: 100) {
                  totalCount
                  nodes {
                    id
                    method {
                      id
                      name
                      node {
                        id
                        path
                      }
                    }
                    strength
                  }
                }
              }
            }
            """)
        variables: dict[str, object] = {
            "slug": slug,
            "level": level,
            "minStrength": min_strength,
        }
        response = await self.execute(
            query=query, operation_name="ModelProfile", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return ModelProfile.model_validate(data)

    async def node_page(
        self,
        path: Union[Optional[str], UnsetType] = UNSET,
        methods_per_row: Union[Optional[int], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> NodePage:
        query = gql("""
            query NodePage($path: String = "optimization/training-parallelism", $methodsPerRow: Int = 20) {
              node(path: $path) {
                id
                name
                level
                path
                matchingAids
                counts {
                  methodsInBranch
                  methodsFiledHere
                  modelsInBranch
                }
                children {
                  id
                  name
                  counts {
                    methodsInBranch
                    methodsFiledHere
                  }
                }
                byModel(first: 100) {
                  nodes {
                    id
                    model {
                      id
                      name
                    }
                    strongest
                    methodCount
                    methodsConnection(first: $methodsPerRow) {
                      nodes {
                        id
                        method {
                          id
                          name
                        }
                        strength
                      }
                    }
                  }
                }
              }
            }
            """)
        variables: dict[str, object] = {"path": path, "methodsPerRow": methods_per_row}
        response = await self.execute(
            query=query, operation_name="NodePage", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return NodePage.model_validate(data)

    async def search(
        self, query: str, first: Union[Optional[int], UnsetType] = UNSET, **kwargs: Any
    ) -> Search:
        _query = gql("""
            query Search($query: String!, $first: Int = 10) {
              search(query: $query, first: $first) {
                totalCount
                nodes {
                  __typename
                  ... on Node {
                    id
                    slugPath
                    path
                  }
                  ... on Method {
                    id
                    slug
                    name
                  }
                  ... on Model {
                    id
                    slug
                    name
                  }
                }
              }
            }
            """)
        variables: dict[str, object] = {"query": query, "first": first}
        response = await self.execute(
            query=_query, operation_name="Search", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return Search.model_validate(data)

    async def tree(self, **kwargs: Any) -> Tree:
        query = gql("""
            query Tree {
              roots {
                id
                name
                slugPath
                counts {
                  methodsInBranch
                  modelsInBranch
                  childCount
                }
                children {
                  id
                  name
                  slugPath
                  counts {
                    methodsInBranch
                    childCount
                  }
                  children {
                    id
                    name
                    slugPath
                    counts {
                      methodsInBranch
                      childCount
                    }
                  }
                }
              }
            }
            """)
        variables: dict[str, object] = {}
        response = await self.execute(
            query=query, operation_name="Tree", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return Tree.model_validate(data)
