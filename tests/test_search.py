"""Search for autocomplete, through the schema over HTTP: the ranking on the real datasets
(named queries and their expected top hits), searches typed as people type them (the
recall list of bench/search_queries.json), typos, stems, the `types` filter, facets, one
hit per paper with its roles, scores, matched fields and highlights, paging, and the same
hits on SQLite and PostgreSQL."""

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from api.ingest.load import load_directory
from api.settings import DEFAULT_FIXTURES_DIR
from store import search_catalogue, search_saved, search_text
from store.engines import make_sync_engine

from conftest import BACKENDS, DATASETS, ROOT, Api, serve

SEARCH = """
query($q: String!, $first: Int, $after: String, $types: [SearchType!]) {
  search(query: $q, first: $first, after: $after, types: $types) {
    totalCount
    facets { type count }
    pageInfo { hasNextPage endCursor }
    edges {
      score matchedField roles
      snippet { text highlights { start end } }
      node {
        __typename
        ... on Node { slug name }
        ... on Method { slug name }
        ... on Model { slug name }
        ... on Source { slug title }
      }
    }
  }
}
"""


def search(api: Api, query: str, first: int = 20, **variables: Any) -> dict[str, Any]:
    found: dict[str, Any] = api.query(SEARCH, {"q": query, "first": first, **variables})["search"]
    return found


def top(api: Api, query: str, count: int = 1, **variables: Any) -> list[tuple[str, str]]:
    edges = search(api, query, count, **variables)["edges"]
    return [(edge["node"]["__typename"], edge["node"]["slug"]) for edge in edges]


def marked(edge: dict[str, Any]) -> list[str]:
    text = edge["snippet"]["text"]
    return [text[r["start"] : r["end"]] for r in edge["snippet"]["highlights"]]


@pytest.fixture
def pwc(api_for: Callable[[str, str], Api], backend: str) -> Api:
    return api_for(backend, "pwc")


@pytest.fixture
def go(api_for: Callable[[str, str], Api], backend: str) -> Api:
    return api_for(backend, "go")


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        # The findings: the method of that name was 133rd, or below paper titles.
        ("transformer", "transformer"),
        ("gan", "gan"),
        ("bert", "bert"),
        ("adam", "adam"),
        # Typos: one edit (a swap counts as one) from 4 letters, two from 8.
        ("transfomer", "transformer"),
        ("dropuot", "dropout"),
        ("Dropout", "dropout"),
        ("multi-head attention", "multi-head-attention"),
    ],
)
def test_pwc_named_queries_put_the_method_first(pwc: Api, query: str, expected: str) -> None:
    assert top(pwc, query) == [("Method", expected)]


def test_pwc_exact_name_first_then_names_starting_with_it(pwc: Api) -> None:
    found = search(pwc, "transformer", 4)["edges"]
    assert found[0]["matchedField"] == "NAME"
    assert found[0]["score"] > found[1]["score"]
    # Then the names that start with the query, shorter first: the node `Transformers`.
    assert found[1]["node"] == {
        "__typename": "Node",
        "slug": "transformers",
        "name": "Transformers",
    }
    assert all(
        edge["node"].get("name", edge["node"].get("title")).lower().startswith("transformer")
        for edge in found[1:]
    )


def test_typo_ranks_below_exact_and_marks_the_word(pwc: Api) -> None:
    exact = search(pwc, "dropout", 1)["edges"][0]
    typo = search(pwc, "dropuot", 1)["edges"][0]
    assert exact["node"] == typo["node"]
    assert typo["score"] < exact["score"]
    assert marked(typo) == ["Dropout"]


def test_stemming_finds_the_singular(pwc: Api) -> None:
    found = search(pwc, "parallelisms", 100)
    assert found["totalCount"] > 0
    marks = {mark.lower() for edge in found["edges"] for mark in marked(edge)}
    assert "parallelism" in marks


