"""Facets for a browser: the organizations that made models with their counts (all, or
in a branch), and a node's methods counted by their strongest treatment; each compared
with what the dataset's files say (reference.py), on each database."""

import json
from collections import Counter
from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path

from api.ingest.load import load_directory
from api.settings import DEFAULT_FIXTURES_DIR

from conftest import Api, serve
from reference import Reference
from tiny_dataset import METHODS, NODES, write_files

SEED_NODE = "optimization/training-parallelism"
ORGANIZATIONS = """
query($branch: NodeRef) { organizations(branch: $branch) { name modelCount } }
"""


def _organizations_of(models: list[dict[str, object]]) -> list[dict[str, object]]:
    """What the API should answer, worked out from model records alone."""
    counts = Counter(str(model["organization"]) for model in models if model.get("organization"))
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0].lower(), item[0]))
    return [{"name": name, "modelCount": count} for name, count in ordered]


def _fixture_models() -> list[dict[str, object]]:
    lines = (DEFAULT_FIXTURES_DIR / "models.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def test_organizations_with_their_model_counts(api: Api) -> None:
    models = _fixture_models()
    answer = api.query(ORGANIZATIONS)["organizations"]
    assert answer == _organizations_of(models)
    assert answer[0] == {"name": "DeepSeek", "modelCount": 6}
    # Models of no known organization are in no entry.
    assert sum(entry["modelCount"] for entry in answer) == sum(
        1 for model in models if model.get("organization")
    )


def test_organizations_in_a_branch_are_its_by_model_rows(api: Api) -> None:
    in_branch = {
        row.model_slug
        for row in Reference.from_dir(DEFAULT_FIXTURES_DIR).by_model("training-parallelism")
    }
    expected = _organizations_of([m for m in _fixture_models() if m["slug"] in in_branch])
    for branch in ({"slugPath": SEED_NODE}, {"path": "optimization :: training parallelism"}):
        answer = api.query(ORGANIZATIONS, {"branch": branch})["organizations"]
        assert answer == expected, branch
    assert expected != _organizations_of(_fixture_models())  # a branch narrows it
    unknown = api.post(ORGANIZATIONS, {"branch": {"slugPath": "optimization/nope"}})
    assert unknown["data"] == {"organizations": None}  # the field alone: it takes arguments
    assert (
        unknown["errors"][0]["extensions"]["code"] == "NOT_FOUND"
    )  # narrows by a node that is not there
    assert "optimization/nope" in unknown["errors"][0]["message"]


def test_one_organization_however_its_name_is_cased(
    backend: str, new_database: Callable[[str, str], str], tmp_path: Path
) -> None:
    models = [
        {"slug": "a", "name": "A", "organization": "OpenAI"},
        {"slug": "b", "name": "B", "organization": "openai"},
        {"slug": "c", "name": "C", "organization": "OpenAI"},
        {"slug": "d", "name": "D", "organization": "Meta"},
        {"slug": "e", "name": "E", "organization": "meta"},
        {"slug": "f", "name": "F"},
    ]
    evidence = [{"model": model["slug"], "method": "m-zed", "strength": "used"} for model in models]
    folder = write_files(
        tmp_path / "cased",
        {"nodes": NODES, "models": models, "sources": [], "methods": METHODS, "evidence": evidence},
    )
    url = new_database(backend, "cased")
    load_directory(folder, url)
    with serve(url) as client:
        answer = client.post("/graphql", json={"query": ORGANIZATIONS}).json()["data"]
    # Ties by name case-insensitively; each shown as most of its models write it (ties:
    # the first in code-point order, `Meta` before `meta`).
    assert answer["organizations"] == [
        {"name": "OpenAI", "modelCount": 3},
        {"name": "Meta", "modelCount": 2},
    ]


def test_methods_by_strongest_match_the_reference(api: Api) -> None:
    reference = Reference.from_dir(DEFAULT_FIXTURES_DIR)
    query = """query($s: String!) { node(slug: $s) { counts {
        methodsInBranch methodsByStrongest { core used mentioned } } } }"""
    for slug in [*reference.roots(), "training-parallelism"]:
        counts = api.query(query, {"s": slug})["node"]["counts"]
        assert counts["methodsByStrongest"] == reference.methods_by_strongest(slug), slug
        assert sum(counts["methodsByStrongest"].values()) <= counts["methodsInBranch"]


BY_MODEL = """
query($filter: ModelFilter, $first: Int, $after: String) {
  node(path: "optimization/training-parallelism") {
    byModel(filter: $filter, first: $first, after: $after) {
      totalCount
      pageInfo { hasNextPage endCursor }
      nodes { model { slug } strongest methodCount }
    }
  }
}
"""


def _by_model_rows(api: Api, filter: Mapping[str, object], first: int = 100) -> list[str]:
    """Every row's model slug, page by page; checks totalCount against the rows."""
    slugs: list[str] = []
    after = None
    while True:
        page = api.query(BY_MODEL, {"filter": filter, "first": first, "after": after})
        table = page["node"]["byModel"]
        slugs += [row["model"]["slug"] for row in table["nodes"]]
        if not table["pageInfo"]["hasNextPage"]:
            assert table["totalCount"] == len(slugs), filter
            return slugs
        after = table["pageInfo"]["endCursor"]


def _of_organization(model: dict[str, object], name: str) -> bool:
    return str(model.get("organization")).lower() == name.lower()


def test_by_model_rows_filtered_by_organization_and_release_dates(api: Api) -> None:
    """The seed's By-model rows narrowed by their model, in the seed's order, whole and
    page by page; each organization's count is its rows' count."""
    rows = Reference.from_dir(DEFAULT_FIXTURES_DIR).by_model("training-parallelism")
    models = {str(model["slug"]): model for model in _fixture_models()}

    def expected(keep: Callable[[dict[str, object]], bool]) -> list[str]:
        return [row.model_slug for row in rows if keep(models[row.model_slug])]

    facets = api.query(ORGANIZATIONS, {"branch": {"slugPath": SEED_NODE}})["organizations"]
    assert len(facets) > 2
    for facet in facets:
        name = str(facet["name"])
        wanted = expected(partial(_of_organization, name=name))
        assert _by_model_rows(api, {"organization": name.upper()}) == wanted, name
        assert _by_model_rows(api, {"organization": name}, first=2) == wanted, name
        assert len(wanted) == facet["modelCount"]

    def released(model: dict[str, object], after: str, before: str) -> bool:
        day = model.get("release_date")
        return isinstance(day, str) and after <= day <= before

    dates = sorted({str(m["release_date"]) for m in models.values() if m.get("release_date")})
    after, before = dates[len(dates) // 4], dates[3 * len(dates) // 4]
    window = {"releasedAfter": after, "releasedBefore": before}
    wanted = expected(lambda model: released(model, after, before))
    assert 0 < len(wanted) < len(rows)
    assert _by_model_rows(api, window) == wanted
    assert _by_model_rows(api, window, first=3) == wanted
    assert _by_model_rows(api, {"organization": "nobody at all"}) == []
