"""A TCP proxy that a test owns: it forwards a local port to a target (PostgreSQL) and can
be cut (every connection closed, new ones refused) and restored on the same port, so a
test can take the database away from a server without touching the shared database."""

import asyncio
import contextlib
import socket
import threading
from concurrent.futures import Future
from typing import Any


class TcpProxy:
    """Runs in a thread of its own, with its own event loop; use as a context manager."""

    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port: int = sock.getsockname()[1]
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self.connections = 0  # accepted since the start

    def __enter__(self) -> "TcpProxy":
        self._thread.start()
        self.restore()
        return self

    def __exit__(self, *_: Any) -> None:
        self._run(self._close())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)
        self._loop.close()

    def _run(self, coroutine: Any) -> Any:
        future: Future[Any] = asyncio.run_coroutine_threadsafe(coroutine, self._loop)
        return future.result(timeout=10)

    def cut(self) -> None:
        """Stop listening (new connections are refused) and close every open one."""
        self._run(self._cut())

    def restore(self) -> None:
        """Listen again on the same port."""
        self._run(self._listen())

    async def _listen(self) -> None:
        if self._server is None:
            self._server = await asyncio.start_server(
                self._accept, "127.0.0.1", self.port, reuse_address=True
            )

    async def _cut(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None
        writers, self._writers = list(self._writers), set()
        await asyncio.gather(*(_abort(writer) for writer in writers))

    async def _close(self) -> None:
        """Cut, then let every connection's tasks finish, so that none is left pending
        when the loop closes."""
        await self._cut()
        while pending := [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]:
            await asyncio.wait(pending)

    async def _accept(
        self, client_reader: asyncio.StreamReader, client: asyncio.StreamWriter
    ) -> None:
        self.connections += 1
        try:
            server_reader, server = await asyncio.open_connection(*self.target)
        except OSError:
            await _abort(client)
            return
        if self._server is None:  # cut while connecting: this one is cut too, not left open
            await asyncio.gather(_abort(client), _abort(server))
            return
        self._writers.update((client, server))
        await asyncio.gather(self._pipe(client_reader, server), self._pipe(server_reader, client))

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            self._writers.discard(writer)
            await _abort(writer)


async def _abort(writer: asyncio.StreamWriter) -> None:
    """Drop the connection and wait until its socket is closed: abort() only schedules
    the close, and a loop that stopped before running it would leave the socket to the
    garbage collector (an "unclosed socket" ResourceWarning, failing whatever test runs
    then: seen once in CI's cut-away test)."""
    writer.transport.abort()
    with contextlib.suppress(Exception):  # the reason it closed is not ours to report
        await writer.wait_closed()
