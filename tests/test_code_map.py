"""docs/architecture.md's map of the code names every module of api/, schema/ and store/,
in the folder it lives in, and nothing that is gone: the map is how a newcomer finds a
behaviour in one hop (issue 24), so a module added, moved or removed without it fails here."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ARCHITECTURE = ROOT / "docs" / "architecture.md"
MAPPED = ("api", "schema", "store")
# A description that runs on to a further line starts this far in (names never do).
DESCRIPTION_COLUMN = 20


def mapped_paths(text: str) -> set[str]:
    """The paths the map's tree names: an entry's names (``x.py`` or ``folder/``, several
    on a line where modules share one description) sit under the folders above it."""
    layout = text.split("## Layout", 1)[1].split("```")[1]
    folders: list[str] = []
    paths: set[str] = set()
    for line in layout.splitlines():
        indent = len(line) - len(line.lstrip(" "))
        if not line.strip() or indent >= DESCRIPTION_COLUMN:
            continue
        names = re.split(r"\s{2,}", line.strip())[0].split(" ")
        if not all(name.endswith((".py", "/")) for name in names):
            continue
        depth = indent // 2
        del folders[depth:]
        for name in names:
            paths.add("".join(folders) + name)
        if names[-1].endswith("/"):
            folders.append(names[-1])
    return paths


def holds_code(path: Path) -> bool:
    """A package's ``__init__.py`` that does more than describe its package."""
    body = ast.parse(path.read_text()).body
    return any(
        not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)) for node in body
    )


def modules() -> set[str]:
    """Every module of the mapped layers (a package's ``__init__.py`` where it holds code),
    and every folder holding modules."""
    found: set[str] = set()
    for layer in MAPPED:
        for path in (ROOT / layer).rglob("*.py"):
            relative = path.relative_to(ROOT)
            if "static" in relative.parts:
                continue
            found.update(f"{'/'.join(relative.parts[:i])}/" for i in range(1, len(relative.parts)))
            if path.name != "__init__.py" or holds_code(path):
                found.add(relative.as_posix())
    return found


def test_the_map_names_every_module_where_it_lives() -> None:
    in_map = {path for path in mapped_paths(ARCHITECTURE.read_text()) if path.startswith(MAPPED)}
    missing = sorted(modules() - in_map)
    gone = sorted(in_map - modules())
    assert not missing, "docs/architecture.md's map does not name: " + ", ".join(missing)
    assert not gone, "docs/architecture.md's map names what is not there: " + ", ".join(gone)


def test_the_map_is_read_as_a_tree() -> None:
    """The check itself can fail: nesting, shared lines and descriptions are told apart."""
    text = """## Layout\n\n```
api/                    top
  app.py                the app, which
                        runs on (not.py)
  edge/                 the edge
    view.py guard.py    two modules
  cli.py                back up a level
```"""
    assert mapped_paths(text) == {
        "api/",
        "api/app.py",
        "api/edge/",
        "api/edge/view.py",
        "api/edge/guard.py",
        "api/cli.py",
    }
