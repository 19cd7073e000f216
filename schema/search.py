"""`search`: nodes, methods and models ranked by the database's own full-text search."""

import hashlib
from typing import Annotated

import strawberry

from schema.context import Info
from schema.errors import BadUserInputError
from schema.method import Method
from schema.model import Model
from schema.node import Node
from schema.pagination import Connection, Edge, PageInfo, Paging, cursor_list, offset_range
from store import search_index

SearchHit = Annotated[
    Node | Method | Model,
    strawberry.union("SearchHit", description="A node, method or model that a search found."),
]


@strawberry.type(
    name="SearchConnection",
    description="A page of search hits, best first: matches in names rank above matches in "
    "aliases and matching aids, which rank above matches in descriptions.",
)
class SearchConnection(Connection[SearchHit]):
    pass


async def search(info: Info, query: str, paging: Paging) -> SearchConnection:
    try:
        words = search_index.words_of(query)
    except search_index.EmptySearchError as exc:
        raise BadUserInputError(str(exc)) from None
    # Ranked hits have no stable sort key to resume from, so the cursor holds the offset,
    # tied to the words so that a cursor of another search is refused.
    searched = "search:" + hashlib.sha256(" ".join(words).encode()).hexdigest()[:12]
    list_name = cursor_list(searched, info.context.data_version)
    reader = info.context.reader

    async def count() -> int:
        return await search_index.search_count(reader, words)

    offset, limit = await offset_range(info, paging, list_name, count)
    hits = await search_index.search_page(reader, words, offset=offset, limit=limit + 1)
    items = await _resolve(info, hits[:limit])
    edges = [
        Edge[SearchHit](cursor_of=(list_name, [offset + index]), node=item)
        for index, item in enumerate(items)
    ]
    return SearchConnection(
        edges=edges,
        page_info=PageInfo(
            has_next_page=len(hits) > limit,
            has_previous_page=offset > 0,
            start_cursor=edges[0].cursor_text() if edges else None,
            end_cursor=edges[-1].cursor_text() if edges else None,
        ),
        count=count,
    )


async def _resolve(info: Info, hits: list[search_index.Hit]) -> list[Node | Method | Model]:
    loaders = info.context.loaders
    items: list[Node | Method | Model] = []
    for hit in hits:
        if hit.kind == "node":
            node = await loaders.node_by_id.load(hit.ref_id)
            if node is not None:
                items.append(Node(row=node[0], stats=node[1]))
        elif hit.kind == "method":
            method = await loaders.method_by_id.load(hit.ref_id)
            if method is not None:
                items.append(Method(row=method[0], stats=method[1]))
        else:
            model = await loaders.model_by_id.load(hit.ref_id)
            if model is not None:
                items.append(Model(row=model))
    return items
