"""A test oracle: the expected answers of DESIGN.md section 2, computed straight from a dataset.

It reads a dataset folder in the interchange format (DESIGN.md section 4) with nothing but the
standard library and works every figure out the plainest way, independently of the API, so that
tests can compare the API's answers with it. Clarity beats speed here: plain dicts and sets, and
every figure recomputed from scratch on each call.
"""

from __future__ import annotations

import calendar
import json
from dataclasses import dataclass
from datetime import date
from functools import cmp_to_key
from pathlib import Path
from typing import Any

# Strongest first: a lower rank is a stronger treatment.
STRENGTHS: tuple[str, ...] = ("CORE", "USED", "MENTIONED")
_RANK_OF_FILE_STRENGTH: dict[str, int] = {"core": 0, "used": 1, "mentioned": 2}


@dataclass(frozen=True)
class NodeFigures:
    """Everything about one node that DESIGN.md section 2 defines as a number or a string."""

    slug: str
    name: str
    level: int
    path: str  # names from the root joined by " :: "
    slug_path: str  # slugs from the root joined by "/"
    methods_in_branch: int
    methods_filed_here: int
    models_in_branch: int
    evidence_in_branch: int
    child_count: int
    descendant_count: int
    # (model, method) pairs in the branch whose treatment is that strength
    core: int
    used: int
    mentioned: int


@dataclass(frozen=True)
class ByModelRow:
    """One row of a node's "By model" table."""

    model_slug: str
    model_name: str
    strongest: str  # "CORE", "USED" or "MENTIONED"
    methods: tuple[tuple[str, str], ...]  # (method name, strength) in row order


@dataclass(frozen=True)
class _Node:
    slug: str
    name: str
    parent: str | None


@dataclass(frozen=True)
class _Model:
    slug: str
    name: str
    release_date: date | None


@dataclass(frozen=True)
class _Method:
    slug: str
    name: str
    node: str


@dataclass(frozen=True)
class _Evidence:
    model: str
    method: str
    rank: int  # index into STRENGTHS


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            row = json.loads(line)
            if not isinstance(row, dict):
                raise ValueError(f"{path.name}:{number}: not a JSON object")
            rows.append(row)
    return rows


def _check_unique(kind: str, slugs: list[str]) -> None:
    seen: set[str] = set()
    for slug in slugs:
        if slug in seen:
            raise ValueError(f"duplicate {kind} slug {slug!r}")
        seen.add(slug)


