"""The benchmark's workloads: GraphQL documents of this API, W1 to W5."""

from dataclasses import dataclass, field
from typing import Any

W1_SEED_PAGE = """
query NodePage($path: String!) {
  node(path: $path) {
    name level path
    counts { methodsInBranch methodsFiledHere modelsInBranch }
    matchingAids
    byModel(first: 50) {
      totalCount
      nodes {
        model { name releaseDate }
        strongest
        methods { method { name } strength }
      }
    }
  }
}
"""

W2_TREE = """
query Tree {
  roots {
    name counts { methodsInBranch modelsInBranch }
    children {
      name counts { methodsInBranch modelsInBranch }
      children { name counts { methodsInBranch modelsInBranch } }
    }
  }
}
"""

W3_METHODS = """
query Methods {
  methods(first: 50) {
    nodes {
      name
      node { path }
      strongest
      modelCount
      treatments { strength model { name } }
    }
  }
}
"""

W4_LARGEST_ROOT_BY_MODEL = """
query RootByModel($slug: String!) {
  node(slug: $slug) {
    name
    byModel(first: 20) {
      nodes {
        model { name }
        strongest
        methodCount
        methods { method { name } strength }
      }
    }
  }
}
"""

W5_SEARCH = """
query Search($q: String!) {
  search(query: $q, first: 20) {
    totalCount
    edges {
      score
      matchedField
      snippet { text highlights { start end } }
      node {
        __typename
        ... on Node { name path }
        ... on Method { name }
        ... on Model { name }
        ... on Source { title }
      }
    }
  }
}
"""


@dataclass(frozen=True)
class Workload:
    name: str
    title: str
    document: str
    variables: dict[str, Any] = field(default_factory=dict)


def workloads(largest_root: str) -> list[Workload]:
    """W1 to W5; W4 needs the slug of the root with the most models at that scale."""
    return [
        Workload("W1", "seed page", W1_SEED_PAGE, {"path": "optimization/training-parallelism"}),
        Workload("W2", "roots, children, grandchildren with counts", W2_TREE),
        Workload("W3", "50 methods with node, strongest, treatments", W3_METHODS),
        Workload(
            "W4",
            "first 20 By-model rows of the largest root",
            W4_LARGEST_ROOT_BY_MODEL,
            {"slug": largest_root},
        ),
        Workload("W5", "search", W5_SEARCH, {"q": "expert parallel"}),
    ]
