"""The API guide's "Missing things": one rule for a key that names nothing, every
example of its table run here, on both databases, with the answer the table gives."""

import re
from pathlib import Path
from typing import Any

import pytest

from conftest import Api

GUIDE = Path(__file__).resolve().parents[1] / "docs" / "api-guide.md"
SECTION = GUIDE.read_text(encoding="utf-8").split("### Missing things", 1)[1].split("###", 1)[0]
DOCUMENTED = re.findall(r"`(\{ .*? \})`", SECTION)

# Each example of the table: the field it asks, its value, and the error's code and path
# (None: no error).
EXPECTED: dict[str, tuple[str, Any, str | None, list[Any] | None]] = {
    '{ node(slug: "nope") { name } }': ("node", None, None, None),
    '{ entity(id: "!!") { id } }': ("entity", None, "BAD_USER_INPUT", ["entity"]),
    '{ entities(ids: ["Tm9kZTpub3Bl"]) { id } }': ("entities", [None], None, None),
    '{ entities(ids: ["!!"]) { id } }': ("entities", [None], "BAD_USER_INPUT", ["entities", 0]),
    '{ methods(filter: {branch: {slug: "nope"}}) { totalCount } }': (
        "methods",
        None,
        "NOT_FOUND",
        ["methods"],
    ),
    "{ changes(since: 999) { isEmpty } }": ("changes", None, "NOT_FOUND", ["changes"]),
    '{ search(query: "") { totalCount } }': ("search", {"totalCount": 0}, None, None),
}


def test_the_table_and_these_examples_are_the_same() -> None:
    assert sorted(DOCUMENTED) == sorted(EXPECTED)


@pytest.mark.parametrize("document", sorted(EXPECTED))
def test_a_key_that_names_nothing_is_answered_as_the_guide_says(api: Api, document: str) -> None:
    field, value, code, path = EXPECTED[document]
    body = api.post(document)
    errors = body.get("errors") or []
    if code is None:
        assert errors == [], errors
    else:
        assert [(e["extensions"]["code"], e["path"]) for e in errors] == [(code, path)], errors
    data = body.get("data")
    # A non-null field's error nulls the answer's `data` (`methods`, `changes`, `search`).
    assert (data or {}).get(field) == value, body
