"""Answers to repeated queries without running them again, and `304 Not Modified`.

An ASGI middleware in front of the GraphQL endpoint. A query's key is all of the request
that the layers behind read (method, media types, document, operation name, variables,
extensions), as the client sent it: a persisted query's key is its hash, not its
document, which the layer behind this one (api.edge.persisted_queries) puts back only
for a miss. With the data version it makes the cache key and the ETag. A load changes
the version, and a version the process could not read again lately is none (see
store.data_version: within a poll interval and a read's timeout, 2 s), so nothing older
is served after that, and no entry needs to be evicted by hand.

A request for an answer that another is working out already waits for it rather than
work it out again (request coalescing, a caching proxy's cache lock): when a worker starts
with an empty cache, or a load moves every key to a new version, a page that many clients
ask for at once then costs its work once, not once per client."""

import asyncio
import hashlib
from dataclasses import dataclass
from typing import Protocol
from urllib.parse import parse_qs

import orjson
from cachetools import LRUCache

from api.edge.freshness import data_version_of
from api.edge.middleware import ASGIApp, Message, Receive, Scope, Send, header, read_body, replay
from api.edge.request_log import record, recorded

STATEMENTS_HEADER = b"x-sql-statements"


@dataclass(frozen=True)
class Cached:
    status: int
    headers: list[tuple[bytes, bytes]]
    body: bytes
    operation: str | None = None  # for the request log (api.edge.request_log)

    def for_replay(self, operation: str | None) -> "Cached":
        """This answer as a cache hit gives it: no SQL ran for it."""
        headers = [
            (name, b"0" if name == STATEMENTS_HEADER else value) for name, value in self.headers
        ]
        return Cached(self.status, headers, self.body, operation)


class AnswerStore(Protocol):
    """Where answers are kept: a process's own LRU, or that and its machine's shared tier
    (api.edge.shared_answers)."""

    def get(self, key: str) -> Cached | None: ...

    def put(self, key: str, value: Cached) -> None: ...


def too_big_to_keep(answer: Cached, max_bytes: float) -> bool:
    """One huge answer must not push out everything else a cache of ``max_bytes`` holds."""
    return len(answer.body) > max_bytes // 4


class LRU(LRUCache[str, Cached]):
    """At most ``max_entries`` answers and ``max_bytes`` of bodies, least recent out first:
    the cache's size is its bodies' bytes (maxsize ``max_bytes``); ``put`` counts entries."""

    def __init__(self, max_entries: int, max_bytes: int) -> None:
        super().__init__(max_bytes, getsizeof=lambda answer: len(answer.body))
        self.max_entries = max_entries

    def put(self, key: str, value: Cached) -> None:
        if too_big_to_keep(value, self.maxsize):
            return
        self[key] = value  # out go the least recent, down to max_bytes
        while len(self) > self.max_entries:
            self.popitem()


def _query_key(scope: Scope, body: bytes) -> str | None:
    """What decides this request's answer, and whether it is accepted at all, as one key;
    None if it is not a plain query (batches and oddities go the slow way).

    That is everything the layers behind this one read: the method, the media types
    (Content-Type decides whether a POST is read at all: Strawberry refuses a `text/plain`
    one, the cross-site "simple request"; Accept decides the answer's media type and status)
    and the whole request, not only its document and variables (`operationName` and
    `extensions` may make it refused). Only accepted answers are kept, so a hit goes only
    to a request that would have been accepted and answered alike."""
    method = scope["method"]
    try:
        if method == "GET":
            raw = scope.get("query_string", b"").decode()
            request: object = raw  # as sent: any difference is another request
            # Of repeated parameters Starlette (so Strawberry) reads the last.
            sent = {name: values[-1] for name, values in parse_qs(raw).items()}
            media = b""  # a GET has no body, so nothing reads its Content-Type
        elif method == "POST":
            request = orjson.loads(body)
            sent = request if isinstance(request, dict) else {}
            media = header(scope, b"content-type")
        else:
            return None
    except (orjson.JSONDecodeError, UnicodeDecodeError):
        return None
    # A document, or the extensions that may name a persisted one by its hash (the layer
    # behind this one puts its text back, or refuses it, and a refusal is never kept).
    if not isinstance(sent.get("query"), str) and "extensions" not in sent:
        return None
    accept = header(scope, b"accept")
    try:
        canonical = orjson.dumps(
            [method, media.decode("latin-1"), accept.decode("latin-1"), request],
            option=orjson.OPT_SORT_KEYS,
        )
    except orjson.JSONEncodeError:
        # Nested deeper than orjson writes (254 levels): such a request goes uncached, and
        # the layers behind answer it (or refuse it) as any other.
        return None
    return hashlib.sha256(canonical).hexdigest()


