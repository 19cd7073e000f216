"""Facets for a browser: the organizations that made models with their counts (all, or
in a branch), and a node's methods counted by their strongest treatment; each compared
with what the dataset's files say (reference.py), on each database."""

import json
from collections import Counter
from collections.abc import Callable
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
    assert unknown["data"] is None
    assert unknown["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT"
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
