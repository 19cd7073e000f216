"""The schema contract's entry points and the errors a client can meet: each says what was
wrong and carries `extensions.code`."""

import json

import pytest
from graphql import (
    FieldNode,
    GraphQLError,
    OperationDefinitionNode,
    located_error,
    parse,
)

from schema.errors import classified
from schema.ids import encode_id

from conftest import Api, release_of


def _only_error(api: Api, document: str, variables: dict[str, object] | None = None) -> str:
    errors = api.errors(document, variables)
    assert len(errors) == 1, errors
    assert errors[0]["extensions"]["code"] == "BAD_USER_INPUT"
    message: str = errors[0]["message"]
    return message


@pytest.mark.parametrize(
    ("arguments", "found"),
    [
        (None, "none"),
        ('slug: "alpha", path: "alpha"', "`slug`, `path`"),
        ('id: "x", slug: "alpha", path: "alpha"', "`id`, `slug`, `path`"),
    ],
)
def test_node_needs_exactly_one_of_id_slug_path(
    tiny: Api, arguments: str | None, found: str
) -> None:
    call = f"node({arguments})" if arguments else "node"
    message = _only_error(tiny, f"{{ {call} {{ name }} }}")
    assert message == f"give exactly one of `id`, `slug`, `path`; got {found}"


def test_node_by_each_key(tiny: Api) -> None:
    node_id = encode_id("Node", "gamma")
    for arguments in (
        f'id: "{node_id}"',
        'slug: "gamma"',
        'path: "alpha/beta/gamma"',
        'path: "Alpha :: beta :: Gamma"',
    ):
        assert tiny.query(f"{{ node({arguments}) {{ slug }} }}") == {"node": {"slug": "gamma"}}


def test_unknown_things_are_null(tiny: Api) -> None:
    document = f"""{{
      a: node(slug: "nope") {{ name }}
      b: node(path: "alpha/nope") {{ name }}
      c: node(path: "Alpha :: nope") {{ name }}
      d: node(id: "{encode_id("Node", "nope")}") {{ name }}
      e: method(slug: "nope") {{ name }}
      f: model(slug: "nope") {{ name }}
      g: entity(id: "{encode_id("Evidence", "nope")}") {{ __typename }}
    }}"""
    assert tiny.query(document) == dict.fromkeys("abcdefg")


def test_ids_of_another_type_or_not_ours_are_input_errors(tiny: Api) -> None:
    method_id = encode_id("Method", "alpha")
    message = _only_error(tiny, f'{{ node(id: "{method_id}") {{ name }} }}')
    assert message == f"`id`: {method_id!r} is the ID of a Method, not of a Node"
    message = _only_error(tiny, '{ entity(id: "not-an-id!") { __typename } }')
    assert "is not an ID of this API" in message


@pytest.mark.parametrize("first", [101, -1, 10_000])
def test_first_out_of_range_is_an_error_not_a_silent_cap(tiny: Api, first: int) -> None:
    message = _only_error(tiny, f"{{ methods(first: {first}) {{ totalCount }} }}")
    assert message.startswith(f"`first` must be between 0 and 100, got {first}")


def test_first_defaults_to_twenty_and_zero_is_allowed(api_for, backend: str) -> None:  # type: ignore[no-untyped-def]
    go = api_for(backend, "go")
    page = go.query("{ methods { totalCount nodes { slug } pageInfo { hasNextPage } } }")
    assert len(page["methods"]["nodes"]) == 20
    assert page["methods"]["totalCount"] == 493
    empty = go.query("{ methods(first: 0) { nodes { slug } pageInfo { hasNextPage endCursor } } }")
    assert empty["methods"] == {"nodes": [], "pageInfo": {"hasNextPage": True, "endCursor": None}}


def test_bad_cursors_are_input_errors(tiny: Api) -> None:
    message = _only_error(tiny, '{ methods(after: "garbage") { totalCount } }')
    assert "is not a cursor of this API" in message
    by_name = tiny.query("{ methods(first: 1) { pageInfo { endCursor } } }")
    cursor = by_name["methods"]["pageInfo"]["endCursor"]
    message = _only_error(
        tiny,
        "query($c: String) { methods(after: $c, orderBy: {field: MODEL_COUNT}) { totalCount } }",
        {"c": cursor},
    )
    assert "belongs to another list or ordering" in message


