"""The demo: a real round robin that ended in a tie for first, with its play-off."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from orchestrator.auth import Role
from orchestrator.commands import DrawLots, StartGame
from orchestrator.creation import PlayoffOptions
from orchestrator.files import demo_event
from orchestrator.service import Service
from orchestrator.store import AsyncEventStore, SqliteEventStore
from orchestrator.timesource import TimeSource

DEMO_PRIZES = ("100000", "50000", "30000", "20000", "15000", "10000", "8000", "6000")
DEMO_POINTS = ("13", "10", "8", "7", "6", "5", "4", "3")


@dataclass(frozen=True)
class Demo:
    event_id: str
    playoff_id: str
    chief_token: str
    arbiter_token: str
    display_key: str


async def prepare_demo(db_path: Path, time: TimeSource) -> Demo:
    """A fresh log holding the demo event, its tokens and its play-off."""
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db_path}{suffix}").unlink(missing_ok=True)
    db_path.parent.mkdir(parents=True, exist_ok=True)
    async with AsyncEventStore(SqliteEventStore(db_path)) as store:
        service = Service(store, time)
        event, chief = await service.create_event(demo_event())
        arbiter = await service.issue_token(event.id, Role.ARBITER, "demo arbiter", "chief")
        display = await service.issue_token(event.id, Role.DISPLAY, "hall display", "chief")
        playoff = await service.create_playoff(
            event.id, PlayoffOptions(prizes=DEMO_PRIZES, points=DEMO_POINTS), "chief:chief"
        )
        # Match 1 under way, so that both screens show a live clock.
        await service.execute(playoff.id, DrawLots(match=1), "chief:chief")
        await service.execute(playoff.id, StartGame(match=1, game=1), "chief:chief")
    return Demo(event.id, playoff.id, chief, arbiter, display)
