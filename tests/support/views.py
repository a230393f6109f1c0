"""Helpers shared by tests."""

from __future__ import annotations

import itertools
import json
import sqlite3
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from orchestrator.core.commands import parse_command
from orchestrator.core.creation import PlayoffOptions
from orchestrator.core.errors import Conflict
from orchestrator.core.service import Service
from orchestrator.core.timesource import ManualTime
from orchestrator.runtime.hub import Hub, ViewKind
from orchestrator.store import AsyncEventStore, SqliteEventStore
from playoff_formats.io.json_event import parse_event
from tests.support.events import uzchess_json

ACTOR = "chief:chief"


REASON = "checking what the console offers"


BRIDGE = {
    "name": "Knock-out, round 3", "kind": "team", "regulation": "ebu-143.7",
    "teams": [{"id": "N", "name": "North London"}, {"id": "S", "name": "Surrey"}],
    "matches": [{"round": 1, "home": "N", "away": "S", "venue": "neutral",
                 "boards": [420, -420, 50, -50]}],
}


def seed() -> bytes:
    return bytes(range(32))


@dataclass
class Run:
    """A service with its hub, on a manual clock, and the play-off it runs."""

    service: Service
    hub: Hub
    time: ManualTime
    db: Path
    playoff_id: str = ""

    async def do(self, **payload: Any) -> None:
        await self.service.execute(self.playoff_id, parse_command(payload), ACTOR)

    async def play(self, match: int, game: int, result: str) -> None:
        """The game is played: the chief arbiter starts it at once (whatever break or
        rest holds it), then its result is recorded."""
        await self.do(type="start-clock", match=match, game=game, override=REASON)
        await self.do(type="result", match=match, game=game, result=result)

    def view(self) -> dict[str, Any]:
        """The console's view now, as the hub sends it."""
        state = self.service.playoff(self.playoff_id)
        frame = json.loads(self.hub.views(state, force=True).frames[ViewKind.ARBITER])
        view: dict[str, Any] = frame["d"]
        return view

    async def outcome(self, payload: dict[str, Any]) -> str | None:
        """What the service says to ``payload`` now, on a copy of this run: None when
        it accepts it, else its reason."""
        copy = self.db.with_name(f"copy-{id(payload)}.db")
        with sqlite3.connect(self.db) as source, sqlite3.connect(copy) as target:
            source.backup(target)
        store = AsyncEventStore(SqliteEventStore(copy))
        service = Service(store, self.time, seeds=seed)
        try:
            await service.load()
            await service.execute(self.playoff_id, parse_command(payload), ACTOR)
        except Conflict as refused:
            return refused.reason
        finally:
            await store.aclose()
            copy.unlink()
        return None


@asynccontextmanager
async def running(tmp_path: Path) -> AsyncIterator[Run]:
    db = tmp_path / "log.db"
    store = AsyncEventStore(SqliteEventStore(db))
    time = ManualTime()
    service = Service(store, time, seeds=seed)
    hub = Hub(service, time)
    service.bus.subscribe(hub.on_published)
    try:
        yield Run(service, hub, time, db)
    finally:
        await store.aclose()


async def uzchess(run: Run, *, ended: bool = True) -> Run:
    """The UzChess Cup's play-off; with ``ended`` False, its main event has no end times,
    so the 30-minute break (GCT 2015 reg. 5) runs from now."""
    data = uzchess_json() if ended else uzchess_json(None)
    event, _ = await run.service.create_event(parse_event(data, "UzChess"))
    state = await run.service.create_playoff(event.id, PlayoffOptions(), ACTOR)
    run.playoff_id = state.id
    return run


def controls(node: Any) -> Iterator[dict[str, Any]]:
    """Every button of a view (anything with a command and whether it is enabled)."""
    if isinstance(node, dict):
        if {"command", "enabled", "summary"} <= node.keys():
            yield node
            return
        for value in node.values():
            yield from controls(value)
    elif isinstance(node, list):
        for value in node:
            yield from controls(value)