def test_argument_checks(tiny: Api) -> None:
    assert "`maxDepth` must be at least 1" in _only_error(
        tiny, '{ node(slug: "alpha") { descendants(maxDepth: 0) { slug } } }'
    )
    assert "`level` must be at least 1" in _only_error(
        tiny, '{ model(slug: "newest") { branches(level: 0) { strongest } } }'
    )
    # A search with no words (empty, blank, punctuation only) finds nothing: an empty
    # page, not an error; its paging arguments are checked as any search's.
    for query in ("", "   ", "  ?! "):
        assert tiny.query(
            f'{{ search(query: "{query}", first: 5) {{ totalCount nodes {{ __typename }} '
            "pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }"
        ) == {
            "search": {
                "totalCount": 0,
                "nodes": [],
                "pageInfo": {
                    "hasNextPage": False,
                    "hasPreviousPage": False,
                    "startCursor": None,
                    "endCursor": None,
                },
            }
        }
    assert "`first` must be between 0 and 100" in _only_error(
        tiny, '{ search(query: "", first: 101) { totalCount } }'
    )
    unknown = encode_id("Node", "nope")
    errors = tiny.errors(f'{{ methods(filter: {{within: "{unknown}"}}) {{ totalCount }} }}')
    assert [(e["message"], e["extensions"]["code"]) for e in errors] == [
        (f"`filter.within`: no node has the ID {unknown!r}", "NOT_FOUND")
    ]


def test_filters(tiny: Api) -> None:
    gamma = encode_id("Node", "gamma")
    document = f"""{{
      named: methods(filter: {{nameContains: "METHOD", hasEvidence: false}}) {{ nodes {{ name }} }}
      core: methods(filter: {{minStrength: CORE}}) {{ nodes {{ name }} }}
      within: methods(filter: {{within: "{gamma}", hasEvidence: true}}) {{ nodes {{ name }} }}
      literal: methods(filter: {{nameContains: "%"}}) {{ totalCount }}
      dated: models(filter: {{releasedAfter: "2024-06-01"}}) {{ nodes {{ name }} }}
      newest: models(orderBy: {{field: RELEASE_DATE, direction: DESC}}, first: 2) {{
        nodes {{ name }}
      }}
    }}"""
    data = tiny.query(document)
    assert data["named"]["nodes"] == [{"name": "Lonely method"}]
    names = ["alpha method", "Delta method", "Zed method"]
    assert data["core"]["nodes"] == [{"name": n} for n in names]
    assert data["within"]["nodes"] == [{"name": "alpha method"}, {"name": "Bravo method"}]
    assert data["literal"]["totalCount"] == 0  # `%` is a character here, not a wildcard
    assert data["dated"]["nodes"] == [{"name": "Newest"}]
    assert data["newest"]["nodes"] == [{"name": "Newest"}, {"name": "alpha"}]


def test_evidence_lists_and_refetch_of_every_type(tiny: Api) -> None:
    document = """{
      model(slug: "newest") {
        id
        sources { id slug kind model { slug } }
        evidence(first: 10) {
          totalCount
          nodes { id strength method { slug } source { slug } }
        }
      }
    }"""
    model = tiny.query(document)["model"]
    evidence = model["evidence"]
    assert evidence["totalCount"] == 3
    # Strongest first, then in file order.
    assert [e["strength"] for e in evidence["nodes"]] == ["CORE", "USED", "MENTIONED"]
    ids = [model["id"], model["sources"][0]["id"], *(e["id"] for e in evidence["nodes"])]
    assert len(set(ids)) == len(ids)
    refetch = "query($id: ID!) { entity(id: $id) { __typename } }"
    kinds = [tiny.query(refetch, {"id": i})["entity"]["__typename"] for i in ids]
    assert kinds == ["Model", "Source", "Evidence", "Evidence", "Evidence"]