class Reference:
    """The expected answers for one dataset folder."""

    def __init__(
        self,
        nodes: list[_Node],
        models: list[_Model],
        methods: list[_Method],
        evidence: list[_Evidence],
    ) -> None:
        _check_unique("node", [n.slug for n in nodes])
        _check_unique("model", [m.slug for m in models])
        _check_unique("method", [m.slug for m in methods])
        self._nodes = {n.slug: n for n in nodes}
        self._models = {m.slug: m for m in models}
        self._methods = {m.slug: m for m in methods}
        self._evidence = list(evidence)

        for node in nodes:
            if node.parent is not None and node.parent not in self._nodes:
                raise ValueError(f"node {node.slug!r}: unknown parent {node.parent!r}")
        for method in methods:
            if method.node not in self._nodes:
                raise ValueError(f"method {method.slug!r}: unknown node {method.node!r}")
        for row in evidence:
            if row.model not in self._models:
                raise ValueError(f"evidence: unknown model {row.model!r}")
            if row.method not in self._methods:
                raise ValueError(f"evidence: unknown method {row.method!r}")

        # Children in file order; the parent may come after the child in the file, which is
        # why this is built only once every node has been read.
        self._children: dict[str, list[str]] = {slug: [] for slug in self._nodes}
        for node in nodes:
            if node.parent is not None:
                self._children[node.parent].append(node.slug)

        # The treatment of a (model, method) pair: the strongest (lowest) rank over its evidence.
        self._treatment: dict[tuple[str, str], int] = {}
        for row in evidence:
            pair = (row.model, row.method)
            self._treatment[pair] = min(row.rank, self._treatment.get(pair, row.rank))

        # Fails on a parent cycle, which would make "level" meaningless.
        for slug in self._nodes:
            self._ancestry(slug)

    @classmethod
    def from_dir(cls, path: str | Path) -> Reference:
        folder = Path(path)
        nodes = [
            _Node(slug=r["slug"], name=r["name"], parent=r.get("parent"))
            for r in _read_jsonl(folder / "nodes.jsonl")
        ]
        models = [
            _Model(
                slug=r["slug"],
                name=r["name"],
                release_date=(
                    date.fromisoformat(r["release_date"])
                    if r.get("release_date") is not None
                    else None
                ),
            )
            for r in _read_jsonl(folder / "models.jsonl")
        ]
        methods = [
            _Method(slug=r["slug"], name=r["name"], node=r["node"])
            for r in _read_jsonl(folder / "methods.jsonl")
        ]
        evidence = [
            _Evidence(
                model=r["model"], method=r["method"], rank=_RANK_OF_FILE_STRENGTH[r["strength"]]
            )
            for r in _read_jsonl(folder / "evidence.jsonl")
        ]
        return cls(nodes, models, methods, evidence)

    # --- the tree -------------------------------------------------------------------------

    def _ancestry(self, slug: str) -> list[str]:
        """Slugs from the root down to `slug` itself."""
        chain = [slug]
        while (parent := self._nodes[chain[-1]].parent) is not None:
            if parent in chain:
                raise ValueError(f"node {slug!r}: parent cycle through {parent!r}")
            chain.append(parent)
        chain.reverse()
        return chain

    def _descendants(self, slug: str) -> list[str]:
        """Every node strictly below `slug`."""
        below: list[str] = []
        for child in self._children[slug]:
            below.append(child)
            below.extend(self._descendants(child))
        return below

    def _branch_methods(self, slug: str) -> set[str]:
        branch = {slug, *self._descendants(slug)}
        return {m.slug for m in self._methods.values() if m.node in branch}

    def roots(self) -> list[str]:
        """Root slugs, sorted by slug."""
        return sorted(slug for slug, node in self._nodes.items() if node.parent is None)

    def deepest(self, n: int) -> list[str]:
        """Slugs of the n deepest nodes: by level, deepest first, then by slug."""
        ordered = sorted(self._nodes, key=lambda slug: (-len(self._ancestry(slug)), slug))
        return ordered[:n]

    # --- the figures ----------------------------------------------------------------------

    def node(self, slug: str) -> NodeFigures:
        ancestry = self._ancestry(slug)
        branch_methods = self._branch_methods(slug)
        branch_pairs = {
            pair: rank for pair, rank in self._treatment.items() if pair[1] in branch_methods
        }
        ranks = list(branch_pairs.values())
        return NodeFigures(
            slug=slug,
            name=self._nodes[slug].name,
            level=len(ancestry),
            path=" :: ".join(self._nodes[s].name for s in ancestry),
            slug_path="/".join(ancestry),
            methods_in_branch=len(branch_methods),
            methods_filed_here=sum(1 for m in self._methods.values() if m.node == slug),
            models_in_branch=len({model for model, _ in branch_pairs}),
            evidence_in_branch=sum(1 for e in self._evidence if e.method in branch_methods),
            child_count=len(self._children[slug]),
            descendant_count=len(self._descendants(slug)),
            core=ranks.count(0),
            used=ranks.count(1),
            mentioned=ranks.count(2),
        )

    def by_model(self, slug: str) -> list[ByModelRow]:
        """The node's "By model" table in its default order."""
        branch_methods = self._branch_methods(slug)
        treated: dict[str, list[tuple[int, str]]] = {}  # model -> [(rank, method slug)]
        for (model, method), rank in self._treatment.items():
            if method in branch_methods:
                treated.setdefault(model, []).append((rank, method))

        def method_order(item: tuple[int, str]) -> tuple[int, str, str]:
            rank, method = item
            return (rank, self._methods[method].name.casefold(), method)

        rows: list[ByModelRow] = []
        for model, items in treated.items():
            items.sort(key=method_order)
            rows.append(
                ByModelRow(
                    model_slug=model,
                    model_name=self._models[model].name,
                    strongest=STRENGTHS[min(rank for rank, _ in items)],
                    methods=tuple(
                        (self._methods[method].name, STRENGTHS[rank]) for rank, method in items
                    ),
                )
            )

        def row_order(row: ByModelRow) -> tuple[int, int, str, str]:
            released = self._models[row.model_slug].release_date
            # Dated models first, newest first; undated models after all of them.
            dated_key = (0, -released.toordinal()) if released is not None else (1, 0)
            return (*dated_key, row.model_name.casefold(), row.model_slug)

        rows.sort(key=row_order)
        return rows

    def method_slugs(self) -> list[str]:
        return sorted(self._methods)

    def method_strongest(self, method_slug: str) -> str | None:
        """The strongest treatment of the method over all models; None without evidence."""
        if method_slug not in self._methods:
            raise KeyError(method_slug)
        ranks = [rank for (_, method), rank in self._treatment.items() if method == method_slug]
        return STRENGTHS[min(ranks)] if ranks else None

    def methods_by_strongest(self, slug: str) -> dict[str, int]:
        """The node's branch's methods counted by their strongest treatment over all models
        (`core`, `used`, `mentioned`); methods without evidence in none."""
        strongest = [self.method_strongest(method) for method in self._branch_methods(slug)]
        return {name.lower(): strongest.count(name) for name in STRENGTHS}

    def method_model_count(self, method_slug: str) -> int:
        """How many models treat the method."""
        if method_slug not in self._methods:
            raise KeyError(method_slug)
        return sum(1 for _, method in self._treatment if method == method_slug)

    # --- orders of lists (issue 16) -------------------------------------------------------

    def model_names(self) -> dict[str, str]:
        return {slug: model.name for slug, model in self._models.items()}

    def models_ordered(
        self, field: str, descending: bool, among: set[str] | None = None
    ) -> list[str]:
        """Model slugs (of ``among``, or all) by ``field``: `name` A to Z (Z to A when
        ``descending``); `release_date` oldest first (newest first when ``descending``),
        undated models after every dated one either way. Ties by name case-insensitively,
        then slug, A to Z either way."""
        slugs = sorted(among if among is not None else self._models)

        def compare(a: str, b: str) -> int:
            first, second = self._models[a], self._models[b]
            if field == "release_date":
                if (first.release_date is None) != (second.release_date is None):
                    return 1 if first.release_date is None else -1
                if first.release_date != second.release_date:
                    assert first.release_date is not None
                    assert second.release_date is not None
                    older = first.release_date < second.release_date
                    return (1 if older else -1) if descending else (-1 if older else 1)
                return _by_name_then_slug(first.name, a, second.name, b)
            return _by_name_then_slug(first.name, a, second.name, b, z_to_a=descending)

        return sorted(slugs, key=cmp_to_key(compare))

    def methods_ordered(self, field: str, descending: bool) -> list[str]:
        """Method slugs by ``field``: `name` as models' names; `strongest` (the strongest
        treatment first when ``descending``, the weakest first otherwise) and `model_count`
        (the most first when ``descending``), methods no model treats last either way, ties
        by name case-insensitively, then slug, A to Z either way."""

        def figure(slug: str) -> int | None:
            if field == "strongest":
                ranks = [r for (_, m), r in self._treatment.items() if m == slug]
                return None if not ranks else -min(ranks)  # a larger figure is stronger
            return self.method_model_count(slug)

        def compare(a: str, b: str) -> int:
            first, second = self._methods[a], self._methods[b]
            if field != "name":
                x, y = figure(a), figure(b)
                if (x is None) != (y is None):
                    return 1 if x is None else -1
                if x != y:
                    assert x is not None
                    assert y is not None
                    return (-1 if x > y else 1) if descending else (-1 if x < y else 1)
                return _by_name_then_slug(first.name, a, second.name, b)
            return _by_name_then_slug(first.name, a, second.name, b, z_to_a=descending)

        return sorted(self._methods, key=cmp_to_key(compare))

    def _pre_order(self) -> dict[str, int]:
        """Each node's position in pre-order: each node before its children, siblings by
        name case-insensitively, then slug."""
        order: list[str] = []

        def visit(slugs: list[str]) -> None:
            for slug in sorted(slugs, key=lambda s: (self._nodes[s].name.casefold(), s)):
                order.append(slug)
                visit(self._children[slug])

        visit([slug for slug, node in self._nodes.items() if node.parent is None])
        return {slug: position for position, slug in enumerate(order)}

    def model_treatments_ordered(
        self,
        model_slug: str,
        field: str,
        descending: bool,
        min_strength: str | None = None,
        branch: str | None = None,
    ) -> list[str]:
        """The slugs of the methods a model treats at ``min_strength`` or stronger (in the
        branch of the node of slug ``branch`` when given), by ``field`` in its natural
        direction: `strongest` (the strongest first, descending), `name` (A to Z, equal
        names by slug, ascending) or `node` (tree pre-order, ascending), ties by method name
        case-insensitively, then slug, A to Z; in the other direction, the exact reverse
        (ties reversed too)."""
        ranks = {m: r for (model, m), r in self._treatment.items() if model == model_slug}
        slugs = [slug for slug, rank in ranks.items() if rank <= _max_rank(min_strength)]
        if branch is not None:
            slugs = [slug for slug in slugs if slug in self._branch_methods(branch)]

        def by_name(a: str, b: str) -> int:
            first, second = self._methods[a], self._methods[b]
            return _by_name_then_slug(first.name, a, second.name, b, z_to_a=False)

        ordered = sorted(slugs, key=cmp_to_key(by_name))
        if field == "strongest":  # a stable sort keeps name order among equal strengths
            ordered = sorted(ordered, key=lambda slug: ranks[slug])
        if field == "node":
            pre = self._pre_order()
            ordered = sorted(ordered, key=lambda slug: pre[self._methods[slug].node])
        natural = field == "strongest"  # descending by nature; the others ascending
        return ordered if descending == natural else ordered[::-1]

    def method_treatments_ordered(
        self, method_slug: str, field: str, descending: bool, min_strength: str | None = None
    ) -> list[str]:
        """The slugs of the models that treat a method at ``min_strength`` or stronger, by
        ``field``: `strongest` (the strongest first when ``descending``), ties by model name
        case-insensitively, then slug, either way; or `name` or `release_date` as
        models_ordered orders them."""
        ranks = {model: r for (model, m), r in self._treatment.items() if m == method_slug}
        among = {slug for slug, rank in ranks.items() if rank <= _max_rank(min_strength)}
        if field == "strongest":
            ordered = self.models_ordered("name", False, among)
            return sorted(ordered, key=lambda slug: ranks[slug], reverse=not descending)
        return self.models_ordered(field, descending, among)

    def branch_model_figures(self, slug: str) -> dict[str, tuple[int, int]]:
        """For each model in the node's branch: (its strongest treatment there as a figure,
        larger for stronger, and how many of the branch's methods it treats)."""
        figures: dict[str, tuple[int, int]] = {}
        for row in self.by_model(slug):
            figures[row.model_slug] = (-STRENGTHS.index(row.strongest), len(row.methods))
        return figures

    # --- adoption over time (DESIGN.md section 5) -------------------------------------------

    def adoption(
        self,
        interval: str,
        min_strength: str,
        *,
        node: str | None = None,
        method: str | None = None,
    ) -> list[dict[str, Any]]:
        """The adoption series of a node's branch (``node``) or of one method: a dict per
        period as the API's `AdoptionPoint` answers it (`start` as ISO text)."""
        methods = self._branch_methods(node) if node is not None else {str(method)}
        weakest = STRENGTHS.index(min_strength)
        # Dated models that treat a method of the set at the strength or stronger.
        adopters = {
            model
            for (model, m), rank in self._treatment.items()
            if m in methods and rank <= weakest and self._models[model].release_date is not None
        }
        models_per: dict[tuple[int, int], int] = {}
        for model in adopters:
            key = _period(self._models[model].release_date, interval)  # type: ignore[arg-type]
            models_per[key] = models_per.get(key, 0) + 1
        new_per: dict[tuple[int, int], int] = {}
        for m in methods:
            dates = [
                self._models[model].release_date
                for (model, other), rank in self._treatment.items()
                if other == m and rank <= weakest and self._models[model].release_date is not None
            ]
            if dates:
                key = _period(min(dates), interval)  # type: ignore[type-var, arg-type]
                new_per[key] = new_per.get(key, 0) + 1
        if not models_per:
            return []
        points: list[dict[str, Any]] = []
        total, key, last = 0, min(models_per), max(models_per)
        while key <= last:
            total += models_per.get(key, 0)
            label, start, end = _period_label(key, interval)
            points.append(
                {
                    "period": label,
                    "start": start,
                    "end": end,
                    "models": models_per.get(key, 0),
                    "cumulativeModels": total,
                    "newMethods": new_per.get(key, 0),
                }
            )
            key = _next_period(key, interval)
        return points

    def undated_models(
        self, min_strength: str, *, node: str | None = None, method: str | None = None
    ) -> int:
        """Models without a release date that treat a method of the node's branch (or the
        one method) at the strength or stronger: those no adoption period counts."""
        methods = self._branch_methods(node) if node is not None else {str(method)}
        weakest = STRENGTHS.index(min_strength)
        return len(
            {
                model
                for (model, m), rank in self._treatment.items()
                if m in methods and rank <= weakest and self._models[model].release_date is None
            }
        )

    def first_treated_by(self, method_slug: str) -> str | None:
        """The slug of the earliest-released model treating the method (any strength), equal
        dates by name case-insensitively then slug; None when none is dated."""
        dated = [
            self._models[model]
            for model, m in self._treatment
            if m == method_slug and self._models[model].release_date is not None
        ]
        if not dated:
            return None
        first = min(dated, key=lambda x: (x.release_date, x.name.casefold(), x.slug))
        return first.slug


