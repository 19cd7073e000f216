"""The GraphQL-over-HTTP spec's own audit suite (graphql-http's `auditServer`, the npm
package pinned in tests/http_audit/package-lock.json) against a live `taxonomy serve`, on
each database: every audit passes, MUST and SHOULD alike."""

import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

from api.ingest.load import load_directory
from api.settings import DEFAULT_FIXTURES_DIR

from processes import running_server

AUDIT = Path(__file__).parent / "http_audit" / "audit.mjs"


def test_every_graphql_over_http_audit_passes(
    backend: str, new_database: Callable[[str, str], str]
) -> None:
    node = shutil.which("node")
    assert node, "Node.js is needed for the audit (`make install` installs its package)"
    url = new_database(backend, "audit")
    load_directory(DEFAULT_FIXTURES_DIR, url)
    with running_server(url) as base:
        run = subprocess.run(
            [node, str(AUDIT), f"{base}/graphql"],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    assert run.returncode == 0, run.stderr
    results = json.loads(run.stdout)
    assert len(results) >= 60, "fewer audits than graphql-http 1.23.1 runs"
    failed = [result for result in results if result["status"] != "ok"]
    print(f"graphql-http audits: {len(results) - len(failed)} of {len(results)} ok")
    assert failed == [], json.dumps(failed, indent=1)
