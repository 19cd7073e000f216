"""The GraphiQL page, opened on a query that shows the seed page."""

SAMPLE_QUERY = """\
# The taxonomy browser's node page for `optimization :: training parallelism`.
# Press the run button (or Ctrl-Enter); open the docs for every type and field.
query NodePage($path: String = "optimization/training-parallelism") {
  node(path: $path) {
    name
    level
    path
    counts {
      methodsInBranch
      methodsFiledHere
      modelsInBranch
    }
    matchingAids
    byModel(first: 50) {
      totalCount
      nodes {
        model {
          name
          releaseDate
        }
        strongest
        methods {
          method {
            name
          }
          strength
        }
      }
    }
  }
}
"""


def with_sample_query(page: str) -> str:
    """Strawberry's GraphiQL page with its welcome text replaced by the sample query."""
    start = page.index("const EXAMPLE_QUERY = `") + len("const EXAMPLE_QUERY = `")
    end = page.index("`;", start)
    return page[:start] + SAMPLE_QUERY + page[end:]
