"""A request's database reader is closed once its answer has been sent, not before.

Closing a reader ends its snapshot and gives back what it holds: on PostgreSQL a COMMIT,
a round trip, then the pooled connection and the request's turn for one
(store.engines.request_slots). Closed by the schema as the operation ended
(schema.CloseReader), that round trip stood between the answer and its client, and under
many clients each round trip waits for a pass of the worker's event loop as well. Here
the view hands its reader over (`hand_over`), and this middleware, outside those that hold
an answer back until it is whole (the response cache, GraphQL over HTTP's status codes),
closes it after the answer has gone: whatever happened, a failure or a cancellation at
the request's time limit too. What the reader read is the answer's either way: a
read-only snapshot ends the same by COMMIT or by none."""

from api.edge.middleware import ASGIApp, Receive, Scope, Send
from store.reader import Reader, close_quietly

# The key, in scope["state"], of the readers to close once the answer is sent.
_READERS = "readers_after_answer"


def hand_over(scope: Scope, reader: Reader) -> bool:
    """Whether the request's edge takes ``reader`` to close once the answer is sent;
    False when the request does not pass through CloseAfterAnswer (its reader is then
    the caller's to close)."""
    readers = scope.get("state", {}).get(_READERS)
    if readers is None:
        return False
    readers.append(reader)
    return True


class CloseAfterAnswer:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        # /graphql's own middleware: every request it sees is an HTTP request.
        state = scope.setdefault("state", {})
        readers: list[Reader] = []
        state[_READERS] = readers
        try:
            await self.app(scope, receive, send)
        finally:
            for reader in readers:
                await close_quietly(reader, state.get("request_id"))
