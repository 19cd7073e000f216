"""Caches that just work (issue 26, item 5): Apollo Client's InMemoryCache and graphql-eslint
over every operation of examples/operations and browser/operations.

- clients/typescript/apollo-cache-check.mjs runs every operation twice through one Apollo
  InMemoryCache made by the shipped src/apollo.ts (generated possibleTypes, a merging type
  policy for every object type without an `id`), against a live `taxonomy serve` with two
  releases of the fixtures: no console.warn or console.error from Apollo's development
  build, no request the second time, and Apollo's answers and cache.readQuery equal to what
  the server sent. Without the type policies the same run warns and refetches, so the check
  sees what it guards against; a schema with a new object type without an `id` and no policy
  fails it.
- graphql-eslint's `flat/operations-recommended` rules (clients/typescript/eslint.config.mjs),
  `no-deprecated` among them, find nothing in the operations.

They need node and npm (conftest's `node_modules`: clients/typescript's pinned packages)."""

import json
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from api.commands.generate_next import next_version
from api.ingest.load import load_directory
from api.settings import DEFAULT_FIXTURES_DIR

from conftest import BACKENDS, ROOT, TS_CLIENT
from processes import running_server

CHECK = TS_CLIENT / "apollo-cache-check.mjs"
ESLINT_CONFIG = TS_CLIENT / "eslint.config.mjs"
OPERATION_DIRS = [ROOT / "examples" / "operations", ROOT / "browser" / "operations"]
EVERY_OPERATION = sorted(p for d in OPERATION_DIRS for p in d.glob("*.graphql"))
SEED_PATH = "optimization/training-parallelism"

# Each operation's variables on the fixtures (as tests/test_clients.py and the browser's
# pages use them); BrowserChanges reads what the second release changed.
VARIABLES: dict[str, dict[str, Any]] = {
    "MethodsPage": {"first": 5},
    "ModelProfile": {"slug": "kimi-k3", "level": 1},
    "NodePage": {"path": SEED_PATH},
    "Search": {"query": "expert parallel"},
    "Tree": {},
    "BrowserChanges": {"since": 1, "until": 2},
    "BrowserHome": {},
    "BrowserMethod": {"slug": "expert-parallelism"},
    "BrowserModel": {"slug": "kimi-k3"},
    "BrowserNode": {"path": SEED_PATH},
    "BrowserSearch": {"query": "expert parallel"},
    # The indexes as the browser asks for them: ordered, filtered (a root's branch), paged.
    "BrowserModels": {"orderBy": {"field": "RELEASE_DATE", "direction": "DESC"}},
    "BrowserMethods": {
        "filter": {"branch": {"path": "optimization"}, "minStrength": "USED"},
        "orderBy": {"field": "MODEL_COUNT", "direction": "DESC"},
    },
    "BrowserReleases": {},
    # A page whose subject is not served asks what was there: a model the second release
    # removed (next_version with seed 26 removes kimi-k2).
    "BrowserFormer": {"slug": "kimi-k2", "model": True},
}


