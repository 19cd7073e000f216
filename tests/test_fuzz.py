"""Fuzzing through the ASGI app on the tiny dataset (SQLite), bounded in count and time:
hypothesis-graphql's queries (valid, and invalid ones) built from `schema.graphql`, and
schemathesis in GraphQL mode. Whatever comes, no 5xx and no `INTERNAL`: a valid query is
answered or refused with a client's code, never as our fault."""

from collections.abc import Callable, Iterator
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from graphql import ValuesOfCorrectTypeRule, build_schema, parse, specified_rules, validate
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_graphql import Mode, nodes, queries
from schemathesis.python.asgi import shutdown_lifespans
from starlette.applications import Starlette
from starlette.testclient import TestClient

from api.app import create_app
from api.settings import Settings
from schema.argument_values import ValuesOfCorrectTypeOutsideFieldArguments

from conftest import Api

SCHEMA_FILE = Path(__file__).resolve().parent.parent / "schema.graphql"
EXAMPLES = 150
FUZZ_SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,  # a slow example is not a failure; the count bounds the time
    database=None,  # nothing written into the checkout
    derandomize=True,  # the same examples on every run, so a failure can be replayed
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
# The schema's own scalars, as GraphQL literals.
CUSTOM_SCALARS = {
    "Date": st.dates(min_value=date(1900, 1, 1), max_value=date(2100, 1, 1)).map(nodes.String),
    "DateTime": st.datetimes(min_value=datetime(1900, 1, 1)).map(
        lambda value: nodes.String(value.isoformat())
    ),
}


def _check(status: int, body: Any) -> None:
    """No 5xx; every error carries a code and none is INTERNAL."""
    assert status < 500, (status, body)
    assert isinstance(body, dict), body
    for error in body.get("errors") or []:
        code = error.get("extensions", {}).get("code")
        assert code, f"an error without a code: {error}"
        assert code != "INTERNAL", error


@pytest.fixture
def tiny_sqlite(api_for: Callable[[str, str], Api], tiny_folder: Path) -> Api:
    return api_for("sqlite", str(tiny_folder))


@pytest.fixture
def client(tiny_sqlite: Api) -> Iterator[TestClient]:
    """A fresh app without the response cache, so every example reaches the database."""
    app = create_app(Settings(database_url=tiny_sqlite.database_url, response_cache=False))
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


SDL = SCHEMA_FILE.read_text(encoding="utf-8")
GRAPHQL_SCHEMA = build_schema(SDL)
# The specification's rules as the server applies them (schema.argument_values).
RULES_BUT_FIELD_VALUES = [
    ValuesOfCorrectTypeOutsideFieldArguments if rule is ValuesOfCorrectTypeRule else rule
    for rule in specified_rules
]


@pytest.mark.parametrize("mode", [Mode.POSITIVE, Mode.NEGATIVE], ids=["valid", "invalid"])
def test_hypothesis_graphql_queries(client: TestClient, mode: Mode) -> None:
    # Strings without NUL: on PostgreSQL that is a known fault of its own
    # (tests/test_hostile_input.py::test_null_bytes_in_lookups_are_no_fault); here SQLite.
    strategy = queries(SDL, custom_scalars=CUSTOM_SCALARS, mode=mode, allow_x00=False)
    answered: list[tuple[str, dict[str, Any]]] = []

    @FUZZ_SETTINGS
    @given(document=strategy)
    def run(document: str) -> None:
        response = client.post("/graphql", json={"query": document})
        _check(response.status_code, response.json())
        if response.json().get("data") is not None:
            answered.append((document, response.json()))

    run()
    if mode is Mode.POSITIVE:
        assert len(answered) > EXAMPLES // 3, "the fuzzer hardly reached execution"
    else:
        # An invalid document runs only when all that is wrong with it is values in
        # fields' arguments, which are refused on their field as it runs (or never looked
        # at, below a field that is null): schema.argument_values. It runs with no fault.
        for document, body in answered:
            assert validate(GRAPHQL_SCHEMA, parse(document), RULES_BUT_FIELD_VALUES) == [], (
                f"an invalid document was executed: {document!r} -> {body}"
            )
            for error in body.get("errors", []):
                assert error["extensions"]["code"] in ("BAD_USER_INPUT", "NOT_FOUND"), body
                if " has invalid value" in error["message"]:
                    assert error["message"].startswith("Argument '"), error
                    assert error["path"], error


def test_hypothesis_graphql_queries_with_variables(client: TestClient) -> None:
    """The same shapes through variables, where coercion (not the parser) checks types."""
    # Integers up to 2^40: beyond 64 bits is a known fault of its own
    # (tests/test_hostile_input.py::test_a_first_beyond_64_bits_is_refused).
    ints = st.one_of(
        st.integers(min_value=-(2**40), max_value=2**40), st.integers(min_value=-2, max_value=120)
    )
    # No NUL (see above) and no lone surrogates (JSON cannot carry them).
    texts = st.text(
        alphabet=st.characters(blacklist_categories=["Cs"], blacklist_characters="\x00"),
        max_size=200,
    )
    methods = (
        "query($n: Int, $a: String) { methods(first: $n, after: $a) "
        "{ totalCount nodes { name } pageInfo { endCursor } } }"
    )
    search = (
        "query($q: String!, $n: Int) { search(query: $q, first: $n) "
        "{ totalCount nodes { __typename } } }"
    )
    documents: dict[str, dict[str, st.SearchStrategy[Any]]] = {
        methods: {"n": ints, "a": st.one_of(st.none(), texts)},
        search: {"q": texts, "n": ints},
        "query($i: ID!) { entity(id: $i) { __typename } }": {"i": texts},
        "query($p: String) { node(path: $p) { name byModel(first: 3) { totalCount } } }": {
            "p": texts
        },
        'query($l: Int!) { model(slug: "newest") { branches(level: $l) { methodCount } } }': {
            "l": ints
        },
    }
    cases = st.sampled_from(list(documents)).flatmap(
        lambda document: st.fixed_dictionaries(documents[document]).map(
            lambda variables: (document, variables)
        )
    )

    @FUZZ_SETTINGS
    @given(case=cases)
    def run(case: tuple[str, dict[str, Any]]) -> None:
        document, variables = case
        response = client.post("/graphql", json={"query": document, "variables": variables})
        _check(response.status_code, response.json())

    run()


@pytest.fixture
def asgi_app(tiny_sqlite: Api) -> Iterator[Starlette]:
    yield create_app(Settings(database_url=tiny_sqlite.database_url, response_cache=False))
    shutdown_lifespans()  # schemathesis started the app's lifespan; end it here


def test_schemathesis_graphql(asgi_app: Starlette) -> None:
    schema = schemathesis.graphql.from_asgi("/graphql", asgi_app)
    strategy = schema.as_strategy()
    statuses: list[int] = []

    @FUZZ_SETTINGS
    @given(case=strategy)
    def run(case: Any) -> None:
        response = case.call()
        _check(response.status_code, response.json())
        statuses.append(response.status_code)

    run()
    assert statuses.count(200) > EXAMPLES // 3, "the fuzzer hardly reached execution"
