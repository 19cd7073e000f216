"""The operations of examples/operations/ by name: the one copy of the seed page's, the
tree's and the methods page's documents, which `make clients` turns into typed clients and
the tests and GraphiQL's sample query read. They are files of the repository, beside api/,
not of the installed package."""

from pathlib import Path

OPERATIONS_DIR = Path(__file__).resolve().parents[2] / "examples" / "operations"


def operation(name: str) -> str:
    """The document of examples/operations/{name}.graphql (`NodePage`, `Tree`, ...)."""
    path = OPERATIONS_DIR / f"{name}.graphql"
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise FileNotFoundError(
            f"no operation {name}: {path} is missing (examples/operations/ comes with the "
            "repository's checkout, not with an installed package)"
        ) from None
