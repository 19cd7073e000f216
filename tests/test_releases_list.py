"""The releases list (issue 27 item 3): `releases(orderBy:, filter:)` through the schema over
HTTP, on both databases: by number both ways (the newest first by default), narrowed by the
UTC days the releases were loaded on (both ends inclusive) and by their notes' text (any
case, LIKE's wildcards taken literally), paged by cursors under a filter both ways, and
each wrong argument refused with a coded error on the field alone."""

from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any

import pytest
from sqlalchemy import DateTime, bindparam, text

from api.ingest.load import load_directory
from schema.pagination import cursor_parts
from store.engines import make_sync_engine

from conftest import POSTGRES_URL, Api, serve
from tiny_dataset import write_tiny

# Each release's note and the moment it was loaded (UTC): two on one day, at its first and
# its last moment, the next at the next day's first, one a day later, one after a gap day.
RELEASES = {
    1: ("May reports", "2026-03-01T00:00:00+00:00"),
    2: ("june REPORTS", "2026-03-01T23:59:59.999999+00:00"),
    3: (None, "2026-03-02T00:00:00+00:00"),
    4: ("fix: 100% done_ok", "2026-03-03T12:00:00+00:00"),
    5: ("weekly", "2026-03-05T08:00:00+00:00"),
}
LIST = """query ($filter: ReleaseFilter, $orderBy: ReleaseOrder, $first: Int, $after: String,
                 $last: Int, $before: String) {
  releases(filter: $filter, orderBy: $orderBy, first: $first, after: $after, last: $last,
           before: $before) {
    totalCount
    nodes { number note loadedAt }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
  taxonomy { nodeCount }
}"""


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def releases_api(
    request: pytest.FixtureRequest,
    new_database: Callable[[str, str], str],
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Api]:
    """Five releases of the tiny dataset, loaded at the moments RELEASES says."""
    if request.param == "postgresql" and POSTGRES_URL is None:
        pytest.skip("needs TEST_DATABASE_URL")
    folder = tmp_path_factory.mktemp("releases")
    write_tiny(folder)
    url = new_database(request.param, "releases_list")
    for note, _ in RELEASES.values():
        load_directory(folder, url, note=note)
    # Written as a load writes it (SQLite keeps the text SQLAlchemy's DateTime makes).
    update = text("UPDATE release SET loaded_at = :at WHERE number = :number").bindparams(
        bindparam("at", type_=DateTime(timezone=True))
    )
    engine = make_sync_engine(url)
    try:
        with engine.begin() as connection:
            for number, (_, moment) in RELEASES.items():
                connection.execute(update, {"at": datetime.fromisoformat(moment), "number": number})
    finally:
        engine.dispose()
    with serve(url, response_cache=False, statement_header=True) as client:
        yield Api(client, url)


def _numbers(api: Api, **variables: Any) -> list[int]:
    """The numbers of the releases the list holds (one page of up to 100), checked against
    its totalCount (the whole list's: without a cursor, the page's length)."""
    found = api.query(LIST, {"first": 100, **variables})["releases"]
    numbers = [release["number"] for release in found["nodes"]]
    if "after" not in variables:
        assert found["totalCount"] == len(numbers), variables
    return numbers


def test_releases_are_the_newest_first_unless_ordered_the_oldest_first(releases_api: Api) -> None:
    api = releases_api
    assert _numbers(api) == [5, 4, 3, 2, 1]
    assert _numbers(api, orderBy=None) == [5, 4, 3, 2, 1]
    assert _numbers(api, orderBy={"field": "NUMBER"}) == [5, 4, 3, 2, 1]
    assert _numbers(api, orderBy={"field": "NUMBER", "direction": None}) == [5, 4, 3, 2, 1]
    assert _numbers(api, orderBy={"field": "NUMBER", "direction": "DESC"}) == [5, 4, 3, 2, 1]
    assert _numbers(api, orderBy={"field": "NUMBER", "direction": "ASC"}) == [1, 2, 3, 4, 5]
    # Inline too, as the schema's default says.
    inline = api.query(
        "{ releases(orderBy: {field: NUMBER, direction: ASC}) { nodes { number } } }"
    )
    assert [release["number"] for release in inline["releases"]["nodes"]] == [1, 2, 3, 4, 5]


