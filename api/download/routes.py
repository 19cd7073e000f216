"""The download routes: `/download/<table>.csv` and `.json` (api.download.tables), each a
streamed response that runs the table's operation a chunk at a time, walking its cursor.

The first chunk runs before the answer starts, so that what is wrong with the request is
said with its status: 400 for a parameter the table does not take (or the API refuses),
404 for a node, method, model or release that does not exist, 503 (with Retry-After) when
the database is away or too slow. Then the rows stream, a chunk per execution, each under
`request_timeout_seconds` (its statements under the same statement timeout as /graphql's),
the whole under `download_timeout_seconds`. A download that cannot go on (the data was
reloaded since its first chunk, a chunk failed, the time ran out) ends with a last line
that says so (api.download.writers), never with rows of two releases."""

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import orjson
from graphql import GraphQLError
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route
from strawberry import Schema

from api.download.tables import TABLES, BadParameterError, MissingError, Params, Table
from api.download.writers import WRITERS, Writer
from api.edge.freshness import DATA_VERSION_HEADER
from api.edge.http_guards import RETRY_AFTER, RETRY_LATER_CODES
from api.edge.request_log import record
from schema.context import Context
from schema.errors import time_limit_message
from store.reader import Deadline

# How long a chunk stopped at its deadline may take to unwind (api.edge.http_guards.TimeLimit's).
GRACE_SECONDS = 0.5


class StopError(Exception):
    """A chunk that gives no rows: before the answer starts, its status and message; after,
    the code and message of the stream's last line."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Chunk:
    rows: list[dict[str, Any]]
    after: str | None  # the next chunk's cursor; None after the last
    version: str | None  # the data version its snapshot read


def release_of(version: str | None) -> str:
    """A data version's release number (`7-<identity>`), as a reader says it."""
    return "?" if version is None else version.partition("-")[0]


class Download:
    """One table's download for one request, in one format."""

    def __init__(
        self,
        schema: Schema,
        table: Table,
        request: Request,
        writer: Writer,
        variables: dict[str, object],
        *,
        chunk_seconds: float,
        download_seconds: float,
    ) -> None:
        self.schema = schema
        self.table = table
        self.request = request
        self.writer = writer
        self.variables = variables
        self.chunk_seconds = chunk_seconds
        self.download_seconds = download_seconds
        self.deadline = Deadline.after(download_seconds)
        # The data version of the first chunk: every next one must read the same.
        self.version: str | None = None
        # The SQL statements its chunks have run, for the request's log line, which reads
        # them (as a reader's) once the download is over.
        self.statements = 0
        record(request.scope, operation=table.operation, reader=self)

    async def chunk(self, after: str | None) -> Chunk:
        """The next rows, read under the chunk's own time limit (and within the download's)."""
        left = self.deadline.at - time.monotonic()
        if left <= 0:
            raise self._over_time()
        seconds = min(self.chunk_seconds, left)
        deadline = Deadline.after(seconds)
        context = Context.for_request(
            self.request.app.state.request_engine, self.request, deadline=deadline
        )
        context.request_id = self.request.scope.get("state", {}).get("request_id")
        variables = {**self.variables, "first": self.table.chunk, "after": after}
        try:
            async with asyncio.timeout(seconds + GRACE_SECONDS):
                result = await self.schema.execute(
                    self.table.document, variable_values=variables, context_value=context
                )
        except TimeoutError:
            raise self._timed_out() from None
        finally:
            self.statements += context.reader.statements
        if self.version is not None and context.data_version != self.version:
            # Checked first: the load may also have expired the cursor (a search's).
            raise StopError(
                409,
                "DATA_RELOADED",
                f"the data was reloaded during the download (release "
                f"{release_of(self.version)}, now {release_of(context.data_version)}): the "
                f"rows above are release {release_of(self.version)}'s; download again for "
                "the new release's",
            )
        self.version = context.data_version
        if result.errors:
            raise self._refusal(result.errors)
        assert result.data is not None
        found = result.data
        if self.table.subject is not None:
            found = found["subject"]
            if found is None:
                raise self._missing()
        rows = found["rows"]
        page = rows["pageInfo"]
        return Chunk(
            [self.table.row(node) for node in rows["nodes"]],
            page["endCursor"] if page["hasNextPage"] else None,
            context.data_version,
        )

    def _over_time(self) -> StopError:
        return StopError(
            503,
            "TIMEOUT",
            f"the download ran over the limit `download_timeout_seconds` of "
            f"{self.download_seconds:g} s and was stopped; narrow it with the page's filters",
        )

    def _missing(self) -> StopError:
        assert self.table.subject is not None
        params = Params(self.request.path_params, self.request.query_params)
        return StopError(
            404,
            "NOT_FOUND",
            f"there is no {self.table.subject(params)}: check the address, or find it with /search",
        )

    def _timed_out(self) -> StopError:
        if self.deadline.at <= time.monotonic():
            return self._over_time()
        return StopError(503, "TIMEOUT", time_limit_message(self.chunk_seconds))

    def _refusal(self, errors: list[GraphQLError]) -> StopError:
        """What the API's errors mean for the download: the subject missing (404), the
        database or time wanting (503), or the request itself (400)."""
        error = errors[0]
        code = str((error.extensions or {}).get("code"))
        if code == "TIMEOUT":
            return self._timed_out()
        if code in RETRY_LATER_CODES:
            return StopError(503, code, error.message)
        if error.path and error.path[0] == "subject":
            if code == "NOT_FOUND":
                return StopError(404, code, error.message)
            if code == "BAD_USER_INPUT":
                # A subject no key could name (a NUL in its slug): no such page, as the
                # browser's own page for it says (api.pages.browser), not a bad request.
                return self._missing()
        if code in ("BAD_USER_INPUT", "NOT_FOUND", "QUERY_TOO_COMPLEX", "CURSOR_EXPIRED"):
            return StopError(400, code, error.message)
        return StopError(500, code, error.message)

    async def stream(self, first: Chunk) -> AsyncIterator[bytes]:
        """The rows, a chunk at a time: the first (already read), then each next one."""
        columns = [name for name, _ in self.table.columns]
        yield self.writer.start(columns) + self.writer.rows(first.rows)
        written, chunk = len(first.rows), first
        while chunk.after is not None:
            # Let the event loop run between chunks: SQLite's statements run in it without
            # ever suspending (store.reader.InLoopReader), so without this a download would
            # hold up every other request, and never hear that its client has gone, until
            # its last row.
            await asyncio.sleep(0)
            try:
                chunk = await self.chunk(chunk.after)
            except StopError as stop:
                yield self.writer.stopped(stop.code, self._cut_short(written, stop.message))
                return
            written += len(chunk.rows)
            yield self.writer.rows(chunk.rows)
        yield self.writer.end()

    @staticmethod
    def _cut_short(written: int, reason: str) -> str:
        return f"only the first {written:,} rows were written: {reason}"


