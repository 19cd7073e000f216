"""Every answer says what it cost (`extensions.cost`), as the API guide's "What a query
costs" shows with an example that is run here, figures included; a refused query's answer
too, beside its QUERY_TOO_COMPLEX error."""

import json
import re
from pathlib import Path
from typing import Any

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
    models = (
        "models(first: 100) { nodes { evidence(first: 100) { nodes { quote } } "
        "treatments(first: 100) { nodes { strength } } } }"
    )
    document = f"{{ a: {models} b: {models} }}"  # 40,200 each
    body = api.post(document)
    (error,) = body["errors"]
    assert error["extensions"]["code"] == "QUERY_TOO_COMPLEX"
    cost = _cost(body)
    assert cost["requested"] == error["extensions"]["cost"] == 80_400
    assert cost["limit"] == 50_000
    assert body.get("data") is None


def test_the_cost_follows_the_page_sizes_asked_for(api: Api) -> None:
    small = _cost(api.post("{ methods(first: 1) { nodes { slug } } }"))["requested"]
    large = _cost(api.post("{ methods(first: 50) { nodes { slug } } }"))["requested"]
    assert (small, large) == (2, 100)
    assert "cost" not in api.post("{ methods(first: ) }")["extensions"]  # did not parse