@pytest.mark.parametrize(
    ("filter_", "numbers"),
    [
        ({"loadedFrom": "2026-03-02"}, [3, 4, 5]),  # from the day's first moment
        ({"loadedTo": "2026-03-01"}, [1, 2]),  # to the day's last moment
        ({"loadedFrom": "2026-03-01", "loadedTo": "2026-03-01"}, [1, 2]),
        ({"loadedFrom": "2026-03-02", "loadedTo": "2026-03-03"}, [3, 4]),
        ({"loadedFrom": "2026-03-04", "loadedTo": "2026-03-04"}, []),  # a day with none
        ({"loadedFrom": "2026-03-06"}, []),
        ({"loadedTo": "9999-12-31"}, [1, 2, 3, 4, 5]),  # the last day there is
        ({"loadedFrom": "0001-01-01"}, [1, 2, 3, 4, 5]),
        ({"noteContains": "reports"}, [1, 2]),  # any case
        ({"noteContains": "REPORTS"}, [1, 2]),
        ({"noteContains": "100%"}, [4]),  # LIKE's wildcards are literal
        ({"noteContains": "%"}, [4]),
        ({"noteContains": "_"}, [4]),
        ({"noteContains": "e_k"}, []),  # not "any one character": "weekly" is not matched
        ({"noteContains": "nothing like it"}, []),
        ({"noteContains": ""}, [1, 2, 3, 4, 5]),  # no text: no condition (a null note too)
        ({"noteContains": None, "loadedFrom": None, "loadedTo": None}, [1, 2, 3, 4, 5]),
        ({"noteContains": "e", "loadedFrom": "2026-03-01", "loadedTo": "2026-03-03"}, [1, 2, 4]),
    ],
)
def test_a_filter_keeps_the_releases_it_names_in_either_order(
    releases_api: Api, filter_: dict[str, Any], numbers: list[int]
) -> None:
    ascending = {"field": "NUMBER", "direction": "ASC"}
    assert _numbers(releases_api, filter=filter_) == numbers[::-1]
    assert _numbers(releases_api, filter=filter_, orderBy=ascending) == numbers


@pytest.mark.parametrize("direction", ["ASC", "DESC"])
def test_a_filtered_list_pages_by_cursors_both_ways(releases_api: Api, direction: str) -> None:
    """Releases 1 to 4 (loaded 2026-03-01 to 03-03), a page of one at a time: forward to the
    end, then backward from there; the flags exact at each page, totalCount the filtered."""
    api = releases_api
    variables = {
        "filter": {"loadedTo": "2026-03-03"},
        "orderBy": {"field": "NUMBER", "direction": direction},
    }
    expected = [1, 2, 3, 4] if direction == "ASC" else [4, 3, 2, 1]
    seen: list[int] = []
    after = None
    while True:
        page = api.query(LIST, {**variables, "first": 1, "after": after})["releases"]
        assert page["totalCount"] == 4
        seen += [release["number"] for release in page["nodes"]]
        assert page["pageInfo"]["hasPreviousPage"] == (len(seen) > 1)
        if not page["pageInfo"]["hasNextPage"]:
            break
        after = page["pageInfo"]["endCursor"]
    assert seen == expected
    back: list[int] = []
    before = None
    while True:
        page = api.query(LIST, {**variables, "last": 2, "before": before})["releases"]
        back = [release["number"] for release in page["nodes"]] + back
        if not page["pageInfo"]["hasPreviousPage"]:
            break
        assert page["pageInfo"]["hasNextPage"] == (before is not None)
        before = page["pageInfo"]["startCursor"]
    assert back == expected
    # A cursor narrows any filter alike: after the first release of the range, the rest.
    first = api.query(LIST, {**variables, "first": 1})["releases"]["pageInfo"]["endCursor"]
    rest = api.query(LIST, {**variables, "first": 10, "after": first})["releases"]["nodes"]
    assert [release["number"] for release in rest] == expected[1:]


