"""Counting the SQL statements a PostgreSQL client runs, from the wire, in a TCP proxy.

The peer (PostGraphile) cannot say how many statements a request ran, and
pg_stat_statements would need the shared server restarted. So the peer is pointed at this
proxy while its statements are counted: it forwards bytes both ways unchanged and reads
the client's messages of the v3 protocol: a simple Query ('Q') counts its statements, an
Execute ('E') counts the statement its portal was bound to (Parse 'P' names it, Bind 'B'
binds it). Transaction control (BEGIN, COMMIT, ROLLBACK, SET, ...) is not counted, as our
server's and the floor's counts leave out their BEGIN and ROLLBACK.

It never times anything: the timed runs connect to PostgreSQL directly.
"""

import asyncio
import re
import struct
import threading
from dataclasses import dataclass, field

_CONTROL = re.compile(
    r"^\s*(BEGIN|COMMIT|ROLLBACK|START\s+TRANSACTION|END|SET|RESET|DISCARD|DEALLOCATE|"
    r"SAVEPOINT|RELEASE|SHOW)\b",
    re.IGNORECASE,
)
_SSL_REQUEST = 80877103
_GSS_REQUEST = 80877104


def counts(sql: str) -> int:
    """How many statements of ``sql`` (possibly several, `;`-separated) are counted."""
    parts = [part for part in sql.split(";") if part.strip()]
    return sum(1 for part in parts if not _CONTROL.match(part))


def _cstring(data: bytes, start: int) -> tuple[str, int]:
    end = data.index(b"\0", start)
    return data[start:end].decode("utf-8", "replace"), end + 1


@dataclass
class _Session:
    """One client connection's prepared statements and portals."""

    statements: dict[str, str] = field(default_factory=dict)
    portals: dict[str, str] = field(default_factory=dict)


class StatementCounter:
    """A proxy on 127.0.0.1:``port`` to ``upstream``, counting statements as it forwards."""

    def __init__(self, upstream_host: str, upstream_port: int) -> None:
        self._upstream = (upstream_host, upstream_port)
        self._lock = threading.Lock()
        self._count = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: asyncio.Server | None = None
        self._thread: threading.Thread | None = None
        self._streams: set[asyncio.StreamWriter] = set()  # of the open connections, both ends
        self.port = 0

    @property
    def count(self) -> int:
        with self._lock:
            return self._count

    def _add(self, n: int) -> None:
        if n:
            with self._lock:
                self._count += n

    def _on_message(self, session: _Session, kind: bytes, body: bytes) -> None:
        if kind == b"Q":
            self._add(counts(_cstring(body, 0)[0]))
        elif kind == b"P":
            name, offset = _cstring(body, 0)
            session.statements[name] = _cstring(body, offset)[0]
        elif kind == b"B":
            portal, offset = _cstring(body, 0)
            statement, _ = _cstring(body, offset)
            session.portals[portal] = session.statements.get(statement, "")
        elif kind == b"E":
            self._add(counts(session.portals.get(_cstring(body, 0)[0], "")))

    async def _client_to_server(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        upstream: asyncio.StreamWriter,
    ) -> None:
        session = _Session()
        # Startup: untyped messages; refuse SSL and GSS encryption so the rest stays legible.
        while True:
            (length,) = struct.unpack("!I", await reader.readexactly(4))
            payload = await reader.readexactly(length - 4)
            code = struct.unpack("!I", payload[:4])[0]
            if code in (_SSL_REQUEST, _GSS_REQUEST):
                writer.write(b"N")
                await writer.drain()
                continue
            upstream.write(struct.pack("!I", length) + payload)
            break
        while True:
            header = await reader.readexactly(5)
            kind, length = header[:1], struct.unpack("!I", header[1:])[0]
            body = await reader.readexactly(length - 4)
            self._on_message(session, kind, body)
            upstream.write(header + body)
            await upstream.drain()

    @staticmethod
    async def _server_to_client(
        upstream: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        while data := await upstream.read(65536):
            writer.write(data)
            await writer.drain()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(*self._upstream)
        self._streams.update((writer, up_writer))
        tasks = [
            asyncio.ensure_future(self._client_to_server(reader, writer, up_writer)),
            asyncio.ensure_future(self._server_to_client(up_reader, writer)),
        ]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:
                task.cancel()
                # A closed connection ends its copier with an error; that is the end of it.
                task.add_done_callback(lambda done: done.cancelled() or done.exception())
            for stream in (writer, up_writer):
                stream.close()
                self._streams.discard(stream)

    def start(self) -> int:
        """Listen on a free port in a background thread; returns the port."""
        ready = threading.Event()

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            self._server = loop.run_until_complete(
                asyncio.start_server(self._handle, "127.0.0.1", 0)
            )
            self.port = self._server.sockets[0].getsockname()[1]
            ready.set()
            loop.run_forever()

        self._thread = threading.Thread(target=run, name="pgcount", daemon=True)
        self._thread.start()
        ready.wait()
        return self.port

    async def _shut(self) -> None:
        """Stop listening and end every connection's copiers, so that none is left pending
        when the loop closes (Python would print each as destroyed while pending)."""
        if self._server is not None:
            self._server.close()
        # Closing the sockets ends each connection's copiers as the other end's close would.
        for stream in list(self._streams):
            stream.transport.abort()
        while pending := [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]:
            await asyncio.wait(pending)

    def stop(self) -> None:
        if self._loop is None:
            return
        asyncio.run_coroutine_threadsafe(self._shut(), self._loop).result(timeout=10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        if self._thread is not None:
            self._thread.join(timeout=5)
        if not self._loop.is_running():
            self._loop.close()
