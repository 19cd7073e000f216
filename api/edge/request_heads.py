"""Bounds on how a request's line and headers arrive, for `taxonomy serve`.

uvicorn waits for a request's head for as long as the client cares to take: a connection
that sends nothing, or a header byte a second, holds its socket and memory forever (its
`timeout_keep_alive` only runs between requests, and any byte resets it). Nor does its
httptools parser bound a head's size, and what it cannot parse (a URL over 64 KiB, bytes
that are no HTTP) it answers with a plain-text 400. No public setting of uvicorn changes
that, so the server's event loop does: `taxonomy serve` runs uvicorn with
`loop="api.edge.request_heads:new_event_loop"` (uvicorn's documented custom event loop), whose
servers put a HeadGuard in front of each connection's protocol. The guard

- closes a connection whose request head is not complete within `header_timeout_seconds`
  of its first byte (of the connection, for the first request: a silent client);
- refuses a URL the server could not parse with 414 (the app's own limit,
  `max_url_bytes`, is lower: api.edge.http_guards.UrlLimit), and a head over 128 KiB
  with 431;
- answers what is no HTTP/1.1 request with a JSON 400 rather than plain text.

Refusals are JSON errors with a code, as the app's are, with the security headers. The
guard speaks to uvicorn's protocol only through asyncio's Protocol interface: uvicorn makes
its protocol with its own factory, and the guard hands it every byte, in order, a head
once it is whole and checked (api.edge.request_framing)."""

import asyncio
from collections.abc import Callable
from functools import partial
from http import HTTPStatus
from typing import Any, cast

import uvloop

from api.edge.http_guards import error_body
from api.edge.request_framing import HeadLimits, RefusedError, RequestFraming
from api.edge.security_headers import security_headers
from api.settings import Settings

# How long the rest of a refused request is read (and dropped) before closing.
LINGER_SECONDS = 1.0


class HeadGuard(asyncio.Protocol):
    """In front of one connection's protocol (uvicorn's): times and checks each request
    head before the protocol sees it, and passes bodies straight on."""

    def __init__(self, protocol_factory: Callable[[], asyncio.BaseProtocol], limits: HeadLimits):
        self._inner: Any = protocol_factory()
        self._limits = limits
        self._transport: asyncio.Transport | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._loop = asyncio.get_running_loop()  # made by the loop's server, in its loop
        self._framing = RequestFraming(limits)
        self._held: list[bytes] = []  # head bytes not yet handed on
        self._refused = False

    # asyncio's Protocol interface, handed on

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # uvloop's transports are asyncio's in all but name (not registered as subclasses).
        self._transport = cast(asyncio.Transport, transport)
        self._time_head()  # a client that sends nothing is cut at the head's time limit
        self._inner.connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_timing_head()
        self._inner.connection_lost(exc)

    def eof_received(self) -> bool | None:
        return bool(self._inner.eof_received())

    def pause_writing(self) -> None:
        self._inner.pause_writing()

    def resume_writing(self) -> None:
        self._inner.resume_writing()

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return  # the rest of a refused request, read only to be dropped
        framing = self._framing
        if not framing.following:
            self._inner.data_received(data)
            return
        started_in_head = framing.in_head
        if started_in_head:
            self._time_head()  # from a head's first byte
        try:
            heads = framing.feed(data)
        except RefusedError as refusal:
            self._refuse(refusal.status, refusal.message, **refusal.extensions)
            return
        if heads:
            self._stop_timing_head()
            if framing.head_started:
                self._time_head()  # the next request's, already begun (pipelined)
        if started_in_head and not heads:
            self._held.append(data)  # a head still arriving: checked whole before it goes on
            return
        if self._held:
            data, self._held = b"".join([*self._held, data]), []
        self._inner.data_received(data)

    # The head's time limit

    def _time_head(self) -> None:
        if self._timer is None and self._transport is not None:
            self._timer = self._loop.call_later(self._limits.header_timeout_seconds, self._too_slow)

    def _stop_timing_head(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _too_slow(self) -> None:
        self._timer = None
        transport = self._transport
        if self._framing.in_head and transport is not None and not transport.is_closing():
            # Dropped, not answered: a client this slow (or silent) reads no answer either.
            transport.close()

    def _refuse(self, status: HTTPStatus, message: str, **extensions: object) -> None:
        """Answers ``status`` with a JSON error and ends the connection."""
        self._stop_timing_head()
        transport = self._transport
        if self._refused or transport is None or transport.is_closing():
            return
        self._refused = True
        body = error_body("BAD_REQUEST", message, None, None, **extensions)
        headers = security_headers(
            [
                (b"content-type", b"application/json; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ]
        )
        head = [f"HTTP/1.1 {status.value} {status.phrase}".encode()]
        head += [name + b": " + value for name, value in headers]
        transport.write(b"\r\n".join(head) + b"\r\n\r\n" + body)
        # Closed with the client still sending, the socket would be reset, and the client
        # read a reset rather than the answer: so the answer is sent, then the rest of the
        # request read and dropped for a moment before the connection is closed.
        if transport.can_write_eof():
            transport.write_eof()
        self._loop.call_later(LINGER_SECONDS, transport.close)


class GuardedLoop(uvloop.Loop):
    """uvloop's event loop, whose servers put a HeadGuard in front of each connection."""

    limits = HeadLimits(header_timeout_seconds=10.0, max_url_bytes=16_384)

    async def create_server(
        self, protocol_factory: Callable[[], asyncio.BaseProtocol], *args: Any, **kwargs: Any
    ) -> asyncio.Server:
        guarded = partial(HeadGuard, protocol_factory, self.limits)
        # uvloop's own Server, typed there as the abstract one.
        return cast(asyncio.Server, await super().create_server(guarded, *args, **kwargs))


def new_event_loop() -> asyncio.AbstractEventLoop:
    """The event loop of each `taxonomy serve` worker (uvicorn's `loop` setting), with the
    limits of the settings that worker reads from the environment, as its app does."""
    settings = Settings()
    loop = GuardedLoop()
    loop.limits = HeadLimits(settings.header_timeout_seconds, settings.max_url_bytes)
    return loop
