"""SQL statements per request, counted outside the timed runs.

Our server and the floor say it themselves (`x-sql-statements`). The peer is counted on
the wire by `bench.pgcount`: a second peer process is pointed at the counting proxy, asked
each workload a few times, and the count is divided by the requests. If our server does
not send the header (TAXONOMY_STATEMENT_HEADER not available), its statements are counted
in-process on its own engine instead, leaving out the BEGIN of each request.
"""

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench import systems
from bench.peer_workloads import DOCUMENTS
from bench.pgcount import StatementCounter
from bench.systems import System
from bench.workloads import Workload

HEADER = "x-sql-statements"


def from_header(system: System, workload: Workload, repeats: int) -> float | None:
    """The mean of the header over ``repeats`` requests; None if it is not sent."""
    total = 0
    for _ in range(repeats):
        _, headers = systems.answer(system, workload)
        if HEADER not in headers:
            return None
        total += int(headers[HEADER])
    return total / repeats


def server_in_process(url: str, workload: Workload) -> int:
    """Our server's statements for one request, counted on its engine in-process."""
    from sqlalchemy import event
    from starlette.testclient import TestClient

    from api.app import create_app
    from api.settings import Settings

    settings = Settings(database_url=url)
    if "response_cache" in Settings.model_fields:
        settings = settings.model_copy(update={"response_cache": False})
    app = create_app(settings)
    seen: list[str] = []
    with TestClient(app) as client:

        def record(_c: Any, _cur: Any, statement: str, *_rest: Any) -> None:
            seen.append(statement)

        engine = app.state.request_engine  # async on PostgreSQL, synchronous on SQLite
        event.listen(getattr(engine, "sync_engine", engine), "before_cursor_execute", record)
        body = {"query": workload.document, "variables": workload.variables}
        client.post("/graphql", json=body).raise_for_status()
    return sum(1 for statement in seen if statement.strip().upper() != "BEGIN")


def peer_on_the_wire(
    url: str, workloads: Sequence[Workload], repeats: int, log_dir: Path
) -> dict[str, float]:
    """The peer's statements per request for each workload it answers, through the
    counting proxy (nothing, and no peer started, when it answers none)."""
    workloads = [workload for workload in workloads if workload.name in DOCUMENTS]
    if not workloads:
        return {}
    counter = StatementCounter("127.0.0.1", 5432)
    port = counter.start()
    proxied = url.replace("127.0.0.1:5432", f"127.0.0.1:{port}")
    peer = systems.peer(proxied, workers=1, label="peer PostGraphile (counted)")
    try:
        peer.start(log_dir)
        peer.wait_ready()
        found: dict[str, float] = {}
        for workload in workloads:
            systems.answer(peer, workload)  # first use may plan and prepare
            before = counter.count
            for _ in range(repeats):
                systems.answer(peer, workload)
            found[workload.name] = (counter.count - before) / repeats
        return found
    finally:
        peer.stop()
        counter.stop()
