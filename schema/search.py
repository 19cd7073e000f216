"""`search`: nodes, methods, models and sources, ranked by the project's own rule
(store.search_rank), the same on SQLite and PostgreSQL."""

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Annotated, Generic, TypeVar

import strawberry

from schema.context import Info
from schema.cost_meter import MeteredList
from schema.dataloaders import Batched, Loaders
from schema.errors import BadUserInputError
from schema.method import Method
from schema.model import Model
from schema.node import Node
from schema.pagination import Connection, Edge, PageInfo, Paging, cursor_list, offset_range
from schema.source import Source
from store import search_snippet
from store.methods import MethodWithStats
from store.nodes import NodeWithStats
from store.rows import json_list
from store.search_catalogue import Field
from store.search_rank import Highlighter, Hit, query_words
from store.tables import ModelRow, SourceRow

SearchHit = Annotated[
    Node | Method | Model | Source,
    strawberry.union(
        "SearchHit", description="A node, method, model or source that a search found."
    ),
]


@strawberry.enum(description="The kinds of objects a search can find.")
class SearchType(Enum):
    NODES = strawberry.enum_value("node", description="Taxonomy nodes.")
    METHODS = strawberry.enum_value("method", description="Methods.")
    MODELS = strawberry.enum_value("model", description="Models.")
    SOURCES = strawberry.enum_value("source", description="Sources (found by their titles).")


_KINDS = {
    SearchType.NODES: "node",
    SearchType.METHODS: "method",
    SearchType.MODELS: "model",
    SearchType.SOURCES: "source",
}
_TYPES = {kind: type_ for type_, kind in _KINDS.items()}


@strawberry.enum(description="The field of a hit in which the search found the query's words.")
class SearchField(Enum):
    NAME = strawberry.enum_value(
        "name", description="The name (a node's, method's or model's) or a source's title."
    )
    ALIAS = strawberry.enum_value("alias", description="One of a method's aliases.")
    MATCHING_AID = strawberry.enum_value(
        "matching_aid", description="One of a node's matching aids."
    )
    ORGANIZATION = strawberry.enum_value("organization", description="A model's organization.")
    DESCRIPTION = strawberry.enum_value("description", description="The description.")


@strawberry.type(
    description="A stretch of a snippet's text: `start` and `end` are offsets into `text` "
    "counted in Unicode code points (characters; in JavaScript, index `Array.from(text)`), "
    "`end` exclusive."
)
class TextRange:
    start: int = strawberry.field(description="Offset of the first marked character.")
    end: int = strawberry.field(description="Offset just after the last marked character.")


@strawberry.type(
    description="The matched field's text (a long description cut to about 160 characters "
    "around its first match, with `…` where it was cut), and where the query's words are "
    "in it: plain text and ranges, no markup."
)
class SearchSnippet:
    text: str = strawberry.field(description="The text, as it is in the field (or cut).")
    highlights: list[TextRange] = strawberry.field(
        extensions=[MeteredList()],
        description="The found words (for a word found by its start, the typed part), in "
        "order, not overlapping.",
    )


@strawberry.type(
    name="SearchHitEdge",
    description="One search hit, with its cursor, its score, the field it matched and a "
    "highlighted snippet.",
)
class SearchHitEdge(Edge[SearchHit]):
    score: int = strawberry.field(
        description="How well the hit matches, higher first: (10 - tier) * 10000 - 100 * "
        "typos - words found by prefix or stem; tiers: 0 the name is the query, 1 an alias "
        "is, 2 the name is the query by its words' stems or run together (`transformers` "
        "-> Transformer, `mobilenet v2` -> MobileNetV2), 3 an alias is so, 4 the name run "
        "together starts with the query run together (`batchnorm` -> Batch Normalization), "
        "then every word in 5 the name (or the name run together a typo or two from the "
        "query, up to 20 letters), 6 the aliases, 7 the matching aids or organization, 8 the "
        "description, 9 several fields. Equal scores are ordered by shorter name, then type "
        "(node, method, model, source), then slug."
    )
    roles: list[SearchType] = strawberry.field(
        description="Every type the hit is, in the order NODES, METHODS, MODELS, SOURCES: a "
        "paper that stands as a model and is that model's source (titled as the model is "
        "named) is one hit, `[MODELS, SOURCES]`, the model (the source with a `types` "
        "filter that allows sources and not models)."
    )
    matched_field: SearchField = strawberry.field(
        description="The field that decided the hit's rank (for words spread over several "
        "fields, the best of them)."
    )
    snippet: SearchSnippet = strawberry.field(description="The matched field, highlighted.")


