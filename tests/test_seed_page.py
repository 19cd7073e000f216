"""The reference page, reproduced whole from the API's answers."""

from conftest import SEED_PAGE, Api
from seed_page import NODE_PAGE, render


def test_seed_page_is_reproduced_byte_for_byte(api: Api) -> None:
    data = api.query(NODE_PAGE, {"path": "optimization/training-parallelism"})
    assert render(data["node"]) == SEED_PAGE.read_text(encoding="utf-8")


def test_names_path_gives_the_same_page(api: Api) -> None:
    by_slugs = api.query(NODE_PAGE, {"path": "optimization/training-parallelism"})
    by_names = api.query(NODE_PAGE, {"path": "optimization :: training parallelism"})
    assert by_names == by_slugs


def test_seed_page_through_schema_execute(api: Api) -> None:
    result = api.execute(NODE_PAGE, {"path": "optimization :: training parallelism"})
    assert result.errors is None
    assert render(result.data["node"]) == SEED_PAGE.read_text(encoding="utf-8")
