"""A refused argument is an error on its own field: that field is null, its error is coded
and its path ends at it, and its siblings are answered (issue 26 item 1).

The rule the schema keeps for it: every field that takes arguments is nullable (deprecated
fields keep their types until they are removed), as GitHub's top-level fields are. Were
one non-null, its error would null its parent, and at the top the whole answer."""

from pathlib import Path
from typing import Any

import pytest
from graphql import (
    GraphQLInputObjectType,
    GraphQLObjectType,
    build_schema,
    get_named_type,
    is_non_null_type,
)

from conftest import Api

SCHEMA = build_schema((Path(__file__).resolve().parents[1] / "schema.graphql").read_text())


def _first_refused(
    type_name: str, slug: str, field: str
) -> tuple[str, str, list[Any], list[Any], str]:
    """``field`` of the ``type_name`` with ``slug``, asked for a page of -1, beside its name."""
    lookup = type_name.lower()
    return (
        f"{type_name}.{field}",
        f'{{ {lookup}(slug: "{slug}") {{ name {field}(first: -1) {{ totalCount }} }} }}',
        [lookup, field],
        [lookup, "name"],
        "BAD_USER_INPUT",
    )


def _row_refused(
    type_name: str, owner: str, rows: str, sibling: str, field: str
) -> tuple[str, str, list[Any], list[Any], str]:
    """``field`` of the first of ``owner``'s ``rows`` (a ``type_name``), asked for a page of
    -1, beside the row's ``sibling``."""
    lookup = owner.split("(")[0]
    return (
        f"{type_name}.{field}",
        f"{{ {owner} {{ {rows}(first: 1) {{ nodes {{"
        f" {sibling} {field}(first: -1) {{ totalCount }} }} }} }} }}",
        [lookup, rows, "nodes", 0, field],
        [lookup, rows, "nodes", 0, sibling],
        "BAD_USER_INPUT",
    )


def _adoption(arguments: str, last: str) -> list[tuple[str, str, list[Any], list[Any], str]]:
    """`adoption` of a node and of a method given ``arguments``, beside its name."""
    return [
        (
            f"{type_name}.adoption",
            f'{{ {type_name.lower()}(slug: "{slug}") {{ name adoption({arguments}) '
            "{ period } } }",
            [type_name.lower(), "adoption"],
            [type_name.lower(), "name"],
            last,
        )
        for type_name, slug in (("Node", "alpha"), ("Method", "m-bravo"))
    ]


# Values the `Date` and `DateTime` scalars cannot read, as the variables `$date` and
# `$moment`; every document of REFUSALS is posted with them (a variable its operation does
# not declare is left alone).
BAD_VALUES = {"date": "2024-13-45", "moment": "2025-07-01T25:00:00+00:00"}

# Each field that takes a date or a moment, with VALUE where one of its arguments goes.
_DATED = [
    (
        "Query.models",
        "{ taxonomy { nodeCount } models(filter: {releasedAfter: VALUE}) { totalCount } }",
        ["models"],
        ["taxonomy", "nodeCount"],
        "Date",
    ),
    (
        "Query.changes",
        "{ taxonomy { nodeCount } changes(from: VALUE) { isEmpty } }",
        ["changes"],
        ["taxonomy", "nodeCount"],
        "DateTime",
    ),
    (
        "Node.byModel",
        '{ node(slug: "alpha") { name byModel(filter: {releasedBefore: VALUE}) { totalCount } } }',
        ["node", "byModel"],
        ["node", "name"],
        "Date",
    ),
    (
        "Query.releases",
        "{ taxonomy { nodeCount } releases(filter: {loadedTo: VALUE}) { totalCount } }",
        ["releases"],
        ["taxonomy", "nodeCount"],
        "Date",
    ),
    *_adoption("to: VALUE", "Date"),
]


