"""A whole dataset read and checked: every reference resolves, slugs are unique, the tree
has no cycle. Nothing touches the database until the dataset is known to be good."""

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from api.ingest.files import FILES
from api.ingest.lines import (
    MethodRecord,
    ModelRecord,
    NodeRecord,
    Problem,
    ProblemLimitError,
    Problems,
    SourceRecord,
    read_file,
)
from api.ingest.progress import Meter
from api.ingest.references import missing, target
from store.file_kinds import A_FILE, NOTHING, kind_of


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
class Catalog:
    """Everything of a dataset but its evidence, checked, with the row ids each slug gets.

    Row ids follow file (or tree) order, so they are the same on every load of the same
    files; clients never see them (their IDs come from slugs).
    """

    nodes: list[PlacedNode] = field(default_factory=list)  # pre-order
    models: list[ModelRecord] = field(default_factory=list)
    sources: list[SourceRecord] = field(default_factory=list)
    methods: list[MethodRecord] = field(default_factory=list)
    node_ids: dict[str, int] = field(default_factory=dict)
    model_ids: dict[str, int] = field(default_factory=dict)
    source_ids: dict[str, int] = field(default_factory=dict)
    method_ids: dict[str, int] = field(default_factory=dict)
    evidence_count: int = 0

    def index(self) -> None:
        self.node_ids = {placed.record.slug: placed.pre + 1 for placed in self.nodes}
        self.model_ids = {model.slug: index + 1 for index, model in enumerate(self.models)}
        self.source_ids = {source.slug: index + 1 for index, source in enumerate(self.sources)}
        self.method_ids = {method.slug: index + 1 for index, method in enumerate(self.methods)}


# An evidence row as the evidence table takes it:
# (id, key, model_id, method_id, source_id, strength, quote, locator).
EvidenceValues = tuple[int, str, int, int, int | None, str, str | None, str | None]


def check_directory(directory: Path) -> None:
    """Refuse a dataset folder that is none, or misses a file, or holds something else
    where a file should be (named as what it is: a folder, a named pipe, a dangling
    link), before anything reads it: reading a named pipe would wait for ever."""
    if not directory.is_dir():
        kind = kind_of(directory)
        said = "does not exist" if kind == NOTHING else f"is {kind}, not a folder"
        raise DatasetError([f"{directory}: {said}; give a folder holding {', '.join(FILES)}"])
    kinds = {name: kind_of(directory / name) for name in FILES}
    missing = [name for name, kind in kinds.items() if kind == NOTHING]
    problems = [f"{directory}: missing {', '.join(missing)}"] if missing else []
    problems.extend(
        f"{directory / name}: {kind}, not a file; put the {name} file there"
        for name, kind in kinds.items()
        if kind not in (A_FILE, NOTHING)
    )
    if problems:
        raise DatasetError(problems)


def read_catalog(directory: Path, problems: Problems, meter: Meter | None = None) -> Catalog:
    """Read and check the nodes, models, sources and methods of ``directory``."""
    catalog = Catalog()
    nodes = list(read_file(directory / "nodes.jsonl", problems, meter))
    catalog.models = list(read_file(directory / "models.jsonl", problems, meter))
    catalog.sources = list(read_file(directory / "sources.jsonl", problems, meter))
    catalog.methods = list(read_file(directory / "methods.jsonl", problems, meter))
    _check_unique(problems, "nodes.jsonl", nodes)
    _check_unique(problems, "models.jsonl", catalog.models)
    _check_unique(problems, "sources.jsonl", catalog.sources)
    _check_unique(problems, "methods.jsonl", catalog.methods)
    catalog.nodes = _place_nodes(nodes, problems)
    _check_references(catalog, {node.slug for node in nodes}, problems)
    catalog.index()
    return catalog


