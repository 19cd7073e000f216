"""Cursor connections: `edges { cursor node }`, `nodes`, `pageInfo`, `totalCount`.

Pages are fetched by keyset (store.paging): a cursor holds the sort-key values of its
row and the list's name, and the next page starts strictly after them.
"""

import base64
import binascii
import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Generic, TypeVar

import strawberry

from schema.context import Info
from schema.errors import BadUserInputError
from schema.lookahead import selects
from store.paging import Page, Window

T = TypeVar("T")

DEFAULT_PAGE_SIZE = 20
MAX_PAGE_SIZE = 100
MAX_CURSOR_LENGTH = 1_000

First = Annotated[
    int | None,
    strawberry.argument(
        description=f"Page size: {DEFAULT_PAGE_SIZE} if not given, at most {MAX_PAGE_SIZE}."
    ),
]
After = Annotated[
    str | None,
    strawberry.argument(description="Start after this cursor (a `pageInfo.endCursor`)."),
]


@strawberry.type(description="Where a page sits in its list, and the cursors at its ends.")
class PageInfo:
    has_next_page: bool = strawberry.field(description="Whether more items follow this page.")
    has_previous_page: bool = strawberry.field(
        description="Whether items come before this page (true when `after` was given)."
    )
    start_cursor: str | None = strawberry.field(
        description="The cursor of the page's first item; null on an empty page."
    )
    end_cursor: str | None = strawberry.field(
        description="The cursor of the page's last item: pass it as `after` for the next page."
    )


def _edge_cursor(root: "Edge[Any]") -> str:
    return encode_cursor(*root.cursor_of)


@strawberry.type(description="One item of a page, with the cursor that points at it.")
class Edge(Generic[T]):
    cursor: str = strawberry.field(
        resolver=_edge_cursor, description="Pass as `after` to continue after this item."
    )
    node: T = strawberry.field(description="The item.")
    # The cursor's list and key values: encoded only when a query asks for the cursor,
    # which most pages (they show `nodes`) never do.
    cursor_of: strawberry.Private[tuple[str, Sequence[Any]]]

    def cursor_text(self) -> str:
        return _edge_cursor(self)


@strawberry.type(description="A page of a list, with cursors to fetch the pages after it.")
class Connection(Generic[T]):
    edges: list[Edge[T]] = strawberry.field(description="The page's items with their cursors.")
    page_info: PageInfo = strawberry.field(description="Where this page sits in the list.")
    count: strawberry.Private[Callable[[], Awaitable[int]]]

    @strawberry.field(description="The page's items, without cursors.")
    def nodes(self) -> list[T]:
        return [edge.node for edge in self.edges]

    @strawberry.field(description="How many items the whole list has, over all pages.")
    async def total_count(self) -> int:
        return await self.count()


def page_size(first: int | None) -> int:
    if first is None:
        return DEFAULT_PAGE_SIZE
    if not 0 <= first <= MAX_PAGE_SIZE:
        raise BadUserInputError(
            f"`first` must be between 0 and {MAX_PAGE_SIZE}, got {first}; "
            "fetch further pages with `after: pageInfo.endCursor`"
        )
    return first


def cursor_list(list_name: str, data_version: str | None) -> str:
    """What a cursor names its list by: the list (field and order) and, when known, the
    version of the data it was read from, so that a cursor outlives no load."""
    return list_name if data_version is None else f"{list_name}@{data_version}"


def encode_cursor(list_name: str, values: Sequence[Any]) -> str:
    raw = json.dumps([list_name, *values], separators=(",", ":"))
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def decode_cursor(cursor: str, list_name: str, arity: int | None = None) -> list[Any]:
    """The key values of ``cursor``, a cursor of ``list_name`` (with ``arity`` values when
    given; the list's statement checks their number otherwise: store.paging)."""
    decoded: Any = None
    if len(cursor) <= MAX_CURSOR_LENGTH:  # ours are far shorter; a long one is forged
        try:
            decoded = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
        except (binascii.Error, ValueError, UnicodeDecodeError, RecursionError):
            decoded = None
    if not isinstance(decoded, list) or not decoded or not isinstance(decoded[0], str):
        raise BadUserInputError(
            f"`after` cursor {cursor!r} is not a cursor of this API; "
            "pass a `cursor` or `pageInfo.endCursor` from an earlier answer"
        )
    if decoded[0] != list_name:
        if decoded[0].partition("@")[0] == list_name.partition("@")[0]:
            raise BadUserInputError(
                "`after` cursor was made from data that has been replaced since (a new load); "
                "start again from the first page, without `after`"
            )
        raise BadUserInputError(
            f"`after` cursor {cursor!r} belongs to another list or ordering; "
            "use a cursor from the same field with the same `orderBy`"
        )
    wrong_length = arity is not None and len(decoded) != arity + 1
    if wrong_length or not all(isinstance(v, int | str) for v in decoded[1:]):
        raise BadUserInputError(f"`after` cursor {cursor!r} is damaged; start again without it")
    return decoded[1:]


@dataclass(frozen=True)
class PageRequest:
    """What a list field was asked for: the list (its name goes into cursors) and which of
    its rows (the page size, the key values to start after, from the cursor, and whether
    a first page should bring the whole list's length along)."""

    list_name: str
    window: Window

    @classmethod
    def of(cls, info: Info, list_name: str, first: int | None, after: str | None) -> "PageRequest":
        """The request of the field being resolved: the total comes with the page when the
        query asks for `totalCount`."""
        list_name = cursor_list(list_name, info.context.data_version)
        return cls(
            list_name,
            Window(
                page_size(first),
                None if after is None else decode_cursor(after, list_name),
                after is None and selects(info, "totalCount"),
            ),
        )


def connection_of(
    page: Page, list_name: str, items: list[T], count: Callable[[], Awaitable[int]]
) -> Connection[T]:
    """``items`` (one per row of ``page``) as a connection; `totalCount` runs ``count``
    only when the page did not bring the total along."""
    if page.total is not None:
        count = _known(page.total)
    keys = page.keys
    return Connection(
        edges=[
            Edge(cursor_of=(list_name, key), node=item)
            for key, item in zip(keys, items, strict=True)
        ],
        page_info=PageInfo(
            has_next_page=page.has_next,
            has_previous_page=page.has_previous,
            start_cursor=encode_cursor(list_name, keys[0]) if keys else None,
            end_cursor=encode_cursor(list_name, keys[-1]) if keys else None,
        ),
        count=count,
    )


def _known(total: int) -> Callable[[], Awaitable[int]]:
    async def count() -> int:
        return total

    return count