@strawberry.type(description="The number of a search's hits of one type.")
class SearchFacet:
    type: SearchType = strawberry.field(description="The type.")
    count: int = strawberry.field(description="Hits of that type.")


@strawberry.type(
    name="SearchConnection",
    description="A page of search hits, best first, ranked the same on every database: the "
    "name or an alias equal to the query, then equal by stems or with spaces and hyphens set "
    "aside (`transformers` -> Transformer, `mobilenet v2` -> MobileNetV2), then names "
    "starting with it so (`batchnorm` -> Batch Normalization), then every query word in the "
    "name, the aliases, the matching aids or organization, the description, several fields. "
    "A word also finds words it starts, words of the same Snowball stem (`parallelisms` finds "
    "`parallelism`), a name's words it runs together (`rcnn`), its runs of letters and digits "
    "(`resnet50`: `resnet`, `50`) and, from 4 letters, words one typo away (two from 8 "
    "letters: `transfomer` finds `Transformer`), ranked below exact words. A paper that is a "
    "model and its source is one hit (`roles`).",
)
class SearchConnection(Connection[SearchHit]):
    edges: list[SearchHitEdge] = strawberry.field(  # type: ignore[assignment]
        description="The page's hits, with their cursors, scores and snippets."
    )
    facets: list[SearchFacet] = strawberry.field(
        extensions=[MeteredList()],
        description="How many hits the query has of each type, every type listed (NODES, "
        "METHODS, MODELS, SOURCES), whatever `types` says: what `totalCount` would be with "
        "`types: [that type]`. A hit with two roles (a model that is also its paper) counts "
        "for both.",
    )


async def search(
    info: Info, query: str, paging: Paging, types: list[SearchType] | None = None
) -> SearchConnection:
    # An empty or blank query (or punctuation only) finds nothing: an empty page, as an
    # autocomplete's empty box expects, not an error.
    words = query_words(query)
    if types is not None and not types:
        raise BadUserInputError(
            "`types` is empty, so nothing could be found; leave it out to search every type"
        )
    kinds = sorted({_KINDS[kind] for kind in types}) if types else None
    searched = "search:" + hashlib.sha256(f"{words}{kinds}".encode()).hexdigest()[:12]
    if not words:
        return await _nothing_found(paging, cursor_list(searched, info.context.data_version))
    searcher = await info.context.caches.searchers.searcher(
        info.context.reader, info.context.data_version
    )
    # Ranked hits have no stable sort key to resume from, so the cursor holds the offset,
    # tied to the words and types (a cursor of another search is refused) and to the
    # catalogue's content: after a load that leaves every entry as it was, the hits are
    # the same, in the same order, and the cursor goes on; after any other, it has expired.
    list_name = cursor_list(searched, f"catalogue-{searcher.catalogue.digest}")

    async def count() -> int:
        return searcher.search(words, kinds, 0, 0).total

    offset, limit = await offset_range(paging, list_name, count)
    ranked = searcher.search(words, kinds, offset, limit + 1)
    hits = ranked.hits[:limit]
    await _fetch_ahead(info, hits)
    edges = [
        edge
        for index, hit in enumerate(hits)
        if (edge := await _edge(info, hit, ranked.highlighter, (list_name, [offset + index])))
    ]

    async def total() -> int:
        return ranked.total

    return SearchConnection(
        edges=edges,
        page_info=PageInfo(
            has_next_page=len(ranked.hits) > limit,
            has_previous_page=offset > 0,
            start_cursor=edges[0].cursor_text() if edges else None,
            end_cursor=edges[-1].cursor_text() if edges else None,
        ),
        count=total,
        facets=[SearchFacet(type=kind, count=ranked.facets[_KINDS[kind]]) for kind in SearchType],
    )


async def _nothing_found(paging: Paging, list_name: str) -> SearchConnection:
    """The empty page of a search with no words; its paging arguments checked as any."""

    async def none() -> int:
        return 0

    offset, _ = await offset_range(paging, list_name, none)
    page_info = PageInfo(
        has_next_page=False, has_previous_page=offset > 0, start_cursor=None, end_cursor=None
    )
    facets = [SearchFacet(type=kind, count=0) for kind in SearchType]
    return SearchConnection(edges=[], page_info=page_info, count=none, facets=facets)


