"""Normalizable objects: every type with an `id` implements the `Entity` interface, the
(model, method) and (model, node) pairs have stable IDs of their own, and `entity(id:)`
and `entities(ids:)` refetch any of them; a list of IDs costs a statement per type."""

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from schema.ids import encode_id

from conftest import Api

EVERY_ID = """
{
  node(slug: "gamma") { id }
  method(slug: "alpha") {
    id
    treatments { id model { slug } }
  }
  model(slug: "newest") {
    id
    sources { id }
    evidence(first: 1) { nodes { id } }
    treatments(first: 1) { nodes { id method { slug } } }
    branches(level: 1) { id node { slug } }
  }
  root: node(slug: "alpha") { byModel(first: 1) { nodes { id model { slug } } } }
  release(number: 1) { id }
}
"""


def _every_id(api: Api) -> dict[str, str]:
    data = api.query(EVERY_ID)
    model = data["model"]
    method_treatment = next(
        t for t in data["method"]["treatments"] if t["model"]["slug"] == "newest"
    )
    assert model["treatments"]["nodes"][0]["method"]["slug"] == "alpha"
    # The same pair has the same ID in every list that shows it.
    assert model["treatments"]["nodes"][0]["id"] == method_treatment["id"]
    row = data["root"]["byModel"]["nodes"][0]
    assert row["model"]["slug"] == "newest"
    branch = next(b for b in model["branches"] if b["node"]["slug"] == "alpha")
    assert branch["id"] == row["id"]
    return {
        "Node": data["node"]["id"],
        "Method": data["method"]["id"],
        "Model": model["id"],
        "Source": model["sources"][0]["id"],
        "Evidence": model["evidence"]["nodes"][0]["id"],
        "MethodTreatment": method_treatment["id"],
        "ModelTreatment": row["id"],
        "Release": data["release"]["id"],
    }


def test_every_type_with_an_id_implements_entity(tiny: Api) -> None:
    data = tiny.query(
        """{
          entity: __type(name: "Entity") { kind fields { name } possibleTypes { name } }
          __schema {
            types { name kind interfaces { name } fields { name type { kind ofType { name } } } }
          }
        }"""
    )
    assert data["entity"]["kind"] == "INTERFACE"
    assert [f["name"] for f in data["entity"]["fields"]] == ["id"]
    with_id = {
        t["name"]
        for t in data["__schema"]["types"]
        if t["kind"] == "OBJECT"
        and not t["name"].startswith("__")
        and any(
            f["name"] == "id"
            and f["type"]["kind"] == "NON_NULL"
            and f["type"]["ofType"]["name"] == "ID"
            for f in t["fields"] or []
        )
    }
    assert with_id == {
        "Node",
        "Method",
        "Model",
        "Source",
        "Evidence",
        "MethodTreatment",
        "ModelTreatment",
        "Release",  # issue 17: every load is a release, an object with an ID
    }
    assert {t["name"] for t in data["entity"]["possibleTypes"]} == with_id
    for type_ in data["__schema"]["types"]:
        if type_["name"] in with_id:
            assert {"name": "Entity"} in type_["interfaces"], type_["name"]


def test_entity_refetches_every_kind_by_id(tiny: Api) -> None:
    ids = _every_id(tiny)
    assert len(set(ids.values())) == len(ids)
    document = """
    query($id: ID!) {
      entity(id: $id) {
        __typename id
        ... on MethodTreatment { strength model { slug } method { slug } evidence { strength } }
        ... on ModelTreatment { strongest methodCount model { slug } node { slug } methods { id } }
      }
    }"""
    for kind, value in ids.items():
        entity = tiny.query(document, {"id": value})["entity"]
        assert (entity["__typename"], entity["id"]) == (kind, value)
    pair = tiny.query(document, {"id": ids["MethodTreatment"]})["entity"]
    assert pair["model"] == {"slug": "newest"}
    assert pair["method"] == {"slug": "alpha"}
    assert pair["strength"] == "CORE"  # the stronger of its two pieces of evidence
    assert sorted(e["strength"] for e in pair["evidence"]) == ["CORE", "MENTIONED"]
    row = tiny.query(document, {"id": ids["ModelTreatment"]})["entity"]
    assert (row["model"], row["node"]) == ({"slug": "newest"}, {"slug": "alpha"})
    assert (row["strongest"], row["methodCount"]) == ("CORE", 2)
    assert row["methods"][0]["id"] == ids["MethodTreatment"]


def test_ids_survive_a_reload_into_another_database(
    tiny: Api, api_for: Callable[[str, str], Api], backend: str, tiny_folder: Path, tmp_path: Path
) -> None:
    copy = shutil.copytree(tiny_folder, tmp_path / "tiny-again")
    again, first = _every_id(api_for(backend, str(copy))), _every_id(tiny)
    # A release is one load, never another (its version is unique for all time): the
    # data's objects keep their IDs, the two databases' first releases do not share one.
    assert again.pop("Release") != first.pop("Release")
    assert again == first


