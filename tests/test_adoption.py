"""Adoption over time (DESIGN.md section 5): `Node.adoption`, `Method.adoption` and
`Method.firstTreatedBy`, by hand on a small dataset and against the independent reference
(tests/reference.py) on the fixtures, PwC and GO, each interval and each strength."""

import calendar
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from test_reference import EVIDENCE, write_dataset

from api.ingest.load import load_directory
from store.engines import make_sync_engine

from conftest import DATASETS, Api, serve
from reference import STRENGTHS, Reference

INTERVALS = ("MONTH", "QUARTER", "YEAR")
POINT = "period start end models cumulativeModels newMethods"
NODE_SERIES = f"""query ($slug: String!, $interval: Interval, $min: Strength) {{
  node(slug: $slug) {{ adoption(interval: $interval, minStrength: $min) {{ {POINT} }} }}
}}"""
METHOD_SERIES = f"""query ($slug: String!, $interval: Interval, $min: Strength) {{
  method(slug: $slug) {{ adoption(interval: $interval, minStrength: $min) {{ {POINT} }} }}
}}"""
FIRST_TREATED = """query ($after: String) {
  methods(first: 100, after: $after) {
    pageInfo { hasNextPage endCursor }
    nodes { slug firstTreatedBy { slug } }
  }
}"""
# The hand-worked dataset plus one pair: Zulu (a-zulu) and echo (b-echo), released the
# same day, both treat m-gamma; by name case-insensitively echo comes first (by slug or by
# raw name, Zulu would).
HAND_EVIDENCE = [*EVIDENCE, {"model": "a-zulu", "method": "m-gamma", "strength": "mentioned"}]


@pytest.fixture(scope="module")
def hand_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_dataset(tmp_path_factory.mktemp("adoption-hand"), evidence=HAND_EVIDENCE)


def _node_series(api: Api, slug: str, interval: str | None, strength: str | None) -> Any:
    variables = {"slug": slug, "interval": interval, "min": strength}
    return api.query(NODE_SERIES, variables)["node"]["adoption"]


def _method_series(api: Api, slug: str, interval: str | None, strength: str | None) -> Any:
    variables = {"slug": slug, "interval": interval, "min": strength}
    return api.query(METHOD_SERIES, variables)["method"]["adoption"]


def _first_treated(api: Api) -> dict[str, str | None]:
    found: dict[str, str | None] = {}
    after = None
    while True:
        page = api.query(FIRST_TREATED, {"after": after})["methods"]
        for method in page["nodes"]:
            first = method["firstTreatedBy"]
            found[method["slug"]] = first and first["slug"]
        if not page["pageInfo"]["hasNextPage"]:
            return found
        after = page["pageInfo"]["endCursor"]


def _last_day(period: str) -> str:
    """A period's last day, worked out from its name by hand: `2024` ends on 31 December,
    `2024-Q1` with March, `2024-02` on the 29th (a leap year)."""
    year, _, part = period.partition("-")
    last_month = 12 if not part else 3 * int(part[1]) if part.startswith("Q") else int(part)
    return f"{year}-{last_month:02d}-{calendar.monthrange(int(year), last_month)[1]:02d}"


def _point(period: str, start: str, models: int, total: int, new: int) -> dict[str, Any]:
    return {
        "period": period,
        "start": start,
        "end": _last_day(period),
        "models": models,
        "cumulativeModels": total,
        "newMethods": new,
    }


def test_a_branch_by_quarter_counts_dated_models_with_the_gaps_as_zeros(
    api_for: Callable[[str, str], Api], backend: str, hand_folder: Path
) -> None:
    api = api_for(backend, str(hand_folder))
    series = _node_series(api, "root", None, None)  # the defaults: QUARTER, MENTIONED
    # Old (2020-01) first uses Beta; Zulu and echo (2024-01) first treat Alpha, alpha,
    # Delta and gamma; Newest (2024-05) nothing new. Undated models are in no period.
    assert series[0] == _point("2020-Q1", "2020-01-01", 1, 1, 1)
    assert series[1:-2] == [
        _point(f"{year}-Q{quarter}", f"{year}-{3 * quarter - 2:02d}-01", 0, 1, 0)
        for year in range(2020, 2024)
        for quarter in range(1, 5)
        if (year, quarter) != (2020, 1)
    ]
    assert series[-2:] == [
        _point("2024-Q1", "2024-01-01", 2, 3, 4),
        _point("2024-Q2", "2024-04-01", 1, 4, 0),
    ]
    assert series == Reference.from_dir(hand_folder).adoption("QUARTER", "MENTIONED", node="root")


