"""The executor's shorter ways (`schema.execution`) answer exactly as graphql-core's own
executor does: the same data, and the same errors at the same paths, for values that
are at hand, still to be awaited, missing where they may not be, or failing."""

import asyncio
from enum import Enum
from types import SimpleNamespace
from typing import Any

import pytest
import strawberry
from strawberry.extensions import ParserCache
from strawberry.schema.schema import StrawberryGraphQLCoreExecutionContext

from bench.workloads import workloads
from schema import build_schema, schema
from schema.base import RowBacked, answer_directly, direct_field, row_field
from schema.context import Context, Info
from schema.execution import TaxonomyExecutor

from seed_page import NODE_PAGE


@strawberry.enum
class Shade(Enum):
    LIGHT = "light"
    DARK = "dark"


async def _later(value: Any) -> Any:
    await asyncio.sleep(0)
    if isinstance(value, Exception):
        raise value
    return value


def _at_hand_or_later(value: Any, mode: str) -> Any:
    """``value`` as a resolver may give it: at once, awaitable, or as a raised error."""
    if mode == "raise":
        raise LookupError("no such row")
    return _later(value) if mode == "later" else value


@strawberry.type
class Leaf(RowBacked):
    name: str = row_field("A non-null name read off the row.")
    shade: Shade | None = row_field("An enum read off the row.")


@strawberry.type
class Item(RowBacked):
    name: str = row_field("A non-null name read off the row.")
    nickname: str | None = row_field("A nullable name read off the row.")
    shade: Shade = row_field("A non-null enum read off the row.")

    @direct_field("A non-null object behind a foreign key.", graphql_type=Leaf)
    def leaf(self, info: Info) -> Any:
        return _at_hand_or_later(
            Leaf.from_row(self.row.leaf) if self.row.leaf else None, self.row.mode
        )

    @direct_field("A nullable object behind a foreign key.", graphql_type=Leaf | None)
    def maybe_leaf(self, info: Info) -> Any:
        return _at_hand_or_later(
            Leaf.from_row(self.row.leaf) if self.row.leaf else None, self.row.mode
        )

    @direct_field("A non-null figure.", graphql_type=int)
    def size(self, info: Info) -> Any:
        context: Any = info.context
        assert context.marker == "context"  # DirectFields see the request's context
        return _at_hand_or_later(self.row.size, self.row.mode)

    @strawberry.field(description="A field with an argument: graphql-core's own way.")
    def greeting(self, prefix: str = "hi") -> str:
        return f"{prefix} {self.row.name}"


def _leaf(name: Any, shade: Any = Shade.DARK) -> SimpleNamespace:
    return SimpleNamespace(name=name, shade=shade)


def _item(**fields: Any) -> SimpleNamespace:
    row = {"name": "a", "nickname": None, "shade": Shade.LIGHT, "leaf": _leaf("l"), "size": 1}
    return SimpleNamespace(**{**row, "mode": "now", **fields})


ROWS: dict[str, list[SimpleNamespace]] = {
    "well": [_item(), _item(name="b", nickname="bee", shade=Shade.DARK, size=2)],
    "later": [_item(mode="later"), _item(name="c", mode="later", leaf=_leaf("m", None))],
    "null name": [_item(), _item(name=None)],
    "null leaf": [_item(leaf=None), _item(leaf=None, mode="later")],
    "null in leaf": [_item(leaf=_leaf(None)), _item(leaf=_leaf(None), mode="later")],
    "null size": [_item(size=None), _item(size=None, mode="later")],
    "raises": [_item(mode="raise")],
    "fails later": [_item(leaf=LookupError("gone"), size=LookupError("gone"), mode="later")],
    "bad enum": [_item(shade="purple"), _item(leaf=_leaf("l", "purple"))],
    "bad int": [_item(size="many")],
}


def _odd(case: str) -> list[Any]:
    items: list[Any] = list(Item.from_rows(ROWS[case]))
    return [None, _later(items[0]), LookupError("no item"), *items]


@strawberry.type
class Query:
    @strawberry.field
    def items(self, case: str) -> list[Item]:
        return Item.from_rows(ROWS[case])

    @strawberry.field
    def maybe_items(self, case: str) -> list[Item | None] | None:
        return list(Item.from_rows(ROWS[case]))

    @strawberry.field(graphql_type=list[Item | None])
    def odd_items(self, case: str) -> Any:
        """Items as a resolver may list them: null, awaitable, an error, or at hand."""
        return _odd(case)

    @strawberry.field(graphql_type=list[Item] | None)
    def odd_required_items(self, case: str) -> Any:
        return _odd(case)


def _schema(executor: type[StrawberryGraphQLCoreExecutionContext]) -> strawberry.Schema:
    built = strawberry.Schema(query=Query, execution_context_class=executor)
    answer_directly(built)
    return built


