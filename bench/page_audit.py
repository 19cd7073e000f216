"""Every page kind of the taxonomy browser on a running server, at every page size it offers
(issue 27: "no page taller than about 5,000 px at 1280 x 800 on L").

    .venv/bin/python -m bench.page_audit BASE_URL [--first DIR] [--json FILE]

Finds each kind's biggest subject through the API (the root with the most methods filed,
the root with the most sub-branches, the method with the most models, the model with the
most methods among the generator's first ten, a changed and a removed method and model of
the newest release), then has browser/page-heights.mjs load each page in headless Chromium
(a cold browser cache each) and, from each pager's "show 25 · 50 a page" links, every page
size it offers: the page's height at 1280 x 800, its width at 390 px, its largest
contentful paint and the server's time for its HTML and its slowest GraphQL request. Then
times each kind's download (CSV and JSON: first byte and whole) and the status pages (404,
410 and, with ``--first`` the dataset folder of the release before, a moved node's old URL,
301) with plain HTTP. Prints a markdown table, the load average beside it; ``--json``
keeps every figure; ``--no-downloads`` skips the downloads (minutes at L). Start the server
with the response cache off (TAXONOMY_RESPONSE_CACHE=0) to time what a first visit costs.
"""

import argparse
import json
import os
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from bench.source import CHECKOUT

DRIVER = CHECKOUT / "browser" / "page-heights.mjs"
SEED_PATH = "/nodes/optimization/training-parallelism"
HEADERS = {"accept": "application/graphql-response+json, application/json"}
TARGETS = """{
  top: methods(first: 1, orderBy: { field: MODEL_COUNT, direction: DESC }) { nodes { slug } }
  roots { slugPath counts { methodsFiledHere childCount } }
  releases(first: 2) { nodes { number } }
  %s
}"""
MODELS = " ".join(
    f'm{n}: model(slug: "syn-m{n}") {{ slug treatments(first: 1) {{ totalCount }} }}'
    for n in range(10)
)
CHANGES = """query ($since: Int!, $until: Int!) { changes(since: $since, until: $until) {
  changed: methods(combined: true, kinds: [CHANGED], first: 1) { nodes { slug } }
  removed: methods(combined: true, kinds: [REMOVED], first: 1) { nodes { slug } }
  gone: models(combined: true, kinds: [REMOVED], first: 1) { nodes { slug } }
  moved: nodes(combined: true, kinds: [MOVED], first: 1) { nodes { slug node { slugPath } } } } }"""


