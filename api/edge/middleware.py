"""What the project's ASGI middlewares share: types, headers (read, and added to an
answer), and reading a request body once while letting the app behind read it again."""

from collections.abc import Callable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["ASGIApp", "Message", "Receive", "Scope", "Send"]


def header(scope: Scope, name: bytes) -> bytes:
    """All values of request header ``name`` (lower-case), comma-joined."""
    return b",".join(value for key, value in scope.get("headers", []) if key == name)


def with_media_type_lowered(scope: Scope) -> Scope:
    """``scope`` with its Content-Type's media type in lower case: a media type's type and
    subtype are case-insensitive (RFC 9110, 8.3.1), and `APPLICATION/JSON` must be read as
    JSON, but Strawberry compares them as written. Parameters are left as sent."""
    headers = scope.get("headers", [])
    changed = []
    for name, value in headers:
        if name == b"content-type":
            media, separator, parameters = value.partition(b";")
            value = media.lower() + separator + parameters
        changed.append((name, value))
    return {**scope, "headers": changed} if changed != list(headers) else scope


async def read_body(receive: Receive, limit: int | None = None) -> bytes | None:
    """The whole request body; None if it grows past ``limit`` bytes."""
    chunks = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break  # the client went away; the app behind will see it
        chunk = message.get("body", b"")
        size += len(chunk)
        if limit is not None and size > limit:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def replay(body: bytes, receive: Receive) -> Receive:
    """A receive callable that hands ``body`` to the app behind, then defers to ``receive``."""
    delivered = False

    async def receive_again() -> Message:
        nonlocal delivered
        if not delivered:
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return receive_again


Headers = list[tuple[bytes, bytes]]


def with_headers(send: Send, headers: Callable[[Headers], Headers]) -> Send:
    """``send``, with the response's headers given to ``headers`` and sent as it returns."""

    async def send_with_headers(message: Message) -> None:
        if message["type"] == "http.response.start":
            message["headers"] = headers(list(message.get("headers", [])))
        await send(message)

    return send_with_headers
