"""The arbiter view (``orchestrator.views.arbiter``) on play-offs run through the real
service: what it offers is what the service accepts.

UzChess Cup Masters 2025 (GCT 2015 reg. 7): match 1 is Abdusattorov v Sindarov,
its winner plays Praggnanandhaa in the final (match 2). The service runs in this
process on a manual clock with its SQLite log; the views are computed by its hub,
as they are sent to consoles. To check an offered command, it is executed on a
copy of the service made from a copy of its log, at the same instant: every
enabled control is accepted, and every disabled one is refused with the reason the
view gave.
"""

from __future__ import annotations

import itertools
import json
import sqlite3
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from orchestrator.core.commands import parse_command
from orchestrator.core.creation import PlayoffOptions
from orchestrator.core.errors import Conflict
from orchestrator.core.service import Service
from orchestrator.core.timesource import ManualTime
from orchestrator.runtime.hub import Hub, ViewKind
from orchestrator.store import AsyncEventStore, SqliteEventStore
from orchestrator.views import arbiter_view, view_schemas
from orchestrator.views.arbiter import ArbiterView
from playoff_formats.io.json_event import parse_event
from tests.events import uzchess_json

DATA = Path(__file__).parent / "data" / "uzchess-cup-masters-2025.json"
PRAGG, ABDU, SINDAROV = "25059530", "14204118", "14205483"
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


# --------------------------------------------------------------------------- offered controls


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


async def test_offered_controls_are_what_the_service_accepts(tmp_path: Path) -> None:
    async with running(tmp_path) as run:
        await uzchess(run)
        view = await check_offered(run)
        first = match_view(view, 1)
        assert first["lots"]["service"]["enabled"]
        assert [o["value"] for o in first["lots"]["physical"]["fields"][0]["options"]] == [
            ABDU, SINDAROV]
        final = match_view(view, 2)
        assert final["note"] == "Waiting for the earlier match: its winner plays here."
        assert final["lots"] is None and final["panels"] == []

        await run.do(type="lots", match=1, method="physical", white=ABDU)
        view = await check_offered(run)
        (panel,) = match_view(view, 1)["panels"]
        assert (panel["game"], panel["start"]["enabled"]) == (1, True)
        assert panel["faces"][0]["press"] is None  # no clock yet

        run.time.advance(timedelta(minutes=31))
        await run.do(type="start-clock", match=1, game=1)
        run.time.advance(12_000)
        await run.do(type="press", match=1, game=1, side="white", move=1)
        run.time.advance(3_000)
        view = await check_offered(run)
        (panel,) = match_view(view, 1)["panels"]
        white, black = (face["press"] for face in panel["faces"])
        assert (white["enabled"], black["enabled"]) == (False, True)
        assert black["command"]["move"] == 1 and black["fill"] == {"move": "next_move"}
        assert white["refusal"] == "cannot press white's clock after move 2: it is black's turn"
        assert panel["pause"]["enabled"] and not panel["resume"]["enabled"]

        await run.do(type="pause", match=1, game=1)
        view = await check_offered(run)
        (panel,) = match_view(view, 1)["panels"]
        assert panel["resume"]["enabled"] and not panel["pause"]["enabled"]
        assert not any(face["press"]["enabled"] for face in panel["faces"])

        await run.do(type="resume", match=1, game=1)
        await run.do(type="result", match=1, game=1, result="1-0")
        run.time.advance(timedelta(minutes=10))  # the preferred interval (GCT 2015 reg. 5)
        await run.do(type="start-clock", match=1, game=2)
        await run.do(type="result", match=1, game=2, result="1-0")
        view = await check_offered(run)
        first = match_view(view, 1)
        assert first["score"] == "Abdusattorov, Nodirbek 1–1 Sindarov, Javokhir"
        toss = first["toss"]
        callers = toss["service"]["fields"][0]["options"]
        assert [(o["value"], o["sets"]) for o in callers] == [
            (ABDU, {"caller": ABDU}), (SINDAROV, {"caller": SINDAROV})]

        await run.do(type="coin-toss", match=1, method="physical", winner=SINDAROV)
        view = await check_offered(run)
        colours = match_view(view, 1)["colours"]
        assert colours["winner"]["id"] == SINDAROV
        assert [(c["command"]["white"], c["command"]["black"]) for c in colours["choices"]] == [
            (ABDU, SINDAROV), (SINDAROV, ABDU)]

        await run.do(type="armageddon-colours", match=1, white=ABDU, black=SINDAROV)
        view = await check_offered(run)
        (panel,) = match_view(view, 1)["panels"]
        assert panel["title"] == "Game 3 · Armageddon"
        # Not started: only a forfeit; and an Armageddon has no double forfeit (GCT 2015
        # reg. 10: it must leave a successful player).
        assert names(panel["results"]) == ["result-white-forfeit", "result-black-forfeit"]
        assert [face["start_ms"] for face in panel["faces"]] == [360_000, 300_000]

        run.time.advance(timedelta(minutes=10))
        await run.do(type="start-clock", match=1, game=3)
        (panel,) = match_view(run.view(), 1)["panels"]
        assert names(panel["results"]) == [
            "result-1-0", "result-draw", "result-0-1", "result-white-forfeit",
            "result-black-forfeit"]
        run.time.advance(2_000)
        await check_offered(run)
        await run.do(type="result", match=1, game=3, result="1/2-1/2")
        view = await check_offered(run)
        first = match_view(view, 1)
        assert first["decision"]["headline"] == "Sindarov, Javokhir advances"
        assert first["decision"]["details"][0].startswith("Black (Sindarov, Javokhir) advances")
        assert first["panels"] == [] and first["lots"] is None
        assert match_view(view, 2)["lots"]["service"]["enabled"]
        # Each played game is corrected from its own row.
        corrections = [row["correct"] for row in first["games"]]
        assert [c["actions"][0]["command"] for c in corrections] == [
            {"type": "correct", "match": 1, "game": n} for n in (1, 2, 3)]
        assert "correct" not in view["overrides"]


