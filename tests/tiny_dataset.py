"""A tiny dataset whose answers the tests work out by hand.

The tree (children listed by name, case-insensitively; `gamma` is listed before its parent
in the file):

    Alpha (alpha)            Root method
      beta (beta)            Charlie method
        Gamma (gamma)        alpha method, Bravo method, Lonely method (no evidence)
      Delta (delta)          Delta method
    zeta (zeta)              Zed method

Models: Newest (2025-06-01); `alpha` and `Bravo` (both 2024-01-01); `yankee` and `Zulu`
(undated). Names are cased so that a case-sensitive sort would give other orders.
"""

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

NODES: list[dict[str, Any]] = [
    {"slug": "gamma", "name": "Gamma", "parent": "beta", "matching_aids": ["gamma rays"]},
    {"slug": "beta", "name": "beta", "parent": "alpha", "matching_aids": []},
    {"slug": "alpha", "name": "Alpha", "parent": None, "matching_aids": ["first", "top"]},
    {"slug": "zeta", "name": "zeta", "parent": None, "matching_aids": []},
    {"slug": "delta", "name": "Delta", "parent": "alpha", "matching_aids": []},
]
MODELS: list[dict[str, Any]] = [
    {"slug": "newest", "name": "Newest", "release_date": "2025-06-01"},
    {"slug": "tie-b", "name": "Bravo", "release_date": "2024-01-01"},
    {"slug": "tie-a", "name": "alpha", "release_date": "2024-01-01"},
    {"slug": "undated-z", "name": "Zulu", "release_date": None},
    {"slug": "undated-y", "name": "yankee"},
]
METHODS: list[dict[str, Any]] = [
    # A method whose slug is also a node's: their IDs must still differ.
    {"slug": "alpha", "name": "alpha method", "node": "gamma"},
    {"slug": "m-bravo", "name": "Bravo method", "node": "gamma"},
    {"slug": "m-lonely", "name": "Lonely method", "node": "gamma"},
    {"slug": "m-charlie", "name": "Charlie method", "node": "beta"},
    {"slug": "m-delta", "name": "Delta method", "node": "delta"},
    {"slug": "m-root", "name": "Root method", "node": "alpha"},
    {"slug": "m-zed", "name": "Zed method", "node": "zeta"},
]
EVIDENCE = [
    ("newest", "alpha", "mentioned"),
    ("newest", "alpha", "core"),  # the pair's treatment is the strongest: CORE
    ("newest", "m-bravo", "used"),
    ("tie-b", "m-charlie", "used"),
    ("tie-b", "m-zed", "core"),
    ("tie-a", "m-bravo", "mentioned"),
    ("tie-a", "m-root", "used"),
    ("undated-z", "m-delta", "core"),
    ("undated-y", "alpha", "mentioned"),
    ("undated-y", "m-charlie", "mentioned"),
]


def write_tiny(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    sources = [
        {"slug": f"{m['slug']}-report", "model": m["slug"], "title": "Report", "kind": "paper"}
        for m in MODELS
    ]
    evidence = [
        {"model": model, "method": method, "strength": strength, "source": f"{model}-report"}
        for model, method, strength in EVIDENCE
    ]
    write_files(
        folder,
        {
            "nodes": NODES,
            "models": MODELS,
            "sources": sources,
            "methods": METHODS,
            "evidence": evidence,
        },
    )


def write_files(folder: Path, files: Mapping[str, list[dict[str, Any]]]) -> Path:
    """A dataset folder: each of ``files`` (by name, without `.jsonl`) one row per line."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, rows in files.items():
        lines = "".join(json.dumps(row) + "\n" for row in rows)
        (folder / f"{name}.jsonl").write_text(lines, encoding="utf-8")
    return folder
