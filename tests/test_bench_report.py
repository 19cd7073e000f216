"""`make bench` rewrites bench/RESULTS.md from its run: the sections measured apart, by a
script of their own (their heading says "not from the run below"), are kept as they were,
and what the previous run measured is replaced."""

from pathlib import Path

import pytest

from bench import report, source, start_times
from bench.results import Results, StartTime
from bench.source import CHECKOUT, Source

PREVIOUS = """# Benchmark results

An old introduction.

## One costly request (`python -m bench.interference URL`, not from the run below)

Hand-written figures.

### Turns on the event loop

| shape | ms |
|---|--:|
| searches | 23.2 |

## Scale S

| workload | req/s |
|---|--:|
| W1 | 1 |

## Search recall (`python -m bench.search_recall`, not from the run below)

96% in the top 3.
## Machine

| | |
|---|---|
| code measured | an old commit |
"""


def test_a_run_keeps_the_sections_measured_apart_and_replaces_its_own() -> None:
    kept = report.measured_apart(PREVIOUS)
    assert kept == [
        "## One costly request (`python -m bench.interference URL`, not from the run below)",
        "",
        "Hand-written figures.",
        "",
        "### Turns on the event loop",
        "",
        "| shape | ms |",
        "|---|--:|",
        "| searches | 23.2 |",
        "",
        "## Search recall (`python -m bench.search_recall`, not from the run below)",
        "",
        "96% in the top 3.",
    ]
    written = report.markdown(
        Results(load_generator="wrk", machine={"code measured": "this commit"}),
        "results.png",
        kept,
    )
    assert "\n".join(kept) + "\n\n## Targets" in written
    assert "An old introduction" not in written
    assert "## Scale S" not in written  # the old run's table: this run measured no scale
    assert "an old commit" not in written
    assert "| code measured | this commit |" in written


def test_the_committed_results_mark_every_section_no_run_writes() -> None:
    """Every `##` section of the committed RESULTS.md is one a run of `make bench` writes
    (its heading is in bench/report.py) or is marked as measured apart, so that the next
    run keeps it."""
    source = Path(report.__file__).read_text(encoding="utf-8")
    committed = report.COMMITTED.read_text(encoding="utf-8")
    for line in committed.splitlines():
        if line.startswith("## ") and report.MEASURED_APART not in line:
            heading = line.split(" (")[0]
            template = heading.rsplit(" ", 1)[0] + " {"  # f"## Scale {scale}"
            assert f'"{heading}' in source or f'"{template}' in source, line


def test_start_times_are_judged_by_their_median() -> None:
    lines = report.start_times(
        [
            StartTime("schema", "-", 0.69, 0.68, 0.76, 3, 0.5),
            StartTime("serve", "sqlite", 0.93, 0.89, 1.07, 3, 1.0),
        ]
    )
    assert "| `schema` | - | 3 | 0.69 | 0.68-0.76 | 0.5 | NOT met |" in lines
    assert "| `serve` | sqlite | 3 | 0.93 | 0.89-1.07 | 1.0 | met |" in lines


def test_a_start_time_is_only_taken_of_a_command_that_succeeds(tmp_path: Path) -> None:
    missing = f"sqlite:///{tmp_path / 'missing.db'}"
    with pytest.raises(RuntimeError) as failed:
        start_times.seconds_to_exit(
            Source(CHECKOUT, "this checkout"), ["releases", "--db", missing]
        )
    said = str(failed.value)
    assert said.startswith(f"taxonomy releases --db {missing} failed: "), said
    assert "does not exist" in said  # what the command itself said


def test_a_snapshot_is_compiled_as_make_install_compiles_a_checkout(tmp_path: Path) -> None:
    """Each package of a measured snapshot gets its bytecode, so that a process started on
    it imports as an installed server does, even where Python writes none as it imports
    (PYTHONDONTWRITEBYTECODE=1: then every process compiled the project from source); and
    a snapshot that does not compile is refused, not measured."""
    for package in source.PACKAGES:
        (tmp_path / package).mkdir()
        (tmp_path / package / "module.py").write_text("ANSWER = 42\n", encoding="utf-8")
    source.compile_snapshot(tmp_path)
    for package in source.PACKAGES:
        assert list((tmp_path / package / "__pycache__").glob("module.*.pyc")), package
    (tmp_path / "store" / "broken.py").write_text("def (\n", encoding="utf-8")
    with pytest.raises(RuntimeError, match="store/ does not compile"):
        source.compile_snapshot(tmp_path)
