"""What the request's statement_timeout costs on PostgreSQL, in process.

    .venv/bin/python -m bench.statement_timeout postgresql://... (a loaded database)

A request's reader sets its transaction's statement_timeout to the time it has left
(store.reader): one statement more per request. Alternating readers with a deadline and
without, each reading one small row and closing (2,000 in all, the first 100 of each not
counted), prints each one's p50 and p90.
"""

import asyncio
import statistics
import sys
import time

from sqlalchemy import text

from store.engines import make_async_engine
from store.reader import AsyncReader, Deadline


async def main(url: str) -> None:
    engine = make_async_engine(url)
    statement = text("SELECT number FROM release ORDER BY number DESC LIMIT 1")
    times: dict[str, list[float]] = {"without": [], "with": []}
    for i in range(2000):
        kind = "with" if i % 2 else "without"
        reader = AsyncReader(engine, Deadline.after(10) if kind == "with" else None)
        start = time.perf_counter()
        await reader.execute(statement)
        await reader.close()
        times[kind].append(time.perf_counter() - start)
    for kind, values in times.items():
        counted = sorted(values[100:])
        p50, p90 = statistics.median(counted), counted[int(len(counted) * 0.9)]
        print(f"{kind} deadline: p50 {p50 * 1000:.3f} ms, p90 {p90 * 1000:.3f} ms")
    await engine.dispose()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
