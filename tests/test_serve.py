"""`taxonomy serve` as a new user runs it: it migrates a new database, loads the default
fixtures, and serves the seed page over real HTTP."""

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx2 as httpx

from conftest import SEED_PAGE
from seed_page import NODE_PAGE, render

TAXONOMY = Path(sys.executable).parent / "taxonomy"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _wait_ready(base: str, process: subprocess.Popen[bytes], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert process.poll() is None, "the server exited"
        try:
            if httpx.get(f"{base}/readyz", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"{base} was not ready within {timeout} s")


def test_serve_prepares_a_new_database_and_serves_the_seed_page(tmp_path: Path) -> None:
    port = _free_port()
    database = tmp_path / "new" / "taxonomy.db"
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    process = subprocess.Popen(
        [
            str(TAXONOMY),
            "serve",
            "--db",
            f"sqlite:///{database}",
            "--port",
            str(port),
            "--workers",
            "2",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_ready(base, process)
        assert database.is_file()
        response = httpx.post(
            f"{base}/graphql",
            json={"query": NODE_PAGE, "variables": {"path": "optimization/training-parallelism"}},
        )
        assert render(response.json()["data"]["node"]) == SEED_PAGE.read_text(encoding="utf-8")
        graphiql = httpx.get(f"{base}/graphql", headers={"Accept": "text/html"})
        assert "query NodePage" in graphiql.text
    finally:
        process.terminate()
        process.wait(timeout=15)
