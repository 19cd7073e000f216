"""The cost rule weighs what a field does, not only the objects it returns (issue 25, item
3): comparing releases, searching, series over time and whole-branch sorts cost their
work (schema.limits.WORK), and lists without `first` are charged for what they return
(schema.cost_meter), before they are read where their length is known. Before, twenty
`changes` summaries cost 413 points and held a SQLite server for seconds at size L."""

import re
from pathlib import Path
from typing import Any

import pytest
from graphql import GraphQLList, GraphQLObjectType, get_named_type, get_nullable_type
from graphql import build_schema as parse_sdl

from schema import default_schema
from schema.cost_meter import LIST_ESTIMATE, MeteredList
from schema.limits import (
    BOUNDED_LISTS,
    CONNECTION_WORK,
    ITEM_WORK,
    SIZED_BY_ARGUMENT,
    WORK,
    WORK_WHEN,
)

from conftest import Api, serve

SDL = parse_sdl((Path(__file__).resolve().parents[1] / "schema.graphql").read_text())
GUIDE = (Path(__file__).resolve().parents[1] / "docs" / "api-guide.md").read_text()


def _cost(body: dict[str, Any]) -> dict[str, int]:
    cost: dict[str, int] = body["extensions"]["cost"]
    return cost


def _changes(aliases: int) -> str:
    fields = " ".join(f"c{i}: changes(since: 1) {{ summary {{ total }} }}" for i in range(aliases))
    return f"{{ {fields} }}"


def test_twenty_comparisons_of_releases_are_refused_before_they_run(api: Api) -> None:
    body = api.post(_changes(20))
    (error,) = body["errors"]
    assert error["extensions"]["code"] == "QUERY_TOO_COMPLEX"
    # Each: the comparison's work, the Changes object and its summary object.
    assert error["extensions"]["cost"] == 20 * (WORK["Query.changes"] + 2)
    assert error["extensions"]["limitValue"] == 50_000
    assert body.get("data") is None


def test_one_comparison_costs_its_work_and_is_answered(api: Api) -> None:
    body = api.post(_changes(1))
    assert "errors" not in body, body
    assert _cost(body)["requested"] == _cost(body)["spent"] == WORK["Query.changes"] + 2


def test_a_node_s_own_methods_cost_less_work_than_its_branch_s(api: Api) -> None:
    def cost(scope: str) -> int:
        document = f"{{ roots {{ methods(scope: {scope}, first: 1) {{ totalCount }} }} }}"
        return _cost(api.post(document))["requested"]

    # 10 roots (estimated), each (1 + its list's work + a page of 1 connection object).
    assert cost("HERE") == LIST_ESTIMATE * (1 + WORK_WHEN["Node.methods"][2] + 1)
    assert cost("BRANCH") == LIST_ESTIMATE * (1 + WORK["Node.methods"] + 1)


def test_entities_cost_the_ids_they_are_given(api: Api) -> None:
    ids = ", ".join(f'"bad{i}"' for i in range(3))
    assert _cost(api.post(f"{{ entities(ids: [{ids}]) {{ id }} }}"))["requested"] == 3


def _descendants(api: Api) -> tuple[dict[str, int], list[int]]:
    body = api.post("{ roots { slug descendants { slug } } }")
    assert "errors" not in body, body
    return _cost(body), [len(root["descendants"]) for root in body["data"]["roots"]]


def test_a_list_without_first_is_charged_for_what_it_returns(api: Api) -> None:
    cost, lengths = _descendants(api)
    assert max(lengths) > LIST_ESTIMATE  # the fixtures hold such a branch
    assert len(lengths) <= LIST_ESTIMATE  # and few enough roots to leave them uncharged
    # Each node beyond the estimate costs one object (a slug is a scalar) and the work of
    # a branch's node (read with its counts).
    each = 1 + ITEM_WORK["Node.descendants"]
    assert each == 2
    beyond = sum(max(0, n - LIST_ESTIMATE) for n in lengths)
    assert cost["requested"] == LIST_ESTIMATE * (1 + LIST_ESTIMATE * each)
    assert cost["spent"] == cost["requested"] + beyond * each


def test_a_query_whose_charges_pass_the_limit_stops_there(api: Api) -> None:
    cost, _ = _descendants(api)
    limit = cost["requested"] + 1  # the rule lets it run; the first large branch stops it
    with serve(api.database_url, max_cost=limit) as client:
        response = client.post(
            "/graphql", json={"query": "{ roots { slug descendants { slug } } }"}
        )
    body = response.json()
    errors = body["errors"]
    assert {error["extensions"]["code"] for error in errors} == {"QUERY_TOO_COMPLEX"}
    assert all(error["path"][-1] == "descendants" for error in errors)
    assert all(error["extensions"]["cost"] > limit for error in errors)
    assert "returned" in errors[0]["message"]
    assert "Connection(first:)" in errors[0]["message"]
    # Everything above the stopped lists is answered; each stopped list is null.
    stopped = {error["path"][1] for error in errors}
    roots = body["data"]["roots"]
    assert [root["descendants"] is None for root in roots] == [
        i in stopped for i in range(len(roots))
    ]
    assert _cost(body)["spent"] > limit


