"""ASGI middlewares around /graphql: a request id on every exchange, the body size and
time limits, and GraphQL over HTTP's media type and status codes.

Each answers a refusal the way GraphQL clients read it: a JSON body with `errors`, each
with `extensions.code`, and the request id."""

import asyncio
import re
import time
import uuid
from typing import TypedDict

import orjson

from api.edge.middleware import (
    ASGIApp,
    Message,
    Receive,
    Scope,
    Send,
    header,
    read_body,
    replay,
    with_headers,
    with_media_type_lowered,
)
from schema.errors import REQUEST_ERROR_CODES, time_limit_message
from store.reader import Deadline

GRAPHQL_RESPONSE = b"application/graphql-response+json"
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{8,64}$")
# Codes of answers that failed for want of the server or the database, not for anything
# in the request: HTTP 503, and the same request may be sent again after Retry-After.
RETRY_LATER_CODES = frozenset({"TIMEOUT", "DATABASE_UNAVAILABLE", "OVERLOADED"})
# A restarted database, a dropped connection or a busy spell is over within seconds.
RETRY_AFTER = (b"retry-after", b"2")


def error_body(
    code: str,
    message: str,
    request_id: str | None,
    data_version: str | None = None,
    **extensions: object,
) -> bytes:
    """A refusal as GraphQL clients read one: `errors`, with the code and the request id
    (and, as every answer, the data version it was given at: api.edge.freshness)."""
    error = {
        "message": message,
        "extensions": {"code": code, "requestId": request_id, **extensions},
    }
    answer: dict[str, object] = {"errors": [error]}
    if data_version is not None:
        answer["extensions"] = {"dataVersion": data_version}
    return orjson.dumps(answer)


async def send_error(
    send: Send,
    scope: Scope,
    status: int,
    code: str,
    message: str,
    *,
    headers: tuple[tuple[bytes, bytes], ...] = (),
    **extensions: object,
) -> None:
    state = scope.get("state", {})
    body = error_body(
        code, message, state.get("request_id"), state.get("data_version"), **extensions
    )
    media = GRAPHQL_RESPONSE if _wants_graphql_response(scope) else b"application/json"
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", media + b"; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class RequestId:
    """Gives each request an id (the client's `x-request-id` if sane), echoed back in a
    header and in masked errors, and logged with our faults."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = header(scope, b"x-request-id").decode("latin-1")
        request_id = given if _REQUEST_ID.match(given) else uuid.uuid4().hex
        scope.setdefault("state", {})["request_id"] = request_id
        echoed = (b"x-request-id", request_id.encode())
        await self.app(scope, receive, with_headers(send, lambda given: [*given, echoed]))


# A limit's refusal's extensions (keys as the answer spells them).
class LimitExtensions(TypedDict):
    limit: str
    limitValue: int


def url_too_long(max_bytes: int) -> tuple[str, LimitExtensions]:
    """The refusal of a URL over ``max_bytes``: its message and extensions."""
    message = (
        f"the URL is over the limit `max_url_bytes` of {max_bytes:,} bytes; "
        "send the query in the body of a POST"
    )
    return message, {"limit": "max_url_bytes", "limitValue": max_bytes}


class UrlLimit:
    """Refuses URLs (path and query string) over ``max_bytes`` with 414: a GET's query
    travels in its URL, and no layer behind should parse an unbounded one."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            path = scope.get("raw_path") or scope["path"].encode()
            if len(path) + 1 + len(scope.get("query_string", b"")) > self.max_bytes:
                message, extensions = url_too_long(self.max_bytes)
                await send_error(send, scope, 414, "BAD_REQUEST", message, **extensions)
                return
        await self.app(scope, receive, send)


