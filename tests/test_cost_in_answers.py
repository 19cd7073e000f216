"""Every answer says what it cost (`extensions.cost`), as the API guide's "What a query
costs" shows with an example that is run here, figures included; a refused query's answer
too, beside its QUERY_TOO_COMPLEX error."""

import json
import re
from pathlib import Path
from typing import Any

from schema.limits import CONNECTION_WORK, WORK
from store.history.field_values import MOST_COMPARED

from conftest import Api

GUIDE = Path(__file__).resolve().parents[1] / "docs" / "api-guide.md"
SECTION = GUIDE.read_text(encoding="utf-8").split("### What a query costs", 1)[1]
EXAMPLE = re.findall(r"```graphql\n(.*?)```", SECTION, re.S)[0]
DOCUMENTED = json.loads(re.findall(r"```json\n(.*?)```", SECTION, re.S)[0])


def _cost(body: dict[str, Any]) -> Any:
    return body["extensions"]["cost"]


def test_the_guides_example_costs_what_the_guide_says(api: Api) -> None:
    body = api.post(EXAMPLE)
    assert "errors" not in body, body
    assert _cost(body) == DOCUMENTED


def test_an_answer_refused_for_its_cost_says_the_cost_and_the_limit(api: Api) -> None:
    sources = "models(first: 100) { nodes { sourcesConnection(first: 100) { nodes { url } } } }"
    document = f"{{ a: {sources} b: {sources} }}"
    body = api.post(document)
    (error,) = body["errors"]
    assert error["extensions"]["code"] == "QUERY_TOO_COMPLEX"
    cost = _cost(body)
    # Each: the list's work, then 100 models x (1 + a page object with its own list's
    # work and 100 x (1 + a source)).
    each = WORK["Query.models"] + 100 * (1 + 1 + CONNECTION_WORK + 100 * (1 + 1))
    assert cost["requested"] == error["extensions"]["cost"] == 2 * each == 77_000
    assert cost["limit"] == 50_000
    assert body.get("data") is None


def test_the_cost_follows_the_page_sizes_asked_for(api: Api) -> None:
    small = _cost(api.post("{ methods(first: 1) { nodes { slug } } }"))["requested"]
    large = _cost(api.post("{ methods(first: 50) { nodes { slug } } }"))["requested"]
    work = WORK["Query.methods"]
    assert (small, large) == (work + 2, work + 100)
    assert "cost" not in api.post("{ methods(first: ) }")["extensions"]  # did not parse


def test_a_changes_field_changes_count_at_the_most_they_can_hold(api: Api) -> None:
    """`fieldChanges` lists at most the fields compared for a kind of record (3: a
    model's organization, release date and sources), so the rule counts it at 3 objects,
    not at the estimate of 10 for a list without `first`."""
    page = "changes(since: 1) {{ {record}(first: 10) {{ nodes {{ slug {more} }} }} }}"
    for record in ("nodes", "methods", "models"):
        bare = _cost(api.post(f"{{ {page.format(record=record, more='')} }}"))["requested"]
        more = "fieldChanges { field fromItems }"
        full = _cost(api.post(f"{{ {page.format(record=record, more=more)} }}"))["requested"]
        assert MOST_COMPARED == 3
        assert full - bare == 10 * MOST_COMPARED == 30, record
