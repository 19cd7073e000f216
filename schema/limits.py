"""The query cost rule, in the style of GitHub's node limit: a paginated list multiplies
the number of objects above it by its page size (`last`, or else `first`: 20 when neither
is given), a list without `first` (children, a row's methods...) by an estimate of 10
(charged again for what it returns: schema.cost_meter) or by the most it can hold where
that is known and less (BOUNDED_LISTS), `entities` by the IDs it is given, and a query's
cost is the number of objects it may return, summed over all its object fields, plus the
work of the fields that do more than read their objects (WORK, and ITEM_WORK for each
item of some lists). A connection's `nodes` and `edges` are the page its `first` already
counted."""

import weakref
from collections.abc import Callable, Collection, Hashable, Iterator
from functools import partial

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
    OperationDefinitionNode,
    SelectionSetNode,
    Undefined,
    ValidationContext,
    build_schema,
    get_named_type,
    get_nullable_type,
    get_operation_ast,
    value_from_ast_untyped,
)
from graphql import ExecutionResult as GraphQLExecutionResult
from strawberry.extensions import SchemaExtension
from strawberry.schema.base import BaseSchema

from schema.cost_meter import LIST_ESTIMATE, CostMeter
from schema.errors import LimitError
from schema.pagination import DEFAULT_PAGE_SIZE
from store.history.field_values import COMPARED, MOST_COMPARED

# Points a field costs each time it is resolved, beyond its objects, where it does more
# work than reading them: comparing two releases, ranking a search, a series over time, a
# statement of its own for each parent. A point is 4 microseconds of a worker's time: the
# limit of 50,000 is then 200 ms, the most one request may hold up the others (issue 25);
# an object costs about that much to read and answer (a page of 100 methods with 100
# pieces of evidence each, 40,200 points, took 205 ms at size L). Each figure here is the
# field's time at size L in such points (its worst over both databases, at the largest
# parent: a root, the model with the most treatments), rounded up: bench/cost_weights.py
# measures them, bench/RESULTS.md "What each field costs" has the figures.
WORK: dict[str, int] = {
    # History: comparing two releases (composing their change rows: the summary and each
    # list's totalCount), charged where the comparison is asked for. Any two releases
    # (`changes(since:, until:)`): the more releases apart, the more rows (measured over
    # the pairs of 6 releases of size L). A release against the one before it: one
    # release's rows. Then each list's page.
    "Query.changes": 31_000,
    "Release.changes": 1_900,
    "Changes.nodes": 2_400,
    "Changes.methods": 5_600,
    "Changes.models": 2_600,
    "Changes.treatments": 2_500,
    # A record's history: its own change rows (one index range), and for each entry the
    # trees of its release and the one before (for paths; kept for the next requests).
    "Node.history": 1_900,
    "Method.history": 1_900,
    "Model.history": 150,
    # A node that was at a path: the trees of the retained releases, undone from the node
    # change rows (kept per load, as a comparison's).
    "Query.formerNode": 1_900,
    # Knock-on removals of one removed record. A first page is read with those of every
    # removal of the request, in one statement per kind (charged per removal asked); a
    # later page on its own: its release's change rows of nodes or methods (hundreds), or
    # of treatments: by a model's slug one index range, by a method's a walk of them.
    "KnockOn.nodes": 30,
    "KnockOn.methods": 30,
    "KnockOn.treatments": 150,
    "KnockOn.nodeCount": 20,
    "KnockOn.methodCount": 20,
    "KnockOn.treatmentCount": 10,
    # Adoption: a series per node or method (one statement for all of a request's).
    "Node.adoption": 730,
    "Method.adoption": 130,
    "Query.search": 3_400,
    # Lists that sort a model's treatments (tens of thousands for the largest), walk a
    # root's branch by name, or filter all methods or models by name: at a root, or at the
    # models with the most treatments.
    "Node.methods": 2_700,
    "Query.methods": 3_200,
    "Query.models": 3_300,
    "Model.treatments": 2_700,
    "Node.byModel": 1_600,
    "Query.organizations": 1_400,
    "Model.evidence": 1_100,
    "Method.evidence": 470,
    "Model.branchesConnection": 430,
    "Node.childrenConnection": 250,
    "Method.treatmentsConnection": 240,
    "Node.descendantsConnection": 220,
    "ModelTreatment.methodsConnection": 210,
}
# Any other list with `first` runs a statement of its own for each parent it is asked on.
CONNECTION_WORK = 150

# Fields whose work is much less for one value of an argument: (argument, value, points).
# A node's own methods (`scope: HERE`) are one index range; its branch's (the default)
# are up to 40% of all methods at a root (store.methods walks them by name there).
WORK_WHEN = {"Node.methods": ("scope", "HERE", 800)}