class BodyLimit:
    """Refuses request bodies over ``max_bytes`` with 413, before reading them whole, and
    bodies in a content coding (gzip, ...) with 415: nothing here decodes one, and read as
    it is, a compressed body would be refused as "not valid UTF-8 JSON", which would send
    its client looking in the wrong place (RFC 9110 §15.5.16)."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        coding = header(scope, b"content-encoding").strip().lower()
        if coding not in (b"", b"identity"):
            await send_error(
                send,
                scope,
                415,
                "BAD_REQUEST",
                f"the request body is encoded (Content-Encoding: {coding.decode('latin-1')}),"
                " which this server does not decode: send it as it is, without the header",
                headers=((b"accept-encoding", b"identity"),),
            )
            return
        declared = header(scope, b"content-length")
        if declared.isdigit() and int(declared) > self.max_bytes:
            await self._refuse(scope, send)
            return
        body = await read_body(receive, self.max_bytes)
        if body is None:
            await self._refuse(scope, send)
            return
        await self.app(scope, replay(body, receive), send)

    async def _refuse(self, scope: Scope, send: Send) -> None:
        await send_error(
            send,
            scope,
            413,
            "BAD_REQUEST",
            f"the request body is over the limit `max_body_bytes` of {self.max_bytes:,} bytes",
            limit="max_body_bytes",
            limitValue=self.max_bytes,
        )


class TimeLimit:
    """Answers a request that runs over ``seconds`` with 503 and code TIMEOUT, on time.

    The request is stopped (cancelled) at its deadline, but not waited for past a short
    grace: unwinding it may itself wait on the database (psycopg cancels a statement on
    the server, and a database that hangs answers that no sooner). Such a request ends in
    the background, and anything it would still send is dropped."""

    # How long a stopped request may take to unwind before the client hears anyway.
    GRACE_SECONDS = 0.5

    def __init__(self, app: ASGIApp, seconds: float) -> None:
        self.app = app
        self.seconds = seconds
        self._unwinding: set[asyncio.Task[None]] = set()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False
        timed_out = False

        async def watched_send(message: Message) -> None:
            nonlocal started
            if timed_out:
                return  # the client has had its answer: the time limit's
            started = started or message["type"] == "http.response.start"
            await send(message)

        # What cannot be interrupted by asyncio (a SQLite statement run in the event loop)
        # stops itself at this deadline (store.reader.InLoopReader), as PostgreSQL does
        # (store.reader.AsyncReader's statement_timeout).
        deadline = Deadline.after(self.seconds)
        scope.setdefault("state", {})["deadline"] = deadline
        request = asyncio.ensure_future(self.app(scope, receive, watched_send))
        try:
            # The loop's clock is time.monotonic, the deadline's.
            done, _ = await asyncio.wait({request}, timeout=deadline.at - time.monotonic())
            if not done:
                request.cancel()
                done, _ = await asyncio.wait({request}, timeout=self.GRACE_SECONDS)
                stopped = True
            else:
                stopped = False
        except asyncio.CancelledError:
            request.cancel()  # the server is stopping this exchange: the request goes too
            raise
        if not stopped or (request.done() and not request.cancelled() and not request.exception()):
            request.result()  # answered (or failed on its own, raised as without this limit)
            return
        if not request.done():
            self._unwinding.add(request)  # kept until it ends (asyncio holds tasks weakly)
            request.add_done_callback(self._ended_in_background)
        timed_out = True
        if started:
            # Part of the answer has gone: the connection is closed to say it is cut short.
            raise TimeoutError(time_limit_message(self.seconds))
        await send_error(
            send,
            scope,
            503,
            "TIMEOUT",
            time_limit_message(self.seconds),
            headers=(RETRY_AFTER,),
            limit="request_timeout_seconds",
            limitValue=self.seconds,
        )

    def _ended_in_background(self, request: "asyncio.Task[None]") -> None:
        """A request stopped at its time limit has ended. Its client had its 503, so what it
        ended with is only retrieved (asyncio would log it as never retrieved)."""
        self._unwinding.discard(request)
        if not request.cancelled():
            request.exception()


def _wants_graphql_response(scope: Scope) -> bool:
    """The client names GraphQL over HTTP's own media type; any other (`*/*`, none at
    all, `application/json`) gets `application/json`, as the spec would have a server
    answer a client that may predate it."""
    return GRAPHQL_RESPONSE in header(scope, b"accept")


class GraphQLOverHTTP:
    """GraphQL over HTTP's rules for the answers of /graphql: the media type
    `application/graphql-response+json` for a client that asks for it (with 400 for a
    request that could not be executed), and JSON errors instead of plain text; and, for
    every client, 503 with Retry-After for an answer that failed for want of the database
    or of time (RETRY_LATER_CODES), so that clients and proxies retry it."""

    def __init__(self, app: ASGIApp, batching_max_operations: int = 0) -> None:
        self.app = app
        self.batching_max_operations = batching_max_operations

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start: Message = {}
        chunks: list[bytes] = []

        async def capture(message: Message) -> None:
            if message["type"] == "http.response.start":
                start.update(message)
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        await self.app(with_media_type_lowered(scope), receive, capture)
        body = b"".join(chunks)
        headers = dict(start.get("headers", []))
        media = headers.get(b"content-type", b"")
        status = int(start.get("status", 500))
        if media.startswith(b"text/plain") and 400 <= status < 500:
            # Strawberry refuses unreadable requests in plain text; clients expect JSON.
            reason = body.decode("utf-8", "replace")
            if reason in ("Too many operations", "Batching is not enabled"):
                cap = self.batching_max_operations
                await send_error(
                    send,
                    scope,
                    status,
                    "BAD_REQUEST",
                    f"a batch of operations is over the limit `batching_max_operations` of "
                    f"{cap}" + (" (batching is off)" if cap == 0 else ""),
                    limit="batching_max_operations",
                    limitValue=cap,
                )
                return
            await send_error(send, scope, status, "BAD_REQUEST", reason)
            return
        if media.startswith(b"application/json"):
            answer = _parsed(body) if status == 200 and b'"errors"' in body else None
            codes = _codes_of(answer)
            wants_graphql_response = _wants_graphql_response(scope)
            if codes & RETRY_LATER_CODES:
                status = 503
                headers[RETRY_AFTER[0]] = RETRY_AFTER[1]
            elif wants_graphql_response and _not_executed(answer, codes):
                status = 400
            if wants_graphql_response:
                headers[b"content-type"] = GRAPHQL_RESPONSE + b"; charset=utf-8"
        headers[b"content-length"] = str(len(body)).encode()
        await send(
            {"type": "http.response.start", "status": status, "headers": list(headers.items())}
        )
        await send({"type": "http.response.body", "body": body})


def _parsed(body: bytes) -> object:
    try:
        return orjson.loads(body)
    except orjson.JSONDecodeError:
        return None


def _codes_of(answer: object) -> set[str]:
    """The codes of the errors of an answer (of each answer of a batch)."""
    return {
        str(error.get("extensions", {}).get("code"))
        for result in (answer if isinstance(answer, list) else [answer])
        if isinstance(result, dict)
        for error in result.get("errors") or []
        if isinstance(error, dict)
    }


def _not_executed(answer: object, codes: set[str]) -> bool:
    """The request could not be executed at all: no data, only request errors (400)."""
    return isinstance(answer, dict) and "data" not in answer and is_request_error(codes)


def is_request_error(codes: set[str]) -> bool:
    """Errors that stopped a request before it ran (GraphQL over HTTP's "request error":
    its answer has no `data` entry at all)."""
    return bool(codes) and codes <= REQUEST_ERROR_CODES
