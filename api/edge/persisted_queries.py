"""Automatic persisted queries, as Apollo's clients speak them.

A client sends only `extensions.persistedQuery.sha256Hash`; if this process knows the
hash, the request goes on with the document put back in; if not, the answer is the error
`PersistedQueryNotFound` and the client sends the document with its hash once, which
registers it (after checking the hash). The store is bounded (least recently used out
first) and per process: a hash new to a worker costs one round trip more.

With an allowlist (a JSON file `{hash: document}`), only those documents run: others
are refused, and nothing new is registered."""

import hashlib
import json
from collections.abc import MutableMapping
from pathlib import Path
from urllib.parse import parse_qsl, urlencode

import orjson
from cachetools import LRUCache

from api.edge.http_guards import send_error
from api.edge.middleware import ASGIApp, Receive, Scope, Send, header, read_body, replay
from store.json_value import JSONObject, JSONValue


class QueryStore:
    """Documents by sha256: with an allowlist, its documents and no others, none ever
    evicted; without, those registered, at most ``max_entries`` and ``max_bytes`` of text
    (a document may be as long as a request body), least recent out first."""

    def __init__(
        self, max_entries: int, allowlist: dict[str, str] | None = None, max_bytes: int = 16 << 20
    ) -> None:
        self.frozen = allowlist is not None
        self._entries: MutableMapping[str, str] = (
            dict(allowlist) if allowlist is not None else LRUCache(max_bytes, getsizeof=len)
        )
        self._max_entries = max_entries
        self._max_bytes = max_bytes

    def get(self, digest: str) -> str | None:
        return self._entries.get(digest)

    def put(self, digest: str, document: str) -> None:
        if self.frozen or self._max_entries <= 0 or len(document) > self._max_bytes:
            return  # an LRUCache refuses an entry larger than itself
        self._entries[digest] = document
        while len(self._entries) > self._max_entries:
            assert isinstance(self._entries, LRUCache)
            self._entries.popitem()

    def allows(self, document: str) -> bool:
        return not self.frozen or sha256(document) in self._entries


def sha256(document: str) -> str:
    return hashlib.sha256(document.encode()).hexdigest()


def load_allowlist(path: Path) -> dict[str, str]:
    """A JSON object of documents by their sha256 (checked), or a JSON list of documents."""
    data = json.loads(path.read_text(encoding="utf-8"))
    documents = list(data.values()) if isinstance(data, dict) else list(data)
    allowlist = {sha256(document): document for document in documents}
    if isinstance(data, dict) and set(data) != set(allowlist):
        raise ValueError(f"{path}: a key is not the sha256 of its document")
    return allowlist


class PersistedQueries:
    def __init__(self, app: ASGIApp, store: QueryStore) -> None:
        self.app = app
        self.store = store

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("GET", "POST"):
            await self.app(scope, receive, send)
            return
        if scope["method"] == "GET":
            params = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
            request: JSONObject = dict(params)
            if "extensions" in params:
                request["extensions"] = _json(params["extensions"])
            resolved = await self._resolve(request, scope, send)
            if resolved is None:
                return
            if resolved is not request:
                params["query"] = str(resolved["query"])
                scope = {**scope, "query_string": urlencode(params).encode()}
            await self.app(scope, receive, send)
            return
        body = await read_body(receive) or b""
        payload = _json(body)
        if b"json" in header(scope, b"content-type") and not isinstance(payload, dict | list):
            # Refused here: Strawberry's own parsing fails with a 500 on these.
            await send_error(
                send,
                scope,
                400,
                "BAD_REQUEST",
                "the body must be a JSON object with a `query` (or, with batching on, a list "
                "of them): it is not valid UTF-8 JSON, is nested too deeply, or is not an object",
            )
            return
        if not isinstance(payload, dict):
            await self.app(scope, replay(body, receive), send)
            return
        resolved = await self._resolve(payload, scope, send)
        if resolved is None:
            return
        if resolved is not payload:
            body = orjson.dumps(resolved)
        await self.app(scope, replay(body, receive), send)

    async def _resolve(self, request: JSONObject, scope: Scope, send: Send) -> JSONObject | None:
        """The request with its document; None once a refusal has been sent."""
        extensions = request.get("extensions")
        persisted = extensions.get("persistedQuery") if isinstance(extensions, dict) else None
        document = request.get("query")
        if not isinstance(persisted, dict):
            if isinstance(document, str) and not self.store.allows(document):
                await _refuse_unlisted(scope, send)
                return None
            return request
        digest = persisted.get("sha256Hash")
        if persisted.get("version") != 1 or not isinstance(digest, str):
            await send_error(
                send,
                scope,
                400,
                "BAD_REQUEST",
                "extensions.persistedQuery needs version 1 and a sha256Hash",
            )
            return None
        if isinstance(document, str) and document:
            if sha256(document) != digest.lower():
                await send_error(
                    send,
                    scope,
                    400,
                    "BAD_REQUEST",
                    "provided sha256Hash does not match the query's; send the sha256 of the "
                    "exact query text",
                )
                return None
            if not self.store.allows(document):
                await _refuse_unlisted(scope, send)
                return None
            self.store.put(digest.lower(), document)
            return request
        known = self.store.get(digest.lower())
        if known is None:
            # Apollo's clients look for exactly this message and code, then resend.
            await send_error(
                send, scope, 200, "PERSISTED_QUERY_NOT_FOUND", "PersistedQueryNotFound"
            )
            return None
        return {**request, "query": known}


async def _refuse_unlisted(scope: Scope, send: Send) -> None:
    await send_error(
        send,
        scope,
        400,
        "PERSISTED_QUERY_NOT_ALLOWED",
        "this server runs only registered operations; this query is not one of them",
    )


def _json(raw: str | bytes) -> JSONValue:
    try:
        decoded: JSONValue = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None
    return decoded
