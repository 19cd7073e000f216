"""`search`: nodes, methods, models and sources, ranked by the project's own rule
(store.search_rank), the same on SQLite and PostgreSQL."""

import hashlib
from collections.abc import Callable
from enum import Enum
from typing import Annotated, Any

import strawberry

from schema.context import Info
from schema.cost_meter import MeteredList
from schema.dataloaders import Loaders
from schema.errors import BadUserInputError
from schema.method import Method
from schema.model import Model
from schema.node import Node
from schema.pagination import Connection, Edge, PageInfo, Paging, cursor_list, offset_range
from schema.source import Source
from store import search_snippet
from store.rows import json_list
from store.search_catalogue import Field
from store.search_rank import Highlighter, Hit, query_words

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
    # Ranked hits have no stable sort key to resume from, so the cursor holds the offset,
    # tied to the words and types so that a cursor of another search is refused.
    searched = "search:" + hashlib.sha256(f"{words}{kinds}".encode()).hexdigest()[:12]
    list_name = cursor_list(searched, info.context.data_version)
    if not words:
        return await _nothing_found(paging, list_name)
    searcher = await info.context.caches.searchers.searcher(
        info.context.reader, info.context.data_version
    )

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


def _with_stats(make: Callable[..., Any], field: Field, column: str) -> Callable[[Any], Any]:
    """Item and texts of a node or method (read with its figures): its list column
    (matching aids, aliases) is ``field``."""

    def item_of(found: Any) -> tuple[Any, Texts]:
        row, stats = found
        return make(row=row, stats=stats), {
            Field.NAME: [row.name],
            field: json_list(getattr(row, column)),
            Field.DESCRIPTION: [row.description],
        }

    return item_of


def _model(row: Any) -> tuple[Model, Texts]:
    return Model(row=row), {Field.NAME: [row.name], Field.OTHER: [row.organization]}


def _source(row: Any) -> tuple[Source, Texts]:
    return Source(row=row), {Field.NAME: [row.title]}


# Per kind of hit: its loader (of the request's Loaders) and its object with its texts.
_KIND: dict[str, tuple[Callable[[Loaders], Any], Callable[[Any], tuple[Any, Texts]]]] = {
    "node": (lambda loaders: loaders.node_by_id, _with_stats(Node, Field.OTHER, "matching_aids")),
    "method": (lambda loaders: loaders.method_by_id, _with_stats(Method, Field.ALIAS, "aliases")),
    "model": (lambda loaders: loaders.model_by_id, _model),
    "source": (lambda loaders: loaders.source_by_id, _source),
}


async def _fetch_ahead(info: Info, hits: list[Hit]) -> None:
    """The page's objects, one statement per kind of object."""
    for kind, (loader_of, _) in _KIND.items():
        ids = [hit.ref_id for hit in hits if hit.kind == kind]
        if ids:
            await loader_of(info.context.loaders).fetch_ahead(ids)


_OTHER_FIELD = {"node": SearchField.MATCHING_AID, "model": SearchField.ORGANIZATION}


async def _edge(
    info: Info, hit: Hit, highlighter: Highlighter, cursor_of: tuple[str, list[int]]
) -> SearchHitEdge | None:
    """The hit's edge; None when its object is gone (a load since the catalogue's build)."""
    loader_of, item_of = _KIND[hit.kind]
    found = await loader_of(info.context.loaders).load(hit.ref_id)
    if found is None:
        return None
    item, texts = item_of(found)
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
