"""The typed per-request context: one database reader and the loaders that use it."""

from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine
from strawberry.types import Info as StrawberryInfo

from schema.loaders import Loaders
from schema.reader import Reader


@dataclass
class Context:
    reader: Reader
    loaders: Loaders
    request: Any = None
    response: Any = None
    # Whether to tell the client, in a header, how many SQL statements its query ran.
    report_statements: bool = False
    # The id of this request (api.http_guards.RequestId), for masked errors and the log.
    request_id: str | None = None

    @classmethod
    def for_request(
        cls, engine: AsyncEngine, request: Any = None, response: Any = None
    ) -> "Context":
        reader = Reader(engine)
        return cls(reader=reader, loaders=Loaders(reader), request=request, response=response)


Info = StrawberryInfo[Context, None]
