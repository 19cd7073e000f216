"""The typed per-request context: one database reader and the loaders that use it."""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

from graphql import OperationDefinitionNode
from strawberry.types import Info as StrawberryInfo
from strawberry.types.nodes import FragmentSpread, InlineFragment, SelectedField

from schema.cost_meter import CostMeter
from schema.dataloaders import Loaders
from store.caches import Caches
from store.engines import RequestEngine
from store.reader import Deadline, Reader


class _Headers(Protocol):
    def __setitem__(self, key: str, value: str) -> None: ...


class HTTPResponse(Protocol):
    """What an execution writes to the HTTP response it serves (Starlette's): headers."""

    @property
    def headers(self) -> _Headers: ...


class _AppState(Protocol):
    caches: Caches


class _App(Protocol):
    @property
    def state(self) -> _AppState: ...


class HTTPRequest(Protocol):
    """What an execution reads of the HTTP request it serves (Starlette's): the state
    the app's middleware put in its scope, and the app's caches."""

    @property
    def scope(self) -> Mapping[str, object]: ...

    @property
    def app(self) -> _App: ...


# A field of the query: its response path without list indices, each step with its
# parent type's name.
FieldOfQuery = tuple[tuple[str, str | None], ...]
# The fields selected below one, with the operation and the variables they were read under.
# (Strawberry's `Selection` spelled out: its alias names them as strings, which
# `typing.get_type_hints` of this class could not resolve here.)
KnownSelections = tuple[
    OperationDefinitionNode,
    dict[str, object],
    list[SelectedField | FragmentSpread | InlineFragment],
]


@dataclass
class Context:
    reader: Reader
    loaders: Loaders
    request: HTTPRequest | None = None
    response: HTTPResponse | None = None
    # Whether to tell the client, in a header, how many SQL statements its query ran.
    report_statements: bool = False
    # The id of this request (api.edge.http_guards.RequestId), for masked errors and the log.
    request_id: str | None = None
    # Whether the request's edge closes the reader once the answer is sent
    # (api.edge.after_answer); else the schema does as the operation ends (schema.CloseReader).
    closed_after_answer: bool = False
    # The served data's version (store.data_version), which cursors carry: a cursor from
    # other data is refused. None (in-process executions) leaves cursors without one.
    data_version: str | None = None
    # What the execution has cost so far (schema.limits sets it once the query's cost is
    # worked out; lists without `first` charge it as they are read).
    cost: CostMeter | None = None
    # The cost limit of this execution when not the schema's `max_cost`: the operator's own
    # in-process reports (`taxonomy releases`, `taxonomy changes`) serve no other client.
    cost_limit: int | None = None
    # What the app keeps between requests (made by api.app.create_app); an execution
    # outside an app (the CLI's reports, tests) keeps its own.
    caches: Caches = field(default_factory=Caches)
    # The fields selected below each field of the query, converted once for the request
    # (schema.lookahead.selected_fields).
    selections: dict[FieldOfQuery, KnownSelections] = field(default_factory=dict)

    @classmethod
    def for_request(
        cls,
        engine: RequestEngine,
        request: HTTPRequest | None = None,
        response: HTTPResponse | None = None,
        deadline: Deadline | None = None,
    ) -> "Context":
        """A context reading through ``engine`` (see `Reader.of`), within ``deadline`` or
        else the request's when it has one (api.edge.http_guards.TimeLimit sets it; a download
        gives each of its executions its own: api.download), with the caches of the app
        that serves the request."""
        if deadline is None and request is not None:
            state = request.scope.get("state")
            found = state.get("deadline") if isinstance(state, dict) else None
            deadline = found if isinstance(found, Deadline) else None
        reader = Reader.of(engine, deadline)
        caches = Caches() if request is None else request.app.state.caches
        loaders = Loaders(reader, caches.releases)
        return cls(reader, loaders, request=request, response=response, caches=caches)


Info = StrawberryInfo[Context, None]