def test_min_strength_and_interval_change_the_series(
    api_for: Callable[[str, str], Api], backend: str, hand_folder: Path
) -> None:
    api = api_for(backend, str(hand_folder))
    # At CORE only Newest's Beta counts: undated's core alpha is not dated.
    assert _node_series(api, "root", "QUARTER", "CORE") == [
        _point("2024-Q2", "2024-04-01", 1, 1, 1)
    ]
    # At USED echo (mentions only) drops out; Zulu first uses Alpha and alpha in 2024.
    assert _node_series(api, "root", "YEAR", "USED") == [
        _point("2020", "2020-01-01", 1, 1, 1),
        _point("2021", "2021-01-01", 0, 1, 0),
        _point("2022", "2022-01-01", 0, 1, 0),
        _point("2023", "2023-01-01", 0, 1, 0),
        _point("2024", "2024-01-01", 2, 3, 2),
    ]
    # A method is new once, in its first period.
    assert _method_series(api, "m-alpha", "MONTH", "MENTIONED") == [
        _point("2024-01", "2024-01-01", 1, 1, 1),
        _point("2024-02", "2024-02-01", 0, 1, 0),
        _point("2024-03", "2024-03-01", 0, 1, 0),
        _point("2024-04", "2024-04-01", 0, 1, 0),
        _point("2024-05", "2024-05-01", 1, 2, 0),
    ]
    # Nothing dated at all: no points, not an error (leaf's only CORE model is undated).
    assert _method_series(api, "m-lonely", "MONTH", None) == []
    assert _node_series(api, "leaf", "YEAR", "CORE") == []


UNDATED = """query ($node: String!, $method: String!, $min: Strength) {
  node(slug: $node) { undatedModels(minStrength: $min) }
  method(slug: $method) { undatedModels(minStrength: $min) }
}"""


def _undated(api: Api, node: str, method: str, strength: str | None) -> tuple[int, int]:
    variables = {"node": node, "method": method, "min": strength}
    data = api.query(UNDATED, variables)
    return data["node"]["undatedModels"], data["method"]["undatedModels"]


def test_undated_models_are_counted_beside_the_series(
    api_for: Callable[[str, str], Api], backend: str, hand_folder: Path
) -> None:
    """Undated (core on m-alpha, at leaf) and aardvark (used on m-delta at side, mentioned
    on m-other at other) are in no period; `undatedModels` counts them."""
    api = api_for(backend, str(hand_folder))
    assert _undated(api, "root", "m-alpha", None) == (2, 1)
    assert _undated(api, "root", "m-delta", "USED") == (2, 1)
    assert _undated(api, "root", "m-delta", "CORE") == (1, 0)
    assert _undated(api, "other", "m-other", "MENTIONED") == (1, 1)
    assert _undated(api, "other", "m-other", "USED") == (0, 0)
    assert _undated(api, "leaf", "m-lonely", None) == (1, 0)
    # The series' total and the undated models add up to every model treating the branch.
    for strength in STRENGTHS:
        series = _node_series(api, "root", "YEAR", strength)
        total = api.query(
            'query ($min: Strength) { node(slug: "root") { byModel(minStrength: $min) '
            "{ totalCount } } }",
            {"min": strength},
        )["node"]["byModel"]["totalCount"]
        dated = series[-1]["cumulativeModels"] if series else 0
        assert dated + _undated(api, "root", "m-alpha", strength)[0] == total, strength


BOTH = """query ($slug: String!, $min: Strength) { %s(slug: $slug) {
  adoption(interval: MONTH, minStrength: $min) { period models } undatedModels(minStrength: $min)
} }"""
# (kind, slug, threshold) asked, and the (node, method) whose undated counts `_undated` reads.
SUBJECTS = {
    "method": [("m-alpha", None), ("m-delta", "USED"), ("m-other", "MENTIONED")],
    "node": [("root", None), ("root", "CORE"), ("other", "MENTIONED")],
}


