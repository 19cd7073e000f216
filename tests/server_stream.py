"""Several `taxonomy serve` under a steady stream of queries, as the tests of scale-out
see them (tests/test_replica.py, tests/test_servers_one_database.py): every answer kept
with when it arrived, the version it names and the one it read, and whether it failed."""

import json
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2 as httpx

from conftest import release_of
from processes import TAXONOMY, running_server

# A load's new release must be served by every server within this long of the database
# showing it: the data version's poll interval (1 s) and a read's time limit (1 s).
SWITCH_WITHIN_SECONDS = 2.0
# Between two rounds of the stream's requests: a steady stream (several hundred requests a
# second) that leaves a small machine's two cores to the servers and the load.
PAUSE_SECONDS = 0.002
QUERY = "query Probe($slug: String!) { taxonomy { dataVersion } method(slug: $slug) { name } }"


def taxonomy_cli(*arguments: str | Path) -> str:
    done = subprocess.run(
        [str(TAXONOMY), *map(str, arguments)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def start_servers(stack: ExitStack, database_url: str, count: int) -> list[str]:
    """``count`` `taxonomy serve` on ``database_url``, started side by side (each takes
    seconds to import and start), stopped with ``stack``; their base URLs."""
    starting = [running_server(database_url) for _ in range(count)]
    with ThreadPoolExecutor(count) as pool:
        started = [pool.submit(server.__enter__) for server in starting]
    for server, future in zip(starting, started, strict=True):
        if future.exception() is None:
            stack.push(server)
    return [future.result() for future in started]


def method_names(folder: Path) -> dict[str, str]:
    """The dataset's method names by slug."""
    lines = (folder / "methods.jsonl").read_text(encoding="utf-8").splitlines()
    return {row["slug"]: row["name"] for row in map(json.loads, filter(None, lines))}


def renamed_method(*folders: Path) -> tuple[str, dict[int, str]]:
    """A method in every one of ``folders`` (releases 1, 2...) that the second renames:
    its slug, and its name by release number."""
    names = [method_names(folder) for folder in folders]
    slug = next(
        slug
        for slug in sorted(names[0])
        if all(slug in found for found in names) and names[0][slug] != names[1][slug]
    )
    return slug, {release: found[slug] for release, found in enumerate(names, start=1)}


@dataclass
class Answer:
    server: str
    received: float  # time.monotonic()
    failure: str | None = None  # a transport error, a status other than 200, errors
    version: str = ""  # extensions.dataVersion
    read_version: str = ""  # taxonomy.dataVersion: the version of the snapshot read
    name: str = ""


class Stream:
    """One thread asking every server in turn, PAUSE_SECONDS between rounds, until stopped."""

    def __init__(self, bases: list[str], slug: str) -> None:
        self.bases = bases
        self.body = {"query": QUERY, "variables": {"slug": slug}}
        self.answers: list[Answer] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run)

    def _run(self) -> None:
        with httpx.Client(timeout=10) as client:
            while not self._stop.wait(PAUSE_SECONDS):
                for base in self.bases:
                    self.answers.append(self._ask(client, base))

    def _ask(self, client: httpx.Client, base: str) -> Answer:
        """The answer; anything but a 200 with data and a data version is a failure."""
        try:
            response = client.post(f"{base}/graphql", json=self.body)
            received = time.monotonic()
            body: dict[str, Any] = response.json()
            if response.status_code != 200 or body.get("errors"):
                return Answer(base, received, failure=f"{response.status_code} {body}")
            return Answer(
                base,
                received,
                version=body["extensions"]["dataVersion"],
                read_version=body["data"]["taxonomy"]["dataVersion"],
                name=body["data"]["method"]["name"],
            )
        except Exception as exc:  # a transport error, a body not JSON, a field missing
            return Answer(base, time.monotonic(), failure=repr(exc))

    def __enter__(self) -> "Stream":
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join(timeout=30)

    def all_serve(self, release: int, *, within: float) -> bool:
        """Whether every server has answered ``release``, waiting up to ``within`` seconds
        for it (a warm-up: under a busy suite, new servers' first answers take a while)."""
        deadline = time.monotonic() + within
        while not all(self.first(base, release) for base in self.bases):
            if time.monotonic() > deadline:
                return False
            time.sleep(0.05)
        return True

    def first(self, server: str, release: int) -> Answer | None:
        return next(
            (
                answer
                for answer in list(self.answers)
                if answer.server == server
                and answer.version
                and release_of(answer.version) == release
            ),
            None,
        )
