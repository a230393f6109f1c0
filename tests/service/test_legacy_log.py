"""Logs written before events were typed still load, and fold to the same state.

``tests/data/legacy/playoff-log-2d46fb4.db`` was written by the service as it was at
commit 2d46fb4 (events as a type and a dict, the clock after each event stored in
it): a GCT 2015 play-off through every kind of event (lots by the service and by
hand, a deadline, a shortened time control, a timed transition, presses, a pause,
an adjustment, moved and postponed starts, a coin toss and Armageddon colours, a
flag, a correction that voids the final's games) and a bridge extra-board match
over two stanzas. Beside it, ``playoff-log-2d46fb4.expected.json`` holds what that
version showed of the folded state: the API view with its schedule, the clocks,
the moves counted, the fired jobs, the PGN and the placings.

What the older log carried beside the facts (the clock after an event, the
Armageddon's terms, the server instant of events that do not act on a clock) is
derived data, which now travels on the wire only: it is left out of the comparison
of the listed changes and draws, and nothing else. The schedule's reasons word an
instant as the time of day in the hall, where they once gave it in ISO 8601.
"""

from __future__ import annotations

import asyncio
import json
import re
import shutil
from datetime import datetime
from pathlib import Path
from typing import Any

from orchestrator.core.pgn import playoff_pgn
from orchestrator.core.service import Service
from orchestrator.core.timesource import ManualTime
from orchestrator.store import AsyncEventStore, SqliteEventStore
from orchestrator.views import clock_view, playoff_view
from playoff_formats.model import Colour
from playoff_formats.placings import final_placings
from tests.support import DATA

LEGACY = DATA / "legacy"
LOG = LEGACY / "playoff-log-2d46fb4.db"
EXPECTED = json.loads((LEGACY / "playoff-log-2d46fb4.expected.json").read_text())
DERIVED = {"at_ms", "clock", "armageddon"}
ISO_INSTANT = re.compile(r"\d{4}-\d\d-\d\dT(\d\d:\d\d)(?::\d\d(?:\.\d+)?)?\+00:00")


def _load(tmp_path: Path) -> Service:
    copy = tmp_path / "log.db"
    shutil.copy(LOG, copy)
    time = ManualTime(wall=datetime.fromisoformat(EXPECTED["now"]))
    assert time.server_ms() == EXPECTED["server_ms"]

    async def load() -> Service:
        store = AsyncEventStore(SqliteEventStore(copy))
        service = Service(store, time)
        await service.load()
        await store.aclose()
        return service

    return asyncio.run(load())


def _contains(new: Any, old: Any, where: str = "") -> None:
    """Everything the old version showed is shown the same now (new keys may be added)."""
    if isinstance(old, dict):
        assert isinstance(new, dict), where
        for key, value in old.items():
            assert key in new, f"{where}.{key} is missing"
            _contains(new[key], value, f"{where}.{key}")
    elif isinstance(old, list):
        assert isinstance(new, list) and len(new) == len(old), where
        for i, (a, b) in enumerate(zip(new, old, strict=True)):
            _contains(a, b, f"{where}[{i}]")
    elif isinstance(old, str) and ISO_INSTANT.search(old) and ".schedule." in where:
        # The schedule's words now give a time of day as the hall reads it (its offset
        # from UTC: none here), not an ISO 8601 instant: the same instant, in words.
        assert new == ISO_INSTANT.sub(r"\1", old), f"{where}: {new!r} != {old!r}"
    else:
        assert new == old, f"{where}: {new!r} != {old!r}"


def test_a_log_written_before_typed_events_folds_to_the_same_state(tmp_path: Path) -> None:
    service = _load(tmp_path)
    for event_id, expected in EXPECTED["events"].items():
        state = service.event(event_id)
        assert state.seq == expected["seq"]
        assert [[t.token_id, t.role.value, t.label] for t in state.tokens] == expected["tokens"]
        assert list(state.playoffs) == expected["playoffs"]
    assert sorted(p.id for p in service.playoffs()) == sorted(EXPECTED["playoffs"])
    at = EXPECTED["server_ms"]
    for playoff_id, expected in EXPECTED["playoffs"].items():
        state = service.playoff(playoff_id)
        assert state.seq == expected["seq"]
        assert sorted(state.fired) == expected["fired"]
        view = playoff_view(state, service.schedule_of(state))
        old_view = dict(expected["view"])
        for listed in ("changes", "draws"):  # entries that copied the event's data
            if listed in old_view:
                old_view[listed] = [
                    {k: v for k, v in entry.items() if k not in DERIVED}
                    for entry in old_view[listed]
                ]
        _contains(view, old_view, "view")
        clocks = [clock_view(k, c, at) for k, c in sorted(state.clocks.items())]
        _contains(clocks, expected["clocks"], "clocks")
        moves = {
            f"{k[0]}:{k[1]}": [c.moves_completed(side) for side in Colour]
            for k, c in sorted(state.clocks.items())
        }
        assert moves == expected["moves"]
        if state.playoff is not None:
            name = service.event(state.event_id).event.name
            assert playoff_pgn(state, name) == expected["pgn"]
            standings = service.standings(state.event_id)
            placings = final_placings(standings, state.chess, state.prizes, state.points)
            _contains(placings.to_json(), expected["placings"], "placings")


NEWER = {
    "time-control-restored", "board-score-corrected", "arbiter-called", "board-sides-set",
    "board-outage", "penalty-given", "move-made", "move-taken-back", "position-unread",
    "eboard-mapped",
}
"""Play-off event types that came after the fixture was written."""


def test_the_legacy_log_covers_every_kind_of_play_off_event() -> None:
    """The fixture is worth keeping only while it holds every event type of its time."""
    import sqlite3

    from orchestrator.core.events import _FIELDS

    db = sqlite3.connect(f"file:{LOG}?immutable=1", uri=True)  # never written by a test
    try:
        types = {row[0] for row in db.execute("SELECT DISTINCT type FROM events")}
    finally:
        db.close()
    assert set(_FIELDS) - NEWER <= types