class ResponseCache:
    def __init__(self, app: ASGIApp, store: AnswerStore | None) -> None:
        self.app = app
        self.store = store  # None: ETags and 304s only, no cached answers
        # The answers being worked out, by cache key: each resolves to the answer as a hit
        # replays it, or to None when it cannot be kept (an error, a request cut short).
        self.in_flight: dict[str, asyncio.Future[Cached | None]] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("GET", "POST"):
            await self.app(scope, receive, send)
            return
        body = await read_body(receive) or b""
        key = _query_key(scope, body)
        version = data_version_of(scope)  # api.edge.freshness
        if key is None or version is None:
            await self.app(scope, replay(body, receive), send)
            return
        etag = f'W/"{version}-{key[:20]}"'.encode()
        if scope["method"] == "GET" and etag in header(scope, b"if-none-match"):
            record(scope, cache="hit")
            await _send(send, Cached(304, [(b"etag", etag)], b""))
            return
        cache_key = f"{version}:{key}"
        hit = self.store.get(cache_key) if self.store is not None else None
        waited = hit is None and cache_key in self.in_flight
        if waited:
            # Shielded: a waiter that is cancelled (its time limit, its client gone) must
            # not cancel the answer that the request working it out will still send.
            hit = await asyncio.shield(self.in_flight[cache_key])
        if hit is not None:
            record(scope, cache="hit", operation=hit.operation)
            await _send(send, hit, extra=[(b"etag", etag), (b"x-cache", b"hit")])
            return
        # This request works the answer out; others asking meanwhile wait for it, unless
        # there is no cache, or it waited already for an answer that could not be kept (an
        # error, which this request may not meet): then its own, uncoalesced.
        leads = self.store is not None and not waited
        if leads:
            working = self.in_flight[cache_key] = asyncio.get_running_loop().create_future()
        kept: Cached | None = None
        try:
            answer, extra, kept = await self._work_out(scope, body, receive, version, key, etag)
        finally:
            if leads:  # before this request's own answer is sent: its client may be gone
                del self.in_flight[cache_key]
                working.set_result(kept)
        await _send(send, answer, extra)

    async def _work_out(
        self, scope: Scope, body: bytes, receive: Receive, version: str, key: str, etag: bytes
    ) -> tuple[Cached, list[tuple[bytes, bytes]], Cached | None]:
        """The answer, the headers to send it with, and the answer as a hit for ``version``
        replays it (None if it cannot be kept); kept in the cache when it can be."""
        record(scope, cache="miss")
        captured = await _capture(self.app, scope, replay(body, receive))
        # The version the answer was read from (its snapshot's: api.edge.freshness), which can
        # be newer than the one asked for above, just after a load.
        answered = data_version_of(scope)
        if captured.status != 200 or b'"errors"' in captured.body or answered is None:
            return captured, [], None
        if answered != version:
            etag = f'W/"{answered}-{key[:20]}"'.encode()
        kept = captured.for_replay(recorded(scope, "operation"))
        if self.store is not None:
            self.store.put(f"{answered}:{key}", kept)
        # Those waiting for this answer asked for ``version``: one read from a newer
        # version is not theirs.
        return (
            captured,
            [(b"etag", etag), (b"x-cache", b"miss")],
            (kept if answered == version else None),
        )


async def _capture(app: ASGIApp, scope: Scope, receive: Receive) -> Cached:
    status = 500
    headers: list[tuple[bytes, bytes]] = []
    chunks: list[bytes] = []

    async def send(message: Message) -> None:
        nonlocal status, headers
        if message["type"] == "http.response.start":
            status = message["status"]
            headers = [(k, v) for k, v in message.get("headers", []) if k != b"content-length"]
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await app(scope, receive, send)
    return Cached(status, headers, b"".join(chunks))


async def _send(send: Send, answer: Cached, extra: list[tuple[bytes, bytes]] | None = None) -> None:
    headers = [*answer.headers, *(extra or []), (b"content-length", str(len(answer.body)).encode())]
    await send({"type": "http.response.start", "status": answer.status, "headers": headers})
    await send({"type": "http.response.body", "body": answer.body})
