"""The systems under test, each started as its own processes on a free port.

A `System` knows how to start itself, where its endpoint for each workload is, and what
body to POST there: our server (`taxonomy serve`, 2 workers), the floor (uvicorn, 2
workers) and the peer (PostGraphile in 2 Node processes).
"""

import json
import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.floor_queries import ANSWERS as FLOOR_ANSWERS
from bench.peer_workloads import DOCUMENTS as PEER_DOCUMENTS
from bench.source import PYTHON, Source
from bench.workloads import Workload

PROJECT = Path(__file__).resolve().parent.parent
PEER_DIR = PROJECT / "bench" / "postgraphile"
WORKERS = 2


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def post(url: str, body: bytes, timeout: float = 30) -> tuple[bytes, dict[str, str]]:
    """POST JSON; (response body, headers with lower-cased names)."""
    request = urllib.request.Request(url, body, {"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return response.read(), {k.lower(): v for k, v in response.headers.items()}


@dataclass
class System:
    """One system on one database: its label, kind (server, floor, peer) and command."""

    label: str
    kind: str
    database: str  # "sqlite" or "postgresql"
    command: list[str]
    env: dict[str, str]
    port: int
    cwd: Path = PROJECT
    cache: bool | None = None  # our server's response cache; None for the others
    process: subprocess.Popen[bytes] | None = field(default=None, repr=False)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def url(self, workload: str) -> str:
        return f"{self.base}/{workload.lower()}" if self.kind == "floor" else f"{self.base}/graphql"

    def answers(self, workload: Workload) -> bool:
        """Whether this system answers ``workload`` as our server does (the floor and the
        peer have no W5: bench/floor_queries.py)."""
        if self.kind == "floor":
            return workload.name in FLOOR_ANSWERS
        return self.kind == "server" or workload.name in PEER_DOCUMENTS

    def body(self, workload: Workload) -> bytes:
        document = PEER_DOCUMENTS[workload.name] if self.kind == "peer" else workload.document
        return json.dumps({"query": document, "variables": workload.variables}).encode()

    def start(self, log_dir: Path) -> None:
        log_dir.mkdir(parents=True, exist_ok=True)
        # The child writes its log through its own copy of the file; ours is closed.
        with (log_dir / f"{self.label.replace(' ', '_')}.log").open("wb") as log:
            # A session of its own, so that stop() ends exactly this system's processes.
            self.process = subprocess.Popen(
                self.command,
                cwd=self.cwd,
                env={**os.environ, **self.env},
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def wait_ready(self, timeout: float = 90) -> None:
        probe = json.dumps({"query": "{ __typename }"}).encode()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                raise RuntimeError(f"{self.label} exited with {self.process.returncode}")
            try:
                if self.kind == "floor":
                    urllib.request.urlopen(f"{self.base}/healthz", timeout=2).read()
                elif self.kind == "server":
                    urllib.request.urlopen(f"{self.base}/readyz", timeout=2).read()
                else:
                    post(f"{self.base}/graphql", probe, timeout=2)
                return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.3)
        raise RuntimeError(f"{self.label} did not become ready in {timeout:.0f} s")

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


def server(
    source: Source, database: str, url: str, *, cache: bool, workers: int = WORKERS
) -> System:
    """Our server as it is served: `taxonomy serve --workers 2` (one a core, as
    docs/operations.md advises)."""
    port = free_port()
    name = "SQLite" if database == "sqlite" else "PostgreSQL"
    return System(
        label=f"server {name} cache {'on' if cache else 'off'}",
        kind="server",
        database=database,
        command=source.taxonomy(
            "serve", "--db", url, "--port", str(port), "--workers", str(workers)
        ),
        env={
            **source.env(),
            "TAXONOMY_RESPONSE_CACHE": "true" if cache else "false",
            "TAXONOMY_STATEMENT_HEADER": "true",
            "TAXONOMY_GRAPHIQL": "false",
            # W4 at scale L answers thousands of methods per row; under 32 connections one
            # answer can take longer than the default 10 s limit, which would make it a
            # refusal instead of a measurement. The peer and the floor have no limit.
            "TAXONOMY_REQUEST_TIMEOUT_SECONDS": "120",
        },
        port=port,
        cwd=source.directory,
        cache=cache,
    )


def floor(source: Source, database: str, url: str) -> System:
    port = free_port()
    name = "SQLite" if database == "sqlite" else "PostgreSQL"
    return System(
        label=f"floor {name}",
        kind="floor",
        database=database,
        command=[
            PYTHON,
            "-m",
            "uvicorn",
            "--factory",
            "bench.floor:create_app",
            "--port",
            str(port),
            "--workers",
            str(WORKERS),
            "--no-access-log",
            "--log-level",
            "warning",
        ],
        env={**source.env(), "BENCH_FLOOR_DATABASE_URL": url},
        port=port,
        cwd=source.directory,
    )


def peer(url: str, *, workers: int = WORKERS, label: str = "peer PostGraphile") -> System:
    port = free_port()
    return System(
        label=label,
        kind="peer",
        database="postgresql",
        command=["node", "--require", "./polyfill.cjs", "serve.mjs"],
        env={
            "PEER_DATABASE_URL": url,
            "PEER_PORT": str(port),
            "PEER_WORKERS": str(workers),
            "NODE_ENV": "production",
        },
        port=port,
        cwd=PEER_DIR,
    )


# At L, one W4 answer (20 By-model rows of the largest root, every method of each) is
# large and takes tens of seconds; checking and counting wait for it.
ANSWER_TIMEOUT = 300.0


def answer(system: System, workload: Workload) -> tuple[Any, dict[str, str]]:
    """The system's decoded answer to ``workload`` and the response headers."""
    body, headers = post(system.url(workload.name), system.body(workload), ANSWER_TIMEOUT)
    return json.loads(body), headers