def _unreadable(
    field: str, document: str, null_at: list[Any], sibling_at: list[Any], scalar: str
) -> list[tuple[str, str, list[Any], list[Any], str]]:
    """``field`` given a value its scalar cannot read, written inline and as a variable."""
    variable = "date" if scalar == "Date" else "moment"
    inline = document.replace("VALUE", f'"{BAD_VALUES[variable]}"')
    passed = f"query(${variable}: {scalar}) " + document.replace("VALUE", f"${variable}")
    return [(field, written, null_at, sibling_at, "BAD_USER_INPUT") for written in (inline, passed)]


# One refused argument for every field that takes paging or keys, reached from a sibling the
# answer must keep: (type.field, document, path of the null field, sibling path, code).
REFUSALS: list[tuple[str, str, list[Any], list[Any], str]] = [
    *[refusal for dated in _DATED for refusal in _unreadable(*dated)],
    (
        "Query.methods",
        "{ taxonomy { nodeCount } methods(first: -1) { totalCount } }",
        ["methods"],
        ["taxonomy", "nodeCount"],
        "BAD_USER_INPUT",
    ),
    (
        "Query.models",
        '{ taxonomy { nodeCount } models(after: "nope") { totalCount } }',
        ["models"],
        ["taxonomy", "nodeCount"],
        "BAD_USER_INPUT",
    ),
    (
        "Query.search",
        '{ taxonomy { nodeCount } search(query: "gamma", first: 101) { totalCount } }',
        ["search"],
        ["taxonomy", "nodeCount"],
        "BAD_USER_INPUT",
    ),
    (
        "Query.organizations",
        '{ taxonomy { nodeCount } organizations(branch: {slug: "nope"}) { name } }',
        ["organizations"],
        ["taxonomy", "nodeCount"],
        "NOT_FOUND",
    ),
    (
        "Query.releases",
        "{ taxonomy { nodeCount } releases(first: 1, last: 1) { totalCount } }",
        ["releases"],
        ["taxonomy", "nodeCount"],
        "BAD_USER_INPUT",
    ),
    (
        "Query.changes",
        "{ taxonomy { nodeCount } changes(since: 999) { isEmpty } }",
        ["changes"],
        ["taxonomy", "nodeCount"],
        "NOT_FOUND",
    ),
    *[
        (
            f"Changes.{field}",
            f"{{ changes(since: 1) {{ isEmpty {field}(first: -1) {{ totalCount }} }} }}",
            ["changes", field],
            ["changes", "isEmpty"],
            "BAD_USER_INPUT",
        )
        for field in ("nodes", "methods", "models", "treatments")
    ],
    *[
        _first_refused(type_name, slug, field)
        for type_name, slug, fields in (
            (
                "Node",
                "alpha",
                ("childrenConnection", "descendantsConnection", "methods", "byModel", "history"),
            ),
            ("Method", "m-bravo", ("treatmentsConnection", "evidence", "history")),
            (
                "Model",
                "newest",
                ("sourcesConnection", "treatments", "branchesConnection", "evidence", "history"),
            ),
        )
        for field in fields
    ],
    (
        "Model.branches",
        '{ model(slug: "newest") { name branches(level: 0) { strongest } } }',
        ["model", "branches"],
        ["model", "name"],
        "BAD_USER_INPUT",
    ),
    *_adoption('from: "2025-01-01", to: "2024-01-01"', "BAD_USER_INPUT"),
    _row_refused(
        "MethodTreatment",
        'method(slug: "m-bravo")',
        "treatmentsConnection",
        "strength",
        "evidenceConnection",
    ),
    _row_refused(
        "ModelTreatment", 'node(slug: "alpha")', "byModel", "strongest", "methodsConnection"
    ),
    # A value written in the document that its argument's type cannot take (an unknown
    # enum value) is refused as the field runs (schema.argument_values), not by validation.
    *[
        (
            f"{type_name}.undatedModels",
            f'{{ {type_name.lower()}(slug: "{slug}") {{ name '
            "undatedModels(minStrength: CENTRAL) } }",
            [type_name.lower(), "undatedModels"],
            [type_name.lower(), "name"],
            "BAD_USER_INPUT",
        )
        for type_name, slug in (("Node", "alpha"), ("Method", "m-bravo"))
    ],
]