def test_a_typed_prefix_is_marked_as_typed(pwc: Api) -> None:
    edge = search(pwc, "transf", 1)["edges"][0]
    assert edge["matchedField"] == "NAME"
    assert marked(edge) == ["Transf"]


def test_description_hits_are_cut_around_the_match(pwc: Api) -> None:
    found = search(pwc, "bottleneck latent reconstruction", 5)["edges"]
    assert found, "the autoencoder's description has these words"
    edge = next(e for e in found if e["node"]["slug"] == "autoencoder")
    assert edge["matchedField"] == "DESCRIPTION"
    assert len(edge["snippet"]["text"]) <= 162
    assert {m.lower() for m in marked(edge)} >= {"bottleneck"}


def test_types_filter(pwc: Api) -> None:
    assert {kind for kind, _ in top(pwc, "transformer", 20, types=["NODES"])} == {"Node"}
    # A PwC paper is a model and its source: one hit, the model, when models are allowed;
    # the source when only sources are.
    papers = search(pwc, "adam", 5, types=["SOURCES", "MODELS"])
    assert {e["node"]["__typename"] for e in papers["edges"]} == {"Model"}
    sources = search(pwc, "adam", 5, types=["SOURCES"])
    assert {e["node"]["__typename"] for e in sources["edges"]} == {"Source"}
    assert sources["totalCount"] == papers["totalCount"]
    everything = search(pwc, "adam", 1)["totalCount"]
    methods = search(pwc, "adam", 1, types=["METHODS"])["totalCount"]
    assert 0 < methods < everything


def test_empty_types_is_an_input_error(pwc: Api) -> None:
    errors = pwc.errors(SEARCH, {"q": "adam", "types": []})
    assert errors[0]["extensions"]["code"] == "BAD_USER_INPUT"
    assert "leave it out" in errors[0]["message"]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        # A node and its concept share the name: the node first (type order), then the method.
        ("RNA metabolic process", [("Node", "go-0016070"), ("Method", "go-0016070-concept")]),
        # An alias equal to the query (a GO id, its punctuation ignored).
        ("GO:0016070", [("Method", "go-0016070-concept")]),
        ("ypf1", [("Model", "pombase-spac25b8.17")]),
    ],
)
def test_go_named_queries(go: Api, query: str, expected: list[tuple[str, str]]) -> None:
    assert top(go, query, len(expected)) == expected


def test_pages_continue_the_ranking(pwc: Api) -> None:
    whole = search(pwc, "attention", 60)
    pages: list[dict[str, Any]] = []
    after = None
    while len(pages) < 60:
        page = search(pwc, "attention", 25, after=after)
        pages += page["edges"]
        after = page["pageInfo"]["endCursor"]
    assert [e["node"] for e in pages[:60]] == [e["node"] for e in whole["edges"]]
    assert page["totalCount"] == whole["totalCount"]


RECALL = json.loads((ROOT / "bench" / "search_queries.json").read_text())["queries"]


@pytest.mark.parametrize(
    ("query", "kind", "slug"),
    [(item["query"], item["kind"], item["slug"]) for item in RECALL],
    ids=[item["query"] for item in RECALL],
)
def test_pwc_typed_queries_find_the_answer_in_the_top_3(
    pwc: Api, query: str, kind: str, slug: str
) -> None:
    """bench/search_recall.py's list: each search as people type it, and what it means."""
    assert (kind.capitalize(), slug) in top(pwc, query, 3)


