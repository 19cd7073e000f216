"""The load generator: wrk (Debian's), the same for every system, never the server's code.

Each run POSTs one fixed body at a fixed concurrency; a small Lua script sets the body
and prints wrk's own summary as one JSON line (requests, duration, errors, latency
percentiles), which is parsed here.
"""

import json
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

_SCRIPT = """
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local file = assert(io.open(%(body_file)s, "rb"))
wrk.body = file:read("*a")
file:close()

function done(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format(
    '{"requests": %%d, "duration_us": %%d, "connect": %%d, "read": %%d, "write": %%d, ' ..
    '"status": %%d, "timeout": %%d, "p50_us": %%d, "p99_us": %%d}\\n',
    summary.requests, summary.duration, errors.connect, errors.read, errors.write,
    errors.status, errors.timeout, latency:percentile(50), latency:percentile(99)))
end
"""


@dataclass(frozen=True)
class Settings:
    threads: int
    connections: int
    seconds: float

    def describe(self) -> str:
        return f"wrk -t{self.threads} -c{self.connections} -d{self.seconds:g}s"


@dataclass(frozen=True)
class Run:
    requests_per_second: float
    p50_ms: float
    p99_ms: float
    requests: int
    errors: int  # non-2xx answers, timeouts, socket errors: any makes the run invalid


def run(url: str, body: bytes, settings: Settings) -> Run:
    with tempfile.TemporaryDirectory(prefix="bench-wrk-") as scratch:
        body_file = Path(scratch) / "body.json"
        body_file.write_bytes(body)
        script = Path(scratch) / "post.lua"
        script.write_text(_SCRIPT % {"body_file": json.dumps(str(body_file))})
        completed = subprocess.run(
            [
                "wrk",
                f"-t{settings.threads}",
                f"-c{settings.connections}",
                f"-d{settings.seconds:g}s",
                "--timeout",
                "10s",
                "-s",
                str(script),
                url,
            ],
            capture_output=True,
            text=True,
            check=True,
        )
    summary = json.loads(completed.stdout.strip().splitlines()[-1])
    errors = sum(summary[k] for k in ("connect", "read", "write", "status", "timeout"))
    seconds = summary["duration_us"] / 1e6
    return Run(
        requests_per_second=summary["requests"] / seconds,
        p50_ms=summary["p50_us"] / 1000,
        p99_ms=summary["p99_us"] / 1000,
        requests=summary["requests"],
        errors=errors,
    )
