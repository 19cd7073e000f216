"""What one run found: the figures RESULTS.md and the chart are made from."""

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Measurement:
    system: str  # a System label
    kind: str  # server, floor or peer
    database: str
    cache: bool | None
    scale: str
    workload: str
    requests_per_second: float
    p50_ms: float
    p99_ms: float
    statements: float | None  # SQL statements per request (None: could not be counted)
    errors: int  # over all rounds
    rounds: tuple[float, ...] = ()  # each round's requests/s; the figure is their median


@dataclass(frozen=True)
class OneClient:
    """The seed page (W1) asked by one client at a time: its latency, not the machine's
    throughput, so that scales compare the cost of the query itself."""

    system: str
    scale: str
    p50_ms: float
    requests: int


# Many clients at once (bench/many_clients.py): how many, and the target (issue 23 item 4).
MANY_CLIENTS = 64
MANY_CLIENTS_P99_TARGET_MS = 1000.0


@dataclass(frozen=True)
class StartTime:
    """How soon one command is done, or serve is ready (bench/start_times.py)."""

    command: str
    database: str  # sqlite, postgresql, or "-" for a command that opens none
    median_s: float
    min_s: float
    max_s: float
    runs: int
    target_s: float


@dataclass(frozen=True)
class ManyClients:
    """Many clients at once with the taxonomy browser's page mix (bench/many_clients.py)."""

    system: str
    scale: str
    clients: int
    seconds: float
    requests: int
    requests_per_second: float
    p50_ms: float
    p99_ms: float
    max_ms: float
    errors: int
    repeated_share: float  # of the drawn sequence, requests for a page asked for before


@dataclass(frozen=True)
class PagePaint:
    """The seed page's largest contentful paint in headless Chromium, cold browser cache
    (bench/page_paint.py): the figure a person sees, beside the API's."""

    system: str
    scale: str
    loads: int
    p50_ms: float
    min_ms: float
    max_ms: float
    fcp_p50_ms: float | None  # first contentful paint ("Loading…"), for comparison
    element: str  # what the largest paint was, most often


@dataclass(frozen=True)
class LoadFigures:
    scale: str
    rows: dict[str, int]
    sqlite_seconds: float
    sqlite_peak_mb: float
    postgres_seconds: float
    postgres_peak_mb: float


# The steps of a load that history adds to (api/ingest/write.py): reading the release
# before and keeping its treatments; comparing with it and writing the change rows.
HISTORY_STEPS = ("the release before", "changes against the release before")


@dataclass(frozen=True)
class Reload:
    """One load of an edited copy over the data served (bench/history_cost.py)."""

    database: str  # sqlite or postgresql
    scale: str
    history: bool  # whether the load recorded its changes
    dataset: str  # the folder's name
    seconds: float  # the load's own time (reading, writing, deriving, vacuum)
    steps: dict[str, float]  # the load's step timings, by name
    change_rows: int  # counted in the database after the load, for its release
    load_average: float  # the machine's 1-minute load average when it started

    @property
    def history_seconds(self) -> float:
        return sum(self.steps.get(step, 0.0) for step in HISTORY_STEPS)


@dataclass(frozen=True)
class Adoption:
    """`Node.adoption` of the largest root, in process, cache off (bench/adoption_p50.py)."""

    database: str
    scale: str
    root: str
    p50_ms: float
    p90_ms: float
    requests: int
    statements: tuple[str, ...]  # statements per request, as counted (one value: constant)
    load_average: float


@dataclass
class History:
    """Issue 17 item 6: what recording changes adds to a reload, and adoption's p50."""

    reloads: list[Reload] = field(default_factory=list)
    adoption: list[Adoption] = field(default_factory=list)


@dataclass
class Results:
    load_generator: str
    machine: dict[str, str]
    loads: list[LoadFigures] = field(default_factory=list)
    measurements: list[Measurement] = field(default_factory=list)
    one_client: list[OneClient] = field(default_factory=list)
    paints: list[PagePaint] = field(default_factory=list)
    many_clients: list[ManyClients] = field(default_factory=list)
    start_times: list[StartTime] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    history: History = field(default_factory=History)

    def find(self, scale: str, workload: str, system: str) -> Measurement | None:
        for measurement in self.measurements:
            if (measurement.scale, measurement.workload, measurement.system) == (
                scale,
                workload,
                system,
            ):
                return measurement
        return None