Texts = dict[Field, list[str | None]]
R = TypeVar("R")


def _texts(name: str, description: str | None, field: Field, listed: list[str]) -> Texts:
    """The texts of a node or method: its list (matching aids, aliases) is ``field``."""
    return {Field.NAME: [name], field: list[str | None](listed), Field.DESCRIPTION: [description]}


def _node(found: NodeWithStats) -> tuple[Node, Texts]:
    row = found.node
    texts = _texts(row.name, row.description, Field.OTHER, json_list(row.matching_aids))
    return Node(row=row, stats=found.stats), texts


def _method(found: MethodWithStats) -> tuple[Method, Texts]:
    row = found.method
    texts = _texts(row.name, row.description, Field.ALIAS, json_list(row.aliases))
    return Method(row=row, stats=found.stats), texts


def _model(row: ModelRow) -> tuple[Model, Texts]:
    return Model(row=row), {Field.NAME: [row.name], Field.OTHER: [row.organization]}


def _source(row: SourceRow) -> tuple[Source, Texts]:
    return Source(row=row), {Field.NAME: [row.title]}


@dataclass(frozen=True)
class _Kind(Generic[R]):
    """A kind of hit: its loader (of the request's Loaders) and its object with its texts."""

    loader_of: Callable[[Loaders], Batched[int, R | None]]
    item_of: Callable[[R], tuple[Node | Method | Model | Source, Texts]]

    async def fetch_ahead(self, loaders: Loaders, ids: list[int]) -> None:
        await self.loader_of(loaders).fetch_ahead(ids)

    async def item(
        self, loaders: Loaders, ref_id: int
    ) -> tuple[Node | Method | Model | Source, Texts] | None:
        found = await self.loader_of(loaders).load(ref_id)
        return None if found is None else self.item_of(found)


_KIND: dict[
    str, _Kind[NodeWithStats] | _Kind[MethodWithStats] | _Kind[ModelRow] | _Kind[SourceRow]
] = {
    "node": _Kind(lambda loaders: loaders.node_by_id, _node),
    "method": _Kind(lambda loaders: loaders.method_by_id, _method),
    "model": _Kind(lambda loaders: loaders.model_by_id, _model),
    "source": _Kind(lambda loaders: loaders.source_by_id, _source),
}


async def _fetch_ahead(info: Info, hits: list[Hit]) -> None:
    """The page's objects, one statement per kind of object."""
    for kind, of_kind in _KIND.items():
        ids = [hit.ref_id for hit in hits if hit.kind == kind]
        if ids:
            await of_kind.fetch_ahead(info.context.loaders, ids)


_OTHER_FIELD = {"node": SearchField.MATCHING_AID, "model": SearchField.ORGANIZATION}


async def _edge(
    info: Info, hit: Hit, highlighter: Highlighter, cursor_of: tuple[str, list[int]]
) -> SearchHitEdge | None:
    """The hit's edge; None when its object is gone (a load since the catalogue's build)."""
    found = await _KIND[hit.kind].item(info.context.loaders, hit.ref_id)
    if found is None:
        return None
    item, texts = found
    field, snippet = _snippet(hit, texts, highlighter)
    matched = _OTHER_FIELD[hit.kind] if field is Field.OTHER else SearchField[field.name]
    return SearchHitEdge(
        cursor_of=cursor_of,
        node=item,
        score=hit.score,
        roles=[_TYPES[role] for role in hit.roles],
        matched_field=matched,
        snippet=SearchSnippet(
            text=snippet.text,
            highlights=[TextRange(start=start, end=end) for start, end in snippet.ranges],
        ),
    )


def _snippet(
    hit: Hit, texts: Texts, highlighter: Highlighter
) -> tuple[Field, search_snippet.Snippet]:
    """The hit's field (the first with a mark, for a hit over several fields) and snippet."""
    if hit.whole is not None:  # the name matched as a whole
        return Field.NAME, search_snippet.marked_start(texts[Field.NAME][0] or "", hit.whole)
    fields = [hit.field] if hit.field is not None else list(Field)
    for field in fields:
        found = search_snippet.best(texts.get(field, []), highlighter)
        if found is not None:
            return field, found
    name = texts[Field.NAME][0] or ""
    if hit.field is Field.NAME:  # a name a typo or two from the query run together
        return Field.NAME, search_snippet.marked_start(name, search_snippet.ALL)
    return Field.NAME, search_snippet.Snippet(name, [])
