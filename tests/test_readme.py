"""The README's example queries run against the default fixtures without errors."""

import re
from pathlib import Path

import pytest

from conftest import Api

README = Path(__file__).resolve().parents[1] / "README.md"
EXAMPLES = re.findall(r"```graphql\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def test_readme_has_examples() -> None:
    assert len(EXAMPLES) >= 3


@pytest.mark.parametrize("document", EXAMPLES, ids=[f"example-{i}" for i in range(len(EXAMPLES))])
def test_readme_example_runs(api: Api, document: str) -> None:
    data = api.query(document)
    assert all(value is not None for value in data.values()), data
