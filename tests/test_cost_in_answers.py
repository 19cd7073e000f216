"""Every answer says what it cost (`extensions.cost`), as the API guide's "What a query
costs" shows with an example that is run here, figures included; a refused query's answer
too, beside its QUERY_TOO_COMPLEX error, and one that did not validate or whose variables
failed their types, with nothing spent."""

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
    assert cost["spent"] == 0  # refused before it ran
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
    # A treatment's: its evidence alone, so 1 object each.
    treatments = "changes(since: 1) {{ treatments(first: 10) {{ nodes {{ modelSlug {more} }} }} }}"
    bare = _cost(api.post(f"{{ {treatments.format(more='')} }}"))["requested"]
    full = _cost(api.post(f"{{ {treatments.format(more=more)} }}"))["requested"]
    assert full - bare == 10, "treatments"


def test_the_guide_counts_field_changes_as_the_rule_does() -> None:
    """The guide's figure for `fieldChanges` is the rule's (it once said 2)."""
    said = re.findall(r"`fieldChanges`(?: by the|:) (\d+)", GUIDE.read_text(encoding="utf-8"))
    assert len(said) == 2  # the two places that give it
    assert {int(figure) for figure in said} == {MOST_COMPARED}


def test_nothing_spent_when_nothing_ran(api: Api) -> None:
    """Refused before any field ran (the document does not validate, its variables fail
    their types): `spent` is 0, and the answer still says what the
    operation would have cost and the limit."""
    methods = "methods(first: $n) { totalCount }"
    would_cost = WORK["Query.methods"] + 20
    cases = [
        ("{ methods { totalCount nope } }", None),
        (f"query($n: Int) {{ {methods} }}", {"n": 3_000_000_000}),
        (f"query($n: Int!) {{ {methods} }}", {"n": "ten"}),
    ]
    for document, variables in cases:
        body = api.post(document, variables)
        assert body.get("data") is None, body
        assert _cost(body) == {
            "requested": would_cost,
            "spent": 0,
            "limit": 50_000,
            "defaultPageSize": 20,
            "listEstimate": 10,
        }, document
    # An unfit value written in a field's arguments is refused on its field as it runs:
    # counted as asked for, as every field refused for its arguments is.
    for document in (
        "{ methods(orderBy: {field: NOPE}) { totalCount } }",
        "{ methods(first: 3000000000) { totalCount } }",
    ):
        body = api.post(document)
        assert body["data"] == {"methods": None}, body
        assert _cost(body)["spent"] == _cost(body)["requested"] == would_cost, document
    # As the guide's example says.
    assert '{"requested": 3220, "spent": 0, "limit": 50000, ...}' in SECTION
    assert would_cost == 3220


def test_a_cost_beyond_64_bits_is_reported_at_the_most_a_client_reads(api: Api) -> None:
    """Nested pages of the largest `first` multiply past 64 bits: refused for its cost, with
    the cost said as 2^53 - 1 (what JavaScript reads exactly), not a fault (it was 500)."""
    huge = "2147483647"
    document = (
        f"{{ methods(first: {huge}) {{ nodes {{ evidence(first: {huge}) {{ nodes {{ model {{ "
        f"evidence(first: {huge}) {{ nodes {{ method {{ evidence(first: {huge}) {{ totalCount "
        "} } } } } } } } } }"
    )
    for body in (
        api.post(document),
        api.post("{ roots " + "{ children " * 30 + "{ name" + " }" * 31 + " }"),
    ):
        (error,) = body["errors"]
        assert error["extensions"]["code"] == "QUERY_TOO_COMPLEX", error
        assert _cost(body)["requested"] == 2**53 - 1
        assert _cost(body)["spent"] == 0
