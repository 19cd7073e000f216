"""docs/field-map.md, the map from each field of the schema to the store functions behind
it (issue 24: a newcomer names a field's store function and its SQL in one hop), is read
off the code by tests/field_map.py: the committed map must be the current one, and every
field with a resolver must either be in it or be one that reads nothing of its own."""

from pathlib import Path

from field_map import ROOT, object_types, render, rows

from schema import default_schema

FIELD_MAP = ROOT / "docs" / "field-map.md"

# Fields with a resolver that runs no statement of its own: each is worked out from the
# rows its object was read with (a change's kinds and strengths, its release row, the
# knock-on object whose own fields read, a release's stored totals).
READ_OFF_THEIR_OBJECT = {
    ("MethodChange", "kinds"),
    ("MethodChange", "release"),
    ("MethodChange", "knockOn"),
    ("ModelChange", "kinds"),
    ("ModelChange", "release"),
    ("ModelChange", "knockOn"),
    ("NodeChange", "kinds"),
    ("NodeChange", "release"),
    ("NodeChange", "knockOn"),
    ("Release", "totals"),
    ("TreatmentChange", "fromStrength"),
    ("TreatmentChange", "toStrength"),
}


def _resolved_fields() -> set[tuple[str, str]]:
    """Every (type, field) with a resolver of its own, connections and edges left out."""
    name_of = default_schema().config.name_converter.get_graphql_name
    found = set()
    for type_name in object_types():
        if type_name.endswith(("Connection", "Edge")):
            continue
        definition = default_schema().get_type_by_name(type_name)
        for field in getattr(definition, "fields", []):
            if field.base_resolver is not None:
                found.add((type_name, name_of(field)))
    return found


def test_the_committed_field_map_is_current() -> None:
    assert FIELD_MAP.read_text() == render(), (
        "docs/field-map.md is out of date: python tests/field_map.py > docs/field-map.md"
    )


def test_every_field_that_reads_is_mapped() -> None:
    mapped = {(type_name, field) for type_name, field, _, _ in rows()}
    assert not mapped & READ_OFF_THEIR_OBJECT, "mapped, yet listed as reading nothing"
    unaccounted = _resolved_fields() - mapped - READ_OFF_THEIR_OBJECT
    assert not unaccounted, f"fields whose store functions the map does not find: {unaccounted}"


def test_the_seed_pages_fields_name_their_statements() -> None:
    """The fields of the seed page's query lead to the statements that serve them."""
    by_field = {(type_name, field): functions for type_name, field, functions, _ in rows()}
    assert any("store.treatments.by_model_page" in f for f in by_field[("Node", "byModel")])
    assert any("store.nodes.children_of" in f for f in by_field[("Node", "children")])
    assert any("store.nodes.nodes_where" in f for f in by_field[("Query", "node")])
    assert all(
        Path(ROOT, f.split("(")[1].rstrip(")")).is_file() for f in by_field[("Node", "byModel")]
    )