async def test_after_a_correction_the_press_offered_is_the_replayed_games_move_one(
    tmp_path: Path,
) -> None:
    """The final's game 1 is played with presses; a correction upstream puts another
    player in the final, which voids it. Played again, its presses start at move 1."""
    async with running(tmp_path) as run:
        await uzchess(run)
        await run.do(type="lots", match=1, method="physical", white=ABDU)
        await run.play(1, 1, "1-0")
        await run.play(1, 2, "1/2-1/2")
        await run.do(type="lots", match=2, method="physical", white=PRAGG)
        run.time.advance(timedelta(minutes=10))
        await run.do(type="start-clock", match=2, game=1)
        for side, move in (("white", 1), ("black", 1), ("white", 2), ("black", 2)):
            run.time.advance(5_000)
            await run.do(type="press", match=2, game=1, side=side, move=move)
        await run.do(type="result", match=2, game=1, result="1-0")

        await run.do(type="correct", match=1, game=1, result="0-1", reason="scoresheets swapped",
                     confirm=True)
        view = await check_offered(run)
        final = match_view(view, 2)
        assert final["title"] == (
            "Final (reg. 6) · Praggnanandhaa R – Sindarov, Javokhir (colours by lot)")
        assert final["games"][0]["state"] == "to play" and final["games"][0]["white"] == "—"
        assert "2:1" not in view["clocks"]
        change = view["changes"][-1]
        assert change["text"] == "Result of game 1 of Seeds 2 v 3 (reg. 7) corrected to 0-1"
        assert change["voided"] == [
            "Final (reg. 6), game 1: Praggnanandhaa R – Abdusattorov, Nodirbek 1-0, to be "
            "played again",
        ]

        await run.do(type="lots", match=2, method="physical", white=PRAGG)
        run.time.advance(timedelta(minutes=10))
        await run.do(type="start-clock", match=2, game=1)
        run.time.advance(4_000)
        view = await check_offered(run)
        (panel,) = match_view(view, 2)["panels"]
        press = panel["faces"][0]["press"]
        assert press["enabled"] and press["command"] == {
            "type": "press", "match": 2, "game": 1, "side": "white", "move": 1}
        assert view["clocks"]["2:1"]["next_move"] == 1
        await run.do(**press["command"])
        clock = run.service.playoff(run.playoff_id).clocks[(2, 1)]
        assert (clock.white_moves, clock.black_moves, clock.to_move.value) == (1, 0, "black")


async def test_the_replan_note_names_what_moved_and_after_what(tmp_path: Path) -> None:
    async with running(tmp_path) as run:
        await uzchess(run, ended=False)
        await run.do(type="lots", match=1, method="physical", white=ABDU)
        before = run.view()
        planned = {g["key"]: g for g in before["schedule"]["games"]}
        assert before["schedule"]["replan"] is None

        # Game 1 was due at 12:30 (the 30-minute break); it starts ten minutes late.
        run.time.advance(timedelta(minutes=40))
        await run.do(type="start-clock", match=1, game=1)
        after = run.view()
        replan = after["schedule"]["replan"]
        assert replan["text"] == "Re-planned after the start of game 1 of Seeds 2 v 3 (reg. 7)"
        items = {item["key"]: item for item in replan["items"]}
        assert set(items) == {"1:2", "1:3", "2:1", "2:2", "2:3"}
        assert items["1:2"]["label"] == "Seeds 2 v 3 (reg. 7) · game 2"
        assert {item["delta"] for item in items.values()} == {"+10 min"}
        moved = {g["key"]: g["moved"] for g in after["schedule"]["games"]}
        assert moved["1:1"] is None  # a start is not a re-plan
        assert moved["1:2"]["from_start"] == planned["1:2"]["start"]

        await run.do(type="postpone", match=2, game=1, minutes=15, reason="the hall is late")
        later = run.view()
        replan = later["schedule"]["replan"]
        assert replan["cause"] == "the postponement of game 1 of Final (reg. 6)"
        assert [(i["key"], i["delta"]) for i in replan["items"]] == [
            ("2:1", "+15 min"), ("2:2", "+15 min"), ("2:3", "+15 min")]
        assert later["changes"][-1]["reason"] == "the hall is late"

        assert run.view()["schedule"]["replan"] is None  # nothing moved since