@pytest.mark.parametrize("kind", list(SUBJECTS))
def test_a_series_and_its_undated_count_are_read_in_one_statement(
    api_for: Callable[[str, str], Api], backend: str, hand_folder: Path, kind: str
) -> None:
    """A method's or a node's page asks for both: one statement reads them
    (store.history.adoption): a method's treatments by release date, the undated ones as a
    group of their own; a node's months and, as a row without a month, its undated
    models."""
    api = api_for(backend, str(hand_folder))
    document = BOTH % kind
    series_only = document.replace(" undatedModels(minStrength: $min)", "")
    undated_only = document.replace(
        " adoption(interval: MONTH, minStrength: $min) { period models }", ""
    )
    for slug, strength in SUBJECTS[kind]:
        variables = {"slug": slug, "min": strength}
        # Counted first: the answers below come from the response cache after.
        assert api.count_statements(document, variables) == api.count_statements(
            series_only, variables
        )
        both = api.query(document, variables)[kind]
        assert both["adoption"] == api.query(series_only, variables)[kind]["adoption"]
        assert both["undatedModels"] == api.query(undated_only, variables)[kind]["undatedModels"]
        node, method = (slug, "m-alpha") if kind == "node" else ("root", slug)
        expected = _undated(api, node, method, strength)[0 if kind == "node" else 1]
        assert both["undatedModels"] == expected


def test_from_and_to_keep_the_periods_that_overlap_them(
    api_for: Callable[[str, str], Api], backend: str, hand_folder: Path
) -> None:
    api = api_for(backend, str(hand_folder))
    document = """query ($from: Date, $to: Date) {
      node(slug: "root") {
        adoption(interval: YEAR, from: $from, to: $to) { period cumulativeModels }
      }
    }"""

    def periods(since: str | None, until: str | None) -> list[tuple[str, int]]:
        series = api.query(document, {"from": since, "to": until})["node"]["adoption"]
        return [(point["period"], point["cumulativeModels"]) for point in series]

    assert periods(None, None) == [("2020", 1), ("2021", 1), ("2022", 1), ("2023", 1), ("2024", 4)]
    # Mid-year days keep their whole years; the running total still counts from 2020.
    assert periods("2022-06-30", "2023-02-01") == [("2022", 1), ("2023", 1)]
    assert periods("2024-12-31", None) == [("2024", 4)]
    assert periods(None, "2020-01-01") == [("2020", 1)]
    assert periods("2025-01-01", None) == []
    errors = api.errors(document, {"from": "2024-01-01", "to": "2023-01-01"})
    assert [error["extensions"]["code"] for error in errors] == ["BAD_USER_INPUT"]
    assert "`to` (2023-01-01) is before `from` (2024-01-01)" in errors[0]["message"]


def test_since_release_and_until_release_are_the_days_those_releases_were_loaded(
    backend: str, new_database: Callable[[str, str], str], hand_folder: Path
) -> None:
    """`sinceRelease`/`untilRelease` bound the periods by the days those releases were
    loaded, as `from`/`to` with those days do; wrong numbers are explained as `changes`
    explains its own (one check: schema.history.release_range), on the field alone."""
    url = new_database(backend, "adoption_releases")
    loaded_on = {1: "2022-06-30", 2: "2023-02-01", 3: "2024-12-31"}
    for _ in loaded_on:
        load_directory(hand_folder, url)
    engine = make_sync_engine(url)
    try:
        with engine.begin() as connection:
            for number, day in loaded_on.items():
                connection.execute(
                    text("UPDATE release SET loaded_at = :at WHERE number = :number"),
                    {"at": datetime.fromisoformat(f"{day}T12:00:00+00:00"), "number": number},
                )
    finally:
        engine.dispose()
    document = """query ($from: Date, $to: Date, $since: Int, $until: Int) {
      node(slug: "root") {
        adoption(interval: YEAR, from: $from, to: $to, sinceRelease: $since,
                 untilRelease: $until) { period cumulativeModels }
      }
      taxonomy { dataVersion }
    }"""
    with serve(url) as client:
        api = Api(client, url)

        def periods(**variables: Any) -> list[tuple[str, int]]:
            series = api.query(document, variables)["node"]["adoption"]
            return [(point["period"], point["cumulativeModels"]) for point in series]

        for since, until in ((1, 2), (2, None), (None, 1), (3, 3), (1, 3)):
            days = {"from": loaded_on.get(since or 0), "to": loaded_on.get(until or 0)}
            by_days = periods(**days)
            assert periods(since=since, until=until) == by_days, (since, until)
            assert by_days != periods()  # the bounds keep fewer periods than all
        # A release for one bound, a day for the other.
        assert periods(since=2, to="2024-01-01") == [("2023", 1), ("2024", 4)]

        def refused(**variables: Any) -> tuple[str, str]:
            answer = api.post(document, variables)
            assert answer["data"]["node"]["adoption"] is None
            assert answer["data"]["taxonomy"]["dataVersion"]  # its siblings answered
            (error,) = answer["errors"]
            return error["extensions"]["code"], error["message"]

        code, message = refused(since=9)
        assert code == "NOT_FOUND"
        assert "`sinceRelease`: there is no release 9; the retained releases are 1 to 3" in message
        code, message = refused(since=3, until=2)
        assert code == "BAD_USER_INPUT"
        assert "`sinceRelease` (3) is after `untilRelease` (2)" in message
        code, message = refused(since=1, **{"from": "2020-01-01"})
        assert code == "BAD_USER_INPUT"
        assert "at most one of `from` or `sinceRelease`" in message
        code, message = refused(until=1, to="2020-01-01")
        assert "at most one of `to` or `untilRelease`" in message
        code, message = refused(until=1, **{"from": "2024-01-01"})
        assert "`to` (2022-06-30) is before `from` (2024-01-01)" in message