# Fields that only data of several releases reaches, tried by the tests named.
TRIED_ELSEWHERE = {
    f"KnockOn.{field}": "tests/test_walk_releases.py::test_knock_on_lists_page_both_ways"
    for field in ("nodes", "methods", "treatments")
}


def _fields_with_arguments(*, non_null: bool) -> set[str]:
    return {
        f"{type_name}.{field_name}"
        for type_name, type_ in SCHEMA.type_map.items()
        if isinstance(type_, GraphQLObjectType) and not type_name.startswith("__")
        for field_name, field in type_.fields.items()
        if field.args
        and field.deprecation_reason is None
        and is_non_null_type(field.type) == non_null
    }


def test_every_field_that_takes_arguments_is_nullable() -> None:
    assert _fields_with_arguments(non_null=True) == set()


def _takes_a_date(type_: Any, seen: frozenset[str] = frozenset()) -> bool:
    """Whether an argument's ``type_`` is a `Date` or `DateTime`, or an input (or list)
    that holds one."""
    named = get_named_type(type_)
    if named.name in ("Date", "DateTime"):
        return True
    return (
        isinstance(named, GraphQLInputObjectType)
        and named.name not in seen
        and any(_takes_a_date(field.type, seen | {named.name}) for field in named.fields.values())
    )


def test_every_field_that_takes_a_date_is_tried_inline_and_as_a_variable() -> None:
    """A value the date scalars cannot read reaches the field it was given to, refused
    there (schema.readable): every field that takes one is given one in REFUSALS, both
    ways."""
    takes_dates = {
        f"{type_name}.{field_name}"
        for type_name, type_ in SCHEMA.type_map.items()
        if isinstance(type_, GraphQLObjectType) and not type_name.startswith("__")
        for field_name, field in type_.fields.items()
        if any(_takes_a_date(argument.type) for argument in field.args.values())
    }
    inline = {
        field for field, document, *_ in REFUSALS if any(v in document for v in BAD_VALUES.values())
    }
    passed = {
        field for field, document, *_ in REFUSALS if "$date" in document or "$moment" in document
    }
    assert takes_dates == inline == passed


def test_every_field_that_takes_paging_or_keys_is_tried() -> None:
    """Each nullable field whose arguments the server can refuse at run time (paging,
    cursors, keys, levels, date ranges, enum values) is in REFUSALS; those left out are
    lookups whose unknown key is a null answer (`node`, `entity`...: "Missing things")."""
    never_refused = {
        "Query.node",
        "Query.method",
        "Query.model",
        "Query.entity",
        "Query.entities",
        "Query.release",
        "Query.formerNode",
        "Query.formerMethod",
        "Query.formerModel",
    }
    tried = {field for field, *_ in REFUSALS} | set(TRIED_ELSEWHERE)
    nullable = _fields_with_arguments(non_null=False)
    assert never_refused <= nullable
    assert nullable - never_refused == tried


def _at(data: Any, path: list[Any]) -> Any:
    for step in path:
        data = data[step]
    return data


@pytest.mark.parametrize(
    ("field", "document", "null_at", "sibling_at", "code"),
    REFUSALS,
    ids=[field + (" ($)" if "$" in document else "") for field, document, *_ in REFUSALS],
)
def test_a_refused_argument_nulls_its_field_alone(
    tiny: Api, field: str, document: str, null_at: list[Any], sibling_at: list[Any], code: str
) -> None:
    body = tiny.post(document, BAD_VALUES)
    (error,) = body["errors"]
    assert error["path"] == null_at, error
    assert error["extensions"]["code"] == code, error
    assert _at(body["data"], null_at) is None
    assert _at(body["data"], sibling_at) is not None, body["data"]
