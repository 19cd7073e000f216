"""Real `taxonomy serve` processes for the tests that need real HTTP and several workers."""

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import httpx2 as httpx
import psutil

TAXONOMY = Path(sys.executable).parent / "taxonomy"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_ready(base: str, process: subprocess.Popen[bytes], timeout: float = 120) -> None:
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


@contextmanager
def running_server(database_url: str, *, workers: int = 1, **settings: str) -> Iterator[str]:
    """A `taxonomy serve` process on a free port; yields its base URL once it is ready.
    ``settings`` become TAXONOMY_* environment variables. Should the test fail, the
    server's log (less its request lines) is printed: a worker that died or was restarted
    is then told from a flaky harness."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update({f"TAXONOMY_{name.upper()}": value for name, value in settings.items()})
    command = [str(TAXONOMY), "serve", "--db", database_url, "--port", str(port)]
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(
            [*command, "--workers", str(workers)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=log,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            wait_ready(base, process)
            yield base
        except BaseException:
            _print_log(log)
            raise
        finally:
            process.terminate()
            process.wait(timeout=15)


def _print_log(log: IO[bytes]) -> None:
    """The server's standard error (uvicorn's lines, our faults; requests go to stdout)."""
    log.flush()
    log.seek(0)
    lines = log.read().decode(errors="replace").splitlines()
    print("\n".join(["the server's log:", *lines[-40:]]), file=sys.stderr)


def worker_pids(base: str) -> list[int]:
    """The uvicorn worker processes of the `taxonomy serve` behind ``base``."""
    port = base.rsplit(":", 1)[1]
    for child in psutil.Process().children():
        command = _command_line(child)
        if "serve" in command and port in command:
            return sorted(
                worker.pid
                for worker in child.children(recursive=True)
                if any("spawn_main" in part for part in _command_line(worker))
            )
    raise AssertionError(f"no server process on port {port}")


def _command_line(process: psutil.Process) -> list[str]:
    """Its command line; none for a process that ended while being looked at (another
    test's child being reaped: a worker that ended is missed by the caller's comparison)."""
    try:
        return process.cmdline()
    except (psutil.NoSuchProcess, psutil.ZombieProcess):
        return []


def drive_browser(script: Path, database_url: str, *arguments: str, **settings: Any) -> str:
    """Runs a headless-Chromium driver (``node script BASE_URL *arguments``) against a
    `taxonomy serve` of ``database_url`` (with ``settings``, as running_server takes them);
    its output, once it has passed (printed either way)."""
    node = shutil.which("node")
    assert node, "no node: install Node.js (Debian's nodejs)"
    with running_server(database_url, **settings) as base:
        run = subprocess.run(
            [node, str(script), base, *arguments],
            capture_output=True,
            text=True,
            timeout=240,
            check=False,
        )
    print(run.stdout, end="")
    assert run.returncode == 0, run.stdout + run.stderr
    return run.stdout
