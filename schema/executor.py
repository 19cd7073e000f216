"""The executor of this schema's operations: graphql-core's, with a short path for the
fields that only read a value off their object.

graphql-core executes every field alike: a response path, a resolve-info record, the
field's resolver through Strawberry's wrapper, then the value completed through the
checks for every kind of type, each step a call. Most fields of an answer (a name, a
strength, a date, a node's counts, a row's model) are read off the object they belong
to: `schema.base.RowField` and Strawberry's other "basic" fields (no resolver, no
extension, no argument). For them that machinery cost several times the read.

So such a field is answered here by reading its value and completing it as its type
says, which is all graphql-core would do with it: a scalar or an enum (or a list of
them) is coerced by its type; an object's selection is answered the same way when every
field of it can be (an object of a list a resolver returned too: `complete_object_value`),
else graphql-core executes that object's fields (each again here first).

Whatever does not complete cleanly on the short path (a null where the schema says
non-null, a value its type refuses, a read that raises, an object of another type) takes
graphql-core's path instead, from the field (or the object) where it was met: graphql-core
then reads it again and answers it, error and all, as it always has. A basic field's read
has no side effect, so reading it twice is safe; nothing but basic fields and `__typename`
is ever read on the short path, so no resolver runs twice.
"""

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from inspect import isawaitable
from typing import Any, cast

from graphql import (
    GraphQLField,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLOutputType,
    GraphQLResolveInfo,
    Undefined,
    get_nullable_type,
    is_leaf_type,
    is_list_type,
    is_non_null_type,
    is_object_type,
)
from graphql.pyutils import Path, is_iterable
from strawberry.schema.schema import StrawberryGraphQLCoreExecutionContext
from strawberry.schema.schema_converter import GraphQLCoreConverter
from strawberry.types.field import StrawberryField

# What the short path gives when a value must take graphql-core's path after all.
_FULL_PATH: Any = object()
# What it gives for an object whose fields are to be executed (not all of them basic).
_EXECUTE: Any = object()

# What the type checks are given for the resolve info they do not read.
_NO_INFO = cast("GraphQLResolveInfo[Any]", None)
# The fields of one response key, as graphql-core groups them (a list of FieldDetails).
FieldDetailsList = Any
# A value completed for the response from what was read, or _FULL_PATH.
Completion = Callable[[Any], Any]


def _leaves(type_: GraphQLOutputType) -> Completion | None:
    """How a value of ``type_`` is completed when it is a scalar or an enum or a list of
    them (None for any other type): as graphql-core completes it, or _FULL_PATH where
    graphql-core would raise an error."""
    non_null = is_non_null_type(type_)
    inner = get_nullable_type(type_)
    if is_leaf_type(inner):
        coerce = inner.coerce_output_value

        def leaf(value: Any) -> Any:
            if value is None:
                return _FULL_PATH if non_null else None
            if isinstance(value, Exception):
                return _FULL_PATH
            coerced = coerce(value)
            return _FULL_PATH if coerced is None or coerced is Undefined else coerced

        return leaf
    if is_list_type(inner):
        item = _leaves(inner.of_type)
        if item is None:
            return None

        def items(value: Any) -> Any:
            if value is None:
                return _FULL_PATH if non_null else None
            if isinstance(value, Exception) or not is_iterable(value):
                return _FULL_PATH
            completed = [item(each) for each in value]
            return _FULL_PATH if any(each is _FULL_PATH for each in completed) else completed

        return items
    return None


@dataclass(frozen=True)
class ShortPath:
    """How a basic field is answered without graphql-core's resolver and completion: its
    value read (``read``), then completed as a scalar or enum (``leaves``), or as an
    object of ``object_type``."""

    read: Callable[[Any], Any]
    leaves: Completion | None = None
    object_type: GraphQLObjectType | None = None
    non_null: bool = False


def short_path(field: GraphQLField) -> ShortPath | None:
    """The short path of ``field``, if it is a basic Strawberry field without arguments
    whose type is a scalar, an enum, a list of them, or an object type; None if it takes
    graphql-core's path."""
    definition = field.extensions.get(GraphQLCoreConverter.DEFINITION_BACKREF)
    if not isinstance(definition, StrawberryField) or not definition.is_basic_field:
        return None
    if field.args:
        return None
    get_result = definition.get_result

    def read(source: Any) -> Any:
        # What Strawberry's resolver of a basic field calls: the value, without an Info.
        return get_result(source, None, [], {})

    leaves = _leaves(field.type)
    if leaves is not None:
        return ShortPath(read, leaves=leaves)
    non_null = is_non_null_type(field.type)
    inner = get_nullable_type(field.type)
    if is_object_type(inner):
        return ShortPath(read, object_type=inner, non_null=non_null)
    return None