@pytest.mark.parametrize(
    ("query", "expected", "marks"),
    [
        # A plural of the name (the node of that name first).
        ("transformers", ("Method", "transformer"), ["Transformer"]),
        # Digits run together, a version with a space, a name with spaces: run together.
        ("gpt3", ("Method", "gpt-3"), ["GPT", "3"]),
        ("mobilenet v2", ("Method", "mobilenetv2"), ["MobileNetV2"]),
        ("mobile net v3", ("Method", "mobilenetv3"), ["MobileNetV3"]),
        # A short form: the start of the name run together, marked as far as typed.
        ("batchnorm", ("Method", "batch-normalization"), ["Batch", "Norm"]),
        # A compound inside a name.
        ("cascade maskrcnn", ("Method", "cascade-mask-r-cnn"), ["Cascade", "Mask", "R", "CNN"]),
        ("multihead attention", ("Method", "multi-head-attention"), ["Multi", "Head", "Attention"]),
        # A typo in a name run together.
        ("efficent net", ("Method", "efficientnet"), ["EfficientNet"]),
    ],
)
def test_loose_names_are_found_and_marked(
    pwc: Api, query: str, expected: tuple[str, str], marks: list[str]
) -> None:
    edges = search(pwc, query, 3)["edges"]
    (edge,) = [e for e in edges if (e["node"]["__typename"], e["node"]["slug"]) == expected]
    assert edge["matchedField"] == "NAME"
    assert marked(edge) == marks


def test_a_paper_that_is_a_model_and_a_source_is_one_hit_with_both_roles(pwc: Api) -> None:
    found = search(pwc, "attention is all you need", 20)
    papers = [e for e in found["edges"] if e["node"]["slug"].startswith("attention-is-all")]
    assert [(e["node"]["__typename"], e["roles"]) for e in papers] == [
        ("Model", ["MODELS", "SOURCES"]),
        ("Model", ["MODELS", "SOURCES"]),
    ]
    assert papers[0]["node"]["slug"] == "attention-is-all-you-need"
    assert not [e for e in found["edges"] if e["node"]["__typename"] == "Source"]
    # Asked for sources alone, the same paper stands as its source, with the same roles.
    sources = search(pwc, "attention is all you need", 1, types=["SOURCES"])["edges"]
    assert [(e["node"]["__typename"], e["node"]["slug"], e["roles"]) for e in sources] == [
        ("Source", "attention-is-all-you-need-paper", ["MODELS", "SOURCES"])
    ]
    # Methods keep their own role.
    assert search(pwc, "dropout", 1)["edges"][0]["roles"] == ["METHODS"]


@pytest.mark.parametrize("query", ["attention", "batchnorm", "resnet50", "transformers"])
def test_facets_count_each_type_whatever_the_filter(pwc: Api, query: str) -> None:
    whole = search(pwc, query, 1)
    facets = {facet["type"]: facet["count"] for facet in whole["facets"]}
    assert list(facets) == ["NODES", "METHODS", "MODELS", "SOURCES"]
    for type_, count in facets.items():
        alone = search(pwc, query, 1, types=[type_])
        assert alone["totalCount"] == count, type_
        assert alone["facets"] == whole["facets"]
    # A paper counts for models and sources, once in the total.
    assert facets["MODELS"] == facets["SOURCES"]
    assert whole["totalCount"] == facets["NODES"] + facets["METHODS"] + facets["MODELS"]


def test_a_search_with_no_words_has_zero_facets(pwc: Api) -> None:
    assert {facet["count"] for facet in search(pwc, " - ")["facets"]} == {0}


QUERIES = [
    "transformer", "gan", "bert", "adam", "transfomer", "dropuot", "parallelisms", "poincare",
    "multi-head", "attention", "conv net", "a", "expert parallel", "pipeline", "GO:0016070",
    "protein", "mitochondrial", "cell cycle", "gamma", "method",
    # Searches as people type them: plurals, digits, short forms, versions, typos, titles.
    "transformers", "resnet50", "gpt 3", "mobilenet v2", "batchnorm", "multihead attention",
    "efficent net", "attention is all you need", "normalization batch", "rcnn", "proteins",
]  # fmt: skip


