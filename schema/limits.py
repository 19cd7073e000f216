"""The query cost rule, in the style of GitHub's node limit: a paginated list multiplies
the number of objects above it by its page size (`last`, or else `first`: 20 when neither
is given), a list without `first`
(children, a row's methods...) by an estimate of 10, and a query's cost is the number of
objects it may return, summed over all its object fields. A connection's `nodes` and
`edges` are the page its `first` already counted."""

import weakref
from collections.abc import Callable, Hashable, Iterator
from functools import partial
from typing import Any

from graphql import (
    ASTValidationRule,
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
    OperationDefinitionNode,
    SelectionSetNode,
    StringValueNode,
    ValidationContext,
    VariableNode,
    Visitor,
    build_schema,
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


def _page_size(field: FieldNode, variables: dict[str, Any]) -> int | None:
    """The page size a paginated list's `last` (when given) or `first` asks for."""
    return _int_argument(field, "last", variables) or _int_argument(field, "first", variables)


def _int_argument(field: FieldNode, name: str, variables: dict[str, Any]) -> int | None:
    for argument in field.arguments or ():
        if argument.name.value != name:
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


def _fragments(document: DocumentNode) -> dict[str, FragmentDefinitionNode]:
    return {
        definition.name.value: definition
        for definition in document.definitions
        if isinstance(definition, FragmentDefinitionNode)
    }


class _Walk:
    """Figures of a document's selections, each fragment's worked out once and then reused
    wherever it is spread: the work is linear in the document's size, however many times
    fragments spread each other (a few hundred bytes can spread one fragment millions of
    times over). A fragment spread inside itself counts for nothing (validation refuses
    such documents anyway)."""

    def __init__(self, fragments: dict[str, FragmentDefinitionNode]) -> None:
        self.fragments = fragments
        self._memo: dict[tuple[str, Hashable], int] = {}

    def _fragment(self, name: str, key: Hashable, figure: Callable[[SelectionSetNode], int]) -> int:
        fragment = self.fragments.get(name)
        if fragment is None:
            return 0
        memo_key = (name, key)
        if memo_key not in self._memo:
            self._memo[memo_key] = 0  # in progress: a cycle counts for nothing
            self._memo[memo_key] = figure(fragment.selection_set)
        return self._memo[memo_key]

    def depth(self, selections: SelectionSetNode) -> int:
        """How many levels of fields with selections nest here; introspection fields
        (`__schema`, `__type`) do not count."""
        deepest = 0
        for selection in selections.selections:
            if isinstance(selection, FieldNode):
                if selection.selection_set is None or selection.name.value.startswith("__"):
                    continue
                deepest = max(deepest, 1 + self.depth(selection.selection_set))
            elif isinstance(selection, InlineFragmentNode):
                deepest = max(deepest, self.depth(selection.selection_set))
            elif isinstance(selection, FragmentSpreadNode):
                deepest = max(deepest, self._fragment(selection.name.value, "depth", self.depth))
        return deepest

    def aliases(self, selections: SelectionSetNode) -> int:
        """How many aliased fields the selections hold once every fragment is spread."""
        count = 0
        for selection in selections.selections:
            if isinstance(selection, FieldNode):
                count += selection.alias is not None
                if selection.selection_set is not None:
                    count += self.aliases(selection.selection_set)
            elif isinstance(selection, InlineFragmentNode):
                count += self.aliases(selection.selection_set)
            elif isinstance(selection, FragmentSpreadNode):
                count += self._fragment(selection.name.value, "aliases", self.aliases)
        return count

    def unit_cost(
        self,
        schema: GraphQLSchema,
        selections: SelectionSetNode,
        parent: GraphQLNamedType | None,
        variables: dict[str, Any],
    ) -> int:
        """The cost of ``selections`` for one object of ``parent`` (for n objects it is n
        times this: every count below multiplies the one above)."""
        total = 0
        for selection in selections.selections:
            if isinstance(selection, FieldNode):
                if selection.selection_set is None or not isinstance(parent, GraphQLObjectType):
                    continue  # scalars cost nothing; unions only have __typename
                field = parent.fields.get(selection.name.value)
                if field is None:
                    continue
                factor = 1
                if "first" in field.args:
                    factor = max(_page_size(selection, variables) or DEFAULT_PAGE_SIZE, 1)
                elif isinstance(get_nullable_type(field.type), GraphQLList) and not _is_page_of(
                    parent, selection.name.value
                ):
                    factor = LIST_ESTIMATE
                below = self.unit_cost(
                    schema, selection.selection_set, get_named_type(field.type), variables
                )
                total += factor * (1 + below)
            elif isinstance(selection, InlineFragmentNode):
                condition = selection.type_condition
                target = schema.get_type(condition.name.value) if condition else parent
                total += self.unit_cost(schema, selection.selection_set, target, variables)
            elif isinstance(selection, FragmentSpreadNode):
                fragment = self.fragments.get(selection.name.value)
                if fragment is None:
                    continue
                target = schema.get_type(fragment.type_condition.name.value)
                total += self._fragment(
                    selection.name.value,
                    ("cost", target.name if target else None),
                    partial(self.unit_cost, schema, parent=target, variables=variables),
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
    root = schema.get_root_type(operation.operation)
    walk = _Walk(_fragments(document))
    return walk.unit_cost(schema, operation.selection_set, root, variables or {})


def shape_limits(max_depth: int, max_aliases: int) -> type[ASTValidationRule]:
    """A validation rule refusing documents nested deeper than ``max_depth`` or with more
    than ``max_aliases`` aliases (fragments spread), worked out in time linear in the
    document's size before any other rule visits it."""

    class ShapeLimits(ASTValidationRule):
        def __init__(self, context: ValidationContext) -> None:
            super().__init__(context)
            document = context.document
            walk = _Walk(_fragments(document))
            operations = [
                definition
                for definition in document.definitions
                if isinstance(definition, OperationDefinitionNode)
            ]
            for operation in operations:
                depth = walk.depth(operation.selection_set)
                if depth > max_depth:
                    context.report_error(
                        LimitError(
                            f"query depth {depth} over the limit `max_depth` of {max_depth}; "
                            "split the query or ask for less",
                            limit="max_depth",
                            value=max_depth,
                        )
                    )
                    break
            aliases = sum(walk.aliases(operation.selection_set) for operation in operations)
            if aliases > max_aliases:
                context.report_error(
                    LimitError(
                        f"{aliases} aliases over the limit `max_aliases` of {max_aliases}; "
                        "split the query or ask for less",
                        limit="max_aliases",
                        value=max_aliases,
                    )
                )

    return ShapeLimits


def _has_nul(value: Any) -> bool:
    """Whether any string in ``value`` (variables: JSON values) holds a NUL. Walked with a
    stack of its own, not by recursion: variables may nest as deep as JSON parsers read
    (hundreds of levels), past Python's recursion limit."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, dict):
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
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


# Each schema in graphql-core's terms, built once from its SDL (Strawberry's public view of
# it) for the cost rule.
_AS_GRAPHQL: "weakref.WeakKeyDictionary[Any, GraphQLSchema]" = weakref.WeakKeyDictionary()


def _as_graphql(schema: Any) -> GraphQLSchema:
    built = _AS_GRAPHQL.get(schema)
    if built is None:
        built = _AS_GRAPHQL[schema] = build_schema(schema.as_str())
    return built


def cost_limiter(max_cost: int) -> type[SchemaExtension]:
    """An extension class that refuses, before execution, queries costing over ``max_cost``
    and text arguments no database can store (a NUL character), and tells every answer
    it let through or refused for its cost what it cost (`extensions.cost`)."""

    class CostLimiter(SchemaExtension):
        # The operation's cost, once worked out (this instance is the request's own).
        cost: int | None = None

        def get_results(self) -> dict[str, Any]:
            """`extensions.cost` of the answer: the cost, the limit, and the rule's two
            figures it was worked out with (docs/api-guide.md, "What a query costs")."""
            if self.cost is None:
                return {}
            return {
                "cost": {
                    "requested": self.cost,
                    "limit": max_cost,
                    "defaultPageSize": DEFAULT_PAGE_SIZE,
                    "listEstimate": LIST_ESTIMATE,
                }
            }

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
                cost = self.cost = query_cost(
                    _as_graphql(context.schema),
                    context.graphql_document,
                    context.operation_name,
                    context.variables,
                )
                if cost > max_cost:
                    error = LimitError(
                        f"query cost {cost:,} exceeds the limit `max_cost` of {max_cost:,}: "
                        f"each list multiplies the objects above it by its `first` or `last` "
                        f"({DEFAULT_PAGE_SIZE} if not given, and {LIST_ESTIMATE} for lists "
                        "without `first`); ask for smaller pages or fewer nested lists",
                        limit="max_cost",
                        value=max_cost,
                        extra={"cost": cost},
                    )
                    context.result = GraphQLExecutionResult(data=None, errors=[error])
            yield

    return CostLimiter