def test_search_ranks_names_first_and_pages(tiny: Api) -> None:
    document = """
    query($q: String!, $after: String) {
      search(query: $q, first: 1, after: $after) {
        totalCount
        edges { cursor node { __typename ... on Node { slug } ... on Method { slug } } }
        pageInfo { hasNextPage hasPreviousPage endCursor }
      }
    }"""
    first = tiny.query(document, {"q": "gam"})["search"]
    # "Gamma" (the node's name) matches by prefix; so does its matching aid "gamma rays".
    assert first["totalCount"] == 1
    assert first["edges"][0]["node"] == {"__typename": "Node", "slug": "gamma"}
    hits, after = [], None
    while True:
        page = tiny.query(document, {"q": "method", "after": after})["search"]
        hits += [edge["node"]["slug"] for edge in page["edges"]]
        if not page["pageInfo"]["hasNextPage"]:
            break
        after = page["pageInfo"]["endCursor"]
    assert sorted(hits) == sorted(
        ["alpha", "m-bravo", "m-charlie", "m-delta", "m-lonely", "m-root", "m-zed"]
    )
    assert page["totalCount"] == 7


def test_taxonomy_summary(tiny: Api) -> None:
    summary = tiny.query(
        "{ taxonomy { nodeCount rootCount depth methodCount modelCount sourceCount "
        "evidenceCount dataVersion loadedAt checksum } }"
    )["taxonomy"]
    assert release_of(summary["dataVersion"]) == 1
    left_out = ("loadedAt", "checksum", "dataVersion")
    assert {k: summary[k] for k in summary if k not in left_out} == {
        "nodeCount": 5,
        "rootCount": 2,
        "depth": 3,
        "methodCount": 7,
        "modelCount": 5,
        "sourceCount": 5,
        "evidenceCount": 10,
    }
    assert summary["loadedAt"].endswith("+00:00")
    assert len(summary["checksum"]) == 64


@pytest.mark.parametrize("written", ['"2024-13-45"', '"nope"', "5", "NOPE"])
def test_a_bad_date_is_the_clients_error_on_its_field_inline_or_as_a_variable(
    tiny: Api, written: str
) -> None:
    """A value the Date scalar cannot read is BAD_USER_INPUT on the field it was given to,
    naming the argument and what a Date looks like, its siblings answered: the same whether
    written inline or passed as a variable, never INTERNAL (an inline one once was) nor a
    refusal of the whole request (GRAPHQL_VALIDATION_FAILED, as it once was)."""
    value = written if written != "NOPE" else '"NOPE"'  # an enum name, as a variable a string
    inline = tiny.post(
        f"{{ taxonomy {{ nodeCount }} models(filter: {{releasedAfter: {written}}}) "
        "{ totalCount } }"
    )
    variable = tiny.post(
        "query($v: Date) { taxonomy { nodeCount } models(filter: {releasedAfter: $v}) "
        "{ totalCount } }",
        {"v": json.loads(value)},
    )
    for body in (inline, variable):
        assert body["data"]["taxonomy"]["nodeCount"] == 5, body
        assert body["data"]["models"] is None, body
        (error,) = body["errors"]
        assert error["path"] == ["models"], error
        assert error["extensions"] == {
            "code": "BAD_USER_INPUT",
            "argument": "filter.releasedAfter",
        }, error
        assert error["message"].startswith(f"`filter.releasedAfter`: {json.loads(value)!r} is "), (
            error
        )
        assert "'2025-07-01'" in error["message"], error
        assert error["locations"], error
    assert inline["errors"][0]["message"] == variable["errors"][0]["message"]


