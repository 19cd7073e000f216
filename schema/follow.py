"""Following a row's foreign key to the object it names.

Each answer comes at once when the request's loader already holds the row (the statement
that fetched the parent primed it), else as an awaitable (`schema.loaders.now_or_later`).
Resolvers that return these are plain functions typed with `graphql_type`, so that a row
at hand costs no coroutine.
"""

from collections.abc import Awaitable

from schema.context import Info
from schema.loaders import now_or_later
from schema.refs import MethodRef, ModelRef, NodeRef


def model_at(info: Info, model_id: int) -> "ModelRef | Awaitable[ModelRef]":
    from schema.model import Model

    return now_or_later(info.context.loaders.model_by_id, model_id, Model.from_row)


def method_at(info: Info, method_id: int) -> "MethodRef | Awaitable[MethodRef]":
    from schema.method import Method

    return now_or_later(info.context.loaders.method_by_id, method_id, Method.from_row)


def node_at(info: Info, node_id: int) -> "NodeRef | Awaitable[NodeRef]":
    from schema.node import Node

    return now_or_later(info.context.loaders.node_by_id, node_id, Node.from_row)
