"""Cursor connections: `edges { cursor node }`, `nodes`, `pageInfo`, `totalCount`.

Pages are fetched by keyset (store.paging): a cursor holds the sort-key values of its
row and the list's name, and the next page starts strictly after them.
"""

import base64
import binascii
import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar, cast

import strawberry
from strawberry.annotation import StrawberryAnnotation
from strawberry.extensions import FieldExtension
from strawberry.types.arguments import StrawberryArgument
from strawberry.types.field import StrawberryField
from strawberry.types.nodes import SelectedField

from schema.context import Info
from schema.cost_meter import take_turn
from schema.errors import BadUserInputError, CursorExpiredError, expired_message
from schema.lookahead import selected_fields, selects
from store.paging import CursorValue, Page, Window
from store.rows import RowT

T = TypeVar("T")

DEFAULT_PAGE_SIZE = 20
MAX_PAGE_SIZE = 100
MAX_CURSOR_LENGTH = 1_000


@strawberry.type(description="Where a page sits in its list, and the cursors at its ends.")
class PageInfo:
    has_next_page: bool = strawberry.field(
        description="Whether the list has items after this page's last item (after the "
        "page's place in the list, when the page is empty), whichever way it was paged."
    )
    has_previous_page: bool = strawberry.field(
        description="Whether the list has items before this page's first item (before the "
        "page's place in the list, when the page is empty), whichever way it was paged."
    )
    start_cursor: str | None = strawberry.field(
        description="The cursor of the page's first item: pass it as `before` (with `last`) "
        "for the previous page; null on an empty page."
    )
    end_cursor: str | None = strawberry.field(
        description="The cursor of the page's last item: pass it as `after` (with `first`) "
        "for the next page; null on an empty page."
    )


def _edge_cursor(root: "Edge[T]") -> str:
    return encode_cursor(*root.cursor_of)


@strawberry.type(description="One item of a page, with the cursor that points at it.")
class Edge(Generic[T]):
    cursor: str = strawberry.field(
        resolver=_edge_cursor,
        description="Pass as `after` to continue after this item, or as `before` to page "
        "back from it.",
    )
    node: T = strawberry.field(description="The item.")
    # The cursor's list and key values: encoded only when a query asks for the cursor,
    # which most pages (they show `nodes`) never do.
    cursor_of: strawberry.Private[tuple[str, Sequence[CursorValue]]]

    def cursor_text(self) -> str:
        return _edge_cursor(self)


@strawberry.type(
    description="A page of a list, with cursors to fetch the pages on either side of it. "
    "`first`/`after` page forward, `last`/`before` backward; `after` and `before` together "
    "narrow the list to the items between them."
)
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


def page_size(argument: str, size: int | None) -> int:
    """The page size an argument (`first` or `last`) asks for, checked."""
    if size is None:
        return DEFAULT_PAGE_SIZE
    if not 0 <= size <= MAX_PAGE_SIZE:
        onward = (
            "`after: pageInfo.endCursor`"
            if argument == "first"
            else ("`before: pageInfo.startCursor`")
        )
        raise BadUserInputError(
            f"`{argument}` must be between 0 and {MAX_PAGE_SIZE}, got {size}; "
            f"fetch further pages with {onward}"
        )
    return size


def cursor_list(list_name: str, data_version: str | None) -> str:
    """What a cursor names its list by: the list (field and order) and, when known, the
    version of the data it was read from, so that a cursor from an earlier load is known
    as such (its positions are then found again: store.paging)."""
    return list_name if data_version is None else f"{list_name}@{data_version}"


def encode_cursor(list_name: str, values: Sequence[CursorValue]) -> str:
    raw = json.dumps([list_name, *values], separators=(",", ":"))
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def decode_cursor(
    cursor: str, list_name: str, arity: int | None = None, argument: str = "after"
) -> list[CursorValue]:
    """The key values of ``cursor``, given as ``argument`` (`after` or `before`), a cursor
    of ``list_name`` read from the data served now (with ``arity`` values when given; the
    list's statement checks their number otherwise: store.paging). A cursor of an earlier
    load is CURSOR_EXPIRED: for lists whose positions cannot be found again (a ranked
    search's offsets)."""
    values, earlier = position_of(cursor, list_name, arity, argument)
    if earlier:
        raise CursorExpiredError(
            expired_message(argument, "the positions of this list do not outlive a load")
        )
    return values


def cursor_parts(cursor: str) -> tuple[str, list[object]] | None:
    """What a cursor of this API holds (its list's name, and its key values), or None for
    text that is no cursor of ours: what the pages check their URL's cursors by too."""
    decoded: object = None
    if len(cursor) <= MAX_CURSOR_LENGTH:  # ours are far shorter; a long one is forged
        try:
            decoded = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
        except (binascii.Error, ValueError, UnicodeDecodeError, RecursionError):
            decoded = None
    if not isinstance(decoded, list) or not decoded or not isinstance(decoded[0], str):
        return None
    return decoded[0], decoded[1:]


