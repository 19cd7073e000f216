"""The built scripts and style sheets go gzipped to a client that takes gzip: the builds
write each one's `.gz` beside it, and the app sends that (api/edge/precompressed.py).
Through the ASGI app, as a browser asks."""

import gzip
import json
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

import pytest

from api.edge.precompressed import takes_gzip
from api.endpoint import graphiql
from api.pages.browser import ASSETS_DIR, ASSETS_URL, IMMUTABLE, MANIFEST

from conftest import Api

BUILT = "no build: `make install` builds the browser and GraphiQL"
MANIFEST_FILE = ASSETS_DIR / MANIFEST


def _browser_assets() -> list[str]:
    manifest = json.loads(MANIFEST_FILE.read_text(encoding="utf-8"))
    return [manifest["script"], manifest["style"]]


ASSETS = [
    (ASSETS_URL, ASSETS_DIR, "script", IMMUTABLE),
    (ASSETS_URL, ASSETS_DIR, "style", IMMUTABLE),
    (graphiql.ASSETS_URL, graphiql.ASSETS_DIR, "main.js", None),
    (graphiql.ASSETS_URL, graphiql.ASSETS_DIR, "main.css", None),
]


def _name(folder_url: str, which: str) -> str:
    if folder_url != ASSETS_URL:
        return which
    assert MANIFEST_FILE.is_file(), BUILT
    script, style = _browser_assets()
    return script if which == "script" else style


class Wire(NamedTuple):
    """An answer as it went over the wire: its body as sent, not decoded."""

    status_code: int
    headers: Mapping[str, str]
    content: bytes


def _get(api: Api, path: str, accept_encoding: str, **headers: str) -> Wire:
    # Read raw: the client would undo the coding, and the test is what goes over the wire.
    with api.client.stream(
        "GET", path, headers={"accept-encoding": accept_encoding, **headers}
    ) as answer:
        return Wire(answer.status_code, answer.headers, b"".join(answer.iter_raw()))


@pytest.mark.parametrize(("folder_url", "folder", "which", "cache"), ASSETS)
def test_a_client_that_takes_gzip_gets_the_gzipped_copy(
    tiny: Api, folder_url: str, folder: Path, which: str, cache: str | None
) -> None:
    name = _name(folder_url, which)
    plain = (folder / name).read_bytes()
    answer = _get(tiny, f"{folder_url}/{name}", "gzip, deflate, br")
    assert answer.status_code == 200
    assert answer.headers["content-encoding"] == "gzip"
    assert answer.headers["vary"] == "Accept-Encoding"
    assert answer.headers["content-type"].startswith(
        "text/javascript" if name.endswith(".js") else "text/css"
    )
    assert answer.headers.get("cache-control") == cache
    wire = answer.content
    assert gzip.decompress(wire) == plain
    assert len(wire) < len(plain) * 0.8
    assert int(answer.headers["content-length"]) == len(wire)


@pytest.mark.parametrize("accept_encoding", ["identity", "br", "gzip;q=0", "*;q=0", ""])
@pytest.mark.parametrize(("folder_url", "folder", "which", "cache"), ASSETS[::2])
def test_a_client_that_does_not_take_gzip_gets_the_file_as_it_is(
    tiny: Api, folder_url: str, folder: Path, which: str, cache: str | None, accept_encoding: str
) -> None:
    name = _name(folder_url, which)
    answer = _get(tiny, f"{folder_url}/{name}", accept_encoding)
    assert answer.status_code == 200
    assert "content-encoding" not in answer.headers
    assert answer.headers["vary"] == "Accept-Encoding"
    assert answer.headers.get("cache-control") == cache
    assert answer.content == (folder / name).read_bytes()


def test_a_copy_still_good_is_a_304_either_way(tiny: Api) -> None:
    """A browser revalidating GraphiQL's script (it has no lasting cache policy) sends the
    ETag it was given; the coded and the plain copy have ETags of their own."""
    path = f"{graphiql.ASSETS_URL}/main.js"
    etags = set()
    for coding in ("gzip", "identity"):
        first = _get(tiny, path, coding)
        etags.add(first.headers["etag"])
        again = _get(tiny, path, coding, **{"if-none-match": first.headers["etag"]})
        assert again.status_code == 304
        assert again.content == b""
        assert again.headers["vary"] == "Accept-Encoding"
    assert len(etags) == 2


def test_the_gzipped_copy_answers_head_and_no_other_method(tiny: Api) -> None:
    script = _name(ASSETS_URL, "script")
    path = f"{ASSETS_URL}/{script}"
    head = tiny.client.head(path, headers={"accept-encoding": "gzip"})
    assert head.status_code == 200
    assert head.headers["content-encoding"] == "gzip"
    assert head.content == b""
    assert tiny.client.post(path, headers={"accept-encoding": "gzip"}).status_code == 405


@pytest.mark.parametrize(
    "path",
    [
        f"{ASSETS_URL}/..%2Fmanifest.json",
        f"{ASSETS_URL}/%2E%2E%2F%2E%2E%2Fapp.py",
        f"{graphiql.ASSETS_URL}/main.js.gz.gz",
        f"{graphiql.ASSETS_URL}/../graphiql/main.js",
        # Too long a name for the file system: its .gz is looked for, and is none (this
        # was a 500: Path.is_file raises ENAMETOOLONG; tests/test_fuzz_routes.py found it).
        f"{graphiql.ASSETS_URL}/{'x' * 300}",
    ],
)
def test_nothing_outside_the_folder_or_not_built_is_served(tiny: Api, path: str) -> None:
    answer = _get(tiny, path, "gzip")
    assert answer.status_code == 404
    assert "content-encoding" not in answer.headers


@pytest.mark.parametrize(
    ("header", "takes"),
    [
        ("gzip", True),
        ("GZIP", True),
        ("deflate, gzip;q=0.5", True),
        ("gzip;q=0", False),
        ("gzip; q=0.0", False),
        ("*", True),
        ("*;q=0", False),
        ("br, deflate", False),
        ("", False),
        ("gzip;q=x", False),
        ("x-gzip", True),  # RFC 9110: the same as gzip
    ],
)
def test_which_accept_encoding_takes_gzip(header: str, takes: bool) -> None:
    assert takes_gzip(header) is takes
