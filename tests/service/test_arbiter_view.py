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

import json
from datetime import timedelta
from pathlib import Path

import pytest

from orchestrator.views import arbiter_view, view_schemas
from orchestrator.views.arbiter import ArbiterView
from playoff_formats.io.json_event import parse_event
from tests import support
from tests.support.events import ABDU, PRAGG, SINDAROV
from tests.support.views import (
    ACTOR,
    BRIDGE,
    check_offered,
    form_payloads,
    match_view,
    names,
    running,
    uzchess,
)

DATA = support.DATA / "uzchess-cup-masters-2025.json"












# --------------------------------------------------------------------------- offered controls


















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