async def test_a_deadline_missed_offers_the_proposal_in_the_time_control_form(
    tmp_path: Path,
) -> None:
    async with running(tmp_path) as run:
        await uzchess(run)
        at = run.time.now() + timedelta(hours=3)
        await run.do(type="deadline", deadline=at.isoformat(), reason="the hall closes")
        schedule = run.view()["schedule"]
        assert schedule["fits"] is False
        assert schedule["fits_text"].startswith("does not fit: over by ")
        fill = schedule["proposal"]["fill"]
        assert fill["form"] == "time-control"
        view = await check_offered(run)
        form = view["overrides"]["time_control"]
        assert form["open"] and form["enabled"]
        choices = [o["value"] for o in form["fields"][1]["options"]]
        assert fill["values"]["match"] in choices
        await run.do(type="time-control", time_control=fill["values"]["time_control"],
                     match=None, reason="to meet the deadline")
        assert run.view()["schedule"]["fits"] is True


async def test_extra_boards_offer_the_open_stanza_and_boards(tmp_path: Path) -> None:
    async with running(tmp_path) as run:
        event, _ = await run.service.create_event(parse_event(json.dumps(BRIDGE), "bridge"))
        state = await run.service.create_extra_boards(
            event.id, "N", "S", 16, None, None, ACTOR
        )
        run.playoff_id = state.id
        view = run.view()
        assert view["kind"] == "extra-boards" and view["matches"] == []
        entry = view["extra_boards"]["entry"]
        assert entry["actions"][0]["command"] == {"type": "board-score", "stanza": 1}
        boards = [o["value"] for o in entry["fields"][0]["options"]]
        assert boards == ["1", "2"]
        for payload in form_payloads(entry):
            assert await run.outcome(payload) is None
        await run.do(type="board-score", stanza=1, board=1, table=1, ns_score=420)
        await run.do(type="board-score", stanza=1, board=1, table=2, ns_score=420)
        entry = run.view()["extra_boards"]["entry"]
        assert [o["value"] for o in entry["fields"][0]["options"]] == ["2"]
        await run.do(type="board-score", stanza=1, board=2, table=1, ns_score=-100)
        await run.do(type="board-score", stanza=1, board=2, table=2, ns_score=-50)
        board = run.view()["extra_boards"]
        assert board["entry"] is None
        assert (board["running_total"], board["winner_text"]) == ("0–2", "Surrey win the match")


async def test_the_view_is_a_pure_function_of_the_state_and_its_context(
    tmp_path: Path,
) -> None:
    async with running(tmp_path) as run:
        await uzchess(run)
        await run.do(type="lots", match=1, method="service")
        state = run.service.playoff(run.playoff_id)
        ctx = run.hub.view_context(state)
        view = arbiter_view(state, ctx)
        run.time.advance(60_000)  # the time is the context's, never read by the view
        assert arbiter_view(state, ctx) == view
        assert ArbiterView.model_validate(view).model_dump(mode="json") == view
        assert (view["view"], view["seq"], view["server_ms"]) == ("arbiter", state.seq,
                                                                  ctx.server_ms)
        (draw,) = view["draws"]
        assert draw["method"] == "commit-reveal" and draw["record"]["seed"]
        schema = view_schemas()["arbiter"]
        assert {"clocks", "next_change_ms", "matches", "schedule"} <= set(schema["properties"])


@pytest.mark.parametrize("result", ["1-0", "1/2-1/2", "0-1"])
async def test_the_score_and_decision_are_worded_by_the_server(
    tmp_path: Path, result: str
) -> None:
    """Each player's points beside the player's name, the one ahead first, whatever
    the colours of game 1 and the seeds."""
    async with running(tmp_path) as run:
        await uzchess(run)
        await run.do(type="lots", match=1, method="physical", white=ABDU)
        await run.play(1, 1, result)
        second = "1/2-1/2" if result == "0-1" else "0-1"
        await run.play(1, 2, second)
        first = match_view(run.view(), 1)
        if result == "1-0":
            assert first["score"] == "Abdusattorov, Nodirbek 2–0 Sindarov, Javokhir"
            assert first["decision"]["details"] == [
                "Abdusattorov, Nodirbek beat Sindarov, Javokhir 2-0 over the two regular "
                "games."]
        elif result == "0-1":  # Sindarov, seeded below, won with Black in game 1
            assert first["title"].endswith("Abdusattorov, Nodirbek – Sindarov, Javokhir")
            assert first["score"] == "Sindarov, Javokhir 1½–½ Abdusattorov, Nodirbek"
            assert first["decision"]["headline"] == "Sindarov, Javokhir advances"
        else:
            assert first["score"] == "Abdusattorov, Nodirbek 1½–½ Sindarov, Javokhir"
            assert [row["result"] for row in first["games"]] == ["½-½", "0-1"]
