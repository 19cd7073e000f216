"""The layers import one way only: the data layer (`store/`) knows nothing of GraphQL or
HTTP; the GraphQL layer (`schema/`) builds on the data layer alone; the HTTP app, the
command line and the loader (`api/`) sit on top. Migrations build on the data layer (and
read the settings for their database URL)."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# What each layer may import of the project's packages, and which libraries it must not.
ALLOWED = {
    "store": ({"store"}, {"strawberry", "graphql", "starlette", "uvicorn", "click", "rich"}),
    "schema": ({"schema", "store"}, {"starlette", "uvicorn", "click", "rich"}),
    "migrations": ({"migrations", "store", "api.settings"}, {"strawberry", "graphql", "starlette"}),
}
PROJECT = {"api", "schema", "store", "migrations"}


def imported(path: Path) -> set[str]:
    """Every module ``path`` imports, anywhere in it (a function's body included)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def _allowed(name: str, packages: set[str]) -> bool:
    return any(name == package or name.startswith(f"{package}.") for package in packages)


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_a_layer_imports_nothing_above_it(layer: str) -> None:
    packages, libraries = ALLOWED[layer]
    wrong = []
    for path in sorted((ROOT / layer).rglob("*.py")):
        for name in imported(path):
            top = name.split(".")[0]
            project_upward = top in PROJECT and not _allowed(name, packages)
            # `from api import settings` names the module api, then api.settings: the
            # package alone is allowed when one of its allowed modules is what is named.
            if project_upward and any(p.startswith(f"{name}.") for p in packages):
                continue
            if project_upward or top in libraries:
                wrong.append(f"{path.relative_to(ROOT)}: {name}")
    assert not wrong, "imports against the layers:\n" + "\n".join(wrong)


def test_the_rule_sees_an_upward_import(tmp_path: Path) -> None:
    """The check itself can fail: an import in a function's body is found."""
    module = tmp_path / "module.py"
    module.write_text("def f():\n    from api.app import create_app\n    import strawberry\n")
    assert {"api.app", "api.app.create_app", "strawberry"} <= imported(module)
