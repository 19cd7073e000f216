"""How an operation's fields are run: graphql-core's executor (as Strawberry configures
it), with a shorter way through the fields a page is made of.

graphql-core runs every field the same way: a response path, a GraphQLResolveInfo, a
look at the arguments, the resolver, a check for an awaitable, then the value completed
through three calls (non-null, nullable, leaf) or, for an object, five more before its
own fields run. A W3 page has about two thousand fields, nearly all of them one of:

- a leaf that Strawberry answers without a resolver (``is_basic_field``): a name or a
  count read off a row;
- a `schema.base.DirectField` without arguments (it uses nothing of ``info`` but the
  request's context): a foreign key followed to a primed row, or a figure of it.

Those are answered here from a plan made once per selection set of the operation: the
value is read, then coerced (a leaf) or its object's fields run (an object), with no
info object or path for a field that needs neither. Everything else, and anything
unusual on the way (a null where the type says there cannot be one, a resolver or a
coercion that fails, a value still to be awaited), goes the executor's own way, so
errors are located and reported exactly as graphql-core reports them.
"""

from collections.abc import Awaitable, Callable
from typing import Any, NamedTuple

from graphql import (
    GraphQLEnumType,
    GraphQLField,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLScalarType,
    Undefined,
)
from graphql.execution.collect_fields import FieldDetailsList, GroupedFieldSet
from graphql.execution.executor import Executor, to_nodes
from graphql.pyutils import Path, gather_with_cancel
from strawberry.schema.schema import StrawberryGraphQLCoreExecutionContext
from strawberry.schema.schema_converter import GraphQLCoreConverter

from schema.base import DirectField, RowField

_LEAF_TYPES = (GraphQLScalarType, GraphQLEnumType)

# Coercers by leaf type; the type is kept with its coercer, so its id is never reused.
_coercers: dict[int, tuple[Any, Callable[[Any], Any]]] = {}


def _coercer(leaf_type: GraphQLScalarType | GraphQLEnumType) -> Callable[[Any], Any]:
    """``leaf_type.coerce_output_value``, except that a Strawberry enum's member is named
    by one look-up (Strawberry compares it with each of the enum's values in turn)."""
    known = _coercers.get(id(leaf_type))
    if known is not None:
        return known[1]
    coerce = leaf_type.coerce_output_value
    members = getattr(leaf_type, "wrapped_cls", None)
    if isinstance(leaf_type, GraphQLEnumType) and members is not None:
        names = {
            member: name
            for name, value in leaf_type.values.items()
            for member in members
            if member.value == value.value
        }
        fallback = coerce

        def coerce(value: Any) -> Any:
            name = names.get(value)
            return fallback(value) if name is None else name

    _coercers[id(leaf_type)] = (leaf_type, coerce)
    return coerce


class _Step(NamedTuple):
    """How one field of a selection set is answered: ``kind`` says which way."""

    response_name: str
    field_details_list: FieldDetailsList
    kind: int
    field: GraphQLField | None = None
    # The resolver, the named type (leaf or object) and whether it is non-null.
    resolve: Callable[..., Any] | None = None
    named_type: Any = None
    non_null: bool = False
    coerce: Callable[[Any], Any] | None = None  # a leaf's


_EXECUTOR, _BASIC_LEAF, _DIRECT_LEAF, _DIRECT_OBJECT = range(4)


def _step(parent_type: GraphQLObjectType, name: str, details: FieldDetailsList) -> _Step:
    node = details[0].node
    field = parent_type.fields.get(node.name.value)
    if field is None or node.arguments or field.args or field.resolve is None:
        return _Step(name, details, _EXECUTOR)  # __typename, arguments, graphql-core's own
    field_type = field.type
    non_null = isinstance(field_type, GraphQLNonNull)
    named = field_type.of_type if non_null else field_type
    definition = (field.extensions or {}).get(GraphQLCoreConverter.DEFINITION_BACKREF)
    kind = _EXECUTOR
    resolve = field.resolve
    if isinstance(named, _LEAF_TYPES):
        # Strawberry marks the resolver it gives a field that has none of its own; it
        # takes the object alone, as a RowField's reader does.
        if getattr(field.resolve, "_is_default", False):
            kind = _BASIC_LEAF
            if isinstance(definition, RowField):
                resolve = definition.reader()
        elif isinstance(definition, DirectField):
            kind = _DIRECT_LEAF
    elif (
        isinstance(named, GraphQLObjectType)
        and named.is_type_of is None
        and isinstance(definition, DirectField)
    ):
        kind = _DIRECT_OBJECT
    coerce = _coercer(named) if isinstance(named, _LEAF_TYPES) else None
    return _Step(name, details, kind, field, resolve, named, non_null, coerce)


