"""Following a row's foreign key to the object it names.

Each answer comes at once when the request's loader already holds the row (the statement
that fetched the parent primed it), else as an awaitable (`schema.loaders.now_or_later`).
Resolvers that return these are plain functions typed with `graphql_type`, so that a row
at hand costs no coroutine.
"""

from collections.abc import Awaitable, Callable
from functools import cache
from importlib import import_module
from typing import Any

from schema.context import Info
from schema.loaders import now_or_later
from schema.refs import MethodRef, ModelRef, NodeRef


@cache
def from_row_of(module: str, type_name: str) -> Callable[[Any], Any]:
    """``type_name.from_row``, found once: the types' modules import this one, so it
    cannot import them first, and an import in the function body costs a microsecond
    on every one of the thousands of objects a page follows."""
    return getattr(import_module(module), type_name).from_row  # type: ignore[no-any-return]


def model_at(info: Info, model_id: int) -> "ModelRef | Awaitable[ModelRef]":
    build = from_row_of("schema.model", "Model")
    return now_or_later(info.context.loaders.model_by_id, model_id, build)


def method_at(info: Info, method_id: int) -> "MethodRef | Awaitable[MethodRef]":
    build = from_row_of("schema.method", "Method")
    return now_or_later(info.context.loaders.method_by_id, method_id, build)


def node_at(info: Info, node_id: int) -> "NodeRef | Awaitable[NodeRef]":
    build = from_row_of("schema.node", "Node")
    return now_or_later(info.context.loaders.node_by_id, node_id, build)