ENTITIES = "query($ids: [ID!]!) { entities(ids: $ids) { __typename id } }"


def test_entities_answers_in_the_order_given_with_null_for_unknown_ids(tiny: Api) -> None:
    ids = _every_id(tiny)
    unknown = [
        encode_id("Node", "nope"),
        encode_id("MethodTreatment", "newest/m-zed"),  # both exist, the pair does not
        encode_id("ModelTreatment", "tie-b/delta"),
        encode_id("Evidence", "nope"),
    ]
    asked = [ids["ModelTreatment"], unknown[0], ids["Node"], *unknown[1:], ids["Node"]]
    asked[3:3] = list(reversed(ids.values()))
    answer = tiny.query(ENTITIES, {"ids": asked})["entities"]
    assert [None if e is None else e["id"] for e in answer] == [
        None if value in unknown else value for value in asked
    ]
    assert tiny.query(ENTITIES, {"ids": []}) == {"entities": []}


def test_entities_takes_at_most_100_ids(tiny: Api) -> None:
    node = encode_id("Node", "alpha")
    assert len(tiny.query(ENTITIES, {"ids": [node] * 100})["entities"]) == 100
    errors = tiny.errors(ENTITIES, {"ids": [node] * 101})
    assert [(e["message"], e["extensions"]["code"], e["path"]) for e in errors] == [
        (
            "`ids` has 101 IDs; at most 100 are looked up at once: split the list",
            "BAD_USER_INPUT",
            ["entities"],
        )
    ]


@pytest.mark.parametrize(
    "bad",
    ["not-an-id!", encode_id("MethodTreatment", "no-pair"), encode_id("ModelTreatment", "a/b/c")],
)
def test_ids_this_api_never_made_are_input_errors(tiny: Api, bad: str) -> None:
    """A malformed ID fails its own entry of `entities`: the others are answered, an
    unknown but well-formed one is null without an error."""
    alpha, unknown = encode_id("Node", "alpha"), encode_id("Node", "nope")
    body = tiny.post(ENTITIES, {"ids": [alpha, bad, unknown]})
    assert [(e["message"], e["extensions"]["code"], e["path"]) for e in body["errors"]] == [
        (f"`ids[1]`: {bad!r} is not an ID of this API", "BAD_USER_INPUT", ["entities", 1])
    ]
    assert body["data"]["entities"] == [{"__typename": "Node", "id": alpha}, None, None]
    errors = tiny.errors("query($id: ID!) { entity(id: $id) { id } }", {"id": bad})
    assert errors[0]["message"] == f"`id`: {bad!r} is not an ID of this API"


def _ids_of_every_kind(api: Api, per_kind: int) -> list[str]:
    """Up to ``per_kind`` IDs of each kind, from a page of each list."""
    data: dict[str, Any] = api.query(
        """query($n: Int!) {
          methods(first: $n, orderBy: {field: MODEL_COUNT, direction: DESC}) {
            nodes { id node { id } treatments { id } }
          }
          models(first: $n) { nodes { id sources { id } evidence(first: 1) { nodes { id } } } }
          roots { byModel(first: $n) { nodes { id } } }
        }""",
        {"n": per_kind},
    )
    methods, models = data["methods"]["nodes"], data["models"]["nodes"]
    kinds = [
        [m["id"] for m in methods],
        [m["node"]["id"] for m in methods],
        [t["id"] for m in methods for t in m["treatments"]],
        [m["id"] for m in models],
        [s["id"] for m in models for s in m["sources"]],
        [e["id"] for m in models for e in m["evidence"]["nodes"]],
        [row["id"] for root in data["roots"] for row in root["byModel"]["nodes"]],
    ]
    return [value for ids in kinds for value in list(dict.fromkeys(ids))[:per_kind]]


def test_entities_costs_a_statement_per_kind_not_per_id(
    api_for: Callable[[str, str], Api], backend: str
) -> None:
    pwc = api_for(backend, "pwc")
    few, many = _ids_of_every_kind(pwc, 1), _ids_of_every_kind(pwc, 14)
    assert len(few) == 7
    assert 90 <= len(many) <= 98  # some kinds have fewer distinct IDs on those pages
    statements = [pwc.count_statements(ENTITIES, {"ids": ids}) for ids in (few, many)]
    assert statements[0] == statements[1] == 7, statements  # one per kind
    answer = pwc.query(ENTITIES, {"ids": many})["entities"]
    assert [e["id"] for e in answer] == many
