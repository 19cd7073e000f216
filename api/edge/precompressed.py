"""Built assets answered gzipped when the client takes gzip: the builds (browser/build.mjs,
graphiql/build.mjs) write `name.gz` beside each script and style sheet, compressed once at
`make install` (level 9), so no request spends CPU compressing. GraphiQL's 1.9 MB of script
and styles go over the wire as about 0.5 MB, the taxonomy browser's 113 KB as 34 KB. A
client that does not take gzip, and any file without a `.gz`, gets the file as it is, from
Starlette's StaticFiles; both answers say `Vary: Accept-Encoding`, for the caches between."""

import re
from pathlib import Path

from starlette.datastructures import Headers
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

# The asset folders are flat and their names plain (main-5ZKKOGWV.js): anything else is
# left to StaticFiles, which refuses what it must.
_PLAIN_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_VARY = (b"vary", b"Accept-Encoding")


def takes_gzip(accept_encoding: str) -> bool:
    """Whether an Accept-Encoding header admits gzip (by name, its old name x-gzip, or `*`,
    with a q above 0)."""
    for coding in accept_encoding.split(","):
        name, _, parameters = coding.partition(";")
        if name.strip().lower() not in ("gzip", "x-gzip", "*"):
            continue
        quality = parameters.strip().lower()
        if not quality.startswith("q="):
            return True
        try:
            return float(quality[2:]) > 0
        except ValueError:
            return False
    return False


def precompressed_files(directory: Path, *, extra_headers: dict[str, str]) -> ASGIApp:
    """The files of ``directory``, each answered from its `.gz` where the client takes gzip
    and the build wrote one; ``extra_headers`` on every found file (a cache policy)."""
    files = StaticFiles(directory=directory, check_dir=False)
    added = [(name.encode(), value.encode()) for name, value in extra_headers.items()]

    async def serve(scope: Scope, receive: Receive, send: Send) -> None:
        name = files.get_path(scope) if scope["type"] == "http" else ""
        compressed = directory / f"{name}.gz"
        if not (_PLAIN_NAME.fullmatch(name) and _is_file(compressed)):
            await files(scope, receive, _with_headers(send, added))
            return
        if scope["method"] in ("GET", "HEAD") and takes_gzip(
            Headers(scope=scope).get("accept-encoding", "")
        ):
            # StaticFiles' own answer for the .gz (its ETag, and 304 for a copy still
            # good), typed as the file it holds: `main.js.gz` guesses as text/javascript.
            response = files.file_response(compressed, compressed.stat(), scope)
            if response.status_code == 200:
                response.headers["content-encoding"] = "gzip"
            response.headers.update({**extra_headers, "vary": "Accept-Encoding"})
            await response(scope, receive, send)
            return
        await files(scope, receive, _with_headers(send, [*added, _VARY]))

    return serve


def _is_file(path: Path) -> bool:
    """Whether ``path`` is a file; a name the system refuses (too long, say) is none, and
    StaticFiles answers the request as it answers any name it cannot find."""
    try:
        return path.is_file()
    except OSError:
        return False


def _with_headers(send: Send, headers: list[tuple[bytes, bytes]]) -> Send:
    """``send``, with ``headers`` added to a found file's answer (status 200 or 304)."""
    if not headers:
        return send

    async def send_with(message: Message) -> None:
        if message["type"] == "http.response.start" and message["status"] in (200, 304):
            message["headers"] = [*message.get("headers", []), *headers]
        await send(message)

    return send_with