# Comparisons of two releases whose work is much less when the later one is the release
# right after the earlier (`until` = `since` + 1, both given): one release's change rows,
# read by the lighter statement (store.history.change_lists), as `Release.changes`.
WORK_WHEN_ADJACENT = {"Query.changes": WORK["Release.changes"]}

# Points each item of a list without `first` costs beyond its objects, where an item costs
# more to read and answer than the 4 microseconds a point stands for: a node of a branch's
# `descendants` (read with its counts, thousands of them at a root) took 8.8 us at size L
# (bench/RESULTS.md, "One costly request and another client"), 2 points with its slug.
ITEM_WORK = {"Node.descendants": 1}

# Lists whose length is the length of one of their arguments.
SIZED_BY_ARGUMENT = {"Query.entities": "ids"}

# Lists without `first` that are never longer than a known length: counted at it, not at
# LIST_ESTIMATE. A change's `fieldChanges` lists at most the fields history compares for
# its kind of record (store.history.field_values): a treatment's, its one (`evidence`).
BOUNDED_LISTS = {
    **{f"{record}Change.fieldChanges": MOST_COMPARED for record in ("Node", "Method", "Model")},
    "TreatmentChange.fieldChanges": len(COMPARED["treatment"]),
}


def _page_size(field: FieldNode, variables: dict[str, object]) -> int | None:
    """The page size a paginated list's `last` (when given) or `first` asks for."""
    return _int_argument(field, "last", variables) or _int_argument(field, "first", variables)


def _argument(field: FieldNode, name: str, variables: dict[str, object]) -> object:
    """The value ``field`` gives its argument ``name`` (written in the document or in a
    variable); None when not given."""
    for argument in field.arguments or ():
        if argument.name.value == name:
            value = value_from_ast_untyped(argument.value, variables)
            return None if value is Undefined else value
    return None


def _int_argument(field: FieldNode, name: str, variables: dict[str, object]) -> int | None:
    value = _argument(field, name, variables)
    # GraphQL's Int is 32 bits; execution refuses anything else, so it costs nothing.
    if isinstance(value, int) and not isinstance(value, bool) and -(2**31) <= value < 2**31:
        return value
    return None


def _list_argument_length(field: FieldNode, name: str, variables: dict[str, object]) -> int | None:
    value = _argument(field, name, variables)
    return len(value) if isinstance(value, list) else None


def _work(
    name: str, field: FieldNode, arguments: Collection[str], variables: dict[str, object]
) -> int:
    """The points of WORK of field ``name`` (`Type.field`, which takes ``arguments``) as
    ``field`` asks for it."""
    if name in WORK_WHEN:
        argument, value, points = WORK_WHEN[name]
        if _argument(field, argument, variables) == value:
            return points
    if name in WORK_WHEN_ADJACENT:
        since = _int_argument(field, "since", variables)
        until = _int_argument(field, "until", variables)
        if since is not None and until == since + 1:
            return WORK_WHEN_ADJACENT[name]
    return WORK.get(name, CONNECTION_WORK if "first" in arguments else 0)


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
        # One item's cost, by (parent type, response key) of each list without `first`
        # (schema.cost_meter charges what such a list returns beyond its estimate).
        self.item_costs: dict[tuple[str, str], int] = {}

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
        variables: dict[str, object],
    ) -> int:
        """The cost of ``selections`` for one object of ``parent`` (for n objects it is n
        times this: every count below multiplies the one above)."""
        total = 0
        for selection in selections.selections:
            if isinstance(selection, FieldNode):
                if not isinstance(parent, GraphQLObjectType):
                    continue  # unions only have __typename
                field = parent.fields.get(selection.name.value)
                if field is None:
                    continue
                name = f"{parent.name}.{selection.name.value}"
                total += _work(name, selection, field.args, variables)
                if selection.selection_set is None:
                    continue  # a scalar is no object
                below = self.unit_cost(
                    schema, selection.selection_set, get_named_type(field.type), variables
                )
                factor = 1
                if "first" in field.args:
                    factor = max(_page_size(selection, variables) or DEFAULT_PAGE_SIZE, 1)
                elif name in BOUNDED_LISTS:
                    factor = BOUNDED_LISTS[name]
                elif name in SIZED_BY_ARGUMENT:
                    length = _list_argument_length(selection, SIZED_BY_ARGUMENT[name], variables)
                    factor = LIST_ESTIMATE if length is None else length
                elif isinstance(get_nullable_type(field.type), GraphQLList) and not _is_page_of(
                    parent, selection.name.value
                ):
                    factor = LIST_ESTIMATE
                    below += ITEM_WORK.get(name, 0)
                    key = (parent.name, (selection.alias or selection.name).value)
                    self.item_costs[key] = max(self.item_costs.get(key, 0), 1 + below)
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
    variables: dict[str, object] | None,
) -> tuple[int, dict[tuple[str, str], int]]:
    """The operation's cost, and one item's cost of each of its lists without `first` (by
    parent type and response key: schema.cost_meter)."""
    operation = get_operation_ast(document, operation_name)
    if operation is None:
        return 0, {}
    root = schema.get_root_type(operation.operation)
    walk = _Walk(_fragments(document))
    cost = walk.unit_cost(schema, operation.selection_set, root, variables or {})
    return cost, walk.item_costs


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


