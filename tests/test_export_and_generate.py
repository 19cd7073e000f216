"""`taxonomy export` gives back what was loaded (same answers, same IDs), and
`taxonomy generate` grows data around the fixtures without touching the seed page."""

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from api.commands.cli import main
from api.commands.generate import Shape, generate
from api.ingest.load import load_directory
from api.settings import DEFAULT_FIXTURES_DIR

from conftest import DATASETS, SEED_PAGE, Api, serve
from seed_page import NODE_PAGE, render

NODES = """
{
  roots {
    id
    descendants {
      id slugPath
      counts {
        methodsInBranch methodsFiledHere modelsInBranch evidenceInBranch childCount
        descendantCount treatmentsByStrength { core used mentioned }
      }
      byModel(first: 100) {
        totalCount
        nodes { model { id } strongest methodCount methods { method { id } strength } }
      }
    }
  }
}
"""
CHECKSUM = "{ taxonomy { checksum } }"
MODELS = """
query($after: String) {
  models(first: 100, after: $after) {
    pageInfo { hasNextPage endCursor }
    nodes {
      id name releaseDate
      sources { id kind url }
      evidence(first: 100) { totalCount nodes { id strength quote locator method { id } } }
      treatments(first: 100) { nodes { method { id strongest modelCount } strength } }
    }
  }
}
"""


def _fingerprint(api: Api) -> dict[str, Any]:
    models, after = [], None
    while True:
        page = api.query(MODELS, {"after": after})["models"]
        models += page["nodes"]
        if not page["pageInfo"]["hasNextPage"]:
            break
        after = page["pageInfo"]["endCursor"]
    return {"nodes": api.query(NODES), "models": models}


@pytest.mark.parametrize("dataset", ["fixtures", "pwc", "go"])
def test_a_load_of_the_export_gives_the_same_answers_ids_and_checksum(
    backend: str,
    dataset: str,
    api_for: Callable[[str, str], Api],
    new_database: Callable[[str, str], str],
    tmp_path: Path,
) -> None:
    original = api_for(backend, dataset)
    exported = tmp_path / "exported"
    result = CliRunner().invoke(main, ["export", str(exported), "--db", original.database_url])
    assert result.exit_code == 0, result.output
    copy_url = new_database(backend, "exported")
    load_directory(exported, copy_url)
    # The fingerprint asks for everything at once, far over the default cost limit.
    with (
        serve(copy_url, max_cost=10**9) as copied,
        serve(original.database_url, max_cost=10**9) as source,
    ):
        assert _fingerprint(Api(copied, copy_url)) == _fingerprint(Api(source, copy_url))
        # The export writes nodes in tree order, and JSON of its own, not the files
        # loaded; the checksum is of the data, not of the files.
        loaded = DATASETS[dataset] / "nodes.jsonl"
        assert (exported / "nodes.jsonl").read_bytes() != loaded.read_bytes()
        assert Api(copied, copy_url).query(CHECKSUM) == Api(source, copy_url).query(CHECKSUM)


def test_export_refuses_a_folder_that_is_not_empty(api: Api, tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_text("mine", encoding="utf-8")
    result = CliRunner().invoke(main, ["export", str(tmp_path), "--db", api.database_url])
    assert result.exit_code == 1
    assert "is not an empty folder" in result.output
    assert [p.name for p in tmp_path.iterdir()] == ["keep.txt"]


def _lines(name: str) -> int:
    return len((DEFAULT_FIXTURES_DIR / name).read_text(encoding="utf-8").splitlines())


def test_generated_data_keeps_the_seed_page_exact(
    backend: str, new_database: Callable[[str, str], str], tmp_path: Path
) -> None:
    shape = Shape(nodes=120, methods=2_000, models=80, evidence=8_000, depth=5, roots=2)
    generate(tmp_path / "a", shape, seed=3, base=DEFAULT_FIXTURES_DIR)
    generate(tmp_path / "b", shape, seed=3, base=DEFAULT_FIXTURES_DIR)
    for name in ("nodes.jsonl", "methods.jsonl", "evidence.jsonl"):  # deterministic
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    url = new_database(backend, "generated")
    load_directory(tmp_path / "a", url)
    with serve(url) as client:
        api = Api(client, url)
        page = api.query(NODE_PAGE, {"path": "optimization/training-parallelism"})
        assert render(page["node"]) == SEED_PAGE.read_text(encoding="utf-8")
        totals = api.query("{ taxonomy { methodCount evidenceCount depth } }")["taxonomy"]
        assert totals["methodCount"] == _lines("methods.jsonl") + shape.methods
        assert totals["evidenceCount"] == _lines("evidence.jsonl") + shape.evidence
        assert totals["depth"] == shape.depth


def test_scale_s_is_the_default_fixtures(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["generate", str(tmp_path / "s"), "--scale", "S"])
    assert result.exit_code == 0, result.output
    for name in ("nodes.jsonl", "evidence.jsonl"):
        assert (tmp_path / "s" / name).read_bytes() == (DEFAULT_FIXTURES_DIR / name).read_bytes()