UNFIT_VALUES = {
    "unknown enum value": (
        "methods(orderBy: {field: NOPE}) { totalCount }",
        "NOPE",
        "query($f: MethodOrderField!) { taxonomy { nodeCount } "
        "methods(orderBy: {field: $f}) { totalCount } }",
        {"f": "NOPE"},
    ),
    "Int beyond 32 bits": (
        "methods(first: 3000000000) { totalCount }",
        "3000000000",
        "query($n: Int) { taxonomy { nodeCount } methods(first: $n) { totalCount } }",
        {"n": 3_000_000_000},
    ),
    "text for an Int": (
        'methods(first: "ten") { totalCount }',
        '"ten"',
        "query($n: Int) { taxonomy { nodeCount } methods(first: $n) { totalCount } }",
        {"n": "ten"},
    ),
    "a list for an enum, inside a list's item": (
        "methods(first: 1) { nodes { undatedModels(minStrength: [CORE]) } }",
        "[CORE]",
        "query($s: Strength) { taxonomy { nodeCount } "
        "methods(first: 1) { nodes { undatedModels(minStrength: $s) } } }",
        {"s": ["CORE"]},
    ),
}


@pytest.mark.parametrize("case", list(UNFIT_VALUES))
def test_a_value_its_type_cannot_take_written_inline_nulls_its_field_alone(
    tiny: Api, case: str
) -> None:
    """A value written in a field's arguments that their type cannot take (an unknown enum
    value, an `Int` beyond 32 bits, text for a number) is BAD_USER_INPUT on that field,
    which is null, its siblings answered; the message names the argument and the value
    (schema.argument_values; it once refused the whole request)."""
    selection, value, *_ = UNFIT_VALUES[case]
    response = tiny.client.post(
        "/graphql", json={"query": f"{{ taxonomy {{ nodeCount }} {selection} }}"}
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["data"]["taxonomy"] == {"nodeCount": 5}, body
    (error,) = body["errors"]
    assert error["extensions"] == {"code": "BAD_USER_INPUT"}, error
    assert error["message"].startswith("Argument '"), error
    assert value in error["message"], error
    if not value.startswith("["):
        # graphql-core reports a list given for a single value at a copy of the list that
        # has no place in the document: that error is found by its `path` alone.
        assert error["locations"], error
    if selection.startswith("methods(first: 1)"):
        assert body["data"]["methods"]["nodes"] == [{"undatedModels": None}], body
        assert error["path"] == ["methods", "nodes", 0, "undatedModels"], error
    else:
        assert body["data"]["methods"] is None, body
        assert error["path"] == ["methods"], error


@pytest.mark.parametrize("case", list(UNFIT_VALUES))
def test_a_variable_its_type_cannot_take_refuses_the_request(tiny: Api, case: str) -> None:
    """A value in `variables` that the variable's own declared type cannot take is refused
    before anything runs, by the specification's variable coercion (a request error, as
    GitHub's API answers it too): the variable may feed many fields, and the client
    declared its type (docs/api-guide.md, "Errors stay on their field")."""
    *_, variable, values = UNFIT_VALUES[case]
    response = tiny.client.post("/graphql", json={"query": variable, "variables": values})
    assert response.status_code == 400, response.text
    body = response.json()
    assert "data" not in body, body
    (error,) = body["errors"]
    assert error["extensions"]["code"] == "GRAPHQL_VALIDATION_FAILED", error
    assert error["message"].startswith("Variable '$"), error


def test_only_errors_at_a_value_of_the_document_are_the_clients() -> None:
    """graphql-core raises its own GraphQLError on a field for a value in the field's
    arguments (placed at the value: BAD_USER_INPUT) and for a list field whose resolver
    returned no list (placed at no value: not the client's fault, never BAD_USER_INPUT)."""
    (operation,) = parse("{ methods(first: 3000000000) { totalCount } }").definitions
    assert isinstance(operation, OperationDefinitionNode)
    (field,) = operation.selection_set.selections
    assert isinstance(field, FieldNode)
    (argument,) = field.arguments or ()
    value = argument.value
    at_value = located_error(
        GraphQLError("Argument 'first' has invalid value", value), [field], ["methods"]
    )
    no_list = located_error(GraphQLError("Expected Iterable"), [field], ["methods"])
    assert classified(at_value, None).extensions == {"code": "BAD_USER_INPUT"}
    assert classified(no_list, None).extensions != {"code": "BAD_USER_INPUT"}