def test_a_cursor_of_the_newest_first_is_the_one_it_was_before_orders(releases_api: Api) -> None:
    """The default order's cursors name the list as they did before `releases` took an order
    (a cursor kept from then still works), whether the order is left out or given; a cursor
    of the oldest first is another ordering's, refused in the newest-first list."""
    api = releases_api
    plain = api.query("{ releases(first: 2) { pageInfo { endCursor } } }")
    cursor = plain["releases"]["pageInfo"]["endCursor"]
    parts = cursor_parts(cursor)
    assert parts is not None
    assert parts[0].partition("@")[0] == "releases"
    descending = {"field": "NUMBER", "direction": "DESC"}
    assert _numbers(api, after=cursor) == [3, 2, 1]
    assert _numbers(api, after=cursor, orderBy=descending) == [3, 2, 1]
    ascending = {"field": "NUMBER", "direction": "ASC"}
    oldest = api.query(LIST, {"first": 2, "orderBy": ascending})["releases"]["pageInfo"]
    (error,) = api.errors(LIST, {"after": oldest["endCursor"]})
    assert error["extensions"]["code"] == "BAD_USER_INPUT"
    assert "belongs to another list or ordering" in error["message"]
    assert error["path"] == ["releases"]


@pytest.mark.parametrize(
    ("variables", "says", "argument"),
    [
        (
            {"filter": {"loadedFrom": "2026-02-30"}},
            "`filter.loadedFrom`: '2026-02-30' is not a Date",
            "filter.loadedFrom",
        ),
        (
            {"filter": {"loadedTo": "yesterday"}},
            "`filter.loadedTo`: 'yesterday'",
            "filter.loadedTo",
        ),
        (
            {"filter": {"loadedFrom": "2026-03-03", "loadedTo": "2026-03-01"}},
            "`filter.loadedFrom` (2026-03-03) is after `filter.loadedTo` (2026-03-01)",
            "filter.loadedFrom",
        ),
        (
            {"filter": {"noteContains": "x" * 1_001}},
            "`filter.noteContains` is 1,001 characters; at most 1,000",
            None,
        ),
        ({"filter": {"noteContains": "a\u0000b"}}, "contains a NUL character", "filter"),
        ({"after": "not a cursor"}, "is not a cursor of this API", None),
        ({"first": 101}, "`first` must be between 0 and 100", None),
    ],
)
def test_a_wrong_argument_is_refused_on_the_field_alone(
    releases_api: Api, variables: dict[str, Any], says: str, argument: str | None
) -> None:
    body = releases_api.post(LIST, variables)
    (error,) = body["errors"]
    assert error["extensions"]["code"] == "BAD_USER_INPUT", error
    assert says in error["message"], error
    assert error["path"] == ["releases"]
    if argument is not None:
        assert error["extensions"]["argument"] == argument
    assert body["data"]["releases"] is None
    assert body["data"]["taxonomy"]["nodeCount"] > 0  # the sibling is answered


@pytest.mark.parametrize(
    "document",
    [
        "{ releases(orderBy: {field: LOADED}) { totalCount } }",
        "{ releases(orderBy: {field: NUMBER, direction: UP}) { totalCount } }",
    ],
)
def test_an_unknown_order_is_refused_on_its_field(releases_api: Api, document: str) -> None:
    """An enum value the schema lacks is BAD_USER_INPUT on `releases` alone, as for every
    order of the schema (schema.argument_values)."""
    body = releases_api.post(document)
    assert body["data"] == {"releases": None}
    (error,) = body["errors"]
    assert error["extensions"]["code"] == "BAD_USER_INPUT"
    assert error["path"] == ["releases"]
    assert error["message"].startswith("Argument 'orderBy' has invalid value at .")


def test_a_filtered_ordered_page_takes_the_statements_a_plain_one_does(releases_api: Api) -> None:
    """A filtered page in the oldest-first order, with its totalCount: the total comes
    with the page, as the plain list's does."""
    document = (
        '{ releases(first: 2, filter: {noteContains: "e", loadedFrom: "2026-03-01"},'
        " orderBy: {field: NUMBER, direction: ASC}) { totalCount nodes { number } } }"
    )
    plain = "{ releases(first: 2) { totalCount nodes { number } } }"
    assert releases_api.count_statements(document) == releases_api.count_statements(plain)
