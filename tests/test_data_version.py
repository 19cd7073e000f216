"""The served data's version never repeats: each load gets a random identity beside its
number, so two databases loaded alike, or one rebuilt, never pass for each other, and a
ETag outlives no load, and a cursor from an earlier load is known as such (and found again
by what its keys stand for: tests/test_cursors_across_loads.py)."""

import os
import time
from collections.abc import Callable
from pathlib import Path

from api.ingest.load import load_directory
from api.settings import DEFAULT_FIXTURES_DIR
from store.engines import sqlite_path

from conftest import release_of, serve

VERSION = {"query": "{ taxonomy { dataVersion } }"}
NODE_COUNT = {"query": "{ taxonomy { nodeCount } }"}
PAGE = (
    "query($a: String) { methods(first: 2, after: $a) { nodes { slug } pageInfo { endCursor } } }"
)


def _loaded(backend: str, new_database: Callable[[str, str], str], folder: Path, name: str) -> str:
    url = new_database(backend, name)
    load_directory(folder, url)
    return url


def test_two_databases_loaded_alike_have_different_versions(
    backend: str, new_database: Callable[[str, str], str], tiny_folder: Path
) -> None:
    first = _loaded(backend, new_database, tiny_folder, "version_a")
    second = _loaded(backend, new_database, tiny_folder, "version_b")
    with serve(first) as a, serve(second) as b:
        version_a = a.post("/graphql", json=VERSION).json()["data"]["taxonomy"]["dataVersion"]
        version_b = b.post("/graphql", json=VERSION).json()["data"]["taxonomy"]["dataVersion"]
        assert release_of(version_a) == release_of(version_b) == 1
        assert version_a != version_b
        # An ETag of one is not taken for current by the other: a full answer, not a 304.
        etag = a.get("/graphql", params=VERSION).headers["etag"]
        other = b.get("/graphql", params=VERSION, headers={"if-none-match": etag})
        assert other.status_code == 200


def test_a_cursor_from_before_a_load_of_the_same_data_goes_on_after_it(
    backend: str, new_database: Callable[[str, str], str], tiny_folder: Path
) -> None:
    url = _loaded(backend, new_database, tiny_folder, "version_cursor")
    with serve(url, version_poll_seconds=0.05, response_cache=False) as client:
        page = client.post("/graphql", json={"query": PAGE}).json()
        cursor = page["data"]["methods"]["pageInfo"]["endCursor"]
        again = {"query": PAGE, "variables": {"a": cursor}}
        next_page = client.post("/graphql", json=again).json()
        assert "errors" not in next_page  # the same data

        load_directory(tiny_folder, url)  # the same files: a new load all the same
        answer = client.post("/graphql", json=again).json()
        for _ in range(100):  # the server moves to the new version within its poll
            if release_of(answer["extensions"]["dataVersion"]) == 2:
                break
            time.sleep(0.02)
            answer = client.post("/graphql", json=again).json()
        assert release_of(answer["extensions"]["dataVersion"]) == 2
        assert "errors" not in answer, answer
        assert answer["data"]["methods"]["nodes"] == next_page["data"]["methods"]["nodes"]


def test_an_answer_read_after_a_load_names_the_version_it_read(
    backend: str, new_database: Callable[[str, str], str], tiny_folder: Path
) -> None:
    """The process polls the version once a minute here, so after the load it still
    believes the old one: an answer read from the new data must say so all the same (its
    body, its Data-Version header and its ETag), and a cursor of the old data is known as
    the old data's at once, not taken for the new data's until the next poll (issue 25
    item 5)."""
    url = _loaded(backend, new_database, tiny_folder, "version_snapshot")
    with serve(url, version_poll_seconds=60) as client:
        old = client.post("/graphql", json={"query": PAGE}).json()
        cursor = old["data"]["methods"]["pageInfo"]["endCursor"]
        cached = client.post("/graphql", json=VERSION).json()  # kept by the response cache
        assert release_of(cached["data"]["taxonomy"]["dataVersion"]) == 1

        load_directory(tiny_folder, url)
        listed = "{ taxonomy { dataVersion } roots { name } }"  # not in the cache
        for _ in range(2):  # read from the database twice: it cannot be kept under the old
            response = client.post("/graphql", json={"query": listed})
            body = response.json()
            read = body["data"]["taxonomy"]["dataVersion"]
            assert release_of(read) == 2
            assert body["extensions"]["dataVersion"] == response.headers["data-version"] == read
            assert response.headers["etag"].startswith(f'W/"{read}-')
        # The cached answer is the old data's, and says so: old or new, never a mix.
        again = client.post("/graphql", json=VERSION).json()
        assert again["extensions"]["dataVersion"] == again["data"]["taxonomy"]["dataVersion"]

        # A cursor of the old data is known as such at once, not taken for the new data's
        # until the next poll: its row is found again, and the answer names the new data.
        following = client.post("/graphql", json={"query": PAGE, "variables": {"a": cursor}})
        assert "errors" not in following.json(), following.json()
        assert following.json()["extensions"]["dataVersion"] == read


def test_a_sqlite_file_moved_over_the_served_one_is_served_within_2_s(
    new_database: Callable[[str, str], str], tiny_folder: Path, tmp_path: Path
) -> None:
    """Issue 25 item 5: `mv new.db served.db` was served stale forever (the pools held the
    old file open) while /readyz said ready."""
    served = _loaded("sqlite", new_database, tiny_folder, "moved_over")
    replacement = _loaded("sqlite", new_database, DEFAULT_FIXTURES_DIR, "replacement")
    with serve(served, version_poll_seconds=0.2) as client:
        before = client.post("/graphql", json=VERSION).json()["data"]["taxonomy"]["dataVersion"]
        assert client.post("/graphql", json=NODE_COUNT).json()["data"]["taxonomy"] == {
            "nodeCount": 5
        }
        new_file, served_file = sqlite_path(replacement), sqlite_path(served)
        assert new_file is not None
        assert served_file is not None
        os.replace(new_file, served_file)
        moved = time.monotonic()
        while True:
            answer = client.post("/graphql", json=NODE_COUNT).json()
            if answer["data"]["taxonomy"]["nodeCount"] != 5:
                break
            assert time.monotonic() - moved < 2, "still serving the file that was replaced"
            time.sleep(0.05)
        assert answer["data"]["taxonomy"]["nodeCount"] == 40
        assert answer["extensions"]["dataVersion"] != before
        ready = client.get("/readyz").json()
        assert ready["dataVersion"] == answer["extensions"]["dataVersion"]