_BY_MODEL = '{ node(path: "optimization") { byModel(first: 100) { nodes { %s } } } }'


@pytest.mark.parametrize(
    "document",
    [
        _BY_MODEL % "methodCount methods { strength }",
        # Through a fragment, as the read-ahead of the rows' methods must see it too.
        _BY_MODEL % "...Row"
        + " fragment Row on ModelTreatment { methodCount methods { strength } }",
    ],
)
def test_a_by_model_row_s_methods_are_charged_by_its_method_count(api: Api, document: str) -> None:
    body = api.post(document)
    assert "errors" not in body, body
    counts = [row["methodCount"] for row in body["data"]["node"]["byModel"]["nodes"]]
    assert counts == [len(row["methods"]) for row in body["data"]["node"]["byModel"]["nodes"]]
    beyond = sum(max(0, n - LIST_ESTIMATE) for n in counts)
    assert beyond > 0, counts
    assert _cost(body)["spent"] == _cost(body)["requested"] + beyond


def _lists_without_first() -> list[tuple[str, str]]:
    found = []
    for type_ in SDL.type_map.values():
        if not isinstance(type_, GraphQLObjectType) or type_.name.startswith("__"):
            continue
        for name, field in type_.fields.items():
            listed = isinstance(get_nullable_type(field.type), GraphQLList)
            of_objects = isinstance(get_named_type(field.type), GraphQLObjectType)
            is_page = name in ("nodes", "edges") and "pageInfo" in type_.fields
            if listed and of_objects and "first" not in field.args and not is_page:
                found.append((type_.name, name))
    return found


def test_every_list_without_first_is_charged_or_sized_by_its_arguments() -> None:
    names = default_schema().config.name_converter
    unmetered = []
    for type_name, field_name in _lists_without_first():
        if f"{type_name}.{field_name}" in SIZED_BY_ARGUMENT.keys() | BOUNDED_LISTS.keys():
            continue  # counted at their arguments' length or at the most they hold
        definition = default_schema().get_type_by_name(type_name)
        assert definition is not None
        (field,) = [
            f
            for f in definition.fields  # type: ignore[union-attr]
            if names.get_graphql_name(f) == field_name
        ]
        if not any(isinstance(extension, MeteredList) for extension in field.extensions):
            unmetered.append(f"{type_name}.{field_name}")
    assert unmetered == []
    assert len(_lists_without_first()) >= 12  # Node.children, Method.treatments, ...


def test_every_weighed_field_exists_and_the_guide_gives_its_points() -> None:
    for name, points in [*WORK.items(), *((k, v[2]) for k, v in WORK_WHEN.items())]:
        type_name, field_name = name.split(".")
        type_ = SDL.get_type(type_name)
        assert isinstance(type_, GraphQLObjectType), name
        assert field_name in type_.fields, name
        row = re.search(rf"`[^`]*{field_name}[^`]*`[^|]*\| {points:,} \|", GUIDE)
        assert row, f"docs/api-guide.md has no row giving {name} {points:,} points"
    assert f"any other list with `first` | {CONNECTION_WORK} |" in GUIDE


def test_a_node_s_method_counts_come_from_the_load_and_match_a_count(api: Api) -> None:
    # A node's own or branch's methods are counted at load time (counting a root's branch
    # row by row took 670 ms at size L); `firstSeenAfter: 0` selects the same methods
    # but is counted row by row.
    nodes = api.query("{ roots { descendants { slug } slug } }")["roots"]
    slugs = [root["slug"] for root in nodes] + [
        node["slug"] for root in nodes for node in root["descendants"]
    ]
    assert len(slugs) > 10
    document = """query ($s: String!) { node(slug: $s) {
        branch: methods(first: 1) { totalCount }
        here: methods(first: 1, scope: HERE) { totalCount }
        branchCounted: methods(first: 1, filter: {firstSeenAfter: 0}) { totalCount }
        hereCounted: methods(first: 1, scope: HERE, filter: {firstSeenAfter: 0}) { totalCount }
        counts { methodsInBranch methodsFiledHere } } }"""
    for slug in slugs:
        node = api.query(document, {"s": slug})["node"]
        assert node["branch"]["totalCount"] == node["branchCounted"]["totalCount"], slug
        assert node["here"]["totalCount"] == node["hereCounted"]["totalCount"], slug
        assert node["branch"]["totalCount"] == node["counts"]["methodsInBranch"], slug