def _period(day: date, interval: str) -> tuple[int, int]:
    """(year, number within the year): the month 1-12, the quarter 1-4, or 0 for a year."""
    if interval == "MONTH":
        return (day.year, day.month)
    if interval == "QUARTER":
        return (day.year, (day.month - 1) // 3 + 1)
    return (day.year, 0)


def _next_period(key: tuple[int, int], interval: str) -> tuple[int, int]:
    year, part = key
    parts = {"MONTH": 12, "QUARTER": 4}.get(interval)
    if parts is None:
        return (year + 1, 0)
    return (year + 1, 1) if part == parts else (year, part + 1)


def _period_label(key: tuple[int, int], interval: str) -> tuple[str, str, str]:
    """A period's name, first day and last day (ISO)."""
    year, part = key
    if interval == "MONTH":
        first, last = part, part
        name = f"{year:04d}-{part:02d}"
    elif interval == "QUARTER":
        first, last = 3 * part - 2, 3 * part
        name = f"{year:04d}-Q{part}"
    else:
        first, last = 1, 12
        name = f"{year:04d}"
    end = date(year, last, calendar.monthrange(year, last)[1])
    return name, date(year, first, 1).isoformat(), end.isoformat()


def _max_rank(min_strength: str | None) -> int:
    """The weakest rank (of _RANK_OF_FILE_STRENGTH) at least ``min_strength`` (`CORE`...)."""
    return len(STRENGTHS) - 1 if min_strength is None else STRENGTHS.index(min_strength)


def _by_name_then_slug(
    name_a: str, slug_a: str, name_b: str, slug_b: str, *, z_to_a: bool = False
) -> int:
    """-1, 0 or 1 as a sorts before, with or after b: by name case-insensitively (Z to A
    when ``z_to_a``), equal names by slug A to Z."""
    if name_a.casefold() != name_b.casefold():
        before = name_a.casefold() < name_b.casefold()
        return (1 if before else -1) if z_to_a else (-1 if before else 1)
    return -1 if slug_a < slug_b else (1 if slug_a > slug_b else 0)
