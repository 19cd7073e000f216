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


# The modules outside store/ and migrations/ that still import SQLAlchemy or SQLModel, and
# why: none now. Every module of api/ and schema/ reaches the database through store/'s
# named functions, and tells its errors apart through store.database_errors; a module that
# must import it after all is listed here with its reason.
DATABASE_LIBRARIES = {"sqlalchemy", "sqlmodel"}
STILL_IMPORTING_SQLALCHEMY: dict[str, str] = {}


def database_importers(paths: list[Path], root: Path = ROOT) -> list[str]:
    """Those of ``paths`` that import SQLAlchemy or SQLModel (relative to ``root``)."""
    return [
        str(path.relative_to(root))
        for path in paths
        if any(name.split(".")[0] in DATABASE_LIBRARIES for name in imported(path))
    ]


def test_only_store_and_migrations_import_sqlalchemy() -> None:
    """store/ owns every SQL statement: api/ and schema/ parse, check, serve and report,
    and import SQLAlchemy or SQLModel only where STILL_IMPORTING_SQLALCHEMY says why; and
    every module it lists still does (a module that stopped leaves the list)."""
    paths = sorted([*(ROOT / "api").rglob("*.py"), *(ROOT / "schema").rglob("*.py")])
    importers = database_importers(paths)
    unlisted = [p for p in importers if p not in STILL_IMPORTING_SQLALCHEMY]
    assert not unlisted, "import SQLAlchemy or SQLModel outside store/: " + ", ".join(unlisted)
    stale = [p for p in STILL_IMPORTING_SQLALCHEMY if p not in importers]
    assert not stale, "listed, but no longer import SQLAlchemy: " + ", ".join(stale)


def test_api_builds_no_sql() -> None:
    """Issue 24: the readiness check, serve's check for data and the migrations' revision
    read are store/'s; api/ imports no SQLAlchemy at all, not even for types or errors."""
    paths = sorted((ROOT / "api").rglob("*.py"))
    assert not database_importers(paths)
    assert "store.readiness" in imported(ROOT / "api" / "edge" / "readiness.py")
    assert "store.revision" in imported(ROOT / "api" / "commands" / "migrate.py")


def test_the_load_and_the_export_run_their_sql_through_store() -> None:
    """The loader and the export build no SQL: their statements are store/'s (store/load/,
    store/export.py), which they import, and store/ never imports them back."""
    export = ROOT / "api" / "commands" / "export.py"
    paths = [*sorted((ROOT / "api" / "ingest").glob("*.py")), export]
    assert not database_importers(paths)
    assert not [p for p in STILL_IMPORTING_SQLALCHEMY if p.startswith("api/ingest/")]
    assert "store.load.transaction" in imported(ROOT / "api" / "ingest" / "write.py")
    assert "store.export" in imported(export)
    upward = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in sorted((ROOT / "store").rglob("*.py"))
        for name in imported(path)
        if name.split(".")[0] == "api"
    ]
    assert not upward, "store/ imports api/: " + ", ".join(upward)


def test_the_sqlalchemy_rule_sees_an_import(tmp_path: Path) -> None:
    """The check itself can fail: SQLAlchemy and SQLModel are found, imported either way."""
    (tmp_path / "a.py").write_text("from sqlalchemy import text\n")
    (tmp_path / "b.py").write_text("def f():\n    import sqlmodel.sql\n")
    (tmp_path / "c.py").write_text("from store.load.catalog import write_loaded\n")
    paths = [tmp_path / name for name in ("a.py", "b.py", "c.py")]
    assert database_importers(paths, tmp_path) == ["a.py", "b.py"]


def _type_checking_only(node: ast.AST) -> bool:
    """`if TYPE_CHECKING:`: imports only the type checker reads (beside Strawberry's lazy
    types, as its docs show them), never run."""
    return isinstance(node, ast.If) and ast.unparse(node.test).endswith("TYPE_CHECKING")


def schema_imports(path: Path) -> tuple[set[str], list[str]]:
    """The schema modules ``path`` imports when it is run, and the imports it makes inside
    a function (each as `line: module`)."""
    modules = {f"schema.{p.stem}" for p in (ROOT / "schema").glob("*.py")}
    found: set[str] = set()
    late: list[str] = []

    def names(node: ast.Import | ast.ImportFrom) -> set[str]:
        if isinstance(node, ast.Import):
            return {alias.name for alias in node.names}
        module = node.module or ""
        # `from schema import refs` names the module schema.refs; `from schema.x import y`
        # names schema.x (the package itself only assembles the schema: schema/__init__).
        return {
            f"{module}.{a.name}" if f"{module}.{a.name}" in modules else module for a in node.names
        }

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if _type_checking_only(child):
                continue
            if isinstance(child, ast.Import | ast.ImportFrom):
                named = names(child) & modules
                found.update(named)
                if in_function and named:
                    late.extend(f"{child.lineno}: {name}" for name in sorted(named))
            nested = isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            visit(child, in_function or nested)

    visit(ast.parse(path.read_text(), str(path)), False)
    return found, late


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One circle of imports in ``graph`` (module -> the modules it imports), or []."""
    state: dict[str, int] = {}  # 1: being walked, 2: done
    trail: list[str] = []

    def walk(module: str) -> list[str]:
        state[module] = 1
        trail.append(module)
        for target in sorted(graph.get(module, ())):
            if state.get(target) == 1:
                return [*trail[trail.index(target) :], target]
            if target not in state and (found := walk(target)):
                return found
        trail.pop()
        state[module] = 2
        return []

    for module in sorted(graph):
        if module not in state and (found := walk(module)):
            return found
    return []


def test_the_schema_modules_import_in_one_order() -> None:
    """The schema's modules import each other in one order, at their top: no circle, held
    together by imports inside functions or by looking a module up by name at run time.
    Types that refer to each other in circles do so through Strawberry's lazy types
    (schema.refs), the one way its docs give."""
    graph: dict[str, set[str]] = {}
    late: list[str] = []
    by_name: list[str] = []
    for path in sorted((ROOT / "schema").glob("*.py")):
        module = "schema" if path.stem == "__init__" else f"schema.{path.stem}"
        graph[module], inside = schema_imports(path)
        graph[module].discard(module)
        late += [f"{path.relative_to(ROOT)}:{where}" for where in inside]
        if "importlib" in imported(path):
            by_name.append(str(path.relative_to(ROOT)))
    assert not late, "schema modules imported inside functions:\n" + "\n".join(late)
    assert not by_name, f"schema modules looked up by name at run time: {by_name}"
    circle = _cycle(graph)
    assert not circle, "schema modules import each other in a circle: " + " -> ".join(circle)


def test_the_order_check_sees_a_circle_and_a_late_import(tmp_path: Path) -> None:
    """The check itself can fail: a circle is found, and so is an import in a function,
    while an import under `if TYPE_CHECKING:` is left out."""
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": {"c"}}) == []
    module = tmp_path / "module.py"
    module.write_text(
        "from typing import TYPE_CHECKING\n"
        "from schema.ids import encode_id\n"
        "if TYPE_CHECKING:\n    from schema.node import Node\n"
        "def f():\n    from schema.method import Method\n"
    )
    found, late = schema_imports(module)
    assert found == {"schema.ids", "schema.method"}
    assert late == ["6: schema.method"]
