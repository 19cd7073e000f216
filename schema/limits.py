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
    VariableNode,
    get_named_type,
    get_nullable_type,
    get_operation_ast,
)
from graphql import ExecutionResult as GraphQLExecutionResult
from strawberry.extensions import SchemaExtension

from schema.errors import LimitError
from schema.pagination import DEFAULT_PAGE_SIZE

LIST_ESTIMATE = 10


def _first(field: FieldNode, variables: dict[str, Any]) -> int | None:
    for argument in field.arguments or ():
        if argument.name.value != "first":
            continue
        value = argument.value
        if isinstance(value, IntValueNode):
            return int(value.value)
        if isinstance(value, VariableNode):
            given = variables.get(value.name.value)
            return given if isinstance(given, int) else None
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


def cost_limiter(max_cost: int) -> type[SchemaExtension]:
    """An extension class that refuses, before execution, queries costing over ``max_cost``."""

    class CostLimiter(SchemaExtension):
        def on_execute(self) -> Iterator[None]:
            context = self.execution_context
            if context.graphql_document is not None and context.result is None:
                cost = query_cost(
                    context.schema._schema,
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
