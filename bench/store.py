"""The event log: durable appends per second, group commit, and a restart of 100,000 events.

``python -m bench.store`` prints its own table; ``run()`` gives the rows to ``bench``.
Every append here is durable (WAL, ``synchronous=FULL``: fsynced before it returns).
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from orchestrator.store import AsyncEventStore, NewEvent, SqliteEventStore

T0 = datetime(2025, 7, 1, 14, 0, tzinfo=UTC)
TYPES = ("clock-pressed", "clock-pressed", "clock-pressed", "game-scheduled", "result-recorded")


def _event(i: int) -> NewEvent:
    type_ = TYPES[i % len(TYPES)]
    return NewEvent(type_, {"game": i // 80, "side": "white" if i % 2 else "black",
                            "move": i % 80 + 1, "remaining_ms": 600_000 - 1_500 * (i % 80)})


def sync_appends_per_second(folder: Path, count: int, run_id: int) -> float:
    with SqliteEventStore(folder / f"sync-{run_id}.db") as store:
        for i in range(20):  # warm up: file growth, page cache
            store.append("warm", *_event(i), actor="bench", recorded_at=T0)
        start = time.perf_counter()
        for i in range(count):
            event = _event(i)
            store.append("po", event.type, event.data, actor="bench",
                         recorded_at=T0 + timedelta(milliseconds=i))
        return count / (time.perf_counter() - start)


async def _group_commit(path: Path, appenders: int, each: int) -> tuple[float, float]:
    async with AsyncEventStore(SqliteEventStore(path)) as aio:
        await aio.append("warm", *_event(0), actor="bench", recorded_at=T0)

        async def appender(n: int) -> None:
            for i in range(each):
                event = _event(i)
                await aio.append(f"po-{n % 8}", event.type, event.data, actor=f"task-{n}",
                                 recorded_at=T0 + timedelta(milliseconds=i))

        before = aio.stats.requests, aio.stats.commits
        start = time.perf_counter()
        await asyncio.gather(*(appender(n) for n in range(appenders)))
        elapsed = time.perf_counter() - start
        requests = aio.stats.requests - before[0]
        commits = aio.stats.commits - before[1]
    return appenders * each / elapsed, requests / commits


def group_commit_appends_per_second(
    folder: Path, appenders: int, each: int, run_id: int
) -> tuple[float, float]:
    return asyncio.run(_group_commit(folder / f"group-{run_id}.db", appenders, each))


def make_log(path: Path, streams: int, per_stream: int) -> None:
    with SqliteEventStore(path) as store:
        for s in range(streams):
            for first in range(0, per_stream, 1000):
                store.append_many(
                    f"po-{s:03d}",
                    [_event(i) for i in range(first, min(first + 1000, per_stream))],
                    actor="bench", recorded_at=T0,
                )


def restart_seconds(path: Path) -> tuple[float, int]:
    """Open the log and fold every event of every stream (counts per type)."""
    start = time.perf_counter()
    with SqliteEventStore(path) as store:
        counts: Counter[str] = Counter()
        for stream in store.streams():
            for event in store.read(stream):
                counts[event.type] += 1
    return time.perf_counter() - start, sum(counts.values())


def run(repeat: int = 3, events: int = 100_000, streams: int = 100) -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory(prefix="bench-store-") as tmp:
        folder = Path(tmp)
        sync_rate = statistics.median(
            sync_appends_per_second(folder, 1_000, r) for r in range(repeat)
        )
        group = [group_commit_appends_per_second(folder, 64, 50, r) for r in range(repeat)]
        group_rate = statistics.median(rate for rate, _ in group)
        group_size = statistics.median(size for _, size in group)

        log = folder / "restart.db"
        make_log(log, streams, events // streams)
        restarts = [restart_seconds(log) for _ in range(repeat + 2)]
        assert all(n == events for _, n in restarts)
        restart = statistics.median(seconds for seconds, _ in restarts)
        size_mb = sum(p.stat().st_size for p in folder.glob("restart.db*")) / 1e6

    return [
        {"benchmark": "durable appends, sync, one at a time", "value": sync_rate,
         "unit": "appends/s"},
        {"benchmark": "durable appends, async group commit, 64 appenders",
         "value": group_rate, "unit": "appends/s"},
        {"benchmark": "  mean appends per commit (64 appenders)", "value": group_size,
         "unit": "appends"},
        {"benchmark": f"store level: open + read every one of {events:,} events "
                      f"in {streams} streams",
         "value": restart * 1000, "unit": "ms", "target": 300},
        {"benchmark": f"  size of the {events:,}-event log", "value": size_mb, "unit": "MB"},
    ]


def main() -> int:
    from rich.console import Console
    from rich.table import Table

    table = Table(title="Event store (SQLite, WAL, synchronous=FULL; median of runs)")
    table.add_column("benchmark")
    table.add_column("value", justify="right")
    table.add_column("unit")
    for row in run():
        value = row["value"]
        table.add_row(row["benchmark"], f"{value:,.0f}" if value >= 100 else f"{value:,.1f}",
                      row["unit"])
    Console().print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