def test_first_treated_by_is_the_earliest_dated_model(
    api_for: Callable[[str, str], Api], backend: str, hand_folder: Path
) -> None:
    api = api_for(backend, str(hand_folder))
    assert _first_treated(api) == {
        "m-alpha": "a-zulu",  # undated's core treatment is older than nothing: not counted
        "m-alpha-upper": "a-zulu",
        "m-beta": "old",
        "m-delta": "a-zulu",  # undated-2 (no date) is not earlier
        "m-gamma": "b-echo",  # the same day as Zulu: echo first, case-insensitively
        "m-lonely": None,
        "m-other": "outsider",
    }


def _subjects(ref: Reference, dataset: str) -> tuple[list[str], list[str]]:
    """The roots, the seed node (fixtures), two of the deepest nodes; the three methods
    that the most models treat, and the first by slug."""
    nodes = [*ref.roots(), *ref.deepest(2)]
    if dataset == "fixtures":
        nodes.append("training-parallelism")
    by_models = sorted(ref.method_slugs(), key=lambda s: (-ref.method_model_count(s), s))
    return nodes, [*by_models[:3], min(ref.method_slugs())]


@pytest.mark.parametrize("dataset", list(DATASETS))
def test_series_match_the_reference(
    api_for: Callable[[str, str], Api], backend: str, dataset: str
) -> None:
    api, ref = api_for(backend, dataset), Reference.from_dir(DATASETS[dataset])
    nodes, methods = _subjects(ref, dataset)
    for interval in INTERVALS:
        for strength in STRENGTHS:
            for slug in nodes:
                expected = ref.adoption(interval, strength, node=slug)
                actual = _node_series(api, slug, interval, strength)
                assert actual == expected, (dataset, slug, interval, strength)
            for slug in methods:
                expected = ref.adoption(interval, strength, method=slug)
                actual = _method_series(api, slug, interval, strength)
                assert actual == expected, (dataset, slug, interval, strength)
    for strength in STRENGTHS:
        for node, method in zip(nodes, methods * len(nodes), strict=False):
            expected_undated = (
                ref.undated_models(strength, node=node),
                ref.undated_models(strength, method=method),
            )
            actual_undated = _undated(api, node, method, strength)
            assert actual_undated == expected_undated, (dataset, node, method, strength)
    assert any(_node_series(api, slug, "MONTH", "MENTIONED") for slug in nodes)


@pytest.mark.parametrize("dataset", list(DATASETS))
def test_first_treated_by_matches_the_reference(
    api_for: Callable[[str, str], Api], backend: str, dataset: str
) -> None:
    api, ref = api_for(backend, dataset), Reference.from_dir(DATASETS[dataset])
    expected = {slug: ref.first_treated_by(slug) for slug in ref.method_slugs()}
    assert _first_treated(api) == expected
    assert any(expected.values())