def refusal(extension: str, stop: StopError) -> Response:
    """A download refused before it starts, in the format asked for."""
    headers = {"cache-control": "no-store"}
    if stop.status == 503:
        headers[RETRY_AFTER[0].decode()] = RETRY_AFTER[1].decode()
    if extension == "json":
        body = orjson.dumps({"error": {"code": stop.code, "message": stop.message}})
        return Response(body, stop.status, headers, media_type="application/json")
    return PlainTextResponse(f"{stop.message}\n", stop.status, headers)


def endpoint(
    schema: Schema, table: Table, extension: str, chunk_seconds: float, download_seconds: float
) -> Callable[[Request], Awaitable[Response]]:
    async def download(request: Request) -> Response:
        params = Params(request.path_params, request.query_params)
        try:
            variables = table.variables(params)
        except BadParameterError as exc:
            return refusal(extension, StopError(400, "BAD_REQUEST", str(exc)))
        except MissingError as exc:
            return refusal(extension, StopError(404, "NOT_FOUND", str(exc)))
        writer = WRITERS[extension]()
        run = Download(
            schema,
            table,
            request,
            writer,
            variables,
            chunk_seconds=chunk_seconds,
            download_seconds=download_seconds,
        )
        try:
            first = await run.chunk(None)
        except StopError as stop:
            return refusal(extension, stop)
        filename = f"{table.filename(params)}.{extension}"
        headers = {
            "content-disposition": f'attachment; filename="{filename}"',
            "cache-control": "no-store",
        }
        if first.version is not None:
            headers[DATA_VERSION_HEADER.decode()] = first.version
        if request.method == "HEAD":
            # What a GET would answer, without reading on: its headers, and no length (a
            # GET's is unknown until its last row; an empty body would claim 0).
            return StreamingResponse(iter(()), headers=headers, media_type=writer.media_type)
        return StreamingResponse(run.stream(first), headers=headers, media_type=writer.media_type)

    return download


def download_routes(
    schema: Schema, *, chunk_seconds: float, download_seconds: float
) -> list[Route]:
    """A route per table and format: `/download/<table's route>.csv` and `.json`."""
    return [
        Route(
            f"/download/{table.route}.{extension}",
            endpoint(schema, table, extension, chunk_seconds, download_seconds),
            methods=["GET"],
        )
        for table in TABLES
        for extension in WRITERS
    ]
