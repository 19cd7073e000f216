"""The example queries of the README and of docs/ run against the default fixtures without
errors and read no deprecated field (what readers copy should be the current names), and
every link between them names a file that exists."""

import re
from pathlib import Path

import pytest
from graphql import NoDeprecatedCustomRule, build_schema, parse, validate

from conftest import Api

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
EXAMPLES = [
    (page.relative_to(ROOT).as_posix(), document)
    for page in PAGES
    for document in re.findall(r"```graphql\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
]
LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")


SCHEMA = build_schema((ROOT / "schema.graphql").read_text(encoding="utf-8"))


def test_readme_has_examples() -> None:
    assert sum(page == "README.md" for page, _ in EXAMPLES) >= 3
    # The 9 the README had before the reference moved to docs/ are all still run.
    assert sum(page != "README.md" for page, _ in EXAMPLES) >= 9


def test_the_readme_is_a_front_door() -> None:
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 300


@pytest.mark.parametrize(
    "document",
    [document for _, document in EXAMPLES],
    ids=[f"{page}-{i}" for i, (page, _) in enumerate(EXAMPLES)],
)
def test_readme_example_runs(api: Api, document: str) -> None:
    data = api.query(document)
    assert all(value is not None for value in data.values()), data


@pytest.mark.parametrize(
    "document",
    [document for _, document in EXAMPLES],
    ids=[f"{page}-{i}" for i, (page, _) in enumerate(EXAMPLES)],
)
def test_examples_use_no_deprecated_field(document: str) -> None:
    deprecated = validate(SCHEMA, parse(document), [NoDeprecatedCustomRule])
    assert [error.message for error in deprecated] == []


@pytest.mark.parametrize("page", PAGES, ids=[page.name for page in PAGES])
def test_links_name_files_that_exist(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    for target in LINK.findall(text):
        if re.match(r"(https?|mailto):", target):
            continue
        assert (page.parent / target).exists(), f"{page.name} links to missing {target}"
