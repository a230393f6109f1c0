"""The rests GCT 2015 reg. 5 owes the players, as the arbiter view offers them.

"The play-off shall start at least 30 minutes after the conclusion of the last game
in the main tournament involving any player in the play-off", and between games
"not less than 5 minutes and if possible at least 10 minutes". The UzChess Cup
Masters 2025 play-off runs through the real service on a manual clock from 12:00
UTC (the hall's time here); every control and form is checked against the service
as it goes (``check_offered``).
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from orchestrator.core.commands import parse_command
from orchestrator.core.errors import Forbidden
from tests.support.events import ABDU
from tests.support.views import check_offered, form_payloads, match_view, running, uzchess

MINUTE = 60_000


async def test_inside_the_break_the_start_waits_and_only_the_chief_may_start_anyway(
    tmp_path: Path,
) -> None:
    async with running(tmp_path) as run:
        await uzchess(run, ended=False)  # no end times: the break runs from 12:00
        await run.do(type="lots", match=1, method="physical", white=ABDU)
        view = await check_offered(run)
        (panel,) = match_view(view, 1)["panels"]
        start = panel["start"]
        assert not start["enabled"]
        assert "GCT 2015 reg. 5" in start["refusal"]
        (rest,) = panel["rests"]
        assert (rest["kind"], rest["binding"], rest["until_text"]) == (
            "main-event-break", True, "12:30")
        assert rest["text"] == (
            "The play-off starts at least 30 minutes after the last main-event game of any "
            "play-off player (GCT 2015 reg. 5): not before 12:30.")
        assert rest["until_ms"] == view["server_ms"] + 30 * MINUTE
        # The view is sent again when the break is over: the start is then enabled.
        assert view["next_change_ms"] == rest["until_ms"]

        anyway = panel["start_anyway"]
        assert (anyway["role"], anyway["enabled"], anyway["id"]) == ("chief", True, start["id"])
        assert [f["name"] for f in anyway["fields"]] == ["override"]
        assert anyway["fields"][0]["required"] and anyway["fields"][0]["min_length"] == 3
        (payload,) = form_payloads(anyway)
        assert payload == {"type": "start-clock", "match": 1, "game": 1,
                           "override": "checking what the console offers"}

        # An arbiter who is not the chief is refused; the chief is not.
        payload["override"] = "both players are at the board"
        with pytest.raises(Forbidden, match="only the chief arbiter"):
            await run.service.execute(run.playoff_id, parse_command(payload), "arbiter:deputy")
        await run.do(**payload)
        view = await check_offered(run)
        (panel,) = match_view(view, 1)["panels"]
        assert panel["start"] is None and panel["since"] == "12:00"
        assert panel["rests"] == [] and panel["start_anyway"] is None
        (change,) = view["changes"]
        assert change["type"] == "game-started" and change["by"] == "chief arbiter"
        assert change["when"] == "12:00" and change["reason"] == "both players are at the board"
        assert change["text"].startswith(
            "Game 1 of Seeds 2 v 3 (reg. 7) started early by the chief arbiter, setting aside: "
            "the play-off starts at least 30 minutes after the last main-event game")


async def test_between_games_five_minutes_are_a_rule_and_ten_a_preference(
    tmp_path: Path,
) -> None:
    async with running(tmp_path) as run:
        await uzchess(run)  # the main event ended last night: no break now
        await run.do(type="lots", match=1, method="physical", white=ABDU)
        (panel,) = match_view(await check_offered(run), 1)["panels"]
        assert panel["start"]["enabled"] and panel["start"]["confirm"] is None
        assert panel["rests"] == [] and panel["start_anyway"] is None
        await run.do(**panel["start"]["command"])
        run.time.advance(timedelta(minutes=50))
        await run.do(type="result", match=1, game=1, result="1-0")  # 12:50

        # 12:53: not 5 minutes yet, a rule (binding).
        run.time.advance(timedelta(minutes=3))
        view = await check_offered(run)
        (panel,) = match_view(view, 1)["panels"]
        assert panel["game"] == 2 and not panel["start"]["enabled"]
        (rest,) = panel["rests"]
        assert (rest["kind"], rest["binding"], rest["until_text"]) == (
            "minimum-interval", True, "12:55")
        assert rest["text"] == (
            "Not less than 5 minutes between a player's games (GCT 2015 reg. 5): "
            "Sindarov, Javokhir and Abdusattorov, Nodirbek finished their previous game at "
            "12:50; rested at 12:55.")
        assert view["next_change_ms"] == rest["until_ms"] == view["server_ms"] + 2 * MINUTE
        assert panel["start_anyway"]["enabled"]

        # 12:56: allowed, but under the 10 minutes the regulation prefers: confirm first.
        run.time.advance(timedelta(minutes=3))
        view = await check_offered(run)
        (panel,) = match_view(view, 1)["panels"]
        start = panel["start"]
        assert start["enabled"] and panel["start_anyway"] is None
        (rest,) = panel["rests"]
        assert (rest["kind"], rest["binding"], rest["until_text"]) == (
            "preferred-interval", False, "13:00")
        assert start["confirm"] == (
            "Start game 2 of Seeds 2 v 3 (reg. 7) now, before the interval the regulation "
            "prefers? If possible at least 10 minutes between a player's games (GCT 2015 "
            "reg. 5): Sindarov, Javokhir and Abdusattorov, Nodirbek finished their previous "
            "game at 12:50; rested at 13:00.")
        await run.do(**start["command"])
        state = run.service.playoff(run.playoff_id)
        assert (1, 2) in state.started_at and state.changes == ()  # a preference: not listed

        # The Armageddon after 10 minutes: nothing to confirm.
        run.time.advance(timedelta(minutes=40))
        await run.do(type="result", match=1, game=2, result="1-0")
        await run.do(type="coin-toss", match=1, method="physical", winner=ABDU)
        await run.do(type="armageddon-colours", match=1, white="14205483", black=ABDU)
        run.time.advance(timedelta(minutes=10))
        (panel,) = match_view(await check_offered(run), 1)["panels"]
        assert panel["game"] == 3 and panel["start"]["enabled"]
        assert panel["start"]["confirm"] is None and panel["rests"] == []