# Each schema in graphql-core's terms, built once from its SDL (Strawberry's public view of
# it) for the cost rule.
_AS_GRAPHQL: "weakref.WeakKeyDictionary[BaseSchema, GraphQLSchema]" = weakref.WeakKeyDictionary()


def _as_graphql(schema: BaseSchema) -> GraphQLSchema:
    built = _AS_GRAPHQL.get(schema)
    if built is None:
        built = _AS_GRAPHQL[schema] = build_schema(schema.as_str())
    return built


# The largest cost an answer reports: nested pages of `first: 2147483647` multiply past 64
# bits (which the JSON encoder refuses), and JavaScript reads an integer beyond 2^53 - 1
# inexactly; a cost this large is over any limit anyway.
MOST_REPORTED = 2**53 - 1


def _nothing_ran(result: object) -> bool:
    """Whether ``result`` answers a request error: no data, and no error on a field (the
    refusal for cost, variables that fail coercion, an unknown operation). A field's error
    that nulls the whole answer has a path: that request ran."""
    errors = getattr(result, "errors", None)
    return (
        getattr(result, "data", None) is None
        and bool(errors)
        and all(error.path is None for error in errors or ())
    )


def cost_limiter(max_cost: int) -> type[SchemaExtension]:
    """An extension class that refuses, before execution, queries costing over ``max_cost``,
    and tells every answer
    it let through or refused for its cost what it cost (`extensions.cost`)."""

    class CostLimiter(SchemaExtension):
        # The execution's cost, once worked out (this instance is the request's own).
        meter: CostMeter | None = None

        def worked_out(self) -> CostMeter | None:
            """The operation's cost and the request's limit; None without a document."""
            context = self.execution_context
            if context.graphql_document is None:
                return None
            cost, item_costs = query_cost(
                _as_graphql(context.schema),
                context.graphql_document,
                context.operation_name,
                context.variables,
            )
            limit = getattr(context.context, "cost_limit", None) or max_cost
            return CostMeter(limit, min(cost, MOST_REPORTED), item_costs)

        def get_results(self) -> dict[str, object]:
            """`extensions.cost` of the answer: the cost worked out before it ran, what it
            spent (that, plus the charges of lists without `first` for what they
            returned; 0 when nothing ran), the limit, and the rule's two figures it was
            worked out with (docs/api-guide.md, "What a query costs"). None for a
            document that did not parse."""
            meter = self.meter
            if meter is None:  # refused before execution: the document did not validate
                meter = self.worked_out()
                if meter is None:
                    return {}
                meter.nothing_ran()
            return {
                "cost": {
                    "requested": meter.requested,
                    "spent": meter.spent,
                    "limit": meter.limit,
                    "defaultPageSize": DEFAULT_PAGE_SIZE,
                    "listEstimate": LIST_ESTIMATE,
                }
            }

        def on_execute(self) -> Iterator[None]:
            context = self.execution_context
            meter = self.meter = self.worked_out() if context.result is None else None
            if meter is not None:
                if meter.requested > meter.limit:
                    cost, limit = meter.requested, meter.limit
                    error = LimitError(
                        f"query cost {cost:,} exceeds the limit `max_cost` of {limit:,}: "
                        f"each list multiplies the objects above it by its `first` or `last` "
                        f"({DEFAULT_PAGE_SIZE} if not given, and {LIST_ESTIMATE} for lists "
                        "without `first`), and some fields cost work of their own "
                        '(docs/api-guide.md, "What a query costs"); ask for smaller pages, '
                        "fewer nested lists or fewer such fields",
                        limit="max_cost",
                        value=limit,
                        extra={"cost": cost},
                    )
                    context.result = GraphQLExecutionResult(data=None, errors=[error])
                elif context.context is not None and hasattr(context.context, "cost"):
                    context.context.cost = meter
            yield
            if meter is not None and _nothing_ran(context.result):
                meter.nothing_ran()

    return CostLimiter
