"""One structured line per request, on the logger `taxonomy.requests` (TAXONOMY_REQUEST_LOG
turns it off).

Each line is a JSON object: the request id (as in the `x-request-id` header and in the
errors' `extensions.requestId`), method, path, operation name, status, duration in
milliseconds, `cache` (`hit`, `miss`, or null when the answer could not come from the
cache) and the SQL statements the request ran. Never the query string (a GET's variables
are in it), the body or a variable's value: what the client asked for is its own.

The layers behind fill in what only they know, in the request's ASGI state (RECORD):
the operation and its reader (api.app), whether the cache answered (api.edge.response_cache)."""

import copy
import logging
import time
from typing import Any, TypeVar

import orjson
import uvicorn.config

from api.edge.middleware import ASGIApp, Message, Receive, Scope, Send

LOGGER = "taxonomy.requests"
log = logging.getLogger(LOGGER)
# The key, in scope["state"], of what the layers behind record for the log.
RECORD = "request_log"


# A logged text longer than this is cut, with a marker that says how long it was: an
# operation name is the client's to choose, up to the body limit (a 900 KB name was
# written whole, once a request).
MAX_FIELD_CHARS = 200
T = TypeVar("T")


def cut(value: T) -> T | str:
    """``value``, cut to MAX_FIELD_CHARS with a marker if it is a longer text."""
    if isinstance(value, str) and len(value) > MAX_FIELD_CHARS:
        return f"{value[:MAX_FIELD_CHARS]}…[cut: {len(value):,} chars]"
    return value


def record(scope: Scope, **facts: object) -> None:
    """Notes ``facts`` about this request for its log line (when it is logged)."""
    noted = scope.get("state", {}).get(RECORD)
    if noted is not None:
        noted.update(facts)


def recorded(scope: Scope, fact: str) -> Any:
    """What was noted of ``fact`` so far (None if nothing, or if requests are not logged)."""
    return scope.get("state", {}).get(RECORD, {}).get(fact)


class RequestLog:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not log.isEnabledFor(logging.INFO):
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        state = scope.setdefault("state", {})
        noted: dict[str, Any] = {}
        state[RECORD] = noted
        status = 500  # what the server answers when the app fails before answering

        async def send_noting_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_noting_status)
        finally:
            reader = noted.get("reader")
            line = {
                "requestId": state.get("request_id"),
                "method": scope["method"],
                "path": scope["path"],
                "operation": noted.get("operation"),
                "status": status,
                "ms": round((time.perf_counter() - started) * 1000, 2),
                "cache": noted.get("cache"),
                "statements": reader.statements if reader is not None else 0,
            }
            log.info("%s", orjson.dumps({key: cut(value) for key, value in line.items()}).decode())


def log_config() -> dict[str, Any]:
    """uvicorn's logging configuration, plus this project's loggers: `taxonomy.requests`,
    one JSON object a line on standard output (beside uvicorn's access log, were it on),
    and the rest of `taxonomy` (faults with their request id) on standard error."""
    config = copy.deepcopy(uvicorn.config.LOGGING_CONFIG)
    config["formatters"]["line"] = {"format": "%(message)s"}
    config["handlers"]["requests"] = {
        "class": "logging.StreamHandler",
        "formatter": "line",
        "stream": "ext://sys.stdout",
    }
    config["loggers"]["taxonomy"] = {"handlers": ["default"], "level": "INFO", "propagate": False}
    config["loggers"][LOGGER] = {"handlers": ["requests"], "level": "INFO", "propagate": False}
    return config
