"""Cursor connections: `edges { cursor node }`, `nodes`, `pageInfo`, `totalCount`.

Pages are fetched by keyset: a cursor holds the sort-key values of its row, and the next
page starts strictly after them, so a page costs the same wherever it is in the list.
"""

import base64
import binascii
import json
from collections.abc import Awaitable, Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Generic, TypeVar

import strawberry
from sqlalchemy import ColumnElement, and_, bindparam, func, or_, select

from schema.context import Info
from schema.errors import BadUserInputError
from schema.lookahead import selects
from schema.reader import Reader
from schema.records import AnySelect, Prepared

T = TypeVar("T")

DEFAULT_PAGE_SIZE = 20
MAX_PAGE_SIZE = 100

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


def encode_cursor(list_name: str, values: Sequence[Any]) -> str:
    raw = json.dumps([list_name, *values], separators=(",", ":"))
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def decode_cursor(cursor: str, list_name: str, arity: int) -> list[Any]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        decoded = json.loads(raw)
    except (binascii.Error, ValueError, UnicodeDecodeError):
        decoded = None
    if not isinstance(decoded, list) or not decoded or not isinstance(decoded[0], str):
        raise BadUserInputError(
            f"`after` cursor {cursor!r} is not a cursor of this API; "
            "pass a `cursor` or `pageInfo.endCursor` from an earlier answer"
        )
    if decoded[0] != list_name:
        raise BadUserInputError(
            f"`after` cursor {cursor!r} belongs to another list or ordering; "
            "use a cursor from the same field with the same `orderBy`"
        )
    if len(decoded) != arity + 1 or not all(isinstance(v, int | str) for v in decoded[1:]):
        raise BadUserInputError(f"`after` cursor {cursor!r} is damaged; start again without it")
    return decoded[1:]


@dataclass(frozen=True)
class SortKey:
    column: Any  # a column or SQL expression whose values are ints or strings
    descending: bool = False


def _after(keys: Sequence[SortKey], values: Sequence[Any]) -> ColumnElement[bool]:
    """Rows strictly after ``values`` in the order of ``keys`` (directions may differ)."""
    alternatives = []
    for index, key in enumerate(keys):
        beyond = key.column < values[index] if key.descending else key.column > values[index]
        equal_before = [keys[i].column == values[i] for i in range(index)]
        alternatives.append(and_(*equal_before, beyond))
    return or_(*alternatives)


@dataclass(frozen=True)
class Page:
    rows: list[Any]
    list_name: str
    cursor_keys: list[Sequence[Any]]  # each row's key values, for its cursor
    has_next: bool
    has_previous: bool
    # The whole list's length, when it came with the page (`keyset_page`).
    total: int | None = None

    def page_info(self) -> PageInfo:
        keys = self.cursor_keys
        return PageInfo(
            has_next_page=self.has_next,
            has_previous_page=self.has_previous,
            start_cursor=encode_cursor(self.list_name, keys[0]) if keys else None,
            end_cursor=encode_cursor(self.list_name, keys[-1]) if keys else None,
        )


@dataclass(frozen=True)
class Template:
    """A list's statement built once for its shape (``shape``: whatever the statement's
    structure depends on, such as the order asked for), its values left as parameters
    (``params``, given for each request): its pages and its count are then prepared
    once per shape too (`schema.records.Prepared`), not built again for every request."""

    statement: AnySelect
    shape: Hashable
    params: dict[str, Any]


_PREPARED: dict[tuple[Hashable, ...], Prepared] = {}


def _prepared(key: tuple[Hashable, ...], build: Callable[[], AnySelect]) -> Prepared:
    prepared = _PREPARED.get(key)
    if prepared is None:
        prepared = _PREPARED[key] = Prepared.of(build())
    return prepared


def _page_statement(
    statement: AnySelect, keys: Sequence[SortKey], after: bool, total: bool
) -> AnySelect:
    """``statement`` in the order of ``keys``, after the cursor's values (parameters
    `after0`...) when ``after``, at most `limit` rows; the keys' values come last, and
    after them the whole list's length when ``total`` (a first page only: the window
    counts what the WHERE leaves, before the LIMIT)."""
    ordered = statement.add_columns(*(key.column for key in keys))
    if total:
        ordered = ordered.add_columns(func.count().over())
    if after:
        ordered = ordered.where(_after(keys, [bindparam(f"after{i}") for i in range(len(keys))]))
    return ordered.order_by(
        *(key.column.desc() if key.descending else key.column.asc() for key in keys)
    ).limit(bindparam("limit"))


async def keyset_page(
    info: Info,
    statement: AnySelect | Template,
    keys: Sequence[SortKey],
    *,
    list_name: str,
    first: int | None,
    after: str | None,
) -> Page:
    """One page of ``statement`` in the order of ``keys`` (whose last key must be unique).
    When the query asks for `totalCount` of a first page, the count comes with the page
    (a window over the same statement) rather than as a statement of its own."""
    size = page_size(first)
    params = {"limit": size + 1}
    if after is not None:
        values = decode_cursor(after, list_name, len(keys))
        params.update({f"after{i}": value for i, value in enumerate(values)})
    total = after is None and selects(info, "totalCount")
    reader = info.context.reader
    if isinstance(statement, Template):
        template = statement
        prepared = _prepared(
            ("page", template.shape, list_name, after is not None, total),
            lambda: _page_statement(template.statement, keys, after is not None, total),
        )
        result = await reader.rows(prepared, {**template.params, **params})
    else:
        page_statement = _page_statement(statement, keys, after is not None, total)
        result = await reader.rows(page_statement, params)
    width = len(keys) + total
    rows: list[Any] = [tuple(row)[:-width] for row in result[:size]]
    cursor_keys: list[Sequence[Any]] = [tuple(row)[-width:][: len(keys)] for row in result[:size]]
    length = (result[0][-1] if result else 0) if total else None
    return Page(rows, list_name, cursor_keys, len(result) > size, after is not None, length)


def _count_statement(statement: AnySelect) -> AnySelect:
    return select(func.count()).select_from(statement.order_by(None).subquery())


def counter(reader: Reader, statement: AnySelect | Template) -> Callable[[], Awaitable[int]]:
    """A deferred COUNT of ``statement``: it runs only when `totalCount` is asked for."""

    async def count() -> int:
        if isinstance(statement, Template):
            template = statement
            prepared = _prepared(
                ("count", template.shape), lambda: _count_statement(template.statement)
            )
            result = await reader.execute(prepared.statement, template.params)
        else:
            result = await reader.execute(_count_statement(statement))
        return int(result.scalar_one())

    return count


def _known(total: int) -> Callable[[], Awaitable[int]]:
    async def count() -> int:
        return total

    return count


def connection_of(page: Page, items: list[T], count: Callable[[], Awaitable[int]]) -> Connection[T]:
    if page.total is not None:
        count = _known(page.total)
    return Connection(
        edges=[
            Edge(cursor_of=(page.list_name, key), node=item)
            for key, item in zip(page.cursor_keys, items, strict=True)
        ],
        page_info=page.page_info(),
        count=count,
    )
