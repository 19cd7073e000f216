"""Where each request's head ends and its body does, in a connection's bytes, and each
head checked as it completes: the framing api.edge.request_heads times and bounds heads by.

A few regular expressions rather than a parser such as h11: they find the head's end, check
its lines' syntax (RFC 9112) and read the fields that say where its body ends. h11 did the
same for the seed query's POST in 38 microseconds against their 10 (measured on this busy
machine). A chunked body or a protocol switch is not followed: from there on, the
connection's bytes go straight through, and uvicorn's parser alone reads them."""

import re
from dataclasses import dataclass
from http import HTTPStatus

from api.edge.http_guards import url_too_long

# The longest URL uvicorn's URL parser takes (httptools.parse_url: 16-bit offsets).
PARSEABLE_URL_BYTES = 65_535
# A request line and headers: room for any URL the app takes and 64 KiB of headers.
MAX_HEAD_BYTES = PARSEABLE_URL_BYTES + 65_536


@dataclass(frozen=True)
class HeadLimits:
    header_timeout_seconds: float
    max_url_bytes: int


class RefusedError(Exception):
    def __init__(self, status: HTTPStatus, message: str, **extensions: object) -> None:
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
            if name.lower() != b"content-length":
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