def position_of(
    cursor: str, list_name: str, arity: int | None = None, argument: str = "after"
) -> tuple[list[CursorValue], bool]:
    """The values of ``cursor`` (as `decode_cursor`), and whether it was read from an
    earlier load than the data served now."""
    parts = cursor_parts(cursor)
    if parts is None:
        raise BadUserInputError(
            f"`{argument}` cursor {cursor!r} is not a cursor of this API; "
            "pass a `cursor`, `pageInfo.startCursor` or `pageInfo.endCursor` from an earlier "
            "answer"
        )
    named, keys = parts
    earlier = named != list_name
    if earlier and named.partition("@")[0] != list_name.partition("@")[0]:
        raise BadUserInputError(
            f"`{argument}` cursor {cursor!r} belongs to another list or ordering; "
            "use a cursor from the same field with the same `orderBy`"
        )
    wrong_length = arity is not None and len(keys) != arity
    # Keys are integers or text; what they stand for may be null too (an undated model).
    values: list[CursorValue] = [v for v in keys if v is None or isinstance(v, int | str)]
    if wrong_length or len(values) != len(keys):
        raise BadUserInputError(
            f"`{argument}` cursor {cursor!r} is damaged; start again without it"
        )
    return values, earlier


def _given(info: Info, argument: str) -> bool:
    """Whether the query gives ``argument`` to the field being resolved, not null: told
    apart from its default, which the field's value alone cannot."""
    return any(
        isinstance(field, SelectedField) and field.arguments.get(argument) is not None
        for field in selected_fields(info)
    )


@dataclass(frozen=True)
class Paging:
    """The page a list field's paging arguments ask for, its size checked: how many items,
    whether they count from the end (`last`), and the cursors as given (checked against
    the list once it is named: `PageRequest.of`). `Paged` makes it for the resolver."""

    size: int = DEFAULT_PAGE_SIZE
    from_end: bool = False
    after: str | None = None
    before: str | None = None

    @classmethod
    def of(
        cls, info: Info, first: int | None, after: str | None, last: int | None, before: str | None
    ) -> "Paging":
        """The page `first`, `after`, `last` and `before` ask for (`first` as its default
        says when the query leaves it out), or a BAD_USER_INPUT error saying why not."""
        if last is None:
            return cls(page_size("first", first), False, after, before)
        # `first` has a default, so it is always set: it counts only when the query gives it.
        if first is not None and (first != DEFAULT_PAGE_SIZE or _given(info, "first")):
            raise BadUserInputError(
                "`first` and `last` were both given; give `first` (with `after`) to page "
                "forward, or `last` (with `before`) to page backward, not both"
            )
        return cls(page_size("last", last), True, after, before)

    @property
    def is_first_page(self) -> bool:
        """Whether it asks for the list's first page (from the start, with no cursor)."""
        return not self.from_end and self.after is None and self.before is None


# What a resolver's `paging` parameter defaults to (`Paged` always passes it).
FIRST_PAGE = Paging()


def _paging_arguments() -> list[StrawberryArgument]:
    """The paging arguments, as every list field declares them (one set per field)."""

    def argument(
        name: str, annotation: object, default: int | None, description: str
    ) -> StrawberryArgument:
        return StrawberryArgument(
            python_name=name,
            graphql_name=None,
            type_annotation=StrawberryAnnotation(annotation),
            description=description,
            default=default,
        )

    return [
        argument(
            "first",
            int | None,
            DEFAULT_PAGE_SIZE,
            "How many items to take from the start of the list (of the items after `after`, "
            f"when given): at most {MAX_PAGE_SIZE}. The default applies only when `last` is "
            "not given; `first` and `last` together are refused.",
        ),
        argument(
            "after",
            str | None,
            None,
            "Only the items after this cursor (a `pageInfo.endCursor`, or any edge's "
            "`cursor`): the next page.",
        ),
        argument(
            "last",
            int | None,
            None,
            "How many items to take from the end of the list (of the items before `before`, "
            f"when given), for paging backward: at most {MAX_PAGE_SIZE}. The page keeps the "
            "list's order.",
        ),
        argument(
            "before",
            str | None,
            None,
            "Only the items before this cursor (a `pageInfo.startCursor`, or any edge's "
            "`cursor`): the previous page, with `last`.",
        ),
    ]