def checked_evidence(
    directory: Path, catalog: Catalog, problems: Problems, meter: Meter | None = None
) -> Iterator[EvidenceValues]:
    """Stream the evidence file as table rows, checking each line as it goes.

    After the first problem nothing more is yielded (the load is lost anyway) but the
    file is read to its end, to report every problem at once. Exact repeats (real data
    has them) are told apart by their occurrence number, which the same file gives again
    on every load.
    """
    seen: set[bytes] = set()
    repeats: Counter[str] = Counter()
    source_owner = {source.slug: source.model for source in catalog.sources}
    models = target("models.jsonl", "model", catalog.model_ids, problems)
    methods = target("methods.jsonl", "method", catalog.method_ids, problems)
    sources = target("sources.jsonl", "source", source_owner, problems)
    count = 0
    for item in read_file(directory / "evidence.jsonl", problems, meter):
        model_id = catalog.model_ids.get(item.model)
        method_id = catalog.method_ids.get(item.method)
        ok = True
        if model_id is None:
            missing(problems, "evidence.jsonl", item.line, item.model, models)
            ok = False
        if method_id is None:
            missing(problems, "evidence.jsonl", item.line, item.method, methods)
            ok = False
        if item.source is not None:
            owner = source_owner.get(item.source)
            if owner is None:
                missing(problems, "evidence.jsonl", item.line, item.source, sources)
                ok = False
            elif owner != item.model:
                problems.add(
                    "evidence.jsonl",
                    item.line,
                    f"source {item.source!r} belongs to model {owner!r}, not {item.model!r}",
                )
                ok = False
        if not ok or problems.items or model_id is None or method_id is None:
            continue
        key = item.identity()
        digest = bytes.fromhex(key[:16])
        if digest in seen:
            repeats[key] += 1
            key = f"{key}-{repeats[key] + 1}"
        else:
            seen.add(digest)
        count += 1
        yield (
            count,
            key,
            model_id,
            method_id,
            catalog.source_ids[item.source] if item.source else None,
            item.strength,
            item.quote,
            item.locator,
        )
    catalog.evidence_count = count


def stopped_note(limit: int) -> Problem:
    return Problem("(stopped)", 0, f"more than {limit} problems; fix these and run again")


def read_dataset(directory: Path, *, max_problems: int = 50) -> Catalog:
    """Read and check all of ``directory`` without writing anything; DatasetError lists
    what is wrong."""
    check_directory(directory)
    problems = Problems(limit=max_problems)
    catalog = Catalog()
    try:
        catalog = read_catalog(directory, problems)
        for _ in checked_evidence(directory, catalog, problems):
            pass
    except ProblemLimitError:
        problems.items.append(stopped_note(max_problems))
    if problems.items:
        raise DatasetError([str(problem) for problem in problems.items])
    return catalog


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
    parents = target("nodes.jsonl", "parent", by_slug, problems, "is not a node in nodes.jsonl")
    children: dict[str | None, list[NodeRecord]] = {}
    for node in nodes:
        if node.parent is not None and node.parent not in by_slug:
            missing(problems, "nodes.jsonl", node.line, node.parent, parents)
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
        if node.slug not in reached and (node.parent is None or node.parent in by_slug):
            _report_unreached(node, by_slug, problems)
    return placed


def _with_last(node: PlacedNode, last: int) -> PlacedNode:
    return PlacedNode(node.record, node.level, node.path, node.slug_path, node.pre, last)


def _report_unreached(node: NodeRecord, by_slug: dict[str, NodeRecord], problems: Problems) -> None:
    """A node no root reaches, though its parent is in the file: it is on a cycle of
    parents, or below one, or below a node whose parent is missing (reported there)."""
    seen: list[str] = []
    current: NodeRecord | None = node
    while current is not None and current.slug not in seen:
        seen.append(current.slug)
        current = by_slug.get(current.parent) if current.parent else None
    if current is None:
        return  # the node at the top of the chain names a missing parent: its own problem
    cycle = [*seen[seen.index(current.slug) :], current.slug]
    loop = " -> ".join(cycle)
    if node.slug in cycle:
        problems.add(
            "nodes.jsonl", node.line, f"node {node.slug!r} is in a cycle of parents: {loop}"
        )
        return
    problems.add(
        "nodes.jsonl",
        node.line,
        f"node {node.slug!r} hangs below a cycle of parents: {loop}",
        key=("below", frozenset(cycle)),
        many=f"node lines hang below the cycle of parents {loop} (this is the first)",
    )


def _check_references(catalog: Catalog, node_slugs: set[str], problems: Problems) -> None:
    model_slugs = {model.slug for model in catalog.models}
    models = target("models.jsonl", "model", model_slugs, problems)
    for source in catalog.sources:
        if source.model not in model_slugs:
            missing(problems, "sources.jsonl", source.line, source.model, models)
    nodes = target("nodes.jsonl", "node", node_slugs, problems)
    for method in catalog.methods:
        if method.node not in node_slugs:
            missing(problems, "methods.jsonl", method.line, method.node, nodes)
