"""The peer's GraphQL documents for W1 to W5, and the mapping of its answers onto ours.

PostGraphile names things after the tables and the functions of
`bench/postgraphile/functions.sql` (`nodeBySlugPath`, `modelByModelId`, `methodsList`);
aliases give its answers our field names. The variables are the same as ours. There is no
W5: the peer's search (bench/postgraphile/functions.sql) ranks with ts_rank, where ours
ranks with the project's own rule (store.search_rank).
"""

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

DOCUMENTS = {
    "W1": W1_SEED_PAGE,
    "W2": W2_TREE,
    "W3": W3_METHODS,
    "W4": W4_LARGEST_ROOT_BY_MODEL,
}
