"""RESULTS.md and results.png from one run's `Results`: the tables, the targets of the
issue judged from the same run's ratios (met or not, as measured), and the machine."""

import statistics
from collections.abc import Iterable, Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # no display; must precede pyplot
import matplotlib.pyplot as plt

from bench.results import (
    HISTORY_STEPS,
    MANY_CLIENTS,
    MANY_CLIENTS_P99_TARGET_MS,
    History,
    Measurement,
    PagePaint,
    Results,
    StartTime,
)

FLOOR = {"sqlite": "floor SQLite", "postgresql": "floor PostgreSQL"}
PEER = "peer PostGraphile"
TARGET_WORKLOADS = ("W1", "W2", "W3")


def _ratio(value: float, reference: Measurement | None) -> float | None:
    if reference is None or reference.requests_per_second == 0:
        return None
    return value / reference.requests_per_second


def _fmt(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _spread(measurement: Measurement) -> str:
    """The lowest and highest round's requests/s ("-" for a single round)."""
    if len(measurement.rounds) < 2:
        return "-"
    return f"{min(measurement.rounds):,.0f}-{max(measurement.rounds):,.0f}"


def _table(results: Results, scale: str) -> list[str]:
    lines = [
        "| workload | system | req/s | rounds | p50 ms | p99 ms | SQL/req | x floor | x peer "
        "| errors |",
        "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for m in results.measurements:
        if m.scale != scale:
            continue
        floor = results.find(scale, m.workload, FLOOR[m.database])
        peer = results.find(scale, m.workload, PEER)
        lines.append(
            f"| {m.workload} | {m.system} | {m.requests_per_second:,.0f} | {_spread(m)} | "
            f"{m.p50_ms:.1f} | "
            f"{m.p99_ms:.1f} | {_fmt(m.statements, 1)} | "
            f"{_fmt(_ratio(m.requests_per_second, floor))} | "
            f"{_fmt(_ratio(m.requests_per_second, peer))} | {m.errors} |"
        )
    return lines


def _servers(results: Results, cache: bool) -> list[str]:
    return list(
        dict.fromkeys(
            m.system for m in results.measurements if m.kind == "server" and m.cache is cache
        )
    )


def _ratio_target(
    results: Results, cache: bool, against: str, minimum: float
) -> tuple[bool | None, list[str]]:
    verdict: bool | None = None
    lines = []
    for system in _servers(results, cache):
        for workload in TARGET_WORKLOADS:
            mine = results.find("S", workload, system)
            if mine is None:
                continue
            reference_label = PEER if against == "peer" else FLOOR[mine.database]
            ratio = _ratio(mine.requests_per_second, results.find("S", workload, reference_label))
            if ratio is None:
                continue
            met = ratio >= minimum
            verdict = met if verdict is None else verdict and met
            lines.append(
                f"  - {workload} {system}: {ratio:.2f}x {reference_label} "
                f"({'met' if met else 'NOT met'})"
            )
    return verdict, lines


def _statements_target(results: Results) -> tuple[bool | None, list[str]]:
    verdict: bool | None = None
    lines = []
    scales = list(dict.fromkeys(m.scale for m in results.measurements))
    if len(scales) < 2:
        return None, ["  - only one scale was measured"]
    for system in _servers(results, False):
        for workload in ("W1", "W4"):
            counts = {
                scale: found.statements
                for scale in scales
                if (found := results.find(scale, workload, system)) is not None
            }
            if not counts:  # not run (BENCH_WORKLOADS)
                continue
            same = len(set(counts.values())) == 1 and None not in counts.values()
            verdict = same if verdict is None else verdict and same
            shown = ", ".join(f"{scale} {_fmt(count, 1)}" for scale, count in counts.items())
            lines.append(f"  - {workload} {system}: {shown} ({'same' if same else 'NOT same'})")
    if not lines:
        return None, ["  - W1 and W4 were not measured in this run"]
    missing = [scale for scale in ("S", "M", "L") if scale not in scales]
    if missing and verdict:
        # Same so far is not the target: it is about every scale.
        lines.append(f"  - not measured at {', '.join(missing)} in this run")
        return None, lines
    return verdict, lines


def _load_target(results: Results) -> tuple[bool | None, list[str]]:
    large = [load for load in results.loads if load.scale == "L"]
    if not large:
        return None, ["  - L was not loaded in this run"]
    load = large[0]
    checks = [
        ("SQLite load", load.sqlite_seconds, 60, "s"),
        ("PostgreSQL load (COPY)", load.postgres_seconds, 60, "s"),
        ("SQLite load peak memory", load.sqlite_peak_mb, 1024, "MB"),
        ("PostgreSQL load peak memory", load.postgres_peak_mb, 1024, "MB"),
    ]
    lines = [
        f"  - {name}: {value:.1f} {unit} (limit {limit} {unit}: "
        f"{'met' if value <= limit else 'NOT met'})"
        for name, value, limit, unit in checks
    ]
    return all(value <= limit for _, value, limit, _ in checks), lines


def _latency_target(results: Results) -> tuple[bool | None, list[str]]:
    """Item 3: the seed page's median latency at L within 1.5x of its median at S."""
    verdict: bool | None = None
    lines = []
    for system in dict.fromkeys(found.system for found in results.one_client):
        p50 = {found.scale: found.p50_ms for found in results.one_client if found.system == system}
        if "S" not in p50 or "L" not in p50:
            lines.append(f"  - {system}: not measured at both S and L")
            return None, lines
        ratio = p50["L"] / p50["S"]
        met = ratio <= 1.5
        verdict = met if verdict is None else verdict and met
        shown = ", ".join(f"{scale} {ms:.1f} ms" for scale, ms in p50.items())
        lines.append(f"  - {system}: {shown}; L/S {ratio:.2f} ({'met' if met else 'NOT met'})")
    return verdict, lines or ["  - not measured in this run"]


def _verdict(met: bool | None) -> str:
    return {True: "**met**", False: "**NOT met**", None: "not measured"}[met]


def _targets(results: Results) -> list[str]:
    lines = ["## Targets (issue 3, items 2, 3 and 6), judged from this run", ""]
    for title, (met, detail) in (
        (
            "Cache off: at least 1.5x the peer's requests/s on W1-W3",
            _ratio_target(results, False, "peer", 1.5),
        ),
        (
            "Cache on: at least 0.8x the floor's requests/s on W1-W3",
            _ratio_target(results, True, "floor", 0.8),
        ),
        ("SQL statements per request the same at S, M and L", _statements_target(results)),
        (
            "L loads in at most 60 s into each database, peak memory under 1 GB",
            _load_target(results),
        ),
        (
            "Seed page median latency at L within 1.5x of S (cache off, one client at a time)",
            _latency_target(results),
        ),
    ):
        lines.append(f"- {title}: {_verdict(met)}")
        lines += detail
    return [*lines, ""]


def _loads(results: Results) -> list[str]:
    lines = [
        "## Loads (`taxonomy load`, wall clock of the command, peak resident memory)",
        "",
        "| scale | nodes | methods | models | evidence | SQLite s | SQLite peak MB | "
        "PostgreSQL s | PostgreSQL peak MB |",
        "|---|--:|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for load in results.loads:
        rows = load.rows
        lines.append(
            f"| {load.scale} | {rows['node']:,} | {rows['method']:,} | {rows['model']:,} | "
            f"{rows['evidence']:,} | {load.sqlite_seconds:.1f} | {load.sqlite_peak_mb:.0f} | "
            f"{load.postgres_seconds:.1f} | {load.postgres_peak_mb:.0f} |"
        )
    return [*lines, ""]


RELOAD_LIMIT = 1.25  # issue 17 item 6: recording changes adds at most 25% to a reload
ADOPTION_LIMIT = 1.5  # and adoption's p50 at L within 1.5x of its S figure
DATABASE_NAMES = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}


def _reload_verdicts(history: History) -> list[str]:
    lines = []
    for database in dict.fromkeys(reload.database for reload in history.reloads):
        mine = [reload for reload in history.reloads if reload.database == database]
        with_history = [reload.seconds for reload in mine if reload.history]
        without = [reload.seconds for reload in mine if not reload.history]
        if not with_history or not without:
            continue
        ratio = statistics.median(with_history) / statistics.median(without)
        share = statistics.median(
            reload.history_seconds / reload.seconds for reload in mine if reload.history
        )
        lines.append(
            f"- {DATABASE_NAMES[database]} at {mine[0].scale}: median reload "
            f"{statistics.median(with_history):.1f} s with history, "
            f"{statistics.median(without):.1f} s without: **{ratio:.2f}x** "
            f"({'met' if ratio <= RELOAD_LIMIT else 'NOT met'}, limit {RELOAD_LIMIT}x); "
            f"history's steps take a median {share:.1%} of a reload with history."
        )
    return lines


RELOAD_TARGET_SECONDS = 30.0  # issue 23 item 1: a reload of L within 30 s, both databases


def reload_steps(history: History) -> list[str]:
    """Where a reload with history spends its time: each step's median seconds, per
    database and scale, in the order the load takes them."""
    kinds = list(dict.fromkeys((r.database, r.scale) for r in history.reloads if r.history))
    if not kinds:
        return []
    mine = {
        kind: [r for r in history.reloads if r.history and (r.database, r.scale) == kind]
        for kind in kinds
    }
    steps = list(dict.fromkeys(step for found in mine.values() for r in found for step in r.steps))
    lines = [
        "Where a reload with history spends its time (median seconds of each step, as "
        "`taxonomy load` prints them; the evidence file is read in a child process "
        "while it is written):",
        "",
        "| step | " + " | ".join(f"{DATABASE_NAMES[d]} {s}" for d, s in kinds) + " |",
        "|---|" + "--:|" * len(kinds),
    ]
    for step in steps:
        cells = [
            _fmt(
                statistics.median(r.steps[step] for r in found)
                if all(step in r.steps for r in found)
                else None,
                1,
            )
            for found in mine.values()
        ]
        lines.append(f"| {step} | " + " | ".join(cells) + " |")
    totals = [statistics.median(r.seconds for r in found) for found in mine.values()]
    lines.append(
        "| **reload** | "
        + " | ".join(
            f"**{total:.1f}** ({'met' if total <= RELOAD_TARGET_SECONDS else 'NOT met'})"
            for total in totals
        )
        + " |"
    )
    return [*lines, "", f"Target: {RELOAD_TARGET_SECONDS:.0f} s a reload at L.", ""]


def _adoption_verdicts(history: History) -> list[str]:
    lines = []
    for database in dict.fromkeys(found.database for found in history.adoption):
        p50 = {found.scale: found for found in history.adoption if found.database == database}
        if "S" not in p50 or "L" not in p50:
            continue
        ratio = p50["L"].p50_ms / p50["S"].p50_ms
        lines.append(
            f"- {DATABASE_NAMES[database]}: adoption p50 {p50['S'].p50_ms:.2f} ms at S, "
            f"{p50['L'].p50_ms:.2f} ms at L: **L/S {ratio:.2f}** "
            f"({'met' if ratio <= ADOPTION_LIMIT else 'NOT met'}, limit {ADOPTION_LIMIT}x)."
        )
    return lines


def paint_table(paints: Iterable[PagePaint], api_p50_ms: dict[tuple[str, str], float]) -> list[str]:
    """The seed page's paints, each beside the same server's one-client API p50 for W1 at
    that scale (``api_p50_ms`` by (system, scale); "-" when not measured)."""
    lines = [
        "| scale | system | loads | LCP p50 ms | LCP min-max ms | FCP p50 ms | W1 API p50 ms "
        "(one client) | largest paint |",
        "|---|---|--:|--:|--:|--:|--:|---|",
    ]
    for paint in paints:
        api = api_p50_ms.get((paint.system, paint.scale))
        lines.append(
            f"| {paint.scale} | {paint.system} | {paint.loads} | {paint.p50_ms:.0f} | "
            f"{paint.min_ms:.0f}-{paint.max_ms:.0f} | {_fmt(paint.fcp_p50_ms, 0)} | "
            f"{_fmt(api, 1)} | {paint.element} |"
        )
    return lines


def history(found: History) -> list[str]:
    """The section on issue 17 item 6 (bench/history_cost.py): reloads with and without
    history, adoption's p50 at each scale, and the targets judged from them."""
    if not found.reloads and not found.adoption:
        return []
    lines = [
        "## History and adoption (issue 17 item 6; `python -m bench.history_cost`)",
        "",
        "Reloads: a fresh database per kind gets the dataset, then an edited copy of it "
        "(`taxonomy generate --next-of`) and the dataset are loaded over each other in "
        "turn, with history and without in the order with, without, without, with (each "
        "kind loads each folder as often), each in a child process. Seconds "
        "are the load's own (`replace_data`: reading, writing, deriving, vacuum); "
        f"history's steps are {' and '.join(f'_{step}_' for step in HISTORY_STEPS)}; "
        "change rows are counted in the database after each load, for its release. "
        "Load average: the machine's 1-minute figure as the load (or the adoption "
        "requests) started. Adoption: `bench/adoption_p50.py` (in process, cache off, one "
        "client per database, the largest root's series cycling the 9 interval x "
        "minStrength combinations; first a search, which waits for the search catalogue "
        "the server builds as it starts, and 5 warm-up requests), in a fresh database "
        "per scale, the scales asked in turn request by request, before any reload.",
        "",
        *_reload_verdicts(found),
        *_adoption_verdicts(found),
        "",
        *reload_steps(found),
    ]
    if found.reloads:
        lines += [
            "| database | scale | # | history | dataset loaded | load avg | reload s | "
            "history's steps s | share | change rows |",
            "|---|---|--:|---|---|--:|--:|--:|--:|--:|",
        ]
        for number, reload in enumerate(found.reloads, start=1):
            lines.append(
                f"| {DATABASE_NAMES[reload.database]} | {reload.scale} | {number} | "
                f"{'with' if reload.history else 'without'} | {reload.dataset} | "
                f"{reload.load_average:.1f} | {reload.seconds:.1f} | "
                f"{reload.history_seconds:.1f} | "
                f"{reload.history_seconds / reload.seconds:.1%} | {reload.change_rows:,} |"
            )
        lines.append("")
    if found.adoption:
        lines += [
            "| database | scale | root | requests | p50 ms | p90 ms | SQL/req | load avg |",
            "|---|---|---|--:|--:|--:|--:|--:|",
        ]
        for adoption in found.adoption:
            lines.append(
                f"| {DATABASE_NAMES[adoption.database]} | {adoption.scale} | {adoption.root} | "
                f"{adoption.requests} | {adoption.p50_ms:.2f} | {adoption.p90_ms:.2f} | "
                f"{', '.join(adoption.statements)} | {adoption.load_average:.1f} |"
            )
        lines.append("")
    return lines


def _paints(results: Results) -> list[str]:
    if not results.paints:
        return []
    api = {(found.system, found.scale): found.p50_ms for found in results.one_client}
    return [
        "## Seed page paint (largest contentful paint in headless Chromium)",
        "",
        "The seed node's page (`/nodes/optimization/training-parallelism`) opened in Debian's "
        "headless Chromium (`bench/page_paint.py`, `browser/page-paint.mjs`), 1280 x 900, "
        "each load in a new browser context (cold HTTP cache) after two uncounted loads, on "
        "the same server as the one-client W1 figure beside it (response cache off), before "
        "any run under load. LCP as Chromium reports it (PerformanceObserver, buffered), "
        "read once the By-model rows are on screen; FCP is the first paint (the page's frame, "
        "before its data).",
        "",
        *paint_table(results.paints, api),
        "",
    ]


# A section measured by a script of its own, outside `make bench`, says so in its heading.
MEASURED_APART = "not from the run below"
COMMITTED = Path(__file__).resolve().parent / "RESULTS.md"


def measured_apart(previous: str) -> list[str]:
    """The lines of the `## ` sections of a RESULTS.md whose heading says they are not from
    its run (each with its `###` subsections), in their order: a run measures none of them,
    so the RESULTS.md it writes keeps them as they were."""
    kept: list[str] = []
    keeping = False
    for line in previous.splitlines():
        if line.startswith("## "):
            keeping = MEASURED_APART in line
        if keeping:
            kept.append(line)
    return kept


def markdown(results: Results, chart_name: str, kept: Sequence[str] = ()) -> str:
    """RESULTS.md: the run's figures, and after its introduction the sections ``kept``
    (measured apart, from the RESULTS.md before it)."""
    scales = list(dict.fromkeys(m.scale for m in results.measurements))
    lines = [
        "# Benchmark results",
        "",
        "Written by `make bench` (`bench/run.py`) from one run on one machine; every figure "
        f"below comes from that run, except the sections whose heading says {MEASURED_APART!r}: "
        "each was measured by a script of its own, which the heading names, and a run keeps "
        "them as they were. Before anything was timed, every system's answer to "
        "every workload was checked to be the same as our server's on the same database "
        "(`bench/check_answers.py`).",
        "",
        f"- Load generator: `{results.load_generator}` (Debian's wrk, its own process), after "
        "a warm-up run that is not counted. The load generator, the servers and PostgreSQL "
        "share the machine's cores, so these are figures of the whole machine. The seed "
        "page's latency at each scale is also taken with one client at a time "
        "(`wrk -t1 -c1`, after a warm-up of the same, before any run under load), which "
        "shows what the query costs rather than how the machine queues under load. "
        "Requests/s (and p50, p99) are those of the median of the timed rounds: workload by "
        "workload, each round runs it on every system in turn, after a 1 s warm-up, so that "
        "the machine's drift over the run falls on all systems alike; `rounds` gives the "
        "lowest and highest round. Before each load and each run, queries left over from the "
        "previous run are cancelled and the run waits until the CPUs are idle "
        "(`bench/settle.py`).",
        "- Our server: `taxonomy serve --workers 2`; the floor: `bench/floor.py` under uvicorn "
        "with 2 workers; the peer: PostGraphile in 2 Node processes (node:cluster) over the "
        "same PostgreSQL database, with the SQL functions of `bench/postgraphile/functions.sql`.",
        "- x floor: requests/s over the floor's on the same database; x peer: over "
        "PostGraphile's (PostgreSQL). SQL/req: statements per request, BEGIN/COMMIT left "
        "out (our server and the floor count their own; the peer is counted on the wire).",
        "",
        f"![requests per second]({chart_name})",
        "",
    ]
    if kept:
        lines += [*kept, ""] if kept[-1] else list(kept)
    lines += _targets(results)
    for scale in scales:
        lines += [f"## Scale {scale}", "", *_table(results, scale), ""]
    lines += _paints(results)
    lines += _many_clients(results)
    lines += start_times(results.start_times)
    lines += _loads(results)
    lines += history(results.history)
    if results.notes:
        lines += ["## Notes", "", *(f"- {note}" for note in results.notes), ""]
    lines += ["## Machine", "", "| | |", "|---|---|"]
    lines += [f"| {key} | {value} |" for key, value in results.machine.items()]
    return "\n".join(lines) + "\n"


def _many_clients(results: Results) -> list[str]:
    """Issue 23 item 4: 64 clients with the browser's page mix, p99 and errors judged."""
    if not results.many_clients:
        return []
    lines = [
        "## Many clients (issue 23 item 4; `python -m bench.many_clients URL`)",
        "",
        f"{MANY_CLIENTS} clients (wrk, 2 threads) for the time given, each request one "
        "of the taxonomy browser's persisted-query GETs (node, method, model, search and home "
        "pages in the shares of `PAGE_MIX`, each kind's pages drawn by Zipf's law); every "
        "answer is checked to be data without errors. A warm-up of a tenth of the run is not "
        "counted. Target: p99 at most "
        f"{MANY_CLIENTS_P99_TARGET_MS:.0f} ms and 0 errors with the response cache on.",
        "",
        "| scale | system | s | requests | req/s | p50 ms | p99 ms | max ms | errors | repeats "
        "| target |",
        "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|---|",
    ]
    for found in results.many_clients:
        judged = "cache on" in found.system
        met = found.p99_ms <= MANY_CLIENTS_P99_TARGET_MS and found.errors == 0
        lines.append(
            f"| {found.scale} | {found.system} | {found.seconds:.0f} | {found.requests:,} | "
            f"{found.requests_per_second:,.0f} | {found.p50_ms:.1f} | {found.p99_ms:.1f} | "
            f"{found.max_ms:.0f} | {found.errors} | {found.repeated_share:.0%} | "
            f"{('met' if met else 'NOT met') if judged else '-'} |"
        )
    return [*lines, ""]


def start_times(found: Sequence[StartTime]) -> list[str]:
    """Issue 23 item 2: each command from its start to its exit, serve to `/readyz`."""
    if not found:
        return []
    lines = [
        "## Start times (issue 23 item 2; `python -m bench.start_times`)",
        "",
        "Each `taxonomy` command from its process's start to its exit, and `taxonomy serve` "
        "(one worker) from its start to `/readyz` answering 200, on the fixtures in a fresh "
        "database of each kind; `load` is a whole reload of the fixtures. Median of the "
        "runs, one after another.",
        "",
        "| command | database | runs | median s | min-max s | target s | target |",
        "|---|---|--:|--:|--:|--:|---|",
    ]
    for figure in found:
        met = "met" if figure.median_s <= figure.target_s else "NOT met"
        lines.append(
            f"| `{figure.command}` | {figure.database} | {figure.runs} | "
            f"{figure.median_s:.2f} | {figure.min_s:.2f}-{figure.max_s:.2f} | "
            f"{figure.target_s:.1f} | {met} |"
        )
    return [*lines, ""]


def _systems(measurements: Iterable[Measurement]) -> list[str]:
    return list(dict.fromkeys(m.system for m in measurements))


def chart(results: Results, path: Path) -> None:
    """Requests/s at S per workload and system (left), and W1 and W4 across the scales
    (right). Each system keeps one colour in both; both are on a log scale, as the cached
    answers run at 20-30 times the rest, which a linear axis would flatten."""
    scales = list(dict.fromkeys(m.scale for m in results.measurements))
    at_s = [m for m in results.measurements if m.scale == "S"]
    systems = _systems(results.measurements)
    colours = {system: plt.get_cmap("tab10")(index % 10) for index, system in enumerate(systems)}
    workloads = list(dict.fromkeys(m.workload for m in at_s))
    figure, axes = plt.subplots(1, 2, figsize=(15, 7), gridspec_kw={"width_ratios": [3, 2]})
    width = 0.8 / max(len(systems), 1)
    for index, system in enumerate(systems):
        values = [
            found.requests_per_second if (found := results.find("S", w, system)) else 0
            for w in workloads
        ]
        axes[0].bar(
            [i + index * width for i in range(len(workloads))],
            values,
            width,
            label=system,
            color=colours[system],
        )
    axes[0].set_xticks([i + 0.4 - width / 2 for i in range(len(workloads))], workloads)
    axes[0].set_yscale("log")
    axes[0].set_ylabel("requests/s (log)")
    axes[0].set_title("Scale S: requests/s per workload")
    # Legends below the plots, where they hide no bar or line.
    axes[0].legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.08), ncol=4)
    for system in systems:
        for workload, style in (("W1", "-o"), ("W4", "--s")):
            points = [
                (scale, found.requests_per_second)
                for scale in scales
                if (found := results.find(scale, workload, system))
            ]
            if len(points) > 1:
                axes[1].plot(
                    [p[0] for p in points],
                    [p[1] for p in points],
                    style,
                    color=colours[system],
                    label=f"{workload} {system}",
                )
    axes[1].set_yscale("log")
    axes[1].set_ylabel("requests/s (log)")
    axes[1].set_title("W1 (solid) and W4 (dashed) as the data grows")
    if axes[1].lines:
        axes[1].legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.08), ncol=2)
    else:
        axes[1].text(
            0.5, 0.5, "one scale only in this run", ha="center", transform=axes[1].transAxes
        )
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def write(results: Results, directory: Path) -> None:
    """RESULTS.md and results.png in ``directory``, keeping the committed RESULTS.md's
    sections measured apart (wherever the run writes)."""
    chart(results, directory / "results.png")
    previous = COMMITTED.read_text(encoding="utf-8") if COMMITTED.exists() else ""
    text = markdown(results, "results.png", measured_apart(previous))
    (directory / "RESULTS.md").write_text(text, encoding="utf-8")