@pytest.fixture(scope="module", params=BACKENDS)
def endpoint(
    request: pytest.FixtureRequest,
    new_database: Callable[[str, str], str],
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[str]:
    """A `taxonomy serve` of the fixtures and a next version of them (two releases, so the
    changes page and the home page's latest release have changes), shared by the module's
    tests on each backend (conftest's BACKENDS, as the `backend` fixture takes them: this
    one outlives a test)."""
    url = new_database(str(request.param), "apollo")
    second = tmp_path_factory.mktemp("apollo-next")
    next_version(DEFAULT_FIXTURES_DIR, second, seed=26, each=5)
    for folder in (DEFAULT_FIXTURES_DIR, second):
        load_directory(folder, url)
    with running_server(url, workers=1) as base:
        yield f"{base}/graphql"


def _check(*args: str) -> tuple[int, dict[str, Any]]:
    """apollo-cache-check.mjs on Apollo's development build (where its warnings are)."""
    result = subprocess.run(
        ["node", "--conditions=development", str(CHECK), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    try:
        summary = json.loads(result.stdout)
    except json.JSONDecodeError:
        pytest.fail(f"apollo-cache-check.mjs: {result.returncode}\n{result.stdout}{result.stderr}")
    return result.returncode, summary


def test_every_operation_has_variables() -> None:
    assert sorted(VARIABLES) == sorted(p.stem for p in EVERY_OPERATION)


def test_apollo_cache_answers_every_operation_twice_without_a_warning(
    node_modules: Path, endpoint: str, tmp_path: Path
) -> None:
    variables = tmp_path / "variables.json"
    variables.write_text(json.dumps(VARIABLES), encoding="utf-8")
    returncode, summary = _check(endpoint, str(variables))
    assert summary["failures"] == []
    assert returncode == 0
    assert sorted(summary["operations"]) == sorted(VARIABLES)
    assert summary["requests"] == {"first": len(VARIABLES), "second": 0}
    assert (summary["warnings"], summary["errors"]) == (0, 0)
    assert summary["valueObjectTypes"] > 40  # counts, summaries, connections, edges, ...


def test_without_the_type_policies_apollo_warns_and_refetches(
    node_modules: Path, endpoint: str, tmp_path: Path
) -> None:
    """The same run on a cache with possibleTypes only: the check sees the warning the
    policies prevent (NodeCounts has no `id`: the tree's counts of a node replace the seed
    page's) and the requests it costs."""
    variables = tmp_path / "variables.json"
    variables.write_text(json.dumps(VARIABLES), encoding="utf-8")
    returncode, summary = _check(endpoint, str(variables), "--without-type-policies")
    assert returncode == 1
    assert summary["warnings"] >= 1
    assert any(
        "Cache data may be lost when replacing the counts field of a Node object" in said["message"]
        for said in summary["said"]
    ), summary["said"]
    assert summary["requests"]["second"] > 0


def test_an_object_type_without_id_needs_a_type_policy(node_modules: Path, tmp_path: Path) -> None:
    """The policies are checked against the schema: a new value object without a policy
    fails (the shipped schema passes)."""
    returncode, summary = _check("--policies-only")
    assert (returncode, summary["failures"]) == (0, [])
    schema = tmp_path / "schema.graphql"
    schema.write_text(
        (ROOT / "schema.graphql").read_text(encoding="utf-8")
        + '\n"Counts of something."\ntype ExtraCounts {\n  "How many."\n  total: Int!\n}\n',
        encoding="utf-8",
    )
    returncode, summary = _check("--policies-only", str(schema))
    assert returncode == 1
    assert summary["failures"] == [
        "ExtraCounts has no `id` and no type policy that merges it (src/apollo.ts)"
    ]


# --- graphql-eslint --------------------------------------------------------------------


def _eslint(node_modules: Path, *args: str, stdin: str | None = None) -> list[dict[str, Any]]:
    """ESLint's JSON report, run from the repository's root (the config's file patterns)."""
    result = subprocess.run(
        [
            str(node_modules / ".bin" / "eslint"),
            "--config",
            str(ESLINT_CONFIG),
            "--format",
            "json",
            *args,
        ],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode in (0, 1), result.stdout + result.stderr
    report: list[dict[str, Any]] = json.loads(result.stdout)
    return report


def test_graphql_eslint_recommended_rules_pass_every_operation(node_modules: Path) -> None:
    report = _eslint(node_modules, *(str(d.relative_to(ROOT)) for d in OPERATION_DIRS))
    assert sorted(Path(f["filePath"]) for f in report) == EVERY_OPERATION  # none left out
    problems = [
        f"{Path(f['filePath']).relative_to(ROOT)}:{m['line']}:{m['column']} "
        f"{m.get('ruleId')}: {m['message']}"
        for f in report
        for m in f["messages"]
    ]
    assert problems == [], "\n".join(problems)


def test_graphql_eslint_refuses_a_deprecated_field(node_modules: Path) -> None:
    """`no-deprecated` is on: `Node.descendants` is deprecated for `descendantsConnection`."""
    document = "query Deprecated {\n  roots {\n    id\n    descendants {\n      id\n    }\n  }\n}\n"
    report = _eslint(
        node_modules,
        "--stdin",
        "--stdin-filename",
        "examples/operations/Deprecated.graphql",
        stdin=document,
    )
    assert [m["ruleId"] for f in report for m in f["messages"]] == ["@graphql-eslint/no-deprecated"]