@pytest.mark.skipif(len(BACKENDS) < 2, reason="needs TEST_DATABASE_URL (PostgreSQL)")
@pytest.mark.parametrize("dataset", ["pwc", "go", "fixtures"])
def test_sqlite_and_postgresql_give_the_same_hits(
    api_for: Callable[[str, str], Api], dataset: str
) -> None:
    sqlite, postgres = api_for("sqlite", dataset), api_for("postgresql", dataset)
    for query in QUERIES:
        on_sqlite, on_postgres = search(sqlite, query, 100), search(postgres, query, 100)
        # Cursors name the data version, which differs between the two loads.
        for found in on_sqlite, on_postgres:
            found.pop("pageInfo")
        assert on_postgres == on_sqlite, query


def test_a_load_changes_what_search_finds(
    backend: str, new_database: Callable[[str, str], str], tiny_folder: Path
) -> None:
    """The catalogue belongs to one data version: after a load, the new data is found."""
    url = new_database(backend, "search_reload")
    load_directory(tiny_folder, url)
    document = {"query": '{ search(query: "training parallelism") { totalCount } }'}
    with serve(url, version_poll_seconds=0.05, response_cache=False) as client:
        before = client.post("/graphql", json=document).json()["data"]["search"]["totalCount"]
        assert before == 0
        load_directory(DEFAULT_FIXTURES_DIR, url)
        for _ in range(200):  # the server moves to the new version within its poll
            after = client.post("/graphql", json=document).json()["data"]["search"]["totalCount"]
            if after:
                break
            time.sleep(0.02)
        assert after > 0


def test_servers_read_the_catalogue_the_load_stored_and_build_none(
    backend: str,
    new_database: Callable[[str, str], str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The load builds the search catalogue once and stores it with the data; a server
    process only reads it (no build, no warm-up per process: issue 23)."""
    url = new_database(backend, "search_stored")
    load_directory(DEFAULT_FIXTURES_DIR, url)

    def no_build(*_: object) -> None:
        raise AssertionError("a server built a search catalogue")

    for module in search_catalogue, search_saved:  # neither reads entries nor builds
        monkeypatch.setattr(module, "read_entries", no_build)
        monkeypatch.setattr(module, "build", no_build)
    document = {"query": '{ search(query: "training parallelism") { totalCount } }'}
    with serve(url, response_cache=False) as client:
        answer = client.post("/graphql", json=document).json()
    assert "errors" not in answer, answer
    assert answer["data"]["search"]["totalCount"] > 0


def test_words_are_read_by_snowball_stems_and_rapidfuzz_distances() -> None:
    assert search_text.stem("transformers") == search_text.stem("transformer") == "transform"
    assert search_text.stem("policies") == search_text.stem("policy")
    assert search_text.stem("gans") == "gan"
    assert search_text.stem("50") == "50"
    assert search_text.parts("resnet50") == ["resnet", "50"]
    assert search_text.parts("1x1") == ["1", "x", "1"]
    assert search_text.parts("dropout") == []
    assert search_text.split_words(["gpt3", "v2"]) == ["gpt", "3", "v", "2"]
    assert search_text.squashed(search_text.words("MobileNet V2")) == "mobilenetv2"
    assert search_text.edit_distance("dropuot", "dropout", 1) == 1  # a swap is one edit
    assert search_text.edit_distance("abcd", "wxyz", 2) == 3


@pytest.mark.parametrize("dataset", ["fixtures", "pwc", "go"])
def test_the_load_builds_the_catalogue_of_the_rows_it_writes(
    backend: str, new_database: Callable[[str, str], str], dataset: str
) -> None:
    """A load builds its catalogue from its catalog in memory, in a child process
    (api.ingest.write): part for part, it is the catalogue of the rows in the tables."""
    url = new_database(backend, f"catalogue_{dataset}")
    load_directory(DATASETS[dataset], url)
    engine = make_sync_engine(url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(text("SELECT part, data FROM search_catalogue")).all()
            stored = {str(part): bytes(data) for part, data in rows}
            from_tables = search_catalogue.build(search_catalogue.read_entries(connection))
    finally:
        engine.dispose()
    assert len(from_tables) > 30
    assert stored == from_tables
