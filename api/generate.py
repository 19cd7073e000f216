"""Deterministic synthetic datasets in the interchange format, skewed like real data: a
few large branches and prolific models, and a long tail."""

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from itertools import accumulate
from pathlib import Path
from typing import Any, TextIO

STRENGTHS = ("core", "used", "mentioned")
STRENGTH_WEIGHTS = (0.15, 0.55, 0.30)
WORDS = tuple(
    [
        "sparse",
        "dense",
        "attention",
        "expert",
        "routing",
        "parallel",
        "pipeline",
        "tensor",
        "context",
        "gradient",
        "quantized",
        "mixed",
        "precision",
        "cache",
        "adaptive",
        "rotary",
        "latent",
        "contrastive",
        "distilled",
        "curriculum",
        "reward",
        "preference",
        "policy",
        "speculative",
        "decoding",
        "retrieval",
        "augmented",
        "multimodal",
        "vision",
        "audio",
        "token",
        "sequence",
        "window",
        "sliding",
        "grouped",
        "query",
        "normalization",
        "residual",
        "optimizer",
    ]
)


@dataclass(frozen=True)
class Shape:
    nodes: int
    methods: int
    models: int
    evidence: int
    depth: int
    roots: int = 5


class _Skewed:
    """Picks indexes 0..n-1 with weight 1/(i+1)^s: index 0 is the most popular."""

    def __init__(self, rng: random.Random, n: int, s: float = 1.0) -> None:
        self._rng = rng
        self._n = n
        self._cumulative = list(accumulate(1 / (i + 1) ** s for i in range(n)))

    def __call__(self) -> int:
        return self._rng.choices(range(self._n), cum_weights=self._cumulative)[0]


def _name(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words))


def _write(handle: TextIO, rows: Iterator[dict[str, Any]]) -> None:
    for row in rows:
        handle.write(json.dumps(row, ensure_ascii=False))
        handle.write("\n")


def generate(directory: Path, shape: Shape, *, seed: int = 0) -> None:
    """Write the five files of a dataset of ``shape`` into ``directory``."""
    directory.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    levels = [1] * shape.roots
    parents: list[int | None] = [None] * shape.roots
    for index in range(shape.roots, shape.nodes):
        # Parents are drawn with a skew, so that a few branches grow large.
        candidates = [i for i in range(min(index, 64 + index // 4)) if levels[i] < shape.depth]
        parent = candidates[int(len(candidates) * rng.random() ** 2)]
        parents.append(parent)
        levels.append(levels[parent] + 1)
    with (directory / "nodes.jsonl").open("w", encoding="utf-8") as handle:
        _write(
            handle,
            (
                {
                    "slug": f"n{index}",
                    "name": f"{_name(rng, 2)} {index}",
                    "parent": None if parent is None else f"n{parent}",
                    "description": None,
                    "matching_aids": [_name(rng, 2)],
                }
                for index, parent in enumerate(parents)
            ),
        )
    first_release = date(2020, 1, 1)
    with (directory / "models.jsonl").open("w", encoding="utf-8") as handle:
        _write(
            handle,
            (
                {
                    "slug": f"m{index}",
                    "name": f"Model {index}",
                    "organization": f"Lab {index % 17}",
                    "release_date": None
                    if index % 11 == 0
                    else (first_release + timedelta(days=rng.randrange(2000))).isoformat(),
                }
                for index in range(shape.models)
            ),
        )
    with (directory / "sources.jsonl").open("w", encoding="utf-8") as handle:
        _write(
            handle,
            (
                {
                    "slug": f"m{index}-report",
                    "model": f"m{index}",
                    "title": f"Model {index} technical report",
                    "kind": "technical_report",
                    "url": None,
                    "published_on": None,
                }
                for index in range(shape.models)
            ),
        )
    node_of = _Skewed(rng, shape.nodes, 0.8)
    with (directory / "methods.jsonl").open("w", encoding="utf-8") as handle:
        _write(
            handle,
            (
                {
                    "slug": f"x{index}",
                    "name": f"{_name(rng, 3).title()} {index}",
                    "node": f"n{node_of()}",
                    "description": _name(rng, 8),
                    "aliases": [],
                }
                for index in range(shape.methods)
            ),
        )
    model_of = _Skewed(rng, shape.models, 0.9)
    method_of = _Skewed(rng, shape.methods, 0.7)
    with (directory / "evidence.jsonl").open("w", encoding="utf-8") as handle:
        _write(
            handle,
            (
                {
                    "model": f"m{model}",
                    "method": f"x{method_of()}",
                    "strength": rng.choices(STRENGTHS, STRENGTH_WEIGHTS)[0],
                    "source": f"m{model}-report",
                    "quote": None,
                    "locator": f"§{rng.randrange(1, 9)}",
                }
                for model in (model_of() for _ in range(shape.evidence))
            ),
        )