DOCUMENTS = {
    "everything": """query($case: String!) { items(case: $case) {
        __typename name nickname shade size greeting(prefix: "yo") alias: name
        leaf { name shade } maybeLeaf { name shade } } }""",
    "nullable list": """query($case: String!) { maybeItems(case: $case) {
        name size leaf { name } maybeLeaf { name shade } } }""",
    "odd lists": """query($case: String!) {
        oddItems(case: $case) { name size leaf { name } }
        oddRequiredItems(case: $case) { name maybeLeaf { shade } } }""",
    "fragments": """query($case: String!) { items(case: $case) { ...F leaf { ...L } } }
        fragment F on Item { name size @include(if: true) nickname @skip(if: true) }
        fragment L on Leaf { name }""",
}


def _answer(schema: strawberry.Schema, document: str, case: str) -> dict[str, Any]:
    context = SimpleNamespace(marker="context")
    result = asyncio.run(schema.execute(document, {"case": case}, context_value=context))
    errors = [
        {"message": e.message, "path": e.path, "locations": e.locations}
        for e in result.errors or []
    ]
    return {"data": result.data, "errors": sorted(errors, key=str)}


@pytest.mark.parametrize("document", DOCUMENTS)
@pytest.mark.parametrize("case", ROWS)
def test_answers_as_graphql_core_does(document: str, case: str) -> None:
    ours = _answer(_schema(TaxonomyExecutor), DOCUMENTS[document], case)
    theirs = _answer(_schema(StrawberryGraphQLCoreExecutionContext), DOCUMENTS[document], case)
    assert ours == theirs
    if case == "well" and document != "odd lists":  # really answered, not all errors
        assert not ours["errors"]
        assert ours["data"]
    if case == "well" and document == "odd lists":  # the items at hand are answered
        assert [item and item["name"] for item in ours["data"]["oddItems"]] == [
            None,
            "a",
            None,
            "a",
            "b",
        ]
    if document == "everything" and case not in ("well", "later"):
        assert ours["errors"]


def test_a_null_where_none_may_be_is_located() -> None:
    answer = _answer(
        _schema(TaxonomyExecutor), 'query { maybeItems(case: "null name") { name } }', ""
    )
    assert answer["data"] == {"maybeItems": [{"name": "a"}, None]}
    assert answer["errors"] == [
        {
            "message": "Cannot return null for non-nullable field Item.name.",
            "path": ["maybeItems", 1, "name"],
            "locations": answer["errors"][0]["locations"],
        }
    ]


def _execute(api: Any, built: strawberry.Schema, document: str, variables: Any) -> Any:
    engine = api.client.app.state.request_engine

    async def run() -> Any:
        context = Context.for_request(engine)
        result = await built.execute(document, variable_values=variables, context_value=context)
        return result.data, [(e.message, e.path) for e in result.errors or []]

    return api.client.portal.call(run)


def test_the_api_answers_as_graphql_core_does(api: Any) -> None:
    """The seed page and the benchmark's pages, on real data, through both executors."""
    reference = build_schema()
    reference.execution_context_class = StrawberryGraphQLCoreExecutionContext
    pages = [(NODE_PAGE, {"path": "optimization/training-parallelism"})]
    pages += [(w.document, w.variables) for w in workloads("optimization")]
    for document, variables in pages:
        ours = _execute(api, schema, document, variables)
        data, errors = ours
        assert data, document  # a real page, answered without errors
        assert not errors, errors
        assert ours == _execute(api, reference, document, variables)


SWITCHED = """query($case: String!, $more: Boolean!) { items(case: $case) {
    name nickname @include(if: $more) leaf @include(if: $more) { name } } }"""


def test_a_document_run_again_is_answered_for_its_variables() -> None:
    """The same document again (the same syntax tree, from the parser's cache, so the
    executor's plans are reused) is answered for its new variables."""
    cached = strawberry.Schema(
        query=Query, execution_context_class=TaxonomyExecutor, extensions=[ParserCache]
    )
    answer_directly(cached)
    reference = _schema(StrawberryGraphQLCoreExecutionContext)

    def answer(built: strawberry.Schema, more: bool) -> Any:
        variables = {"case": "well", "more": more}
        result = asyncio.run(built.execute(SWITCHED, variables, context_value=SimpleNamespace()))
        assert not result.errors, result.errors
        return result.data

    answers = [answer(cached, more) for more in (True, False, True, False)]
    assert answers == [answer(reference, more) for more in (True, False, True, False)]
    assert answers[0]["items"][1] == {"name": "b", "nickname": "bee", "leaf": {"name": "l"}}
    assert answers[1]["items"][1] == {"name": "b"}
