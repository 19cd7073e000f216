"""The floor's answers: for each workload, the SQL statements our server runs for it, and
the same `data` object built from their rows with plain Python.

The statements are our server's (read off its engine for each workload: same tables, joins,
filters, orders and limits, one statement per DataLoader batch), selecting only the columns
the answer needs. Nothing is cached between requests. There is no W5: our server ranks
search hits with its own rule over an in-memory catalogue (store.search_rank), not with a
statement a floor could run, so the floor (and the peer) would answer W5 differently.
"""

import datetime
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import orjson

Row = tuple[Any, ...]
# Runs one statement (written with `?` placeholders) and returns all of its rows.
Fetch = Callable[[str, Sequence[Any]], Awaitable[list[Row]]]
Answer = Callable[[Fetch, str, dict[str, Any]], Awaitable[dict[str, Any]]]

STRENGTH = {1: "CORE", 2: "USED", 3: "MENTIONED"}


def _marks(count: int) -> str:
    return ", ".join("?" * count)


def _date(value: Any) -> str | None:
    """SQLite hands back the stored ISO text, PostgreSQL a date: both become ISO text."""
    return value.isoformat() if isinstance(value, datetime.date) else value


def _json_list(value: Any) -> list[Any]:
    """A JSON column: text on SQLite, already decoded by psycopg on PostgreSQL."""
    return orjson.loads(value) if isinstance(value, str) else list(value)


async def _by_model_rows(
    fetch: Fetch, node_id: int, first: int, *, total: bool = False
) -> tuple[list[Row], dict[int, list[dict[str, Any]]]]:
    """A page of a node's By-model rows (with the list's length last when ``total``, as
    the server counts a first page: a window over the same statement) and, for each model
    on it, the row's methods."""
    window = ", count(*) OVER ()" if total else ""
    page = await fetch(
        "SELECT branch_model.model_id, branch_model.strongest_rank, branch_model.method_count,"
        f" model.name, model.release_date{window} FROM branch_model"
        " JOIN model ON model.id = branch_model.model_id"
        " WHERE branch_model.node_id = ? AND branch_model.strongest_rank <= ?"
        " ORDER BY branch_model.recency_rank ASC LIMIT ?",
        (node_id, 3, first + 1),
    )
    page = page[:first]
    methods: dict[int, list[dict[str, Any]]] = defaultdict(list)
    if page:
        # As the server asks it (schema/dataloaders.py): node = ? AND model IN (...), which
        # SQLite answers from indexes (a row-value IN list would scan the table); the
        # branch is its pre-order interval, a range of the (model_id, node_pre) index.
        rows = await fetch(
            "SELECT treatment.model_id, treatment.strength_rank, method.name FROM treatment"
            " JOIN node AS branch ON treatment.node_pre >= branch.pre"
            " AND treatment.node_pre <= branch.last"
            " JOIN method ON method.id = treatment.method_id"
            " WHERE branch.id = ?"
            f" AND treatment.model_id IN ({_marks(len(page))})"
            " ORDER BY treatment.strength_rank, method.name_rank",
            [node_id, *(row[0] for row in page)],
        )
        for model_id, rank, name in rows:
            methods[model_id].append({"method": {"name": name}, "strength": STRENGTH[rank]})
    return page, methods


async def seed_page(fetch: Fetch, dialect: str, variables: dict[str, Any]) -> dict[str, Any]:
    """W1: a node by slug path with its counts and aids, the first 50 By-model rows with
    their total."""
    nodes = await fetch(
        "SELECT node.id, node.name, node.level, node.path, node.matching_aids,"
        " node_stats.methods_in_branch, node_stats.methods_filed_here,"
        " node_stats.models_in_branch FROM node JOIN node_stats ON node_stats.node_id = node.id"
        " WHERE node.slug_path IN (?)",
        (str(variables["path"]).strip().strip("/"),),
    )
    if not nodes:
        return {"node": None}
    node_id, name, level, path, aids, in_branch, here, models = nodes[0]
    page, methods = await _by_model_rows(fetch, node_id, 50, total=True)
    total = page[0][-1] if page else 0
    return {
        "node": {
            "name": name,
            "level": level,
            "path": path,
            "counts": {
                "methodsInBranch": in_branch,
                "methodsFiledHere": here,
                "modelsInBranch": models,
            },
            "matchingAids": _json_list(aids),
            "byModel": {
                "totalCount": total,
                "nodes": [
                    {
                        "model": {"name": model_name, "releaseDate": _date(released)},
                        "strongest": STRENGTH[rank],
                        "methods": methods.get(model_id, []),
                    }
                    for model_id, rank, _, model_name, released, _ in page
                ],
            },
        }
    }


