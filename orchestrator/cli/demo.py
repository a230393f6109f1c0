"""The demo: a real round robin that ended in a tie for first, with its play-off."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from orchestrator.cli.files import demo_event
from orchestrator.core.auth import Actor, Role
from orchestrator.core.commands import DrawLots, StartGame
from orchestrator.core.creation import PlayoffOptions
from orchestrator.core.service import Service
from orchestrator.core.timesource import TimeSource
from orchestrator.store import AsyncEventStore, SqliteEventStore
from playoff_formats.model import IndividualEvent

DEMO_PRIZES = ("100000", "50000", "30000", "20000", "15000", "10000", "8000", "6000")
DEMO_POINTS = ("13", "10", "8", "7", "6", "5", "4", "3")

LAST_GAME_ENDED_BEFORE = timedelta(minutes=35)
"""How long before the demo starts its last main-event game ended: beyond the 30
minutes GCT 2015 reg. 5 owes the play-off players, so that match 1 may start at once."""
BOARD_STAGGER = timedelta(minutes=4)
"""The last round's boards finish one after another, the last board last."""

_SQLITE_HEADER = b"SQLite format 3\x00"
_LOG_FILES = ("", "-wal", "-shm")


class DemoRefused(Exception):
    """The demo cannot start on the file it was given, as things stand; nothing was touched."""


@dataclass(frozen=True)
class Demo:
    event_id: str
    playoff_id: str
    chief_token: str
    arbiter_token: str
    display_key: str
    board_keys: tuple[tuple[int, str], ...] = ()
    """Per match (its number), the key of its board clock."""


def demo_event_at(now: datetime) -> IndividualEvent:
    """The demo event, its last round finished shortly (but long enough) before ``now``."""
    event = demo_event()
    games = list(event.games)
    last_round = [i for i, game in enumerate(games) if game.round == event.rounds]
    for board, i in enumerate(last_round):
        behind = len(last_round) - 1 - board
        ended = now - LAST_GAME_ENDED_BEFORE - BOARD_STAGGER * behind
        games[i] = games[i].model_copy(update={"ended_at": ended})
    return event.model_copy(update={"games": games})


def log_exists(db_path: Path) -> bool:
    return any(Path(f"{db_path}{suffix}").exists() for suffix in _LOG_FILES)


def _refuse_other_files(db_path: Path) -> None:
    """Refuse a path that holds something other than an SQLite log.

    ``--fresh`` is meant for the demo's own log: a mistyped ``--db`` naming some
    other file must not cost its owner that file.
    """
    if db_path.is_dir():
        raise DemoRefused(f"{db_path} is a directory, not a log; choose a file with --db")
    if db_path.exists():
        with db_path.open("rb") as file:
            header = file.read(len(_SQLITE_HEADER))
        if header and header != _SQLITE_HEADER:
            raise DemoRefused(
                f"{db_path} is not an SQLite log, and the demo leaves it alone; "
                "choose another file with --db"
            )


async def prepare_demo(db_path: Path, time: TimeSource, *, fresh: bool = False) -> Demo:
    """A new log holding the demo event, its tokens and its play-off, with match 1 begun.

    An existing log is deleted only when ``fresh`` is given; otherwise
    :class:`DemoRefused` is raised and nothing is touched.
    """
    _refuse_other_files(db_path)
    if log_exists(db_path):
        if not fresh:
            raise DemoRefused(
                f"{db_path} already holds a log; run again with --fresh to delete it and "
                "start the demo afresh, or choose another file with --db"
            )
        for suffix in _LOG_FILES:
            Path(f"{db_path}{suffix}").unlink(missing_ok=True)
    db_path.parent.mkdir(parents=True, exist_ok=True)
    async with AsyncEventStore(SqliteEventStore(db_path)) as store:
        service = Service(store, time)
        # The chief arbiter uploads, then acts with the chief's token ("chief").
        uploader, chief_arbiter = Actor(Role.CHIEF.value), Actor(Role.CHIEF.value, "chief")
        event, chief = await service.create_event(demo_event_at(time.now()))
        arbiter = await service.issue_token(event.id, Role.ARBITER, "demo arbiter", uploader)
        display = await service.issue_token(event.id, Role.DISPLAY, "hall display", uploader)
        playoff = await service.create_playoff(
            event.id, PlayoffOptions(prizes=DEMO_PRIZES, points=DEMO_POINTS), chief_arbiter
        )
        # One board clock per match, as the arbiter would set up each board's tablet.
        boards = tuple([
            (m.id, await service.issue_token(
                event.id, Role.BOARD, "", uploader, playoff=playoff.id, match=m.id
            ))
            for m in playoff.chess.matches if not m.bye
        ])
        # Match 1 under way, so that both screens show a live clock.
        await service.execute(playoff.id, DrawLots(match=1), chief_arbiter)
        await service.execute(playoff.id, StartGame(match=1, game=1), chief_arbiter)
    return Demo(event.id, playoff.id, chief, arbiter, display, boards)
