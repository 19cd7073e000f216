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


@dataclass
class Results:
    load_generator: str
    machine: dict[str, str]
    loads: list[LoadFigures] = field(default_factory=list)
    measurements: list[Measurement] = field(default_factory=list)
    one_client: list[OneClient] = field(default_factory=list)
    paints: list[PagePaint] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def find(self, scale: str, workload: str, system: str) -> Measurement | None:
        for measurement in self.measurements:
            if (measurement.scale, measurement.workload, measurement.system) == (
                scale,
                workload,
                system,
            ):
                return measurement
        return None
