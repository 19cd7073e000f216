"""Every answer of /graphql says which data it was read from and how long it may be kept:
a `Data-Version` header (and, in the body, `extensions.dataVersion`: api.endpoint.view and
api.edge.http_guards.send_error read it from the request's state, set here), `Cache-Control`
and `Vary`.

The version is the one the answer was read from: the one this server was serving when
the request came in (polled: store.data_version), replaced by the version of the request's
snapshot once it begins (schema.SnapshotVersion), so that an answer read just after a load
is never labelled with the version before it. The same version tags the response cache's
entries, the ETag and the cursors, so a client can tell answers of two loads apart.
Answers with an ETag (a query's answer without errors: api.edge.response_cache) may be kept
``max_age`` seconds, then revalidated with `If-None-Match` (a 304 costs no statement); 0,
the default, revalidates every time, so no client cache serves a load's old data once the
server has moved on.
Everything else (errors, refusals, 503s) is `no-store`."""

from api.edge.middleware import ASGIApp, Headers, Receive, Scope, Send, with_headers
from store.data_version import DataVersion

DATA_VERSION_HEADER = b"data-version"
# The answer's media type depends on Accept (GraphQL over HTTP); a POST's Content-Type
# decides whether it is read at all, but HTTP caches keep only GETs.
VARY = (b"vary", b"Accept")


def data_version_of(scope: Scope) -> str | None:
    """The data version the request is answered from (None: unknown, or not loaded)."""
    version: str | None = scope.get("state", {}).get("data_version")
    return version


def cache_control(max_age: int) -> bytes:
    """The Cache-Control of an answer with a validator (ETag)."""
    return b"public, no-cache" if max_age <= 0 else f"public, max-age={max_age}".encode()


class Freshness:
    def __init__(self, app: ASGIApp, version: DataVersion, max_age: int = 0) -> None:
        self.app = app
        self.version = version
        self.with_validator = cache_control(max_age)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        # One reading for the whole request, until its snapshot says which data it reads.
        scope.setdefault("state", {})["data_version"] = self.version.current

        def headers(given: Headers) -> Headers:
            names = {name for name, _ in given}
            added = [VARY]
            current = data_version_of(scope)
            if current is not None:
                added.append((DATA_VERSION_HEADER, current.encode()))
            if b"cache-control" not in names:
                validated = b"etag" in names
                added.append((b"cache-control", self.with_validator if validated else b"no-store"))
            return [*given, *added]

        await self.app(scope, receive, with_headers(send, headers))