# Steps by selection, across operations: a document comes again and again, and the
# parser's cache (schema.DocumentCache) hands back the same syntax tree each time, so a
# selection's steps are worked out once. The key is the type and the selection's field
# nodes by identity; the entry keeps them, so that their ids are not reused while it lives.
_SHARED_STEPS: dict[tuple[int, ...], tuple[object, tuple[Any, ...], list[_Step]]] = {}
_SHARED_STEPS_LIMIT = 4096


def _steps(parent_type: GraphQLObjectType, fields: GroupedFieldSet) -> list[_Step]:
    """The steps of ``fields`` (each with this operation's field details)."""
    nodes = tuple(details[0].node for details in fields.values())
    key = (id(parent_type), *map(id, nodes))
    shared = _SHARED_STEPS.get(key)
    if shared is None:
        if len(_SHARED_STEPS) >= _SHARED_STEPS_LIMIT:  # documents seen once, mostly
            _SHARED_STEPS.clear()
        steps = [_step(parent_type, name, details) for name, details in fields.items()]
        _SHARED_STEPS[key] = (parent_type, nodes, steps)
        return steps
    return [
        step._replace(response_name=name, field_details_list=details)
        for step, (name, details) in zip(shared[2], fields.items(), strict=True)
    ]


def _read_leaf(step: _Step, source: Any) -> Any:
    """A basic leaf's value, read off ``source`` (a record's column or a plain object's
    attribute: never an awaitable) and coerced; or _FALL_BACK."""
    try:
        value = step.resolve(source)  # type: ignore[misc]
    except Exception:  # the executor runs it again and reports it
        return _FALL_BACK
    if value is None:
        return _FALL_BACK if step.non_null else None
    return _coerced(step, value)


def _coerced(step: _Step, value: Any) -> Any:
    """A leaf's ``value`` (not null) coerced for the response, or _FALL_BACK."""
    try:
        coerced = step.coerce(value)  # type: ignore[misc]
    except Exception:  # the executor runs it again and reports it
        return _FALL_BACK
    return _FALL_BACK if coerced is None or coerced is Undefined else coerced


class _ContextOnly:
    """What a DirectField is given for ``info``: the one part of it that it uses."""

    __slots__ = ("context",)

    def __init__(self, context: Any) -> None:
        self.context = context


_FALL_BACK = object()  # a step's answer when the executor must answer the field itself


