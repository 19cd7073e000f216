"""The response cache's answers shared by the worker processes of one machine.

Each worker keeps its own answers in memory (api.edge.response_cache.LRU), so with N
workers a page was worked out up to N times, once in each: with 64 clients on the
browser's pages at M, about a quarter of the requests missed, and the misses took the
CPU. Here the workers of one server also keep their answers in one directory (a
diskcache, SQLite and files), so that a page one worker has worked out is a hit in every
other: a lookup costs tens of microseconds, a miss tens of milliseconds.

The shared tier is never needed for an answer: when it is busy past a short timeout,
or fails in any way, the request goes on as a miss (or the answer goes unshared), with
one line in the log; an answer is never refused or changed by it.

Answers are kept as bytes (a line of JSON for the status, headers and operation, then
the body), not pickled: nothing read from the directory is ever run. Keys start with a
fingerprint of the server's settings, so that servers with other limits sharing one
directory never answer each other's requests; keys also carry the data version, which is
unique to each load in any database (store.data_version)."""

import hashlib
import logging
import sqlite3
from pathlib import Path

import diskcache
import orjson

from api.edge.response_cache import LRU, Cached, too_big_to_keep

log = logging.getLogger(__name__)

# How long a lookup or a write may wait for another worker's write: a hit costs tens of
# microseconds, so waiting longer than this is slower than going on without it.
BUSY_SECONDS = 0.05


class SharedAnswers:
    """Answers in ``directory``, at most ``max_bytes`` of them (least recently stored out
    first), under keys that start with ``namespace``."""

    def __init__(self, directory: Path, max_bytes: int, namespace: str) -> None:
        self.namespace, self.max_bytes = namespace, max_bytes
        self.answers = diskcache.Cache(
            str(directory),
            size_limit=max_bytes,
            timeout=BUSY_SECONDS,
            # No write on a read: a lookup only reads.
            eviction_policy="least-recently-stored",
        )

    def get(self, key: str) -> Cached | None:
        try:
            stored = self.answers.get(f"{self.namespace}:{key}", retry=False)
        except (diskcache.Timeout, sqlite3.Error, OSError) as exc:
            log.warning("shared response cache: lookup failed, answering as a miss: %s", exc)
            return None
        return _decoded(stored) if isinstance(stored, bytes) else None

    def put(self, key: str, answer: Cached) -> None:
        if too_big_to_keep(answer, self.max_bytes):
            return
        try:
            self.answers.set(f"{self.namespace}:{key}", _encoded(answer), retry=False)
        except (diskcache.Timeout, sqlite3.Error, OSError) as exc:
            log.warning("shared response cache: an answer was not shared: %s", exc)

    def close(self) -> None:
        self.answers.close()


class SharedAnswersError(Exception):
    """The directory cannot hold shared answers; the message says which and why."""


def open_shared_answers(directory: Path, megabytes: int, settings_json: str) -> SharedAnswers:
    """The shared answers in ``directory`` for a server with these settings (JSON)."""
    try:
        return SharedAnswers(directory, megabytes << 20, _fingerprint(settings_json))
    except (sqlite3.Error, OSError) as exc:
        raise SharedAnswersError(
            f"TAXONOMY_RESPONSE_CACHE_DIR={str(directory)!r}: cannot keep answers there ({exc}); "
            "name a directory this user may write, or unset it"
        ) from None


class MachineAnswers:
    """The worker's own answers first, then those its machine's workers share: a shared
    hit is kept in the worker's own tier too."""

    def __init__(self, own: LRU, shared: SharedAnswers) -> None:
        self.own, self.shared = own, shared

    def get(self, key: str) -> Cached | None:
        found = self.own.get(key)
        if found is None:
            found = self.shared.get(key)
            if found is not None:
                self.own.put(key, found)
        return found

    def put(self, key: str, answer: Cached) -> None:
        self.own.put(key, answer)
        self.shared.put(key, answer)

    def close(self) -> None:
        self.shared.close()


def _fingerprint(settings_json: str) -> str:
    """A short name for the settings that shape answers (the whole of them, to be safe)."""
    return hashlib.sha256(settings_json.encode()).hexdigest()[:16]


def _encoded(answer: Cached) -> bytes:
    head = orjson.dumps(
        [
            answer.status,
            [[name.decode("latin-1"), value.decode("latin-1")] for name, value in answer.headers],
            answer.operation,
        ]
    )
    return head + b"\n" + answer.body  # orjson escapes every newline inside the head


def _decoded(stored: bytes) -> Cached | None:
    head, _, body = stored.partition(b"\n")
    try:
        status, headers, operation = orjson.loads(head)
        return Cached(
            status,
            [(name.encode("latin-1"), value.encode("latin-1")) for name, value in headers],
            body,
            operation,
        )
    except (orjson.JSONDecodeError, ValueError, TypeError) as exc:
        log.warning("shared response cache: an unreadable entry, answered as a miss: %s", exc)
        return None
