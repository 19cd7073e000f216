"""The orders of a model's treatments (its methods: `Model.treatments(orderBy:)`) and of a
method's (its models: `Method.treatmentsConnection(orderBy:)`), issue 27: each order both
ways, with and without `minStrength`, paged forward and backward with cursors, against
the oracle (tests/reference.py); the defaults and their cursors unchanged."""

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_paging import ORDERS, Listing, _descending, _order, check_both_ways, ties_folder

from conftest import DATASETS, Api
from reference import Reference

__all__ = ["ties_folder"]  # the dataset of ties, a fixture shared with test_paging
# The fixtures' model with the most methods (25, filed at 17 nodes), and the ties'
# method that three models treat (at each strength, two of them undated).
MODEL = "llama-3-1-405b"
METHOD = "same-a"
STRENGTHS = [None, "USED"]


def _listing(
    record: str, field: str, item: str, slug: str, order: str, min_strength: str | None
) -> Listing:
    """The treatments ``field`` of the ``record`` of ``slug`` in ``order``, at least
    ``min_strength``, each known by its ``item`` (the other record's slug)."""
    extra = order + (f", minStrength: {min_strength}" if min_strength else "")
    return Listing(
        f"{{ {record}(slug: $slug) {{ {field}(ARGS) {{ PAGE }} }} }}",
        (record, field),
        f"{item} {{ slug }}",
        extra,
        {"slug": slug},
    )


@pytest.mark.parametrize("min_strength", STRENGTHS)
@pytest.mark.parametrize("direction", ORDERS)
@pytest.mark.parametrize(
    ("field", "natural_descending"), [("STRONGEST", True), ("NAME", False), ("NODE", False)]
)
def test_a_models_methods_in_every_order_both_ways(
    api: Api, field: str, natural_descending: bool, direction: str | None, min_strength: str | None
) -> None:
    reference = Reference.from_dir(DATASETS["fixtures"])
    descending = _descending(natural_descending, direction)
    expected = reference.model_treatments_ordered(MODEL, field.lower(), descending, min_strength)
    listing = _listing(
        "model", "treatments", "method", MODEL, _order(field, direction), min_strength
    )
    rows = check_both_ways(api, listing)
    assert [row["method"]["slug"] for row in rows] == expected


@pytest.mark.parametrize("direction", ORDERS)
@pytest.mark.parametrize(
    ("field", "natural_descending"), [("STRONGEST", True), ("NAME", False), ("NODE", False)]
)
def test_a_models_methods_in_a_branch_in_every_order_both_ways(
    api: Api, field: str, natural_descending: bool, direction: str | None
) -> None:
    """`branch:` with `orderBy:`: the model's methods in the branch of `data` (8 of its
    25, at 3 nodes), in each order, sorted off the branch's range of the (model, node_pre)
    index (in order off it by node); tests/test_query_cost.py reads a large branch."""
    reference = Reference.from_dir(DATASETS["fixtures"])
    descending = _descending(natural_descending, direction)
    field_name = field.lower()
    expected = reference.model_treatments_ordered(MODEL, field_name, descending, branch="data")
    order = _order(field, direction) + ', branch: {slug: "data"}'
    listing = _listing("model", "treatments", "method", MODEL, order, None)
    rows = check_both_ways(api, listing)
    assert [row["method"]["slug"] for row in rows] == expected


@pytest.fixture(params=["fixtures", "ties"])
def method_dataset(
    request: pytest.FixtureRequest,
    api_for: Callable[[str, str], Api],
    backend: str,
    ties_folder: Path,
) -> tuple[Api, Reference, str]:
    """Each dataset with its oracle and the method whose models are paged: the fixtures'
    most treated method, and the ties' `same-a`."""
    if request.param == "ties":
        return api_for(backend, str(ties_folder)), Reference.from_dir(ties_folder), METHOD
    return (
        api_for(backend, "fixtures"),
        Reference.from_dir(DATASETS["fixtures"]),
        "sparse-mixture-of-experts",
    )


@pytest.mark.parametrize("min_strength", STRENGTHS)
@pytest.mark.parametrize("direction", ORDERS)
@pytest.mark.parametrize(
    ("field", "natural_descending"),
    [("STRONGEST", True), ("NAME", False), ("RELEASE_DATE", True)],
)
def test_a_methods_models_in_every_order_both_ways(
    method_dataset: tuple[Api, Reference, str],
    field: str,
    natural_descending: bool,
    direction: str | None,
    min_strength: str | None,
) -> None:
    api, reference, slug = method_dataset
    descending = _descending(natural_descending, direction)
    expected = reference.method_treatments_ordered(slug, field.lower(), descending, min_strength)
    order = _order(field, direction)
    listing = _listing("method", "treatmentsConnection", "model", slug, order, min_strength)
    rows = check_both_ways(api, listing, minimum=2 if min_strength else 3)
    assert [row["model"]["slug"] for row in rows] == expected


def test_the_orders_in_plain_words(
    api_for: Callable[[str, str], Api], backend: str, ties_folder: Path
) -> None:
    """What the oracle works out for `same-a`'s models (aardvark: CORE, undated; foo-b:
    USED, 2024-01-01; u-b: MENTIONED, undated), spelled out once."""
    api = api_for(backend, str(ties_folder))

    def models(order: str) -> list[str]:
        document = (
            f'{{ method(slug: "{METHOD}") {{ treatmentsConnection({order}) '
            "{ nodes { model { slug } } } } }"
        )
        answer: Any = api.query(document)
        return [row["model"]["slug"] for row in answer["method"]["treatmentsConnection"]["nodes"]]

    assert models("first: 10") == ["aardvark", "foo-b", "u-b"]
    assert models("orderBy: {field: STRONGEST, direction: ASC}") == ["u-b", "foo-b", "aardvark"]
    assert models("orderBy: {field: NAME}") == ["aardvark", "foo-b", "u-b"]
    assert models("orderBy: {field: NAME, direction: DESC}") == ["u-b", "foo-b", "aardvark"]
    # Undated models last both ways, among themselves by name.
    assert models("orderBy: {field: RELEASE_DATE}") == ["foo-b", "aardvark", "u-b"]
    assert models("orderBy: {field: RELEASE_DATE, direction: ASC}") == ["foo-b", "aardvark", "u-b"]
    assert models("orderBy: {field: NAME}, minStrength: USED") == ["aardvark", "foo-b"]


def _first_cursor(api: Api, field: str, arguments: str) -> str:
    document = (
        f'{{ model(slug: "{MODEL}") {{ {field}(first: 1{arguments}) '
        "{ pageInfo { endCursor } } } }"
    )
    answer: Any = api.query(document)
    cursor = answer["model"][field]["pageInfo"]["endCursor"]
    assert isinstance(cursor, str)
    return cursor


def test_the_default_order_keeps_its_cursors_and_others_refuse_them(api: Api) -> None:
    """The default order, asked for or not, is the list it was before `orderBy` (the same
    cursors); a cursor of one order is refused by another."""
    plain = _first_cursor(api, "treatments", "")
    assert _first_cursor(api, "treatments", ", orderBy: {field: STRONGEST}") == plain
    assert _first_cursor(api, "treatments", ", orderBy: null") == plain
    by_name = _first_cursor(api, "treatments", ", orderBy: {field: NAME}")
    document = (
        f'{{ model(slug: "{MODEL}") {{ treatments(after: "{by_name}", orderBy: {{field: NODE}})'
        " { nodes { strength } } } }"
    )
    errors = api.errors(document)
    assert "belongs to another list or ordering" in errors[0]["message"]