def graphql(base: str, query: str, variables: dict[str, Any] | None = None) -> dict[str, Any]:
    body = json.dumps({"query": query, "variables": variables or {}}).encode()
    request = urllib.request.Request(
        f"{base}/graphql", body, {**HEADERS, "content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=120) as response:
        answer: dict[str, Any] = json.load(response)
    assert not answer.get("errors"), answer
    data: dict[str, Any] = answer["data"]
    return data


def _old_path(first: Path, slug: str) -> str:
    """The slug path node ``slug`` had in the dataset folder ``first``."""
    parents: dict[str, str | None] = {}
    for line in (first / "nodes.jsonl").read_text("utf-8").splitlines():
        if line.strip():
            node = json.loads(line)
            parents[node["slug"]] = node["parent"]
    path = [slug]
    while (parent := parents[path[0]]) is not None:
        path.insert(0, parent)
    return "/".join(path)


def pages(
    base: str, first: Path | None
) -> tuple[list[tuple[str, str]], list[tuple[str, str, int]]]:
    """(kind, path) of each page to measure in Chromium, and (kind, path, status) of each
    status page."""
    found = graphql(base, TARGETS % MODELS)
    roots = found["roots"]
    filed = max(roots, key=lambda root: root["counts"]["methodsFiledHere"])["slugPath"]
    widest = max(roots, key=lambda root: root["counts"]["childCount"])["slugPath"]
    models = [found[f"m{n}"] for n in range(10) if found[f"m{n}"]]
    model = max(models, key=lambda model: model["treatments"]["totalCount"])["slug"]
    method = found["top"]["nodes"][0]["slug"]
    shown = [
        ("home", "/"),
        ("node: the seed", SEED_PATH),
        ("node: most methods filed", f"/nodes/{filed}"),
        ("node: most sub-branches", f"/nodes/{widest}"),
        ("method: most models", f"/methods/{method}"),
        ("model: most methods", f"/models/{model}"),
        ("search", "/search?q=attention"),
        ("models index", "/models"),
        ("methods index", "/methods"),
        ("releases index", "/releases"),
        ("about", "/about"),
    ]
    status: list[tuple[str, str, int]] = [("no page", "/no/such/page", 404)]
    status.append(("no node", "/nodes/no/such/node", 404))
    numbers = [release["number"] for release in found["releases"]["nodes"]]
    if len(numbers) == 2:
        until, since = numbers
        changes = graphql(base, CHANGES, {"since": since, "until": until})["changes"]
        shown += [
            ("changes: one release", f"/changes?since={since}&until={until}"),
            ("changes: methods alone", f"/changes?since={since}&until={until}&type=methods"),
            ("releases: a release", f"/changes?since={since}"),
        ]
        if changed := changes["changed"]["nodes"]:
            shown.append(("method with a history", f"/methods/{changed[0]['slug']}"))
        if removed := changes["removed"]["nodes"]:
            status.append(("removed method", f"/methods/{removed[0]['slug']}", 410))
        if gone := changes["gone"]["nodes"]:
            status.append(("removed model", f"/models/{gone[0]['slug']}", 410))
        if (moved := changes["moved"]["nodes"]) and first is not None:
            shown.append(("node with a history", f"/nodes/{moved[0]['node']['slugPath']}"))
            status.append(
                ("moved node's old URL", f"/nodes/{_old_path(first, moved[0]['slug'])}", 301)
            )
    return shown, status


def _no_redirect() -> urllib.request.OpenerDirector:
    class Keep(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: Any, **kwargs: Any) -> None:
            return None

    return urllib.request.build_opener(Keep)


def timed_get(url: str, accept: str = "text/html") -> dict[str, Any]:
    """Status, seconds to the first byte and to the last, and bytes, of one GET."""
    start = time.perf_counter()
    request = urllib.request.Request(url, headers={"accept": accept})
    try:
        response = _no_redirect().open(request, timeout=900)
    except urllib.error.HTTPError as error:
        response = error
    with response:
        first = time.perf_counter() - start
        size = len(response.read())
        return {
            "status": response.status,
            "first_s": round(first, 3),
            "whole_s": round(time.perf_counter() - start, 3),
            "bytes": size,
        }


def downloads(shown: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """(kind, path) of each page's downloads that has one."""
    paths = dict(shown)
    table = {
        "node: most methods filed": paths["node: most methods filed"],
        "method: most models": paths["method: most models"],
        "model: most methods": paths["model: most methods"],
        "methods index": "/methods",
        "models index": "/models",
        "search": "/search?q=attention",
    }
    if "changes: one release" in paths:
        query = paths["changes: one release"].split("?")[1]
        table["changes: treatments"] = f"/changes/treatments?{query}"
    found = []
    for kind, page in table.items():
        path, _, query = page.partition("?")
        for extension in ("csv", "json"):
            found.append(
                (
                    f"{kind} .{extension}",
                    f"/download{path}.{extension}" + (f"?{query}" if query else ""),
                )
            )
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base")
    parser.add_argument("--first", type=Path, help="the dataset folder of the release before")
    parser.add_argument("--json", type=Path, help="write every figure here")
    parser.add_argument("--no-downloads", action="store_true", help="time no download")
    arguments = parser.parse_args()
    base = arguments.base.rstrip("/")
    shown, status = pages(base, arguments.first)
    load = os.getloadavg()[0]
    run = subprocess.run(
        ["node", str(DRIVER), base, "--sizes", *(path for _, path in shown)],
        capture_output=True,
        text=True,
        check=True,
        timeout=3_600,
    )
    measured = json.loads(run.stdout.strip().splitlines()[-1])
    if arguments.json:
        arguments.json.write_text(json.dumps({"pages": measured["pages"]}))
    kinds = dict((path, kind) for kind, path in shown)
    print(f"load average before: {load:.1f}, after: {os.getloadavg()[0]:.1f}")
    print("| page | path | height px | width at 390 | LCP ms | HTML ms | slowest API ms |")
    print("|---|---|--:|--:|--:|--:|--:|")
    for row in measured["pages"]:
        if row["path"] not in kinds:  # a size offered by a page measured before it
            kinds[row["path"]] = f"{kinds[row['of']].removesuffix(', another size')}, another size"
        kind = kinds[row["path"]]
        print(
            f"| {kind} | `{row['path']}` | {row['height']:,} | {row['width390']} | {row['lcpMs']} "
            f"| {row['htmlMs']} | {row['apiMs']} |"
        )
    fetched = []
    print("\n| status page or download | path | status | first byte s | whole s | bytes |")
    print("|---|---|--:|--:|--:|--:|")
    for kind, path, expected in status:
        got = timed_get(base + path)
        assert got["status"] == expected, (path, got)
        fetched.append({"kind": kind, "path": path, **got})
    for kind, path in [] if arguments.no_downloads else downloads(shown):
        got = timed_get(base + path, accept="*/*")
        assert got["status"] == 200, (path, got)
        fetched.append({"kind": kind, "path": path, **got})
    for row in fetched:
        print(
            f"| {row['kind']} | `{row['path']}` | {row['status']} | {row['first_s']} "
            f"| {row['whole_s']} | {row['bytes']:,} |"
        )
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    if arguments.json:
        arguments.json.write_text(json.dumps({"pages": measured["pages"], "fetched": fetched}))


if __name__ == "__main__":
    main()
