"""The peer's GraphQL documents for W1 to W5, and the mapping of its answers onto ours.

PostGraphile names things after the tables and the functions of
`bench/postgraphile/functions.sql` (`nodeBySlugPath`, `modelByModelId`, `methodsList`);
aliases give its answers our field names, so only W5's hits (a search_document row with
one of `node`, `method`, `model` set, where ours is a union with `__typename`) need mapping.
The variables are the same as ours.
"""

from typing import Any

W1_SEED_PAGE = """
query NodePage($path: String!) {
  node: nodeBySlugPath(slugPath: $path) {
    name level path
    counts: nodeStatByNodeId { methodsInBranch methodsFiledHere modelsInBranch }
    matchingAids
    byModel(first: 50) {
      totalCount
      nodes {
        model: modelByModelId { name releaseDate }
        strongest
        methods: methodsList { method: methodByMethodId { name } strength }
      }
    }
  }
}
"""

W2_TREE = """
query Tree {
  roots: rootsList {
    name counts: nodeStatByNodeId { methodsInBranch modelsInBranch }
    children: childrenList {
      name counts: nodeStatByNodeId { methodsInBranch modelsInBranch }
      children: childrenList { name counts: nodeStatByNodeId { methodsInBranch modelsInBranch } }
    }
  }
}
"""

W3_METHODS = """
query Methods {
  methods: methodsByName(first: 50) {
    nodes {
      name
      node: nodeByNodeId { path }
      strongest
      modelCount
      treatments: treatmentsList { strength model: modelByModelId { name } }
    }
  }
}
"""

W4_LARGEST_ROOT_BY_MODEL = """
query RootByModel($slug: String!) {
  node: nodeBySlug(slug: $slug) {
    name
    byModel(first: 20) {
      nodes {
        model: modelByModelId { name }
        strongest
        methodCount
        methods: methodsList { method: methodByMethodId { name } strength }
      }
    }
  }
}
"""

W5_SEARCH = """
query Search($q: String!) {
  search(q: $q, first: 20) {
    totalCount
    nodes {
      kind
      node { name path }
      method { name }
      model { name }
    }
  }
}
"""

DOCUMENTS = {
    "W1": W1_SEED_PAGE,
    "W2": W2_TREE,
    "W3": W3_METHODS,
    "W4": W4_LARGEST_ROOT_BY_MODEL,
    "W5": W5_SEARCH,
}

_TYPENAMES = {"node": "Node", "method": "Method", "model": "Model"}


def _hit(document: dict[str, Any]) -> dict[str, Any]:
    kind = document["kind"]
    return {"__typename": _TYPENAMES[kind], **document[kind]}


def as_ours(workload: str, data: dict[str, Any]) -> dict[str, Any]:
    """The peer's `data` for ``workload`` in the shape of our server's."""
    if workload != "W5":
        return data
    search = data["search"]
    return {
        "search": {
            "totalCount": search["totalCount"],
            "nodes": [_hit(document) for document in search["nodes"]],
        }
    }
