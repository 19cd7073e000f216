"""Deterministic synthetic datasets in the interchange format, skewed like real data: a
few large branches and prolific models, and a long tail.

`generate_scale` writes the default fixtures and grows a synthetic taxonomy around them,
never touching the seed node's branch, so the seed page stays exact at every scale."""

import json
import random
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta
from itertools import accumulate
from pathlib import Path
from typing import Any

from api.ingest.files import FILES

STRENGTHS = ("core", "used", "mentioned")
STRENGTH_WEIGHTS = (0.15, 0.55, 0.30)
_VOCABULARY = (
    "sparse dense attention expert routing parallel pipeline tensor context gradient "
    "quantized mixed precision cache adaptive rotary latent contrastive distilled curriculum "
    "reward preference policy speculative decoding retrieval augmented multimodal vision audio "
    "token sequence window sliding grouped query normalization residual optimizer"
)
WORDS = tuple(_VOCABULARY.split())
# The seed page's node: no synthetic node, method or evidence may enter its branch.
SEED_NODE = "training-parallelism"


@dataclass(frozen=True)
class Shape:
    """How much synthetic data to add (on top of a base dataset, if any)."""

    nodes: int
    methods: int
    models: int
    evidence: int
    depth: int
    roots: int = 5


# S is the default fixtures alone; M and L add about the totals around them.
SCALES = {
    "S": Shape(nodes=0, methods=0, models=0, evidence=0, depth=0, roots=0),
    "M": Shape(nodes=660, methods=20_000, models=470, evidence=100_000, depth=5, roots=3),
    "L": Shape(nodes=2_960, methods=200_000, models=4_970, evidence=1_000_000, depth=6, roots=4),
}


class _Skewed:
    """Picks indexes 0..n-1 with weight 1/(i+1)^s: index 0 is the most popular."""

    def __init__(self, rng: random.Random, n: int, s: float = 1.0) -> None:
        self._rng = rng
        self._population = range(n)
        self._cumulative = list(accumulate(1 / (i + 1) ** s for i in range(n)))

    def __call__(self) -> int:
        return self._rng.choices(self._population, cum_weights=self._cumulative)[0]


def _name(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words))


def _append(path: Path, rows: Iterable[dict[str, Any]]) -> None:
    with path.open("a", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False))
            handle.write("\n")


def _base_nodes(base: Path) -> list[tuple[str, int]]:
    """(slug, level) of the base dataset's nodes outside the seed node's branch."""
    parents = {}
    with (base / "nodes.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                node = json.loads(line)
                parents[node["slug"]] = node["parent"]

    def chain(slug: str) -> list[str]:
        found = [slug]
        while parents[found[-1]] is not None:
            found.append(parents[found[-1]])
        return found

    return [(s, len(chain(s))) for s in sorted(parents) if SEED_NODE not in chain(s)]


def generate(directory: Path, shape: Shape, *, seed: int = 0, base: Path | None = None) -> None:
    """Write a dataset into ``directory``: ``base``'s files (if given), then ``shape``'s
    synthetic nodes, models, sources, methods and evidence, attached around them."""
    directory.mkdir(parents=True, exist_ok=True)
    for name in FILES:
        if base is not None:
            shutil.copyfile(base / name, directory / name)
        else:
            (directory / name).write_text("", encoding="utf-8")
    rng = random.Random(seed)

    # Nodes: new roots, then each new node under an earlier node (base or new) that is
    # not too deep, drawn towards the first ones so that a few branches grow large.
    eligible = [(slug, level) for slug, level in (_base_nodes(base) if base else [])]
    eligible = [entry for entry in eligible if entry[1] < shape.depth]
    nodes: list[dict[str, Any]] = []
    for index in range(shape.nodes):
        slug = f"syn-n{index}"
        if index < shape.roots or not eligible:
            parent, level = None, 1

        else:
            parent, parent_level = eligible[int(len(eligible) * rng.random() ** 2)]
            level = parent_level + 1
        nodes.append(
            {
                "slug": slug,
                "name": f"{_name(rng, 2)} {index}",
                "parent": parent,
                "description": None,
                "matching_aids": [_name(rng, 2)],
            }
        )
        if level < shape.depth:
            eligible.append((slug, level))
    _append(directory / "nodes.jsonl", nodes)

    first_release = date(2020, 1, 1)
    _append(
        directory / "models.jsonl",
        (
            {
                "slug": f"syn-m{index}",
                "name": f"Model {index}",
                "organization": f"Lab {index % 17}",
                "release_date": None
                if index % 11 == 0
                else (first_release + timedelta(days=rng.randrange(2000))).isoformat(),
            }
            for index in range(shape.models)
        ),
    )
    _append(
        directory / "sources.jsonl",
        (
            {
                "slug": f"syn-m{index}-report",
                "model": f"syn-m{index}",
                "title": f"Model {index} technical report",
                "kind": "technical_report",
                "url": None,
                "published_on": None,
            }
            for index in range(shape.models)
        ),
    )
    if shape.methods:
        node_of = _Skewed(rng, len(nodes), 0.8)
        _append(
            directory / "methods.jsonl",
            (
                {
                    "slug": f"syn-x{index}",
                    "name": f"{_name(rng, 3).title()} {index}",
                    "node": nodes[node_of()]["slug"],
                    "description": _name(rng, 8),
                    "aliases": [],
                }
                for index in range(shape.methods)
            ),
        )
    if shape.evidence:
        model_of = _Skewed(rng, shape.models, 0.9)
        method_of = _Skewed(rng, shape.methods, 0.7)
        _append(
            directory / "evidence.jsonl",
            (
                {
                    "model": f"syn-m{model}",
                    "method": f"syn-x{method_of()}",
                    "strength": rng.choices(STRENGTHS, STRENGTH_WEIGHTS)[0],
                    "source": f"syn-m{model}-report",
                    "quote": None,
                    "locator": f"§{rng.randrange(1, 9)}",
                }
                for model in (model_of() for _ in range(shape.evidence))
            ),
        )


def generate_scale(directory: Path, scale: str, *, fixtures: Path, seed: int = 0) -> None:
    """The default fixtures grown to ``scale`` (S, M or L)."""
    generate(directory, SCALES[scale], seed=seed, base=fixtures)