def _is_of(object_type: GraphQLObjectType, value: Any) -> bool:
    """Whether ``value`` passes ``object_type``'s check, as graphql-core checks it before
    executing its fields (Strawberry's check reads no resolve info)."""
    is_type_of = object_type.is_type_of
    return is_type_of is None or bool(is_type_of(value, _NO_INFO))


def _object_of(plan: ShortPath, fields: Completion) -> Completion:
    """A basic field's object completed by ``fields`` (its whole selection)."""
    object_type, non_null = plan.object_type, plan.non_null
    assert object_type is not None

    def complete(value: Any) -> Any:
        if value is None:
            return _FULL_PATH if non_null else None
        if isinstance(value, Exception) or not _is_of(object_type, value):
            return _FULL_PATH
        return fields(value)

    return complete


def _items(object_type: GraphQLObjectType, fields: Completion, *, non_null: bool) -> Completion:
    """A list's objects, each completed by ``fields``: as graphql-core completes them, or
    _FULL_PATH where it would have more to do (an awaitable item) or an error to say."""

    def complete(items: list[Any] | tuple[Any, ...]) -> Any:
        completed: list[Any] = []
        for item in items:
            if item is None:
                if non_null:
                    return _FULL_PATH
                completed.append(None)
                continue
            if isinstance(item, Exception) or isawaitable(item) or not _is_of(object_type, item):
                return _FULL_PATH
            value = fields(item)
            if value is _FULL_PATH:
                return _FULL_PATH
            completed.append(value)
        return completed

    return complete


def _attempt(complete: Completion, value: Any) -> Any:
    """``complete(value)``, or _FULL_PATH if it raises: graphql-core's path then reads it
    again and says what failed."""
    try:
        return complete(value)
    except Exception:
        return _FULL_PATH


def _typename(name: str) -> Completion:
    def complete(_: Any) -> str:
        return name

    return complete


def _itself(value: Any) -> Any:
    return value


