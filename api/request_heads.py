"""Bounds on how a request's line and headers arrive, for `taxonomy serve`.

uvicorn waits for a request's head for as long as the client cares to take: a connection
that sends nothing, or a header byte a second, holds its socket and memory forever (its
`timeout_keep_alive` only runs between requests, and any byte resets it). Nor does its
httptools parser bound a head's size, and what it cannot parse (a URL over 64 KiB, bytes
that are no HTTP) it answers with a plain-text 400. No public setting of uvicorn changes
that, so the server's event loop does: `taxonomy serve` runs uvicorn with
`loop="api.request_heads:new_event_loop"` (uvicorn's documented custom event loop), whose
servers put a HeadGuard in front of each connection's protocol. The guard

- closes a connection whose request head is not complete within `header_timeout_seconds`
  of its first byte (of the connection, for the first request: a silent client);
- refuses a URL the server could not parse with 414 (the app's own limit,
  `max_url_bytes`, is lower: api.http_guards.UrlLimit), and a head over MAX_HEAD_BYTES
  with 431;
- answers what is no HTTP/1.1 request with a JSON 400 rather than plain text.

Refusals are JSON errors with a code, as the app's are, with the security headers. The
guard speaks to uvicorn's protocol only through asyncio's Protocol interface: uvicorn makes
its protocol with its own factory, and the guard hands it every byte, in order, a head
once it is whole and checked. It finds where each request's head ends and how long its
body is (RequestFraming) with a few regular expressions rather than h11, which parsed the
seed query's request in 38 microseconds against their 10 (measured on this busy machine)."""

import asyncio
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from http import HTTPStatus
from typing import Any, cast

import uvloop

from api.http_guards import error_body, url_too_long
from api.security_headers import security_headers
from api.settings import Settings

# The longest URL uvicorn's URL parser takes (httptools.parse_url: 16-bit offsets).
PARSEABLE_URL_BYTES = 65_535
# A request line and headers: room for any URL the app takes and 64 KiB of headers.
MAX_HEAD_BYTES = PARSEABLE_URL_BYTES + 65_536
# How long the rest of a refused request is read (and dropped) before closing.
LINGER_SECONDS = 1.0


@dataclass(frozen=True)
class HeadLimits:
    header_timeout_seconds: float
    max_url_bytes: int


class RefusedError(Exception):
    def __init__(self, status: HTTPStatus, message: str, **extensions: Any) -> None:
        super().__init__(message)
        self.status, self.message, self.extensions = status, message, extensions


def _too_long_url(limits: HeadLimits) -> RefusedError:
    message, extensions = url_too_long(limits.max_url_bytes)
    return RefusedError(HTTPStatus.REQUEST_URI_TOO_LONG, message, **extensions)


def _head_too_long() -> RefusedError:
    return RefusedError(
        HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE,
        f"the request line and headers are over {MAX_HEAD_BYTES:,} bytes",
    )


_TOKEN = rb"[!#$%&'*+\-.^_`|~0-9A-Za-z]+"
# A request line and its field lines (RFC 9112), less the empty line that ends them; the
# request target is its group.
_HEAD = re.compile(
    _TOKEN
    + rb" ([^\x00-\x20\x7f]+) HTTP/1\.[01]"
    + rb"(?:\r\n"
    + _TOKEN
    + rb":[^\x00-\x08\x0a-\x1f\x7f]*)*"
)
# The fields that say where a body ends, or that what follows is no more HTTP/1.1: a
# chunked body or a protocol switch, from which on the connection's bytes go straight
# through (uvicorn still parses them, and keeps its own limits).
_FRAMING = re.compile(
    rb"\r\n(content-length|transfer-encoding|upgrade):[ \t]*([^\r\n]*?)[ \t]*(?=\r\n|\Z)",
    re.IGNORECASE,
)
# The longest request line whose URL uvicorn can parse.
_MAX_LINE_BYTES = PARSEABLE_URL_BYTES + len(b"OPTIONS  HTTP/1.1\r")


EMPTY_LINE = b"\r\n"


