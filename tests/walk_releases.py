"""Three releases to walk (tests/test_walk_releases.py, the browser's walk test): the
fixtures; then a branch removed with its methods and their evidence, a model removed with
its sources and evidence, a node moved and renamed at once, a method renamed and one
added; then that node renamed again, a method removed on its own and a node's description
set."""

import json
import shutil
from pathlib import Path
from typing import Any

from api.ingest.load import load_directory
from api.settings import DEFAULT_FIXTURES_DIR

Rows = list[dict[str, Any]]

# The branch removed in release 2 (expert-routing and load-balancing below it).
REMOVED_NODE, REMOVED_CHILD = "expert-routing", "load-balancing"
REMOVED_MODEL = "kimi-k2"
# Moved from data to architecture and renamed in release 2, renamed again in release 3.
MOVED_NODE = "tokenization"
RENAMED_METHOD, ADDED_METHOD = "byte-pair-encoding", "fresh-method"
REMOVED_ALONE = "sentencepiece"  # removed in release 3, its node kept
DESCRIBED_NODE = "hyperparameter-scaling"  # its description set in release 3 (CHANGED)


def _read(folder: Path, name: str) -> Rows:
    with (folder / f"{name}.jsonl").open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def _write(folder: Path, name: str, rows: Rows) -> None:
    text = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
    (folder / f"{name}.jsonl").write_text(text, encoding="utf-8")


def _second(folder: Path) -> None:
    nodes, methods = _read(folder, "nodes"), _read(folder, "methods")
    models, sources = _read(folder, "models"), _read(folder, "sources")
    evidence = _read(folder, "evidence")
    branch = {REMOVED_NODE, REMOVED_CHILD}
    nodes = [node for node in nodes if node["slug"] not in branch]
    for node in nodes:
        if node["slug"] == MOVED_NODE:
            node["parent"], node["name"] = "architecture", "tokenizers"
    gone = {method["slug"] for method in methods if method["node"] in branch}
    methods = [method for method in methods if method["slug"] not in gone]
    for method in methods:
        if method["slug"] == RENAMED_METHOD:
            method["name"] = "BPE Tokenization"
    methods.append({"slug": ADDED_METHOD, "name": "Fresh Method", "node": "data"})
    models = [model for model in models if model["slug"] != REMOVED_MODEL]
    sources = [source for source in sources if source["model"] != REMOVED_MODEL]
    evidence = [
        piece
        for piece in evidence
        if piece["model"] != REMOVED_MODEL and piece["method"] not in gone
    ]
    for name, rows in (("nodes", nodes), ("methods", methods), ("models", models)):
        _write(folder, name, rows)
    _write(folder, "sources", sources)
    _write(folder, "evidence", evidence)


def _third(folder: Path) -> None:
    nodes, methods = _read(folder, "nodes"), _read(folder, "methods")
    evidence = _read(folder, "evidence")
    for node in nodes:
        if node["slug"] == MOVED_NODE:
            node["name"] = "tokenizer design"
        if node["slug"] == DESCRIBED_NODE:
            node["description"] = "Scaling rules."
    methods = [method for method in methods if method["slug"] != REMOVED_ALONE]
    evidence = [piece for piece in evidence if piece["method"] != REMOVED_ALONE]
    _write(folder, "nodes", nodes)
    _write(folder, "methods", methods)
    _write(folder, "evidence", evidence)


def removed_branch_methods() -> set[str]:
    """The slugs of the methods filed in the branch removed by release 2."""
    methods = _read(DEFAULT_FIXTURES_DIR, "methods")
    return {m["slug"] for m in methods if m["node"] in (REMOVED_NODE, REMOVED_CHILD)}


def load_walk_releases(root: Path, url: str) -> None:
    """Load the three releases into ``url`` (their folders made under ``root``)."""
    first, second, third = root / "first", root / "second", root / "third"
    shutil.copytree(DEFAULT_FIXTURES_DIR, first)
    shutil.copytree(first, second)
    _second(second)
    shutil.copytree(second, third)
    _third(third)
    for number, folder in enumerate((first, second, third), start=1):
        load_directory(folder, url, note=f"walk {number}")
