"""The committed schema.graphql is the code's schema, and every part of it is described."""

from pathlib import Path

from graphql import (
    GraphQLEnumType,
    GraphQLInputObjectType,
    GraphQLInterfaceType,
    GraphQLObjectType,
    GraphQLScalarType,
    GraphQLUnionType,
)

from schema import schema

SCHEMA_FILE = Path(__file__).resolve().parents[1] / "schema.graphql"


def test_schema_file_matches_the_code() -> None:
    committed = SCHEMA_FILE.read_text(encoding="utf-8")
    assert committed.strip() == schema.as_str().strip(), (
        "schema.graphql is out of date: run `make schema` and commit it"
    )


def _undescribed() -> list[str]:
    missing = []
    for name, graphql_type in schema._schema.type_map.items():
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
