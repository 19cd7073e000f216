"""The query cost rule, in the style of GitHub's node limit: a paginated list multiplies
the number of objects above it by its `first` (20 when not given), a list without `first`
(children, a row's methods...) by an estimate of 10, and a query's cost is the number of
objects it may return, summed over all its object fields. A connection's `nodes` and
`edges` are the page its `first` already counted."""

from collections.abc import Iterator
from typing import Any

from graphql import (
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLList,
    GraphQLNamedType,
    GraphQLObjectType,
    GraphQLSchema,
    InlineFragmentNode,
    IntValueNode,
    SelectionSetNode,
    StringValueNode,
    VariableNode,
    Visitor,
    get_named_type,
    get_nullable_type,
    get_operation_ast,
    visit,
)
from graphql import ExecutionResult as GraphQLExecutionResult
from strawberry.extensions import SchemaExtension

from schema.errors import BadUserInputError, ClientError, LimitError
from schema.pagination import DEFAULT_PAGE_SIZE

LIST_ESTIMATE = 10


def _first(field: FieldNode, variables: dict[str, Any]) -> int | None:
    for argument in field.arguments or ():
        if argument.name.value != "first":
            continue
        value = argument.value
        if isinstance(value, IntValueNode):
            number = int(value.value)
            return number if -(2**31) <= number < 2**31 else None
        if isinstance(value, VariableNode):
            given = variables.get(value.name.value)
            # GraphQL's Int is 32 bits; execution refuses anything else, so it costs nothing.
            return given if isinstance(given, int) and -(2**31) <= given < 2**31 else None
    return None


def _is_page_of(parent: GraphQLObjectType, field: str) -> bool:
    return field in ("nodes", "edges") and "pageInfo" in parent.fields


def _selection_cost(
    schema: GraphQLSchema,
    selections: SelectionSetNode,
    parent: GraphQLNamedType | None,
    count: int,
    fragments: dict[str, FragmentDefinitionNode],
    variables: dict[str, Any],
    visiting: frozenset[str],
) -> int:
    total = 0
    for selection in selections.selections:
        if isinstance(selection, FieldNode):
            if selection.selection_set is None or not isinstance(parent, GraphQLObjectType):
                continue  # scalars cost nothing; unions only have __typename
            field = parent.fields.get(selection.name.value)
            if field is None:
                continue
            has_first = "first" in field.args
            is_list = isinstance(get_nullable_type(field.type), GraphQLList)
            factor = 1
            if has_first:
                factor = max(_first(selection, variables) or DEFAULT_PAGE_SIZE, 1)
            elif is_list and not _is_page_of(parent, selection.name.value):
                factor = LIST_ESTIMATE
            objects = count * factor
            total += objects + _selection_cost(
                schema,
                selection.selection_set,
                get_named_type(field.type),
                objects,
                fragments,
                variables,
                visiting,
            )
        elif isinstance(selection, InlineFragmentNode):
            condition = selection.type_condition
            target = schema.get_type(condition.name.value) if condition else parent
            total += _selection_cost(
                schema, selection.selection_set, target, count, fragments, variables, visiting
            )
        elif isinstance(selection, FragmentSpreadNode):
            name = selection.name.value
            fragment = fragments.get(name)
            if fragment is None or name in visiting:
                continue  # validation has already refused such documents
            total += _selection_cost(
                schema,
                fragment.selection_set,
                schema.get_type(fragment.type_condition.name.value),
                count,
                fragments,
                variables,
                visiting | {name},
            )
    return total


def query_cost(
    schema: GraphQLSchema,
    document: DocumentNode,
    operation_name: str | None,
    variables: dict[str, Any] | None,
) -> int:
    operation = get_operation_ast(document, operation_name)
    if operation is None:
        return 0
    fragments = {
        definition.name.value: definition
        for definition in document.definitions
        if isinstance(definition, FragmentDefinitionNode)
    }
    root = schema.get_root_type(operation.operation)
    return _selection_cost(
        schema, operation.selection_set, root, 1, fragments, variables or {}, frozenset()
    )


def _has_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_has_nul(item) for item in value.values())
    if isinstance(value, list):
        return any(_has_nul(item) for item in value)
    return False


def _document_has_nul(text: str | None, document: DocumentNode) -> bool:
    # GraphQL source text cannot hold a NUL character itself (the lexer refuses it), so a
    # string value can only get one from an escape (\u0000 or \u{0}): a document without
    # any `\u` needs no walk.
    if text is not None and "\\u" not in text:
        return False
    found = False

    class Finder(Visitor):
        def enter_string_value(self, node: StringValueNode, *_: Any) -> None:
            nonlocal found
            found = found or "\x00" in node.value

    visit(document, Finder())
    return found


def cost_limiter(max_cost: int, schema: GraphQLSchema) -> type[SchemaExtension]:
    """An extension class that refuses, before execution, queries costing over ``max_cost``
    (as `query_cost` counts it over ``schema``, the API's schema in graphql-core's terms)
    and text arguments no database can store (a NUL character)."""

    class CostLimiter(SchemaExtension):
        def on_execute(self) -> Iterator[None]:
            context = self.execution_context
            if (
                context.graphql_document is not None
                and context.result is None
                and (
                    _has_nul(context.variables)
                    or _document_has_nul(context.query, context.graphql_document)
                )
            ):
                refusal: ClientError = BadUserInputError(
                    "a text argument contains a NUL character (\\u0000), which no name, slug "
                    "or ID here has; remove it"
                )
                context.result = GraphQLExecutionResult(data=None, errors=[refusal])
            if context.graphql_document is not None and context.result is None:
                cost = query_cost(
                    schema,
                    context.graphql_document,
                    context.operation_name,
                    context.variables,
                )
                if cost > max_cost:
                    error = LimitError(
                        f"query cost {cost:,} exceeds the limit `max_cost` of {max_cost:,}: "
                        f"each list multiplies the objects above it by its `first` "
                        f"({DEFAULT_PAGE_SIZE} if not given, and {LIST_ESTIMATE} for lists "
                        "without `first`); ask for smaller pages or fewer nested lists",
                        limit="max_cost",
                        value=max_cost,
                        extra={"cost": cost},
                    )
                    context.result = GraphQLExecutionResult(data=None, errors=[error])
            yield

    return CostLimiter
