"""The committed schema.graphql is the code's schema, and every part of it is described."""

import re
from collections.abc import Collection
from datetime import date
from pathlib import Path

from graphql import (
    GraphQLEnumType,
    GraphQLInputObjectType,
    GraphQLInterfaceType,
    GraphQLObjectType,
    GraphQLScalarType,
    GraphQLUnionType,
    build_schema,
)

from schema import default_schema

SCHEMA_FILE = Path(__file__).resolve().parents[1] / "schema.graphql"


def test_schema_file_matches_the_code() -> None:
    committed = SCHEMA_FILE.read_text(encoding="utf-8")
    assert committed.strip() == default_schema().as_str().strip(), (
        "schema.graphql is out of date: run `make schema` and commit it"
    )


def _undescribed() -> list[str]:
    missing = []
    for name, graphql_type in default_schema()._schema.type_map.items():
        if name.startswith("__") or name in ("String", "Int", "Float", "Boolean", "ID"):
            continue
        if not graphql_type.description:
            missing.append(name)
        if isinstance(graphql_type, GraphQLObjectType | GraphQLInterfaceType):
            for field_name, field in graphql_type.fields.items():
                if not field.description:
                    missing.append(f"{name}.{field_name}")
                for arg_name, arg in field.args.items():
                    if not arg.description:
                        missing.append(f"{name}.{field_name}({arg_name})")
        elif isinstance(graphql_type, GraphQLInputObjectType):
            missing += [f"{name}.{f}" for f, v in graphql_type.fields.items() if not v.description]
        elif isinstance(graphql_type, GraphQLEnumType):
            missing += [f"{name}.{v}" for v, d in graphql_type.values.items() if not d.description]
        elif not isinstance(graphql_type, GraphQLUnionType | GraphQLScalarType):
            missing.append(f"{name} (unchecked kind)")
    return missing


def test_every_type_field_argument_and_enum_value_is_described() -> None:
    assert _undescribed() == []


GUIDE = Path(__file__).resolve().parents[1] / "docs" / "api-guide.md"


def _deprecations() -> set[tuple[str, str, bool]]:
    """Each deprecated field, argument, input field and enum value: (its name, the successor
    its reason names, whether that successor stands beside it)."""
    found = set()

    def add(name: str, reason: str | None, siblings: Collection[str]) -> None:
        if reason is not None:
            named = re.match(r"Use `?(\w+)`?", reason)
            successor = named.group(1) if named else reason
            found.add((name, successor, successor in siblings))

    for graphql_type in build_schema(SCHEMA_FILE.read_text(encoding="utf-8")).type_map.values():
        if isinstance(graphql_type, GraphQLObjectType | GraphQLInterfaceType):
            for field_name, field in graphql_type.fields.items():
                add(field_name, field.deprecation_reason, graphql_type.fields)
                for arg_name, arg in field.args.items():
                    add(arg_name, arg.deprecation_reason, field.args)
        elif isinstance(graphql_type, GraphQLInputObjectType):
            for field_name, input_field in graphql_type.fields.items():
                add(field_name, input_field.deprecation_reason, graphql_type.fields)
        elif isinstance(graphql_type, GraphQLEnumType):
            for value_name, value in graphql_type.values.items():
                add(value_name, value.deprecation_reason, graphql_type.values)
    return found


def test_every_deprecation_names_its_successor_and_the_guide_lists_it() -> None:
    """The deprecation policy (docs/api-guide.md, "Deprecation policy"): each reason begins
    `Use` and names the element served beside it in its place, and the guide's table of
    what is deprecated, and until when it is served, lists every one."""
    deprecations = _deprecations()
    assert deprecations
    assert {(name, successor) for name, successor, beside in deprecations if not beside} == set()
    section = GUIDE.read_text(encoding="utf-8").split("### Deprecation policy", 1)[1]
    rows = re.findall(
        r"^\| `([\w.]+)`[^|]*\| `(\w+)` \| (\d{4}-\d\d-\d\d) \| (\d{4}-\d\d-\d\d) \|$",
        section,
        re.M,
    )
    listed = {(element.rsplit(".", 1)[-1], successor) for element, successor, *_ in rows}
    assert listed == {(name, successor) for name, successor, _ in deprecations}
    for *_, since, until in rows:  # six months
        start = date.fromisoformat(since)
        assert date.fromisoformat(until) == start.replace(
            year=start.year + (start.month > 6), month=(start.month + 5) % 12 + 1
        )