class Paged(FieldExtension):
    """A list field paged by `first`, `after`, `last` and `before`: they take the place of
    the resolver's `paging` parameter in the field's arguments (in its order), and the
    resolver is handed the page they ask for, checked (`Paging.of`): a wrong size is an
    error of that field alone. The one place the paging arguments are declared."""

    def apply(self, field: StrawberryField) -> None:
        names = [argument.python_name for argument in field.arguments]
        if "paging" not in names:
            # Applied already: each schema built (one per set of limits) applies it again.
            if "first" not in names:
                raise TypeError(f"`{field.python_name}`: a paged field's resolver takes `paging`")
            return
        at = names.index("paging")
        field.arguments = [
            *field.arguments[:at],
            *_paging_arguments(),
            *field.arguments[at + 1 :],
        ]

    async def resolve_async(
        self,
        next_: Callable[..., Awaitable[object]],
        source: object,
        info: Info,
        **kwargs: object,
    ) -> object:
        await take_turn(info)  # the other requests' turn first if this one has had its own
        # The arguments as _paging_arguments declares them (graphql-core checked them).
        paging = Paging.of(
            info,
            cast(int | None, kwargs.pop("first", DEFAULT_PAGE_SIZE)),
            cast(str | None, kwargs.pop("after", None)),
            cast(int | None, kwargs.pop("last", None)),
            cast(str | None, kwargs.pop("before", None)),
        )
        page = await next_(source, info, paging=paging, **kwargs)
        await take_turn(info)  # and again before its items are completed (cost_meter)
        return page


@dataclass(frozen=True)
class PageRequest:
    """What a list field was asked for: the list (its name goes into cursors) and which of
    its rows (the page size, from which end, the key values of the cursors that bound it,
    and whether a page without bounds should bring the whole list's length along)."""

    list_name: str
    window: Window

    @classmethod
    def of(cls, info: Info, list_name: str, paging: Paging) -> "PageRequest":
        """The request of the field being resolved: the total comes with the page when the
        query asks for `totalCount`."""
        list_name = cursor_list(list_name, info.context.data_version)
        after, before = paging.after, paging.before
        after_at, after_earlier = (None, False) if after is None else position_of(after, list_name)
        before_at, before_earlier = (
            (None, False) if before is None else position_of(before, list_name, None, "before")
        )
        return cls(
            list_name,
            Window(
                paging.size,
                after=after_at,
                before=before_at,
                from_end=paging.from_end,
                with_total=after is None and before is None and selects(info, "totalCount"),
                from_earlier_load=after_earlier or before_earlier,
            ),
        )


# No list is paged this far by offset: a cursor past it was not made here.
MAX_OFFSET = 2**31


def _offset(cursor: str, list_name: str, argument: str) -> int:
    (position,) = decode_cursor(cursor, list_name, 1, argument)
    if type(position) is not int or not 0 <= position < MAX_OFFSET:
        raise BadUserInputError(
            f"`{argument}` cursor {cursor!r} is damaged; start again without it"
        )
    return position


async def offset_range(
    paging: Paging, list_name: str, count: Callable[[], Awaitable[int]]
) -> tuple[int, int]:
    """The (offset, limit) of the page ``paging`` asks for in a list whose cursors hold
    positions (a ranked list, with no stable key to page by); ``count`` (the list's
    length) is asked for only by a last page without `before`. Read one item past the
    limit to know whether items follow the page; items come before it when the offset is
    past 0."""
    size, from_end = paging.size, paging.from_end
    start = 0 if paging.after is None else _offset(paging.after, list_name, "after") + 1
    end = None if paging.before is None else _offset(paging.before, list_name, "before")
    if from_end:
        if end is None:
            end = await count()
        offset = max(start, end - size)
        return offset, max(0, end - offset)
    return start, size if end is None else max(0, min(size, end - start))


def connection_of(
    page: Page[RowT],
    list_name: str,
    items: list[T],
    count: Callable[[], Awaitable[int]] | None = None,
) -> Connection[T]:
    """``items`` (one per row of ``page``) as a connection; `totalCount` runs ``count``
    only when the page did not bring the total along (it must then be given)."""
    if page.total is not None:
        count = _known(page.total)
    assert count is not None, "a page without its total needs a way to count"
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


async def paged(
    info: Info,
    list_name: str,
    paging: Paging,
    *,
    read: Callable[[Window], Awaitable[Page[RowT]]],
    count: Callable[[], Awaitable[int]],
    items: Callable[[list[RowT]], list[T]],
) -> Connection[T]:
    """The page ``paging`` asks for of a list: ``read`` reads a window of its rows,
    ``items`` makes them the page's items, ``count`` counts the whole list (run only when
    the query asks for `totalCount` of a page that did not bring it along)."""
    request = PageRequest.of(info, list_name, paging)
    page = await read(request.window)
    return connection_of(page, request.list_name, items(page.rows), count)


def _known(total: int) -> Callable[[], Awaitable[int]]:
    async def count() -> int:
        return total

    return count