def forms(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        if {"fields", "actions"} <= node.keys():
            yield node
            return
        for value in node.values():
            yield from forms(value)
    elif isinstance(node, list):
        for value in node:
            yield from forms(value)


TYPED = {"reason": REASON, "override": REASON, "time_control": "G/10+5", "deadline": None}
"""What the arbiter types into a form's typed fields, by name (else the field's value)."""


def shown(field: dict[str, Any], chosen: dict[str, str]) -> bool:
    """Whether a field applies to the choices made (its ``shown_when``)."""
    return all(chosen.get(name) in values for name, values in field["shown_when"].items())


def form_payloads(form: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The payloads of a form: each choice of its first choosing field, the defaults
    elsewhere, with each action; a checkbox shown for the choices is ticked."""
    choosing = [f for f in form["fields"] if f["input"] in ("select", "radio")]
    first = choosing[0]["name"] if choosing else None
    choices = [
        f["options"] if f["name"] == first
        else [next((o for o in f["options"] if o["value"] == f["value"]), f["options"][0])]
        for f in choosing
    ]
    for action in form["actions"]:
        for picked in itertools.product(*choices):
            payload = dict(action["command"])
            for option in picked:
                payload.update(option["sets"])
            chosen = {f["name"]: o["value"] for f, o in zip(choosing, picked, strict=True)}
            for field in form["fields"]:
                name = field["name"]
                if field["input"] == "checkbox":
                    payload[name] = shown(field, chosen)
                elif field["input"] == "number":
                    scale = action["scale"].get(name, 1)
                    payload[name] = int(field["value"] or 0) * scale
                elif field["input"] == "datetime" and field["required"]:
                    payload[name] = next(o["at"] for o in picked if o["at"] is not None)
                elif field["input"] not in ("select", "radio"):
                    payload[name] = TYPED.get(name, field["value"])
            yield payload


async def check_offered(run: Run) -> dict[str, Any]:
    """Every control and form of the view now, against the service; the view."""
    view = run.view()
    checked = 0
    for control in controls(view):
        said = await run.outcome(control["command"])
        assert said == control["refusal"], (control["name"], control["command"])
        assert (said is None) == control["enabled"]
        if "clock" in control:
            clock = view["clocks"][control["clock"]]
            holds = all(str(clock[k]) == v for k, v in control["requires"].items())
            assert holds == control["enabled"], control
            if control["enabled"]:
                for field, source in control["fill"].items():
                    assert control["command"][field] == clock[source], control
        checked += 1
    for form in forms(view):
        for payload in form_payloads(form):
            said = await run.outcome(payload)
            if form["enabled"]:
                assert said is None, (form["name"], payload, said)
            else:
                assert said == form["refusal"], (form["name"], payload)
            checked += 1
    assert checked > 0
    return view


def match_view(view: dict[str, Any], match: int) -> dict[str, Any]:
    found: dict[str, Any] = next(m for m in view["matches"] if m["id"] == match)
    return found


def names(items: list[dict[str, Any]]) -> list[str]:
    return [item["name"] for item in items]


NOT_TEXT = {
    "id", "value", "sets", "command", "record", "clock", "clocks", "key", "name", "test_id",
    "type", "actor", "kind", "status", "input", "shown_when", "requires", "fill", "form",
    "view", "side", "method", "lane", "role",
}
"""Keys whose values are data for the page, not text for people."""

INSTANTS = {"at", "start", "end", "until", "from_start", "from_end", "to", "deadline", "finish"}
"""Keys whose values are instants, written by the page in the hall's time."""


def texts(node: Any, key: str = "") -> Iterator[tuple[str, str]]:
    """Every string meant for people in a view, with the key it is under."""
    if isinstance(node, dict):
        for k, value in node.items():
            if k in NOT_TEXT or k in INSTANTS:
                continue
            yield from texts(value, k)
    elif isinstance(node, list):
        for value in node:
            yield from texts(value, key)
    elif isinstance(node, str):
        yield key, node


async def stanza_one_scored(run: Run) -> None:
    """Extra boards between N and S (16 boards scheduled), stanza 1 scored at both
    tables: board 1 +420 and board 2 -50 each (no swing)."""
    event, _ = await run.service.create_event(parse_event(json.dumps(BRIDGE), "bridge"))
    state = await run.service.create_extra_boards(event.id, "N", "S", 16, None, None, ACTOR)
    run.playoff_id = state.id
    for board, score in ((1, 420), (2, -50)):
        for table in (1, 2):
            await run.do(type="board-score", stanza=1, board=board, table=table,
                         ns_score=score)
