"""Several stateless servers on one PostgreSQL database (docs/scale-out.md), with loads
through the CLI in the middle of steady traffic: every server serves each new release
within 2 s of its commit, no request fails, no answer mixes two releases, and a server
killed in the middle of its requests leaves nothing behind (no session, no lock, no
transaction) that holds up the other servers or the next load.

One test, not several: starting three servers and loading twice under traffic takes
about ten seconds, and each step needs the state the one before left.
"""

import os
import signal
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

import psutil
import psycopg
import pytest
from server_stream import (
    SWITCH_WITHIN_SECONDS,
    Answer,
    Stream,
    renamed_method,
    start_servers,
    taxonomy_cli,
)

from api.commands.generate_next import next_version
from api.settings import DEFAULT_FIXTURES_DIR

from conftest import POSTGRES_URL, release_of

pytestmark = pytest.mark.skipif(POSTGRES_URL is None, reason="needs TEST_DATABASE_URL")


def _switched(stream: Stream, bases: list[str], release: int, committed: float) -> None:
    """Wait until every server in ``bases`` answers ``release``; each must within
    SWITCH_WITHIN_SECONDS of the load's commit."""
    deadline = committed + SWITCH_WITHIN_SECONDS + 1
    while not all(stream.first(base, release) for base in bases):
        assert time.monotonic() < deadline, stream.answers[-4:]
        time.sleep(0.02)
    for base in bases:
        first = stream.first(base, release)
        assert first is not None
        assert first.received - committed <= SWITCH_WITHIN_SECONDS, (base, first)


def _kill(base: str) -> None:
    """SIGKILL the `taxonomy serve` behind ``base`` and its workers, all at once."""
    port = base.rsplit(":", 1)[1]
    for process in psutil.Process().children():
        command = " ".join(process.cmdline())
        if "serve" in command and port in command:
            for child in [*process.children(recursive=True), process]:
                os.kill(child.pid, signal.SIGKILL)
            process.wait(timeout=10)
            return
    raise AssertionError(f"no server on port {port}")


def _leftovers(url: str) -> list[tuple[object, ...]]:
    """Sessions of the database, other than this one, that are in a transaction."""
    with psycopg.connect(url, autocommit=True) as connection:
        return connection.execute(
            "SELECT pid, state, application_name, query FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid() "
            "AND xact_start IS NOT NULL"
        ).fetchall()


def test_servers_on_one_database_serve_each_load_and_a_killed_one_leaves_nothing(
    new_database: Callable[[str, str], str], tmp_path: Path
) -> None:
    url = new_database("postgresql", "servers")
    second, third = tmp_path / "second", tmp_path / "third"
    next_version(DEFAULT_FIXTURES_DIR, second, seed=1)
    next_version(second, third, seed=2)
    slug, names = renamed_method(DEFAULT_FIXTURES_DIR, second, third)
    taxonomy_cli("load", DEFAULT_FIXTURES_DIR, "--db", url)

    with ExitStack() as servers:
        bases = start_servers(servers, url, 3)
        doomed, survivors = bases[0], bases[1:]
        with Stream(bases, slug) as stream:
            assert stream.all_serve(1, within=10), stream.answers[-4:]
            taxonomy_cli("load", second, "--db", url)
            _switched(stream, bases, 2, time.monotonic())

            killed = time.monotonic()
            _kill(doomed)  # in the middle of its stream of requests
            time.sleep(0.3)
            taxonomy_cli("load", third, "--db", url)
            _switched(stream, survivors, 3, time.monotonic())
            time.sleep(0.3)  # and still serving it
        answers = stream.answers
        assert _leftovers(url) == []  # every server's requests ended their transactions

    failed = [a for a in answers if a.failure and not (a.server == doomed and a.received >= killed)]
    assert failed == [], failed[:5]
    served = [a for a in answers if not a.failure]
    for answer in served:
        assert answer.read_version == answer.version, answer  # one snapshot per answer
        assert answer.name == names[release_of(answer.version)], answer
    for base in survivors:
        releases = [release_of(a.version) for a in served if a.server == base]
        assert releases == sorted(releases), f"{base} went back to an older release"
        assert set(releases) == {1, 2, 3}
    print(_summary(answers, doomed, killed))


def _summary(answers: list[Answer], doomed: str, killed: float) -> str:
    lost = [a for a in answers if a.failure and a.server == doomed and a.received >= killed]
    return (
        f"{len(answers)} requests to 3 servers, {len(lost)} to the killed one after its "
        "death failed (connection refused), none other"
    )
