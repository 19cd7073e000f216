"""What one page of `changes` costs, at the database's size of history, in process.

    .venv/bin/python -m bench.changes_page URL [requests]

Issue 17 asks that a page of changes cost in proportion to the page, not to every
change between the two releases. For the change lists of the newest release against
the one before it: the first page, the last page (`last`), a page of one kind, and a
page of the largest root's branch, 20 rows each; each timed once in a new app
(nothing kept from earlier requests but the search catalogue, built before any timing)
and then as the p50 of ``requests`` (20) more. One client through the ASGI app
(Starlette's TestClient), the response cache off. Prints one JSON line, with how many
changes the lists hold in all.
"""

import json
import statistics
import sys
import time

from starlette.testclient import TestClient

from api.app import create_app
from api.settings import Settings
from bench.adoption_p50 import HEADERS, SEARCH

RELEASES = "{ releases(first: 2) { nodes { number } } roots { slug counts { methodsInBranch } } }"
TOTALS = """query ($since: Int!) { changes(since: $since) { summary {
  nodes { total } methods { total } models { total } treatments { total } total } } }"""
PAGE = """query ($since: Int!, $kinds: [ChangeKind!], $branch: NodeRef) {
  changes(since: $since) {
    %s(%s, kinds: $kinds, branch: $branch) {
      nodes { kind %s } pageInfo { hasNextPage endCursor }
    }
  }
}"""
FIELDS = {"treatments": "modelSlug methodSlug before after", "methods": "slug fromPath toPath"}


def _scenarios(root: str) -> dict[str, tuple[str, str, dict[str, object]]]:
    return {
        "treatments first page": ("treatments", "first: 20", {}),
        "treatments last page": ("treatments", "last: 20", {}),
        "treatments WEAKENED": ("treatments", "first: 20", {"kinds": ["WEAKENED"]}),
        "treatments in largest root": ("treatments", "first: 20", {"branch": {"slug": root}}),
        "methods first page": ("methods", "first: 20", {}),
        "methods in largest root": ("methods", "first: 20", {"branch": {"slug": root}}),
    }


def _timed(client: TestClient, document: str, variables: dict[str, object]) -> float:
    start = time.perf_counter()
    response = client.post("/graphql", json={"query": document, "variables": variables})
    seconds = time.perf_counter() - start
    assert not response.json().get("errors"), response.json()
    return seconds


def main(url: str, requests: int) -> dict[str, object]:
    settings = Settings(database_url=url, response_cache=False)
    with TestClient(create_app(settings), headers=HEADERS) as client:
        found = client.post("/graphql", json={"query": RELEASES}).json()["data"]
        since = found["releases"]["nodes"][-1]["number"]
        root = max(found["roots"], key=lambda r: r["counts"]["methodsInBranch"])["slug"]
        totals = client.post("/graphql", json={"query": TOTALS, "variables": {"since": since}})
        # Waits for the search catalogue, built in the background at start (a thread of
        # pure Python): timed requests would otherwise share the CPU with it.
        assert not client.post("/graphql", json={"query": SEARCH}).json().get("errors")
    figures: dict[str, object] = {}
    for name, (record, window, extra) in _scenarios(root).items():
        document = PAGE % (record, window, FIELDS[record])
        variables = {"since": since, **extra}
        with TestClient(create_app(settings), headers=HEADERS) as client:
            cold = _timed(client, document, variables)
            warm = sorted(_timed(client, document, variables) for _ in range(requests))
        figures[name] = {
            "cold_ms": round(cold * 1000, 1),
            "p50_ms": round(statistics.median(warm) * 1000, 2),
        }
    return {
        "since": since,
        "largest_root": root,
        "changes": totals.json()["data"]["changes"]["summary"],
        "pages": figures,
    }


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 20)))