async def tree(fetch: Fetch, dialect: str, variables: dict[str, Any]) -> dict[str, Any]:
    """W2: roots, children, grandchildren, each with counts: the three levels at once."""
    rows = await fetch(
        "SELECT node.id, node.name, node.parent_id, node_stats.methods_in_branch,"
        " node_stats.models_in_branch FROM node"
        " JOIN node_stats ON node_stats.node_id = node.id"
        " WHERE node.level <= ? ORDER BY node.pre",
        (3,),
    )
    children: dict[int | None, list[Row]] = defaultdict(list)
    for row in rows:
        children[row[2]].append(row)

    def render(row: Row, depth: int) -> dict[str, Any]:
        entry: dict[str, Any] = {
            "name": row[1],
            "counts": {"methodsInBranch": row[3], "modelsInBranch": row[4]},
        }
        if depth < 2:
            entry["children"] = [render(child, depth + 1) for child in children.get(row[0], [])]
        return entry

    return {"roots": [render(row, 0) for row in children.get(None, [])]}


async def methods_page(fetch: Fetch, dialect: str, variables: dict[str, Any]) -> dict[str, Any]:
    """W3: 50 methods by name with their node's path, stats and treatments."""
    page = await fetch(
        "SELECT method.id, method.name, node.path, method_stats.strongest_rank,"
        " method_stats.model_count FROM method"
        " JOIN method_stats ON method_stats.method_id = method.id"
        " JOIN node ON node.id = method.node_id"
        " ORDER BY method.name_rank ASC LIMIT ?",
        (51,),
    )
    page = page[:50]
    if not page:
        return {"methods": {"nodes": []}}
    method_ids = [row[0] for row in page]
    treatments: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for method_id, rank, model_name in await fetch(
        "SELECT treatment.method_id, treatment.strength_rank, model.name FROM treatment"
        " JOIN model ON model.id = treatment.model_id"
        f" WHERE treatment.method_id IN ({_marks(len(method_ids))})"
        " ORDER BY treatment.strength_rank, model.name_rank",
        method_ids,
    ):
        treatments[method_id].append({"strength": STRENGTH[rank], "model": {"name": model_name}})
    return {
        "methods": {
            "nodes": [
                {
                    "name": name,
                    "node": {"path": path},
                    "strongest": None if strongest is None else STRENGTH[strongest],
                    "modelCount": model_count,
                    "treatments": treatments.get(method_id, []),
                }
                for method_id, name, path, strongest, model_count in page
            ]
        }
    }


async def root_by_model(fetch: Fetch, dialect: str, variables: dict[str, Any]) -> dict[str, Any]:
    """W4: a node by slug and its first 20 By-model rows with their methods."""
    nodes = await fetch(
        "SELECT node.id, node.name FROM node JOIN node_stats ON node_stats.node_id = node.id"
        " WHERE node.slug IN (?)",
        (variables["slug"],),
    )
    if not nodes:
        return {"node": None}
    node_id, name = nodes[0]
    page, methods = await _by_model_rows(fetch, node_id, 20)
    return {
        "node": {
            "name": name,
            "byModel": {
                "nodes": [
                    {
                        "model": {"name": model_name},
                        "strongest": STRENGTH[rank],
                        "methodCount": method_count,
                        "methods": methods.get(model_id, []),
                    }
                    for model_id, rank, method_count, model_name, _ in page
                ]
            },
        }
    }


ANSWERS: dict[str, Answer] = {
    "W1": seed_page,
    "W2": tree,
    "W3": methods_page,
    "W4": root_by_model,
}
