"""A request's reader is closed once its answer has been sent (api.edge.after_answer): on
PostgreSQL its COMMIT no longer stands between the answer and the client. Watched through
the ASGI app, as a server hands a request over: the request's pooled connection is still
out when the last byte of the answer is sent, and back in the pool when the request ends.
(A request stopped at its time limit gives its connection back too:
tests/test_hostile_input.py, test_a_slow_statement_is_stopped_at_the_time_limit.)"""

import json
import time

import pytest
from starlette.types import Message

from api.edge.middleware import replay
from bench.request_overhead import client_stays, graphql_post

from conftest import Api, serve

SUMMARY = "{ taxonomy { nodeCount } }"


@pytest.mark.parametrize("response_cache", [False, True], ids=["cache-off", "cache-on"])
def test_the_reader_is_closed_after_the_answer_is_sent(tiny: Api, response_cache: bool) -> None:
    """With the response cache on too: it holds an answer back until the answer is whole,
    and the reader is closed only after it has sent it."""
    with serve(tiny.database_url, response_cache=response_cache) as client:
        engine = client.app.state.request_engine  # type: ignore[attr-defined]
        pool = getattr(engine, "sync_engine", engine).pool
        body = json.dumps({"query": SUMMARY}).encode()
        answer: list[bytes] = []
        out_as_sent: list[int] = []

        async def ask() -> int:
            async def send(message: Message) -> None:
                if message["type"] == "http.response.body":
                    answer.append(message.get("body", b""))
                    if not message.get("more_body"):
                        out_as_sent.append(pool.checkedout())

            await client.app(graphql_post(body), replay(body, client_stays), send)
            return int(pool.checkedout())

        # The app's own start-up reads (the search catalogue it builds for the data
        # version: store.search_cache) give their connection back first.
        deadline = time.monotonic() + 10
        while pool.checkedout() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert pool.checkedout() == 0
        out_after = client.portal.call(ask)  # type: ignore[union-attr]
        assert json.loads(b"".join(answer))["data"] == {"taxonomy": {"nodeCount": 5}}
        assert out_as_sent == [1], "the connection was given back before the answer was sent"
        assert out_after == 0, "the request ended without giving its connection back"
