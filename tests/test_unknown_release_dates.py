"""A release date that stands for "unknown" (issue 27: PwC's models are all dated
2000-01-01 in the shared test data, so every adoption chart showed one quarter, 2000-Q1):
`taxonomy load --unknown-release-date DATE` loads the models dated so undated, and a load
whose models mostly share one date says so, and how to name it."""

from collections.abc import Callable
from datetime import date

from click.testing import CliRunner

from api.commands.cli import main
from api.ingest.load import load_directory

from conftest import DATASETS, serve

PWC = DATASETS["pwc"]
QUERY = """{ model(slug: "quasi-hyperbolic-momentum-and-adam-for-deep") { releaseDate }
  roots { undatedModels adoption { period } } }"""


def _served(url: str) -> dict[str, object]:
    with serve(url) as client:
        data: dict[str, object] = client.post("/graphql", json={"query": QUERY}).json()["data"]
        return data


def test_a_placeholder_date_is_loaded_undated_when_named(
    backend: str, new_database: Callable[[str, str], str]
) -> None:
    said: list[str] = []
    url = new_database(backend, "undated_pwc")
    load_directory(PWC, url, say=said.append, unknown_release_date=date(2000, 1, 1))
    assert said == ["1,365 models dated 2000-01-01: loaded undated"]
    data = _served(url)
    assert data["model"] == {"releaseDate": None}
    roots = data["roots"]
    assert isinstance(roots, list)
    assert all(root["adoption"] == [] for root in roots)
    assert sum(root["undatedModels"] for root in roots) >= 1_365  # a model may treat two roots


def test_a_load_whose_models_share_one_date_says_how_to_name_it(
    new_database: Callable[[str, str], str],
) -> None:
    said: list[str] = []
    url = new_database("sqlite", "dated_pwc")
    load_directory(PWC, url, say=said.append)
    assert said == [
        "1,365 of 1,365 dated models have release_date 2000-01-01: if it stands for an "
        "unknown date, load with --unknown-release-date 2000-01-01 so that adoption counts "
        "them as undated"
    ]
    assert _served(url)["model"] == {"releaseDate": "2000-01-01"}  # loaded as given


def test_the_cli_takes_the_date_and_refuses_a_wrong_one(
    new_database: Callable[[str, str], str],
) -> None:
    url = new_database("sqlite", "cli_pwc")
    runner = CliRunner()
    wrong = runner.invoke(
        main, ["load", str(PWC), "--db", url, "--unknown-release-date", "2000-13-01"]
    )
    assert wrong.exit_code == 2
    assert "'2000-13-01' does not match the format '%Y-%m-%d'" in wrong.output
    loaded = runner.invoke(
        main, ["load", str(PWC), "--db", url, "--unknown-release-date", "2000-01-01"]
    )
    assert loaded.exit_code == 0, loaded.output
    assert _served(url)["model"] == {"releaseDate": None}
