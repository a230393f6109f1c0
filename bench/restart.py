"""How long the service takes to be ready after a restart with 100,000 logged events.

The log holds 100 play-offs of about 1,000 events each: creation, lots, a game
started and its clock pressed move after move. "Ready" is the app's start-up:
the log folded into every play-off's state (clocks included), the flag timers
armed and the scheduler's jobs registered again.
"""

from __future__ import annotations

import asyncio
import logging
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from orchestrator.app import create_app
from orchestrator.cli.files import demo_event
from orchestrator.core.commands import DrawLots, StartGame
from orchestrator.core.creation import PlayoffOptions
from orchestrator.core.events import ClockPressed
from orchestrator.core.service import Service
from orchestrator.core.state import playoff_stream
from orchestrator.core.timesource import ManualTime
from orchestrator.settings import Settings
from orchestrator.store import AsyncEventStore, NewEvent, SqliteEventStore
from playoff_formats.model import Colour

T0 = datetime(2025, 6, 28, 12, 0, tzinfo=UTC)


async def make_log(path: Path, playoffs: int, presses: int) -> int:
    """A log of ``playoffs`` play-offs, each with a game of ``presses`` clock presses."""
    clock = ManualTime(wall=T0)
    async with AsyncEventStore(SqliteEventStore(path)) as store:
        service = Service(store, clock)
        event, _ = await service.create_event(demo_event())
        total = 2
        for n in range(playoffs):
            made = await service.create_playoff(event.id, PlayoffOptions(), "bench")
            # One play-off per event is the rule; link each to a fresh copy of the event.
            if n + 1 < playoffs:
                event, _ = await service.create_event(demo_event())
                total += 1
            await service.execute(made.id, DrawLots(match=1), "bench")
            clock.advance(timedelta(minutes=31))  # the break after the main event (reg. 5)
            await service.execute(made.id, StartGame(match=1, game=1), "bench")
            start_ms = clock.server_ms()
            batch = []
            for i in range(presses):
                side = Colour.WHITE if i % 2 == 0 else Colour.BLACK
                press = ClockPressed(
                    match=1, game=1, side=side, move=i // 2 + 1, at_ms=start_ms + (i + 1) * 1000
                )
                batch.append(NewEvent(press.type, press.log_data()))
            await store.append_many(playoff_stream(made.id), batch, actor="bench",
                                    recorded_at=T0 + timedelta(hours=1))
            total += 4 + presses
    return total


async def ready_seconds(path: Path) -> float:
    # Jobs already due fire at start-up and are cut short when the app stops here.
    logging.getLogger("apscheduler").setLevel(logging.CRITICAL)
    app = create_app(Settings(db_path=path), ManualTime(wall=T0 + timedelta(hours=2)))
    start = time.perf_counter()
    async with app.router.lifespan_context(app):
        elapsed = time.perf_counter() - start
        assert len(app.state.service.playoffs()) > 0
    return elapsed


def run(playoffs: int = 100, presses: int = 996, repeat: int = 3) -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory(prefix="bench-restart-") as tmp:
        path = Path(tmp) / "log.db"
        total = asyncio.run(make_log(path, playoffs, presses))
        # The first start folds the whole log (no snapshot yet, as after an upgrade);
        # it keeps snapshots when it stops, and the next starts fold only what follows.
        whole = asyncio.run(ready_seconds(path))
        times = [asyncio.run(ready_seconds(path)) for _ in range(repeat)]
        crashed = asyncio.run(ready_after_a_crash(path, presses=500))
    return [
        {"benchmark": f"service restart: ready with {total:,} logged events "
                      f"({playoffs} play-offs), from snapshots",
         "value": statistics.median(times) * 1000, "unit": "ms", "target": 1000},
        {"benchmark": "  the same, after 500 more presses since the snapshots (a crash)",
         "value": crashed * 1000, "unit": "ms", "target": 1000},
        {"benchmark": "  the same, folding the whole log (no snapshot: after an upgrade)",
         "value": whole * 1000, "unit": "ms"},
    ]


async def ready_after_a_crash(path: Path, presses: int) -> float:
    """Presses appended past the snapshots (as if the process died before its next
    snapshot), then the time to be ready."""
    async with AsyncEventStore(SqliteEventStore(path)) as store:
        stream = (await store.streams("playoff-"))[0]
        last = (await store.read(stream))[-1]
        moves = last.data["move"]
        side = Colour(last.data["side"])
        at_ms = last.data["at_ms"]
        batch = []
        for i in range(presses):
            side = Colour.BLACK if side is Colour.WHITE else Colour.WHITE
            if side is Colour.WHITE:
                moves += 1
            press = ClockPressed(
                match=1, game=1, side=side, move=moves, at_ms=at_ms + 1000 * (i + 1)
            )
            batch.append(NewEvent(press.type, press.log_data()))
        await store.append_many(
            stream, batch, actor="bench", recorded_at=T0 + timedelta(hours=1)
        )
    return await ready_seconds(path)


if __name__ == "__main__":
    for row in run():
        print(f"{row['benchmark']}: {row['value']:.0f} {row['unit']}")