def _end_of_head(data: bytes | bytearray, start: int) -> tuple[int, int]:
    """Where the head that begins at ``start`` ends, and where what follows it begins;
    (-1, -1) before its empty line. Lines ended by a bare LF end it too: uvicorn's parser
    refuses them, and so does the head's check, in JSON rather than hanging on."""
    end = data.find(b"\r\n\r\n", start)
    bare = data.find(b"\n\n", start, None if end < 0 else end)
    if bare >= 0:
        return (bare - 1 if data[bare - 1 : bare] == b"\r" else bare), bare + 2
    return (end, end + 4) if end >= 0 else (-1, -1)


class RequestFraming:
    """Where each request's head ends and its body does, in a connection's bytes; each
    head checked as it completes (RefusedError)."""

    def __init__(self, limits: HeadLimits) -> None:
        self.limits = limits
        self.in_head = True  # a head is arriving (or awaited); else a body
        self.following = True  # False once what follows is no plain HTTP/1.1 request
        self._head = bytearray()  # a head begun in an earlier read
        self._body_left = 0

    @property
    def head_started(self) -> bool:
        """Part of a head has arrived, not all of it."""
        return self.in_head and bool(self._head)

    def feed(self, data: bytes) -> int:
        """Reads ``data``; how many heads it completed."""
        heads = 0
        at = 0
        while at < len(data) and self.following:
            if not self.in_head:
                taken = min(self._body_left, len(data) - at)
                self._body_left -= taken
                at += taken
                self.in_head = self._body_left == 0
                continue
            if self._head:
                begun = len(self._head)
                self._head += data[at:]
                while self._head.startswith(EMPTY_LINE):  # empty lines, sent in pieces
                    del self._head[:2]
                    begun -= 2
                end, rest = _end_of_head(self._head, max(0, begun - 3))
                if end < 0:
                    return heads + self._check_incomplete()
                head = bytes(self._head[:end])
                at += rest - begun
                self._head.clear()
            elif data.startswith(EMPTY_LINE, at):
                at += 2  # an empty line before a request: ignored (RFC 9112, 2.2)
                continue
            else:
                end, rest = _end_of_head(data, at)
                if end < 0:
                    self._head += data[at:]
                    return heads + self._check_incomplete()
                head = data[at:end]
                at = rest
            self._check(head)
            heads += 1
            self.in_head = self._body_left == 0
        return heads

    def _check_incomplete(self) -> int:
        head = self._head
        if len(head) > _MAX_LINE_BYTES and b"\n" not in head[:_MAX_LINE_BYTES]:
            raise _too_long_url(self.limits)
        if len(head) > MAX_HEAD_BYTES:
            raise _head_too_long()
        return 0

    def _check(self, head: bytes) -> None:
        parsed = _HEAD.fullmatch(head) if len(head) <= MAX_HEAD_BYTES else None
        if parsed is None or parsed.end(1) - parsed.start(1) > PARSEABLE_URL_BYTES:
            line = head.split(b"\n", 1)[0].rstrip(b"\r")
            if len(line) > _MAX_LINE_BYTES or parsed is not None:
                raise _too_long_url(self.limits)
            if len(head) > MAX_HEAD_BYTES:
                raise _head_too_long()
            shown = line[:80].decode("latin-1")
            raise RefusedError(
                HTTPStatus.BAD_REQUEST, f"not an HTTP/1.1 request line and headers: {shown!r}"
            )
        lengths = set()
        for name, value in _FRAMING.findall(head):
            if len(name) != len(b"content-length"):
                self.following = False  # transfer-encoding or upgrade
            elif value.isdigit():
                lengths.add(int(value))
            else:
                lengths.add(-1)
        if len(lengths) > 1 or -1 in lengths:
            raise RefusedError(HTTPStatus.BAD_REQUEST, "a Content-Length that is no one number")
        self._body_left = lengths.pop() if lengths else 0
        if head.startswith(b"CONNECT "):
            self.following = False


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

    def _refuse(self, status: HTTPStatus, message: str, **extensions: Any) -> None:
        """Answers ``status`` with a JSON error and ends the connection."""
        self._stop_timing_head()
        transport = self._transport
        if self._refused or transport is None or transport.is_closing():
            return
        self._refused = True
        body = error_body("BAD_REQUEST", message, None, **extensions)
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
