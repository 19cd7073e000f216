"""A whole dataset read and checked: every reference resolves, slugs are unique, the tree
has no cycle. Nothing touches the database until the dataset is known to be good."""

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from api.loader.records import (
    FILES,
    EvidenceRecord,
    MethodRecord,
    ModelRecord,
    NodeRecord,
    Problem,
    ProblemLimitError,
    Problems,
    SourceRecord,
    read_file,
)


class DatasetError(Exception):
    """The dataset cannot be loaded; ``problems`` lists each bad line."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(problems))


@dataclass(frozen=True)
class PlacedNode:
    """A node with what its place in the tree implies."""

    record: NodeRecord
    level: int
    path: str
    slug_path: str
    pre: int
    last: int


@dataclass
class Dataset:
    nodes: list[PlacedNode] = field(default_factory=list)  # pre-order
    models: list[ModelRecord] = field(default_factory=list)
    sources: list[SourceRecord] = field(default_factory=list)
    methods: list[MethodRecord] = field(default_factory=list)
    evidence: list[tuple[str, EvidenceRecord]] = field(default_factory=list)  # (key, record)


def read_dataset(directory: Path, *, max_problems: int = 50) -> Dataset:
    """Read and check ``directory``; raise DatasetError listing what is wrong."""
    problems = Problems(limit=max_problems)
    if not directory.is_dir():
        raise DatasetError([f"{directory}: not a folder; give a folder holding {', '.join(FILES)}"])
    missing = [name for name in FILES if not (directory / name).is_file()]
    if missing:
        raise DatasetError([f"{directory}: missing {', '.join(missing)}"])
    dataset = Dataset()
    try:
        nodes = list(read_file(directory / "nodes.jsonl", problems))
        dataset.models = list(read_file(directory / "models.jsonl", problems))
        dataset.sources = list(read_file(directory / "sources.jsonl", problems))
        dataset.methods = list(read_file(directory / "methods.jsonl", problems))
        evidence = list(read_file(directory / "evidence.jsonl", problems))
        _check_unique(problems, "nodes.jsonl", nodes)
        _check_unique(problems, "models.jsonl", dataset.models)
        _check_unique(problems, "sources.jsonl", dataset.sources)
        _check_unique(problems, "methods.jsonl", dataset.methods)
        dataset.nodes = _place_nodes(nodes, problems)
        _check_references(dataset, {node.slug for node in nodes}, evidence, problems)
        dataset.evidence = _keyed(evidence)
    except ProblemLimitError:
        note = f"more than {max_problems} problems; fix these and run again"
        problems.items.append(Problem("(stopped)", 0, note))
    if problems.items:
        raise DatasetError([str(problem) for problem in problems.items])
    return dataset


def _check_unique(
    problems: Problems,
    file: str,
    records: list[NodeRecord] | list[ModelRecord] | list[SourceRecord] | list[MethodRecord],
) -> None:
    first_line: dict[str, int] = {}
    for record in records:
        if record.slug in first_line:
            problems.add(
                file,
                record.line,
                f"duplicate slug {record.slug!r} (first at line {first_line[record.slug]})",
            )
        else:
            first_line[record.slug] = record.line


def _place_nodes(nodes: list[NodeRecord], problems: Problems) -> list[PlacedNode]:
    by_slug = {node.slug: node for node in nodes}
    children: dict[str | None, list[NodeRecord]] = {}
    for node in nodes:
        if node.parent is not None and node.parent not in by_slug:
            problems.add(
                "nodes.jsonl", node.line, f"parent {node.parent!r} is not a node in nodes.jsonl"
            )
            continue
        children.setdefault(node.parent, []).append(node)
    for siblings in children.values():
        siblings.sort(key=lambda node: (node.name.casefold(), node.slug))

    placed: list[PlacedNode] = []
    # Iterative pre-order walk from the roots: deep trees must not hit Python's recursion
    # limit. Each entry: (node, level, names, slugs); `last` is patched when the
    # subtree is done.
    open_subtrees: list[tuple[int, int]] = []  # (index in placed, level)
    stack: list[tuple[NodeRecord, int, str, str]] = [
        (root, 1, root.name, root.slug) for root in reversed(children.get(None, []))
    ]
    while stack:
        node, level, path, slug_path = stack.pop()
        while open_subtrees and open_subtrees[-1][1] >= level:
            index, _ = open_subtrees.pop()
            placed[index] = _with_last(placed[index], len(placed) - 1)
        placed.append(PlacedNode(node, level, path, slug_path, len(placed), len(placed)))
        open_subtrees.append((len(placed) - 1, level))
        for child in reversed(children.get(node.slug, [])):
            stack.append((child, level + 1, f"{path} :: {child.name}", f"{slug_path}/{child.slug}"))
    for index, _ in open_subtrees:
        placed[index] = _with_last(placed[index], len(placed) - 1)

    reached = {entry.record.slug for entry in placed}
    for node in nodes:
        # A node not reached from any root, whose parent exists, sits on a cycle or below one.
        if node.slug not in reached and (node.parent is None or node.parent in by_slug):
            problems.add("nodes.jsonl", node.line, _cycle_message(node, by_slug))
    return placed


def _with_last(node: PlacedNode, last: int) -> PlacedNode:
    return PlacedNode(node.record, node.level, node.path, node.slug_path, node.pre, last)


def _cycle_message(node: NodeRecord, by_slug: dict[str, NodeRecord]) -> str:
    seen: list[str] = []
    current: NodeRecord | None = node
    while current is not None and current.slug not in seen:
        seen.append(current.slug)
        current = by_slug.get(current.parent) if current.parent else None
    if current is None:  # pragma: no cover - only nodes unreachable from a root get here
        return f"node {node.slug!r} is not reachable from a root"
    cycle = [*seen[seen.index(current.slug) :], current.slug]
    where = "is in" if node.slug in cycle else "hangs below"
    return f"node {node.slug!r} {where} a cycle of parents: {' -> '.join(cycle)}"


def _check_references(
    dataset: Dataset, node_slugs: set[str], evidence: list[EvidenceRecord], problems: Problems
) -> None:
    model_slugs = {model.slug for model in dataset.models}
    method_slugs = {method.slug for method in dataset.methods}
    source_model = {source.slug: source.model for source in dataset.sources}
    for source in dataset.sources:
        if source.model not in model_slugs:
            problems.add(
                "sources.jsonl", source.line, f"model {source.model!r} is not in models.jsonl"
            )
    for method in dataset.methods:
        if method.node not in node_slugs:
            problems.add(
                "methods.jsonl", method.line, f"node {method.node!r} is not in nodes.jsonl"
            )
    for item in evidence:
        if item.model not in model_slugs:
            problems.add(
                "evidence.jsonl", item.line, f"model {item.model!r} is not in models.jsonl"
            )
        if item.method not in method_slugs:
            problems.add(
                "evidence.jsonl", item.line, f"method {item.method!r} is not in methods.jsonl"
            )
        if item.source is None:
            continue
        owner = source_model.get(item.source)
        if owner is None:
            problems.add(
                "evidence.jsonl", item.line, f"source {item.source!r} is not in sources.jsonl"
            )
        elif owner != item.model:
            problems.add(
                "evidence.jsonl",
                item.line,
                f"source {item.source!r} belongs to model {owner!r}, not {item.model!r}",
            )


def _keyed(evidence: list[EvidenceRecord]) -> list[tuple[str, EvidenceRecord]]:
    """Give each evidence row its stable key; exact repeats (real data has them) are told
    apart by their occurrence number, which the same file gives again on every load."""
    seen: Counter[str] = Counter()
    keyed = []
    for item in evidence:
        identity = item.identity()
        seen[identity] += 1
        keyed.append((identity if seen[identity] == 1 else f"{identity}-{seen[identity]}", item))
    return keyed
