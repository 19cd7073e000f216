"""Which code of the project is measured: a committed snapshot, not a working tree in flux.

A run takes many minutes, and a checkout where people are editing can change under it
(a half-done migration broke one such run). So by default the systems run the code of
HEAD, extracted once into var/bench/src/<commit>, and RESULTS.md names that commit.
BENCH_SOURCE=worktree measures the working tree as it is instead, and BENCH_SOURCE=<commit>
that commit (to measure the code before a change and after it, back to back).
"""

import compileall
import io
import os
import subprocess
import tarfile
from dataclasses import dataclass
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parent.parent
PYTHON = str(CHECKOUT / ".venv" / "bin" / "python")


@dataclass(frozen=True)
class Source:
    directory: Path
    description: str

    def env(self) -> dict[str, str]:
        """Put this source's packages first on the path of every process started with it
        (before the editable install of the checkout)."""
        return {"PYTHONPATH": str(self.directory)}

    def taxonomy(self, *arguments: str) -> list[str]:
        """A `taxonomy` command of this source."""
        return [PYTHON, "-m", "api.commands.cli", *arguments]


def _git(*arguments: str) -> str:
    return subprocess.run(
        ["git", *arguments], cwd=CHECKOUT, capture_output=True, text=True, check=True
    ).stdout.strip()


# Written once a snapshot is extracted and compiled. (An older marker, `.complete`, was
# written before snapshots were compiled: those are extracted again.)
INSTALLED = ".installed"
# The project's packages, as `make install` compiles them in a checkout.
PACKAGES = ("api", "schema", "store", "migrations")


def compile_snapshot(directory: Path) -> None:
    """The snapshot's modules compiled to bytecode, as `make install` does in a checkout:
    where Python writes no bytecode as it imports (PYTHONDONTWRITEBYTECODE=1, as on the
    machines this is measured on), every process of an uncompiled snapshot compiled the
    project from source as it started, a cost no installed server pays."""
    for package in PACKAGES:
        if not compileall.compile_dir(directory / package, quiet=1):
            raise RuntimeError(f"the snapshot's {package}/ does not compile: see above")


def current() -> Source:
    wanted = os.environ.get("BENCH_SOURCE", "head")
    commit = _git("rev-parse", "HEAD" if wanted in ("head", "worktree") else wanted)
    if wanted == "worktree":
        dirty = " with uncommitted changes" if _git("status", "--porcelain") else ""
        return Source(CHECKOUT, f"working tree at {commit[:12]}{dirty}")
    directory = CHECKOUT / "var" / "bench" / "src" / commit[:12]
    if not (directory / INSTALLED).exists():
        directory.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(
            ["git", "archive", "--format=tar", commit],
            cwd=CHECKOUT,
            capture_output=True,
            check=True,
        ).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(directory, filter="data")
        compile_snapshot(directory)
        (directory / INSTALLED).write_text(commit)
    subject = _git("log", "-1", "--format=%s", commit)
    return Source(directory, f"commit {commit[:12]} ({subject})")
