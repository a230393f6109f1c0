"""Snapshots of folded states: a restart from them gives exactly the state a full fold
gives, and a snapshot that cannot be trusted is ignored, never believed."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
from datetime import timedelta
from pathlib import Path

from orchestrator.cli.files import demo_event
from orchestrator.core import snapshots
from orchestrator.core.commands import DrawLots, PressClock, RecordResult, StartGame
from orchestrator.core.creation import PlayoffOptions
from orchestrator.core.service import Service
from orchestrator.core.state import playoff_stream
from orchestrator.core.timesource import ManualTime
from orchestrator.store import AsyncEventStore, Snapshot, SqliteEventStore
from playoff_formats.model import Colour, Result
from tests.support import DATA
from tests.support.server import running_server

LEGACY = DATA / "legacy" / "playoff-log-2d46fb4.db"


async def _loaded(path: Path, time: ManualTime) -> tuple[Service, AsyncEventStore]:
    store = AsyncEventStore(SqliteEventStore(path))
    service = Service(store, time)
    await service.load()
    return service, store


def _states(service: Service) -> dict[str, object]:
    states: dict[str, object] = {f"event-{e.id}": e for e in service._events.values()}
    states.update({playoff_stream(p.id): p for p in service.playoffs()})
    return states


async def _play(path: Path, time: ManualTime, presses: int) -> str:
    """A play-off with game 1 of match 1 under way: ``presses`` presses logged."""
    store = AsyncEventStore(SqliteEventStore(path))
    service = Service(store, time)
    event, _ = await service.create_event(demo_event())
    made = await service.create_playoff(event.id, PlayoffOptions(), "chief:chief")
    await service.execute(made.id, DrawLots(match=1), "chief:chief")
    time.advance(timedelta(minutes=31))
    await service.execute(made.id, StartGame(match=1, game=1), "chief:chief")
    await _press(service, made.id, time, presses)
    await store.aclose()
    return made.id


async def _press(
    service: Service, playoff_id: str, time: ManualTime, presses: int, game: int = 1
) -> None:
    for _ in range(presses):
        time.advance(3_000)
        side = service.playoff(playoff_id).clocks[(1, game)].to_move
        await service.execute(
            playoff_id, PressClock(match=1, game=game, side=side), "chief:chief"
        )


def _drop_snapshots(path: Path) -> None:
    with sqlite3.connect(path) as db:
        db.execute("DELETE FROM snapshots")


def test_a_restart_from_snapshots_folds_to_the_state_of_a_full_fold(tmp_path: Path) -> None:
    path = tmp_path / "log.db"
    shutil.copy(LEGACY, path)
    time = ManualTime()

    async def run() -> None:
        whole, store = await _loaded(path, time)
        assert all(seq == 0 for seq in whole._snapshot_seq.values())  # no snapshot yet
        expected = _states(whole)
        assert await whole.save_snapshots() == len(expected)
        await store.aclose()
        again, store = await _loaded(path, time)
        assert all(seq > 0 for seq in again._snapshot_seq.values())  # every one used
        assert _states(again) == expected
        await store.aclose()

    asyncio.run(run())


def test_events_after_a_snapshot_fold_onto_it_as_onto_the_whole_log(tmp_path: Path) -> None:
    path = tmp_path / "log.db"
    time = ManualTime()

    async def run() -> None:
        playoff_id = await _play(path, time, presses=7)
        service, store = await _loaded(path, time)
        await service.save_snapshots()
        snapshot_seq = service.playoff(playoff_id).seq
        # More after the snapshot: presses, a result, the next game.
        await _press(service, playoff_id, time, 5)
        await service.execute(playoff_id, RecordResult(match=1, game=1, result=Result.DRAW),
                              "chief:chief")
        time.advance(timedelta(minutes=10))
        await service.execute(playoff_id, StartGame(match=1, game=2), "chief:chief")
        await _press(service, playoff_id, time, 3, game=2)
        live = _states(service)
        await store.aclose()

        restarted, store = await _loaded(path, time)
        assert restarted._snapshot_seq[playoff_stream(playoff_id)] == snapshot_seq
        from_snapshot = _states(restarted)
        await store.aclose()
        _drop_snapshots(path)  # no snapshot at all: the whole log
        whole, store = await _loaded(path, time)
        assert from_snapshot == _states(whole) == live
        clock = whole.playoff(playoff_id).clocks[(1, 2)]
        assert (clock.white_moves, clock.black_moves, clock.to_move) == (2, 1, Colour.BLACK)
        await store.aclose()

    asyncio.run(run())


def test_a_snapshot_that_cannot_be_trusted_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "log.db"
    time = ManualTime()

    async def run() -> None:
        playoff_id = await _play(path, time, presses=4)
        whole, store = await _loaded(path, time)
        expected = _states(whole)
        stream = playoff_stream(playoff_id)
        seq = whole.playoff(playoff_id).seq
        good = snapshots.dump(whole.playoff(playoff_id))
        await store.aclose()
        for bad in (
            Snapshot(stream, seq, "made-by-another-version", good),  # other code
            Snapshot(stream, seq, snapshots.VERSION, b"not a pickle"),  # damaged
            Snapshot(stream, seq - 1, snapshots.VERSION, good),  # says another seq
            Snapshot(stream, seq, snapshots.VERSION, snapshots.dump(whole.event(
                whole.playoff(playoff_id).event_id))),  # the wrong kind of state
        ):
            _drop_snapshots(path)
            with SqliteEventStore(path) as raw:
                raw.save_snapshots([bad])
            service, store = await _loaded(path, time)
            assert service._snapshot_seq[stream] == 0, bad.version
            assert _states(service) == expected
            await store.aclose()

    asyncio.run(run())


def test_the_service_keeps_snapshots_when_it_stops_and_starts_from_them(
    tmp_path: Path,
) -> None:
    db = tmp_path / "log.db"
    time = ManualTime()
    playoff_id = asyncio.run(_play(db, time, presses=6))
    with running_server(db, time) as server:
        first = server.client()
        assert server.service._snapshot_seq[playoff_stream(playoff_id)] == 0
    with SqliteEventStore(db) as raw:
        kept = raw.snapshots("playoff-")
    assert kept[playoff_stream(playoff_id)].version == snapshots.VERSION
    with running_server(db, time) as server:
        assert server.service._snapshot_seq[playoff_stream(playoff_id)] > 0
        state = server.service.playoff(playoff_id)
        assert state.clocks[(1, 1)].white_moves == 3
    first.close()


def test_a_change_to_any_module_of_the_bracket_makes_older_snapshots_stale() -> None:
    """The snapshots' version covers every module that folds, packages included: the
    bracket's transitions and derivation live in modules of their own."""
    names = {f"{path.parent.name}/{path.name}" for path in snapshots.folding_files()}
    assert {"playoff/transitions.py", "playoff/derivation.py", "playoff/model.py"} <= names
    assert "playoff_formats/clock.py" in names
