"""Renders a node page the way the taxonomy browser does, from the API's answer, so the
seed page can be compared whole, byte for byte."""

from typing import Any

from api.endpoint.operations import operation

NODE_PAGE = operation("NodePage")


def _more(count: int) -> str:
    """A row's methods past its first ones, as the browser says it (none on the seed page)."""
    if count <= 0:
        return ""
    return f"{count} more method" if count == 1 else f"{count} more methods"


def render(node: dict[str, Any]) -> str:
    counts = node["counts"]
    rows = [
        f"{row['model']['name']} {row['strongest'].lower()}\t"
        + "".join(
            f"{m['method']['name']} {m['strength'].lower()}"
            for m in row["methodsConnection"]["nodes"]
        )
        + _more(row["methodCount"] - len(row["methodsConnection"]["nodes"]))
        + "\u2014"
        for row in node["byModel"]["nodes"]
    ]
    # The page ends with the branch's outline: the node itself when it has no children.
    outline = node["children"] or [node]
    footer = [
        part
        for entry in outline
        for part in (
            entry["name"],
            f"In this branch {entry['counts']['methodsInBranch']}",
            f"filed here {entry['counts']['methodsFiledHere']}",
        )
    ]
    blocks = [
        f"taxonomy node \u00b7 level {node['level']}",
        node["name"],
        f"{counts['methodsInBranch']} methods filed at this node or below it, "
        f"from the sources of {counts['modelsInBranch']} models.",
        node["path"],
        f"Matching aids for the classifier: {'; '.join(node['matchingAids'])}.",
        "By model",
        "Which of this branch's techniques each model's own documents describe, and how "
        "strongly. Under each model: its strongest treatment anywhere in the branch.",
        "\n".join(["Model\ttechniques", *rows]),
        *footer,
        "By model",
    ]
    return "\n\n".join(blocks)