class TaxonomyExecutor(StrawberryGraphQLCoreExecutionContext):
    """Strawberry's executor, with the common fields answered from a plan."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Strawberry gives every operation a manager; it wraps resolvers only when an
        # extension resolves fields itself, and then no field may bypass it.
        manager = self.middleware_manager
        self._planned = manager is None or not manager.middlewares
        self._context_only = _ContextOnly(self.context_value)
        # Plans by selection set; the set is kept with its plan, so that its id is not
        # reused while the operation runs (as graphql-core memoizes its sub-fields).
        self._plans: dict[int, tuple[GroupedFieldSet, list[_Step]]] = {}

    def _plan(self, parent_type: GraphQLObjectType, fields: GroupedFieldSet) -> list[_Step]:
        known = self._plans.get(id(fields))
        if known is None:
            known = self._plans[id(fields)] = (fields, _steps(parent_type, fields))
        return known[1]

    def execute_fields(
        self,
        parent_type: GraphQLObjectType,
        source_value: Any,
        path: Path | None,
        grouped_field_set: GroupedFieldSet,
        position_context: Any,
    ) -> Any:
        if not self._planned or position_context is not None:
            return super().execute_fields(
                parent_type, source_value, path, grouped_field_set, position_context
            )
        # graphql-core's execute_fields, with each field answered by its step.
        results: dict[str, Any] = {}
        is_awaitable = self.is_awaitable
        awaitable_fields: list[str] = []
        try:
            for step in self._plan(parent_type, grouped_field_set):
                result = _FALL_BACK
                if step.kind == _BASIC_LEAF:
                    result = _read_leaf(step, source_value)
                    if result is not _FALL_BACK:  # a value read off the object, at hand
                        results[step.response_name] = result
                        continue
                elif step.kind != _EXECUTOR:
                    result = self._answer(step, parent_type, source_value, path)
                if result is _FALL_BACK:
                    result = Executor.execute_field(
                        self,
                        parent_type,
                        source_value,
                        step.field_details_list,
                        Path(path, step.response_name, parent_type.name),
                        None,
                    )
                    if result is Undefined:
                        continue
                results[step.response_name] = result
                if is_awaitable(result):
                    awaitable_fields.append(step.response_name)
        except Exception:
            if awaitable_fields:
                self.settle_in_background([results[field] for field in awaitable_fields])
            raise

        if not awaitable_fields:
            return results

        async def get_results() -> dict[str, Any]:
            if len(awaitable_fields) == 1:
                field = awaitable_fields[0]
                results[field] = await results[field]
            else:
                awaited = await gather_with_cancel(*(results[f] for f in awaitable_fields))
                results.update(zip(awaitable_fields, awaited, strict=True))
            return results

        return get_results()

    def _answer(self, step: _Step, parent_type: GraphQLObjectType, source: Any, path: Any) -> Any:
        """A DirectField's value by its step, an awaitable of it, or _FALL_BACK."""
        assert step.resolve is not None
        try:
            value = step.resolve(source, self._context_only)
        except Exception:  # the executor runs it again and reports it
            return _FALL_BACK
        if value is None:
            return _FALL_BACK if step.non_null else None
        if isinstance(value, Exception):  # a resolver may return its error
            return _FALL_BACK
        if step.kind == _DIRECT_OBJECT or self.is_awaitable(value):
            field_path = Path(path, step.response_name, parent_type.name)
            if not self.is_awaitable(value):
                return self._complete_object(step, parent_type, value, field_path)
            # A row still to be read: the executor's own way, which needs the info.
            return self.complete_awaitable_value(
                step.field.type,  # type: ignore[union-attr]
                step.field_details_list,
                self._info(step, parent_type, field_path),
                field_path,
                value,
                None,
            )
        return _coerced(step, value)

    def _complete_object(
        self, step: _Step, parent_type: GraphQLObjectType, value: Any, field_path: Path
    ) -> Any:
        """The fields of ``value``, an object at hand, as execute_field would complete
        them (an error below that reaches this field is handled here, by its type)."""
        return_type = step.field.type  # type: ignore[union-attr]
        grouped_field_set = self._grouped(step.named_type, step.field_details_list)
        if grouped_field_set is None:  # something deferred: graphql-core knows how
            info = self._info(step, parent_type, field_path)
            return super().complete_value(
                return_type, step.field_details_list, info, field_path, value, None
            )
        return self._fields(
            step.named_type,
            grouped_field_set,
            value,
            return_type,
            step.field_details_list,
            field_path,
        )

    def _fields(
        self,
        object_type: GraphQLObjectType,
        grouped_field_set: GroupedFieldSet,
        value: Any,
        return_type: Any,
        field_details_list: FieldDetailsList,
        path: Path,
    ) -> Any:
        """The fields of ``value`` (their dict, or an awaitable of it), as graphql-core
        completes an object: an error below that reaches it is handled here, by
        ``return_type`` (the field's type, or the list's item type)."""
        try:
            completed = self.execute_fields(object_type, value, path, grouped_field_set, None)
        except Exception as raw_error:
            self.handle_field_error(raw_error, return_type, field_details_list, path)
            return None
        if not self.is_awaitable(completed):
            return completed
        return self._settled(completed, return_type, field_details_list, path)

    async def _settled(
        self,
        completed: Awaitable[Any],
        return_type: Any,
        field_details_list: FieldDetailsList,
        path: Path,
    ) -> Any:
        """``completed`` awaited; an error below is handled here, by ``return_type``."""
        try:
            return await completed
        except Exception as raw_error:
            self.handle_field_error(raw_error, return_type, field_details_list, path)
            return None

    def _grouped(
        self, object_type: GraphQLObjectType, field_details_list: FieldDetailsList
    ) -> GroupedFieldSet | None:
        """The selection of an object of ``object_type``, grouped by response key; None
        when it defers something (graphql-core knows how)."""
        grouped_field_set, new_defer_usages, _ = self.collect_subfields(
            object_type, field_details_list
        )
        return None if new_defer_usages else grouped_field_set

    def _info(self, step: _Step, parent_type: GraphQLObjectType, path: Path) -> Any:
        return self.build_resolve_info(
            step.field,  # type: ignore[arg-type]
            to_nodes(step.field_details_list),
            parent_type,
            path,
        )

    def complete_iterable_value(
        self,
        item_type: Any,
        field_details_list: FieldDetailsList,
        info: Any,
        path: Path,
        items: Any,
        position_context: Any,
    ) -> Any:
        # A list of objects (a page's rows, a method's treatments): each object's fields
        # run straight from here, where graphql-core takes each item through three calls
        # and looks its selection up again. Items that are not plain objects (null, an
        # error, an awaitable) are completed one by one the executor's own way.
        named = item_type.of_type if type(item_type) is GraphQLNonNull else item_type
        if (
            position_context is not None
            or not isinstance(items, list | tuple)
            or not isinstance(named, GraphQLObjectType)
            or named.is_type_of is not None
            or self.get_stream_usage(field_details_list, path) is not None
        ):
            return super().complete_iterable_value(
                item_type, field_details_list, info, path, items, position_context
            )
        grouped_field_set = self._grouped(named, field_details_list)
        if grouped_field_set is None:
            return super().complete_iterable_value(
                item_type, field_details_list, info, path, items, position_context
            )
        is_awaitable = self.is_awaitable
        completed: list[Any] = []
        awaitable_indices: list[int] = []
        try:
            for index, item in enumerate(items):
                item_path = Path(path, index, None)
                if is_awaitable(item):
                    completed.append(
                        self.complete_awaitable_list_item_value(
                            item, item_type, field_details_list, info, item_path, None
                        )
                    )
                    awaitable_indices.append(index)
                    continue
                if item is None or isinstance(item, Exception):
                    if self.complete_list_item_value(
                        item, completed, item_type, field_details_list, info, item_path, None
                    ):
                        awaitable_indices.append(index)
                    continue
                fields = self._fields(
                    named, grouped_field_set, item, item_type, field_details_list, item_path
                )
                if fields is not None and is_awaitable(fields):
                    awaitable_indices.append(index)
                completed.append(fields)
        except Exception:
            # As graphql-core does: the awaitables begun, and those of the items not
            # reached, are settled in the background rather than orphaned.
            pending = [completed[index] for index in awaitable_indices]
            pending += [item for item in items[len(completed) :] if is_awaitable(item)]
            if pending:
                self.settle_in_background(pending)
            raise
        if not awaitable_indices:
            return completed

        async def get_completed() -> list[Any]:
            awaited = await gather_with_cancel(*(completed[i] for i in awaitable_indices))
            for index, value in zip(awaitable_indices, awaited, strict=True):
                completed[index] = value
            return completed

        return get_completed()

    def complete_value(
        self,
        return_type: Any,
        field_details_list: FieldDetailsList,
        info: Any,
        path: Path,
        result: Any,
        position_context: Any,
    ) -> Any:
        # The common cases (an object, a leaf, either non-null) straight to their end:
        # graphql-core takes an object through five calls to reach its fields. Lists,
        # nulls where none may be, exceptions and anything deferred take its own way.
        named = return_type.of_type if type(return_type) is GraphQLNonNull else return_type
        if result is not None and position_context is None and not isinstance(result, Exception):
            if isinstance(named, GraphQLObjectType) and named.is_type_of is None:
                grouped_field_set = self._grouped(named, field_details_list)
                if grouped_field_set is not None:
                    return self.execute_fields(named, result, path, grouped_field_set, None)
            elif isinstance(named, _LEAF_TYPES):
                coerced = _coercer(named)(result)
                if coerced is not None and coerced is not Undefined:
                    return coerced
        elif result is None and named is return_type:
            return None
        return super().complete_value(
            return_type, field_details_list, info, path, result, position_context
        )