class Executor(StrawberryGraphQLCoreExecutionContext):
    """graphql-core's executor as Strawberry sets it up, with the short path above.

    ``short_paths`` is shared by every execution of one schema (a subclass per schema:
    `for_schema`), filled as fields are first met; an execution's selections' plans are
    its own (`_plans`), as graphql-core keeps its collected fields."""

    short_paths: dict[tuple[str, str], ShortPath | None]

    @classmethod
    def for_schema(cls) -> type["Executor"]:
        """An executor class of its own, for one schema."""
        return type("Executor", (cls,), {"short_paths": {}})

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # (object type, id of the field list) -> (the field list, kept alive so that its
        # id stays its own; its selection's completion, or None: graphql-core's path).
        self._plans: dict[tuple[str, int], tuple[FieldDetailsList, Completion | None]] = {}
        manager = self.middleware_manager
        # A middleware (a schema extension's `resolve`) wraps every field's resolver:
        # then every field takes graphql-core's path, through it.
        self._short = manager is None or not manager.middlewares

    def execute_field(
        self,
        parent_type: GraphQLObjectType,
        source: Any,
        field_details_list: FieldDetailsList,
        path: Path,
        position_context: Any,
    ) -> Any:
        node = field_details_list[0].node
        plan = self._short_path(parent_type, node) if self._short else None
        if plan is not None:
            value = None
            try:
                value = plan.read(source)
                if plan.leaves is not None:
                    completed = plan.leaves(value)
                else:
                    completed = self._object(plan, value, field_details_list)
            except Exception:  # graphql-core's path reads it again and says what failed
                completed = _FULL_PATH
            if completed is _EXECUTE:
                return self._executed(plan, value, field_details_list, path, position_context)
            if completed is not _FULL_PATH:
                return completed
        return super().execute_field(
            parent_type, source, field_details_list, path, position_context
        )

    def complete_object_value(
        self,
        return_type: GraphQLObjectType,
        field_details_list: FieldDetailsList,
        info: Any,
        path: Path,
        result: Any,
        position_context: Any,
    ) -> Any:
        fields = self._plan(return_type, field_details_list) if self._short else None
        if fields is not None and _is_of(return_type, result):
            completed = _attempt(fields, result)
            if completed is not _FULL_PATH:
                return completed
        return super().complete_object_value(
            return_type, field_details_list, info, path, result, position_context
        )

    def complete_list_value(
        self, return_type: Any, field_details_list: FieldDetailsList, *rest: Any
    ) -> Any:
        # rest: info, path, result, position_context (graphql-core's order).
        result = rest[2]
        item_type = return_type.of_type
        object_type = get_nullable_type(item_type)
        if (
            self._short
            and is_object_type(object_type)
            and isinstance(result, list | tuple)
            and not field_details_list[0].node.directives  # `@stream` answers a list in parts
        ):
            fields = self._plan(object_type, field_details_list)
            if fields is not None:
                items = _items(object_type, fields, non_null=is_non_null_type(item_type))
                completed = _attempt(items, result)
                if completed is not _FULL_PATH:
                    return completed
        return super().complete_list_value(return_type, field_details_list, *rest)

    def _object(self, plan: ShortPath, value: Any, field_details_list: FieldDetailsList) -> Any:
        """A basic field's ``value`` completed as an object by its selection's plan, when it
        has one; else _EXECUTE (its fields are to be executed). None for a nullable null,
        _FULL_PATH for what graphql-core's path must say is wrong."""
        object_type = plan.object_type
        assert object_type is not None
        if value is None:
            return _FULL_PATH if plan.non_null else None
        if isinstance(value, Exception) or not _is_of(object_type, value):
            return _FULL_PATH
        fields = self._plan(object_type, field_details_list)
        return _EXECUTE if fields is None else fields(value)

    def _executed(
        self,
        plan: ShortPath,
        value: Any,
        field_details_list: FieldDetailsList,
        path: Path,
        position_context: Any,
    ) -> Any:
        """A basic field's object completed by executing its fields, whose errors are
        handled as graphql-core's own execute_field handles them (a non-null field's
        error reaches the nearest nullable field above it)."""
        object_type = plan.object_type
        assert object_type is not None
        return_type = GraphQLNonNull(object_type) if plan.non_null else object_type
        try:
            completed = self.collect_and_execute_subfields(
                object_type, field_details_list, path, value, position_context
            )
        except Exception as raw_error:
            self.handle_field_error(raw_error, return_type, field_details_list, path)
            return None
        if self.is_awaitable(completed):
            return self._settled(completed, return_type, field_details_list, path)
        return completed

    async def _settled(
        self,
        completed: Awaitable[Any],
        return_type: GraphQLOutputType,
        field_details_list: FieldDetailsList,
        path: Path,
    ) -> Any:
        try:
            return await completed
        except Exception as raw_error:
            self.handle_field_error(raw_error, return_type, field_details_list, path)
            return None

    def _short_path(self, parent_type: GraphQLObjectType, node: Any) -> ShortPath | None:
        """The short path of the field of ``node``, when it has one and is selected without
        arguments or directives (`@stream` and the like change how it is answered)."""
        if node.arguments or node.directives:
            return None
        key = (parent_type.name, node.name.value)
        paths = self.short_paths
        if key in paths:
            return paths[key]
        field = parent_type.fields.get(key[1])  # None for `__typename`: graphql-core's path
        found = paths[key] = short_path(field) if field is not None else None
        return found

    def _plan(
        self, object_type: GraphQLObjectType, field_details_list: FieldDetailsList
    ) -> Completion | None:
        """The completion of an object of ``object_type`` with the selection of
        ``field_details_list``, when every field of it has a short path (None if not)."""
        key = (object_type.name, id(field_details_list))
        kept = self._plans.get(key)
        if kept is not None:
            return kept[1]
        fields = self._planned(object_type, field_details_list)
        self._plans[key] = (field_details_list, fields)
        return fields

    def _planned(
        self, object_type: GraphQLObjectType, field_details_list: FieldDetailsList
    ) -> Completion | None:
        grouped_field_set, new_defer_usages, _ = self.collect_subfields(
            object_type, field_details_list
        )
        if new_defer_usages:
            return None
        parts: list[tuple[str, Callable[[Any], Any], Completion]] = []
        for response_name, fields in grouped_field_set.items():
            node = fields[0].node
            if node.name.value == "__typename" and not node.directives:
                parts.append((response_name, _itself, _typename(object_type.name)))
                continue
            plan = self._short_path(object_type, node)
            if plan is None:
                return None
            if plan.leaves is not None:
                parts.append((response_name, plan.read, plan.leaves))
                continue
            assert plan.object_type is not None
            below = self._plan(plan.object_type, fields)
            if below is None:
                return None
            parts.append((response_name, plan.read, _object_of(plan, below)))

        def complete(source: Any) -> Any:
            completed: dict[str, Any] = {}
            for response_name, read, completion in parts:
                value = completion(read(source))
                if value is _FULL_PATH:
                    return _FULL_PATH
                completed[response_name] = value
            return completed

        return complete
