"""Refusing a load that would wipe what is served.

A load replaces everything, so a dataset cut short (an empty evidence.jsonl, a file
truncated by a failed copy) would otherwise be served as it is, with exit 0. A load that
would empty a table that has rows, or remove more than half of the served methods,
models or evidence, is refused unless the caller allows it (`--allow-shrink`).

The counts are compared inside the load's transaction, once it holds the load lock, so
they are what this load replaces, not what an earlier load served; and before anything is
deleted, so that a refusal costs the reading of the catalog only. The evidence is read
while it is written, so its count comes from the file's lines first (a good file has one
row a line) and is checked again, exactly, before the commit.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

# What is counted (as served: store.load.counts) and the file it is loaded from.
FILES = {
    "nodes": "nodes.jsonl",
    "models": "models.jsonl",
    "sources": "sources.jsonl",
    "methods": "methods.jsonl",
    "evidence": "evidence.jsonl",
}
HALVED = ("methods", "models", "evidence")  # removing over half of these is refused


@dataclass(frozen=True)
class Loss:
    kind: str
    served: int
    loaded: int

    def __str__(self) -> str:
        if self.loaded == 0:
            return f"all {self.served:,} {self.kind} ({FILES[self.kind]} is empty)"
        removed = self.served - self.loaded
        # 99% at most: "100%" would read as all of them.
        share = min(round(100 * removed / self.served), 99)
        return f"{removed:,} of {self.served:,} {self.kind} ({share}%)"


class ShrinkError(Exception):
    """The load would remove what ``losses`` say; nothing was written."""

    def __init__(self, losses: list[Loss]) -> None:
        self.losses = losses
        said = [str(loss) for loss in losses]
        listed = said[0] if len(said) == 1 else f"{', '.join(said[:-1])} and {said[-1]}"
        super().__init__(f"this load would remove {listed}")


def evidence_lines(directory: Path) -> int:
    """The evidence file's lines that are not blank: its rows, if every line is good."""
    with (directory / "evidence.jsonl").open("rb") as handle:
        return sum(1 for line in handle if not line.isspace())


def refuse_shrink(served: Mapping[str, int], loaded: Mapping[str, int]) -> None:
    """Raise ShrinkError if loading ``loaded`` (counts by kind; the kinds given) over
    ``served`` would empty a kind that has rows or remove over half of a HALVED one."""
    losses = [
        Loss(kind, served[kind], count)
        for kind, count in loaded.items()
        if served[kind]
        and (count == 0 or (kind in HALVED and 2 * (served[kind] - count) > served[kind]))
    ]
    if losses:
        raise ShrinkError(losses)
