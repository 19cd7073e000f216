"""uvicorn's HTTP/1.1 protocol (httptools), with bounds on how a request's head arrives.

uvicorn waits for a request's line and headers for as long as the client cares to take:
a connection that sends nothing, or a header byte a second, holds its socket and memory
forever (its keep-alive timeout only runs between requests, and any byte resets it). Nor
does it bound their size, and a URL over 64 KiB fails its URL parser with a plain-text
400. `taxonomy serve` runs this protocol instead, which

- closes a connection whose request head is not complete within `header_timeout_seconds`
  of its first byte (of the connection, for the first request: a silent client);
- refuses a URL the app could not be given (its own limit, `max_url_bytes`, is lower:
  api.http_guards.UrlLimit) with 414, and a head over MAX_HEAD_BYTES with 431;
- answers what httptools cannot parse with a JSON 400 rather than plain text.

Refusals are JSON errors with a code, as the app's are, with the security headers."""

import asyncio
from functools import cache
from http import HTTPStatus
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from api.http_guards import error_body, url_too_long
from api.security_headers import security_headers
from api.settings import Settings

# The longest URL uvicorn's URL parser takes (httptools.parse_url: 16-bit offsets).
PARSEABLE_URL_BYTES = 65_535
# A request line and headers: room for any URL the app takes and 64 KiB of headers.
MAX_HEAD_BYTES = PARSEABLE_URL_BYTES + 65_536
# How long the rest of a refused request is read (and dropped) before closing.
LINGER_SECONDS = 1.0


@cache
def _settings() -> Settings:
    # Each worker process reads its settings from the environment, as the app does.
    return Settings()


class BoundedHttpProtocol(HttpToolsProtocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        settings = _settings()
        self._head_timeout = settings.header_timeout_seconds
        self._max_url_bytes = settings.max_url_bytes
        self._head_timer: asyncio.TimerHandle | None = None
        # Bytes of the request head being read; None while a body or an answer is.
        self._head_bytes: int | None = 0
        self._url_bytes = 0
        self._field_bytes = 0  # of its headers, as httptools hands them over
        self._refused = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._time_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_timing_head()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return  # the rest of a refused request, read only to be dropped
        if self._head_bytes is not None:
            self._head_bytes += len(data)
        super().data_received(data)
        if self._head_bytes is not None and self._head_bytes > MAX_HEAD_BYTES:
            self._refuse_head()  # still incomplete, and already too long

    # httptools' callbacks, as the request is parsed

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._url_bytes = self._field_bytes = 0
        self._time_head()

    def on_url(self, url: bytes) -> None:
        self._url_bytes += len(url)
        if self._url_bytes > PARSEABLE_URL_BYTES:
            message, extensions = url_too_long(self._max_url_bytes)
            self._refuse(HTTPStatus.REQUEST_URI_TOO_LONG, message, **extensions)
            return
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        # A whole head may come in one read, and be parsed before data_received can count.
        self._field_bytes += len(name) + len(value)
        if self._url_bytes + self._field_bytes > MAX_HEAD_BYTES:
            self._refuse_head()
            return
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._stop_timing_head()
        self._head_bytes = None
        if not self._refused:
            super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._head_bytes = 0  # what comes next is the next request's head

    def send_400_response(self, msg: str) -> None:
        # uvicorn's answer to what httptools cannot parse, in plain text otherwise.
        self._refuse(HTTPStatus.BAD_REQUEST, f"not an HTTP/1.1 request: {msg}")

    # The head's time limit

    def _time_head(self) -> None:
        if self._head_timer is None:
            self._head_timer = self.loop.call_later(self._head_timeout, self._head_too_slow)

    def _stop_timing_head(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_too_slow(self) -> None:
        self._head_timer = None
        if self._head_bytes is not None and not self.transport.is_closing():
            # Dropped, not answered: a client this slow (or silent) reads no answer either.
            self.transport.close()

    def _refuse_head(self) -> None:
        self._refuse(
            HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE,
            f"the request line and headers are over {MAX_HEAD_BYTES:,} bytes",
        )

    def _refuse(self, status: HTTPStatus, message: str, **extensions: Any) -> None:
        """Answers ``status`` with a JSON error and ends the connection."""
        self._stop_timing_head()
        if self._refused or self.transport.is_closing():
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
        self.transport.write(b"\r\n".join(head) + b"\r\n\r\n" + body)
        # Closed with the client still sending, the socket would be reset, and the client
        # read a reset rather than the answer: so the answer is sent, then the rest of the
        # request read and dropped for a moment before the connection is closed.
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self.loop.call_later(LINGER_SECONDS, self.transport.close)
