"""The hall view (orchestrator.views.hall): what the hall sees, decided on the server.

States are built through the real service (commands checked, logged to SQLite and
folded) on a manual clock, and the view is computed with the context the hub
gives it (the schedule as planned at that instant, the placings).

The UzChess Cup Masters 2025 play-off (GCT 2015 reg. 7): match 1 is seeds 2 v 3,
Abdusattorov v Sindarov, G/25+5 with an Armageddon decider; the final, match 2,
is Praggnanandhaa (seed 1) against its winner. Here the main event's last round
ended at 11:20 (Abdusattorov v Praggnanandhaa), 11:42 (Sindarov's game) and 11:55
(a game of two players outside the play-off), 28 June 2025 (UTC): the break after
it (GCT 2015 reg. 5) ends at 12:12, and a player's games are at least 10 minutes
apart, as the service requires (a start earlier than reg. 5 allows needs the chief
arbiter's override).
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, get_args

import pytest

from orchestrator.core.commands import (
    ChooseArmageddonColours,
    CommandBase,
    CorrectResult,
    DrawLots,
    FallFlag,
    MoveStart,
    PressClock,
    RecordResult,
    ScoreBoard,
    SetDeadline,
    StartGame,
    TossCoin,
)
from orchestrator.core.creation import PlayoffOptions
from orchestrator.core.events import PlayoffEvent
from orchestrator.core.service import Service
from orchestrator.core.timesource import ManualTime
from orchestrator.runtime.hub import Hub
from orchestrator.store import AsyncEventStore, SqliteEventStore
from orchestrator.views import ViewContext, hall_view
from orchestrator.views.hall import STANZA_DUE, HallView
from playoff_formats.io.json_event import parse_event
from playoff_formats.model import Event, Result
from tests import support
from tests.support import ROOT
from tests.support.events import ABDU, PRAGG, SINDAROV, round_robin, uzchess_json

DATA = support.DATA / "uzchess-cup-masters-2025.json"
PAGE = ROOT / "clients" / "display"
PRAGG_NAME, ABDU_NAME, SINDAROV_NAME = (
    "Praggnanandhaa R", "Abdusattorov, Nodirbek", "Sindarov, Javokhir"
)
LAST_ROUND_ENDED = {
    (ABDU, PRAGG): "2025-06-28T11:20:00+00:00",
    (SINDAROV, "12539929"): "2025-06-28T11:42:00+00:00",
    ("738590", "14203987"): "2025-06-28T11:55:00+00:00",  # neither plays the play-off
}
BRIDGE = {
    "name": "Knock-out, round 3", "kind": "team", "regulation": "ebu-143.7",
    "teams": [{"id": "N", "name": "North London"}, {"id": "S", "name": "Surrey"}],
    "matches": [{"round": 1, "home": "N", "away": "S", "venue": "neutral",
                 "boards": [420, -420, 50, -50]}],
}


def at(hour: int, minute: int) -> datetime:
    return datetime(2025, 6, 28, hour, minute, tzinfo=UTC)


def ms(moment: datetime) -> int:
    """An instant in server ms (the manual clock's server time is its wall time)."""
    return int(moment.timestamp() * 1000)


def uzchess() -> Event:
    data = json.loads(uzchess_json())
    for game in data["games"]:
        ended = LAST_ROUND_ENDED.get((game["white"], game["black"]))
        if game["round"] == 9 and ended is not None:
            game["ended_at"] = ended
    return parse_event(json.dumps(data))


@dataclass
class Hall:
    """A play-off in the service, its clock, and the hall view of it now."""

    service: Service
    time: ManualTime
    playoff_id: str = ""

    async def create(self, event: Event, **options: Any) -> None:
        created, _ = await self.service.create_event(event)
        state = await self.service.create_playoff(
            created.id, PlayoffOptions(**options), "chief"
        )
        self.playoff_id = state.id

    async def do(self, *commands: CommandBase) -> None:
        for command in commands:
            await self.service.execute(self.playoff_id, command, "chief")

    async def game(self, match: int, game: int, result: str, minutes: int = 40) -> None:
        """A game started now and ended ``minutes`` later with ``result``."""
        await self.do(StartGame(match=match, game=game))
        self.wait(minutes)
        await self.do(RecordResult(match=match, game=game, result=result))

    async def flag(self, match: int, game: int) -> None:
        """The server's flag timer of the game's clock fires (its flag instant has come)."""
        clock = self.service.playoff(self.playoff_id).clocks[(match, game)]
        flag_at = clock.flag_at_ms()
        assert flag_at is not None and flag_at <= self.time.server_ms()
        await self.service.execute(
            self.playoff_id, FallFlag(match=match, game=game, flag_at_ms=flag_at), "server"
        )

    def wait(self, minutes: float) -> None:
        self.time.advance(timedelta(minutes=minutes))

    def until(self, moment: datetime) -> None:
        self.time.advance(moment - self.time.now())

    def context(self) -> ViewContext:
        state = self.service.playoff(self.playoff_id)
        return Hub(self.service, self.time).view_context(state)

    def view(self) -> dict[str, Any]:
        view = hall_view(self.service.playoff(self.playoff_id), self.context())
        HallView.model_validate(view)  # the frames' contract
        return view


@pytest.fixture
async def hall(tmp_path: Path) -> AsyncIterator[Hall]:
    store = AsyncEventStore(SqliteEventStore(tmp_path / "log.db"))
    time = ManualTime(wall=at(12, 0))
    try:
        yield Hall(Service(store, time), time)
    finally:
        await store.aclose()


@pytest.fixture
async def uzchess_hall(hall: Hall) -> Hall:
    """The play-off created at 12:00, with the lots of match 1: Abdusattorov has White."""
    await hall.create(uzchess(), prizes=("100000", "50000", "30000"), points=("13", "10", "8"))
    await hall.do(DrawLots(match=1, method="physical", white=ABDU))
    return hall


def names(players: list[dict[str, Any]]) -> list[str]:
    return [p["name"] for p in players]


def rows(view: dict[str, Any], match: int) -> list[dict[str, Any]]:
    for r in view["bracket"]:
        for m in r["matches"]:
            if m["id"] == match:
                found: list[dict[str, Any]] = m["players"]
                return found
    raise KeyError(match)


def decision(view: dict[str, Any], match: int) -> str | None:
    for r in view["bracket"]:
        for m in r["matches"]:
            if m["id"] == match:
                text: str | None = m["decision"]
                # The score is held together by word joiners: never broken across lines.
                return None if text is None else text.replace("\u2060", "")
    raise KeyError(match)


# --------------------------------------------------------------------------- before play


async def test_the_break_after_the_main_event_ends_30_minutes_after_a_play_off_players_last_game(
    uzchess_hall: Hall,
) -> None:
    """GCT 2015 reg. 5: Sindarov finished last among the play-off players (11:42); a
    game of two other players ended later (11:55) and does not count."""
    view = uzchess_hall.view()
    assert view["mode"] == "idle"
    brk = view["break"]
    assert brk["kind"] == "main-event"
    assert brk["label"] == "Break after the main event"
    assert "reg. 5" in brk["reason"]
    assert (brk["start_ms"], brk["end_ms"]) == (ms(at(11, 42)), ms(at(12, 12)))
    assert brk["who"] == "Praggnanandhaa, Abdusattorov and Sindarov"
    nxt = view["next"]
    assert (nxt["match"], nxt["game"], nxt["label"]) == (1, 1, "Seeds 2 v 3 · Game 1")
    assert names(nxt["players"]) == [ABDU_NAME, SINDAROV_NAME]  # White, then Black
    assert [p["short"] for p in nxt["players"]] == ["Abdusattorov", "Sindarov"]
    assert [p["seed"] for p in nxt["players"]] == [2, 3]
    assert nxt["colours_known"] and not nxt["tentative"] and nxt["colours"] is None
    assert nxt["vs"] == "Abdusattorov v Sindarov"
    assert (nxt["due_ms"], nxt["due"], nxt["due_text"]) == (ms(at(12, 12)), False, None)
    assert (nxt["at"], nxt["when"], nxt["estimate"]) == ("12:12", "12:12", False)
    assert view["idle"] == {"label": "Break after the main event", "note": brk["reason"]}
    assert view["countdown"] == {
        "label": "Seeds 2 v 3 · Game 1", "until_ms": ms(at(12, 12)), "at": "12:12",
        "due_text": None, "waits": False,
    }
    # The view changes with the time alone when the break ends.
    assert view["next_change_ms"] == ms(at(12, 12))
    assert view["live"] == [] and view["armageddon"] is None and view["champion"] is None
    assert view["flag"] is None and view["utc_offset_minutes"] == 0


async def test_after_the_break_the_first_game_is_due_until_it_starts(uzchess_hall: Hall) -> None:
    uzchess_hall.until(at(12, 12))
    view = uzchess_hall.view()
    assert view["break"] is None
    assert view["next"]["due"] is True and view["next"]["due_text"] == "starting now"
    assert view["next"]["when"] == "starting now"
    assert view["idle"]["label"] == "Next game"
    assert view["countdown"]["due_text"] == "starting now"
    uzchess_hall.wait(7)  # not started yet: still due, now
    view = uzchess_hall.view()
    assert view["next"]["due"] is True
    assert view["next"]["due_ms"] == ms(at(12, 19)) == view["server_ms"]
    assert view["countdown"]["until_ms"] == view["server_ms"]


async def test_a_game_started_during_the_break_ends_it(uzchess_hall: Hall) -> None:
    """The chief arbiter starts game 1 at 12:05, inside the break (reg. 5), giving
    the reason: the break is over."""
    uzchess_hall.until(at(12, 5))
    await uzchess_hall.do(StartGame(match=1, game=1, override="both players asked to start"))
    uzchess_hall.wait(1)
    view = uzchess_hall.view()
    assert view["mode"] == "games"
    assert view["break"] is None
    (live,) = view["live"]
    assert live["clock"] == "1:1"
    assert (live["title"], live["tag"], live["time_control"]) == (
        "Seeds 2 v 3 · Game 1", None, "G/25+5"
    )
    assert live["white"] == {"id": ABDU, "name": ABDU_NAME, "short": "Abdusattorov", "seed": 2}
    assert live["black"] == {"id": SINDAROV, "name": SINDAROV_NAME, "short": "Sindarov", "seed": 3}
    clock = view["clocks"]["1:1"]
    assert clock["running"] == "white" and clock["status"] == "running"
    assert clock["white_ms"] == 25 * 60_000 - 60_000 and clock["black_ms"] == 25 * 60_000
    assert view["next"]["label"] == "Seeds 2 v 3 · Game 2"
    assert view["idle"] is None


# --------------------------------------------------------------------------- between games


async def test_the_interval_between_games_and_the_next_game_with_colours_reversed(
    uzchess_hall: Hall,
) -> None:
    uzchess_hall.until(at(12, 12))
    await uzchess_hall.game(1, 1, "1-0", minutes=40)  # ends 12:52
    uzchess_hall.wait(1)
    view = uzchess_hall.view()
    assert view["mode"] == "idle"
    brk = view["break"]
    assert brk["kind"] == "interval" and brk["label"] == "Interval"
    # Reg. 5: at least 5 minutes, if possible 10; no deadline, so 10.
    assert (brk["start_ms"], brk["end_ms"]) == (ms(at(12, 52)), ms(at(13, 2)))
    assert "10 minutes" in brk["reason"] and "reg. 5" in brk["reason"]
    assert brk["who"] == "Abdusattorov and Sindarov"
    nxt = view["next"]
    assert nxt["label"] == "Seeds 2 v 3 · Game 2"
    assert names(nxt["players"]) == [SINDAROV_NAME, ABDU_NAME]  # colours reversed
    assert nxt["vs"] == "Sindarov v Abdusattorov"
    assert nxt["due_ms"] == ms(at(13, 2))
    assert view["idle"]["label"] == "Interval"
    assert view["countdown"]["until_ms"] == ms(at(13, 2))
    assert view["next_change_ms"] == ms(at(13, 2))


async def test_under_a_tight_deadline_the_interval_is_the_minimum_of_5_minutes(
    uzchess_hall: Hall,
) -> None:
    await uzchess_hall.do(SetDeadline(deadline=at(14, 30), reason="the hall closes"))
    uzchess_hall.until(at(12, 12))
    await uzchess_hall.game(1, 1, "1-0", minutes=40)  # ends 12:52
    view = uzchess_hall.view()
    assert view["break"]["end_ms"] == ms(at(12, 57))
    assert "5 minutes" in view["break"]["reason"]
    assert view["next"]["due_ms"] == view["countdown"]["until_ms"] == ms(at(12, 57))


async def test_a_later_earliest_start_the_countdown_runs_to_the_game_not_to_the_break(
    hall: Hall,
) -> None:
    """The break after the main event ends at 12:12, but the organiser's earliest
    start is 13:00: the hall counts down to the game, and says which pause is in
    force while it lasts."""
    await hall.create(uzchess(), not_before=at(13, 0))
    view = hall.view()
    assert view["break"]["end_ms"] == ms(at(12, 12))
    assert view["next"]["due_ms"] == ms(at(13, 0))
    assert view["idle"]["label"] == "Break after the main event"
    assert view["countdown"]["until_ms"] == ms(at(13, 0))
    assert view["countdown"]["at"] == "13:00"
    assert view["next_change_ms"] == ms(at(12, 12))
    hall.until(at(12, 20))
    view = hall.view()
    assert view["break"] is None
    assert view["idle"]["label"] == "Next game"
    assert view["countdown"]["until_ms"] == ms(at(13, 0))
    assert view["next_change_ms"] == ms(at(13, 0))


async def test_an_interval_made_longer_is_worded_for_the_hall(uzchess_hall: Hall) -> None:
    """Game 1 played within the break after the main event (12:00-12:01, started by
    the chief arbiter's override): game 2 waits for the break's end (12:12), past
    the 10-minute interval (12:11). The schedule's explanation, with ids and
    instants, is for the arbiters."""
    await uzchess_hall.do(StartGame(match=1, game=1, override="the players agreed"))
    uzchess_hall.wait(1)
    await uzchess_hall.do(RecordResult(match=1, game=1, result="1/2-1/2"))
    view = uzchess_hall.view()
    brk = view["break"]
    assert brk["kind"] == "interval"
    assert brk["end_ms"] == view["next"]["due_ms"] == ms(at(12, 12))
    assert brk["reason"] == "Interval between games: 10 minutes, the preferred interval (reg. 5)"


async def test_a_start_moved_later_the_interval_lasts_until_it(uzchess_hall: Hall) -> None:
    uzchess_hall.until(at(12, 12))
    await uzchess_hall.game(1, 1, "1-0", minutes=40)  # ends 12:52
    await uzchess_hall.do(MoveStart(match=1, game=2, at=at(13, 30), reason="a photo call"))
    uzchess_hall.until(at(13, 10))
    view = uzchess_hall.view()
    assert view["break"]["kind"] == "interval"
    assert view["break"]["end_ms"] == view["next"]["due_ms"] == ms(at(13, 30))
    assert view["countdown"]["until_ms"] == ms(at(13, 30))


# --------------------------------------------------------------------------- the countdown


async def test_while_a_game_is_played_no_pause_and_no_countdown_to_a_start_it_decides(
    uzchess_hall: Hall,
) -> None:
    """Game 1 runs from 12:12: no break is in force while it is played, and game 2's
    start depends on when game 1 ends, so it is said as an estimate, with no
    countdown; once game 1 ends, the interval and one countdown, to game 2."""
    uzchess_hall.until(at(12, 12))
    await uzchess_hall.do(StartGame(match=1, game=1))
    uzchess_hall.wait(30)
    view = uzchess_hall.view()
    assert view["mode"] == "games"
    assert view["break"] is None and view["countdown"] is None and view["idle"] is None
    nxt = view["next"]
    assert nxt["label"] == "Seeds 2 v 3 · Game 2" and nxt["estimate"] is True
    assert nxt["when"] == f"about {nxt['at']}"
    assert nxt["due_ms"] == ms(at(13, 22))  # an hour's estimate, then 10 minutes
    uzchess_hall.wait(40)  # 13:22: past the estimate, the start keeps moving
    later = uzchess_hall.view()["next"]
    assert later["estimate"] and later["due_ms"] > nxt["due_ms"] and not later["due"]
    assert uzchess_hall.view()["countdown"] is None
    await uzchess_hall.do(RecordResult(match=1, game=1, result="1-0"))
    view = uzchess_hall.view()
    assert view["mode"] == "idle" and view["break"]["kind"] == "interval"
    assert view["break"]["end_ms"] == ms(at(13, 32))
    assert view["next"]["estimate"] is False and view["next"]["when"] == "13:32"
    assert view["countdown"]["until_ms"] == ms(at(13, 32))


async def test_four_players_a_game_played_ends_the_pause_and_the_other_match_keeps_its_countdown(
    hall: Hall,
) -> None:
    """GCT 2015 reg. 8: semi-final 2 waits for its second game while semi-final 1's
    second game is played: no pause is shown while a game is played, and the
    countdown runs to semi-final 2's game, which does not wait on the game in play."""
    level = round_robin("ABCD", {pair: "1/2-1/2" for pair in ("AB", "CD", "AC", "BD", "AD", "BC")})
    await hall.create(level)
    state = hall.service.playoff(hall.playoff_id)
    for match in (1, 2):
        white = state.chess.match(match).players[0]
        await hall.do(DrawLots(match=match, method="physical", white=white))
    hall.until(at(12, 30))
    await hall.do(StartGame(match=1, game=1), StartGame(match=2, game=1))
    hall.wait(20)
    await hall.do(RecordResult(match=1, game=1, result="1/2-1/2"))  # 12:50
    hall.wait(10)
    await hall.do(StartGame(match=1, game=2))  # 13:00
    await hall.do(RecordResult(match=2, game=1, result="1/2-1/2"))  # 13:00
    hall.wait(2)
    view = hall.view()
    assert view["mode"] == "games" and [g["title"] for g in view["live"]] == [
        "Semi-final 1 · Game 2"
    ]
    assert view["break"] is None  # semi-final 2's interval runs, but a game is played
    nxt = view["next"]
    assert (nxt["match"], nxt["game"], nxt["label"]) == (2, 2, "Semi-final 2 · Game 2")
    assert nxt["estimate"] is False
    assert view["countdown"]["until_ms"] == nxt["due_ms"] == ms(at(13, 10))


# --------------------------------------------------------------------------- flags


async def test_a_flag_fall_is_announced_with_the_result_until_the_next_game_starts(
    uzchess_hall: Hall,
) -> None:
    """Abdusattorov (White) lets his 25 minutes run out: the server's flag timer logs
    the flag and the result it implies (Black wins)."""
    uzchess_hall.until(at(12, 12))
    await uzchess_hall.do(StartGame(match=1, game=1))
    uzchess_hall.wait(20)
    await uzchess_hall.do(PressClock(match=1, game=1, side="white"))  # 20 min gone
    uzchess_hall.wait(1)
    await uzchess_hall.do(PressClock(match=1, game=1, side="black"))
    uzchess_hall.wait(5.2)  # White's last 5 min and the 5 s increment
    await uzchess_hall.flag(1, 1)
    view = uzchess_hall.view()
    assert view["mode"] == "idle"
    assert view["flag"] == {
        "match": 1, "game": 1, "side": "white", "title": "Seeds 2 v 3 · Game 1",
        "text": "White's flag fell: 0-1", "detail": "Sindarov beat Abdusattorov on time",
    }
    assert view["clocks"]["1:1"]["status"] == "flagged"
    assert [m["text"] for m in rows(view, 1)[1]["marks"]] == ["1", ""]
    uzchess_hall.wait(10)
    assert uzchess_hall.view()["flag"] is not None  # still, until a game starts
    await uzchess_hall.do(StartGame(match=1, game=2))
    assert uzchess_hall.view()["flag"] is None


async def test_a_flag_whose_result_the_arbiter_corrects_to_a_draw_says_so(
    uzchess_hall: Hall,
) -> None:
    """Black cannot mate: the chief arbiter corrects the result to a draw."""
    uzchess_hall.until(at(12, 12))
    await uzchess_hall.do(StartGame(match=1, game=1))
    uzchess_hall.wait(26)
    await uzchess_hall.flag(1, 1)
    await uzchess_hall.do(
        CorrectResult(match=1, game=1, result="1/2-1/2", reason="Black had a lone king")
    )
    flag = uzchess_hall.view()["flag"]
    assert flag["text"] == "White's flag fell: ½-½"
    assert flag["detail"] == "Abdusattorov and Sindarov drew"


# --------------------------------------------------------------------------- Armageddon


async def test_the_armageddon_banner_from_the_coin_toss_to_the_game(uzchess_hall: Hall) -> None:
    uzchess_hall.until(at(12, 12))
    await uzchess_hall.game(1, 1, "1-0")
    uzchess_hall.wait(10)
    await uzchess_hall.game(1, 2, "1-0")  # Sindarov had White: 1-1
    view = uzchess_hall.view()
    banner = view["armageddon"]
    assert banner["state"] == "next"
    assert banner["when"] == "next · Seeds 2 v 3 · game 3"
    assert banner["white"] is None and banner["black"] is None
    assert banner["colours"] == "Colours by coin toss; the winner chooses"
    assert (banner["times"], banner["increment"], banner["draw_rule"]) == (
        "6′ v 5′", "+3 s from move 61", "draw = Black wins"
    )
    nxt = view["next"]
    assert nxt["label"] == "Seeds 2 v 3 · Game 3 · Armageddon"
    assert nxt["tentative"] is False  # needed now
    # Colours are not implied before the toss (reg. 10 c).
    assert not nxt["colours_known"] and nxt["colours"] == "colours by coin toss"
    assert nxt["vs"] == "Abdusattorov – Sindarov (colours by coin toss)"

    await uzchess_hall.do(TossCoin(match=1, method="physical", winner=SINDAROV))
    assert uzchess_hall.view()["armageddon"]["colours"] == (
        "Coin toss won by Sindarov: chooses the colours"
    )
    await uzchess_hall.do(ChooseArmageddonColours(match=1, white=ABDU, black=SINDAROV))
    view = uzchess_hall.view()
    banner = view["armageddon"]
    assert banner["colours"] is None
    assert (banner["white"]["name"], banner["white_time"]) == (ABDU_NAME, "6′")
    assert (banner["black"]["name"], banner["black_time"]) == (SINDAROV_NAME, "5′")
    assert view["next"]["vs"] == "Abdusattorov v Sindarov"

    uzchess_hall.wait(10)
    await uzchess_hall.do(StartGame(match=1, game=3))
    view = uzchess_hall.view()
    assert view["armageddon"]["state"] == "on"
    assert view["armageddon"]["when"] == "now playing · Seeds 2 v 3 · game 3"
    (live,) = view["live"]
    assert (live["title"], live["tag"], live["armageddon"]) == (
        "Seeds 2 v 3 · Game 3", "Armageddon", True
    )
    assert live["time_control"] is None  # the banner gives it
    assert (view["clocks"]["1:3"]["white_ms"], view["clocks"]["1:3"]["black_ms"]) == (
        360_000, 300_000
    )


# --------------------------------------------------------------------------- colours


async def test_before_the_lots_no_colours_are_implied(hall: Hall) -> None:
    """GCT 2015 reg. 7: lots decide who has White in game 1. Before they are drawn
    the hall lists the players with a dash and says the colours go by lot; the
    final's players are listed the same way until its own lots."""
    await hall.create(uzchess())
    nxt = hall.view()["next"]
    assert not nxt["colours_known"] and nxt["colours"] == "colours by lot"
    assert nxt["vs"] == "Abdusattorov – Sindarov (colours by lot)"
    assert " v " not in nxt["vs"]
    await hall.do(DrawLots(match=1, method="physical", white=SINDAROV))
    nxt = hall.view()["next"]
    assert nxt["colours_known"] and nxt["colours"] is None
    assert nxt["vs"] == "Sindarov v Abdusattorov"
    assert names(nxt["players"]) == [SINDAROV_NAME, ABDU_NAME]
    hall.until(at(12, 12))
    await hall.game(1, 1, "1-0")
    hall.wait(10)
    await hall.game(1, 2, "0-1")  # Sindarov wins 2-0
    nxt = hall.view()["next"]
    assert nxt["label"] == "Final · Game 1"
    assert nxt["vs"] == "Praggnanandhaa – Sindarov (colours by lot)"


# --------------------------------------------------------------------------- the bracket


async def test_marks_totals_and_decision_after_two_games(uzchess_hall: Hall) -> None:
    view = uzchess_hall.view()
    assert [r["name"] for r in view["bracket"]] == ["Seeds 2 v 3", "Final"]
    assert [r["status"] for r in view["bracket"]] == ["to play", "to play"]
    final = rows(view, 2)
    assert final[0]["player"] == {
        "id": PRAGG, "name": PRAGG_NAME, "short": "Praggnanandhaa", "seed": 1
    }
    assert final[1]["player"] == {
        "id": None, "name": "Winner of Seeds 2 v 3", "short": "Winner of Seeds 2 v 3",
        "seed": None,
    }
    assert not final[1]["known"]
    first = rows(view, 1)
    assert [m["text"] for m in first[0]["marks"]] == ["", ""]  # two games to play
    assert first[0]["total"] == ""

    uzchess_hall.until(at(12, 12))
    await uzchess_hall.game(1, 1, "1-0")  # Abdusattorov, White, wins
    uzchess_hall.wait(10)
    await uzchess_hall.game(1, 2, "1/2-1/2")
    view = uzchess_hall.view()
    abdu, sindarov = rows(view, 1)
    assert [m["text"] for m in abdu["marks"]] == ["1", "½"]
    assert [m["text"] for m in sindarov["marks"]] == ["0", "½"]
    assert (abdu["total"], sindarov["total"]) == ("1½", "½")
    assert (abdu["outcome"], sindarov["outcome"]) == ("advances", "out")
    assert decision(view, 1) == "Abdusattorov beat Sindarov 1½–½"
    assert [r["status"] for r in view["bracket"]] == ["played", "to play"]
    assert rows(view, 2)[1]["player"]["name"] == ABDU_NAME
    assert view["armageddon"] is None  # decided in two games: no decider
    assert view["next"]["label"] == "Final · Game 1"


async def test_a_drawn_armageddon_black_advances_and_its_mark_stands_apart(
    uzchess_hall: Hall,
) -> None:
    uzchess_hall.until(at(12, 12))
    await uzchess_hall.game(1, 1, "0-1")
    uzchess_hall.wait(10)
    await uzchess_hall.game(1, 2, "0-1")  # 1-1
    await uzchess_hall.do(
        TossCoin(match=1, method="physical", winner=ABDU),
        ChooseArmageddonColours(match=1, white=ABDU, black=SINDAROV),
    )
    uzchess_hall.wait(10)
    await uzchess_hall.game(1, 3, "1/2-1/2", minutes=11)
    view = uzchess_hall.view()
    abdu, sindarov = rows(view, 1)
    assert [(m["text"], m["armageddon"]) for m in sindarov["marks"]] == [
        ("1", False), ("0", False), ("½", True)
    ]
    assert (abdu["total"], sindarov["total"]) == ("1", "1")  # the decider scores nothing
    assert sindarov["outcome"] == "advances"
    assert decision(view, 1) == "Armageddon drawn: Sindarov, with Black, beat Abdusattorov"


async def test_a_correction_changes_the_bracket_and_the_next_game(uzchess_hall: Hall) -> None:
    uzchess_hall.until(at(12, 12))
    await uzchess_hall.game(1, 1, "1-0")
    uzchess_hall.wait(10)
    await uzchess_hall.game(1, 2, "1-0")  # 1-1: the Armageddon is next
    assert uzchess_hall.view()["next"]["label"] == "Seeds 2 v 3 · Game 3 · Armageddon"
    await uzchess_hall.do(CorrectResult(match=1, game=2, result="0-1", reason="score sheet"))
    view = uzchess_hall.view()
    assert decision(view, 1) == "Abdusattorov beat Sindarov 2–0"
    assert view["armageddon"] is None
    assert view["next"]["label"] == "Final · Game 1"
    assert names(view["next"]["players"]) == [PRAGG_NAME, ABDU_NAME]


# --------------------------------------------------------------------------- the end


async def test_the_champion_and_the_final_placings(uzchess_hall: Hall) -> None:
    uzchess_hall.until(at(12, 12))
    await uzchess_hall.game(1, 1, "1-0")
    uzchess_hall.wait(10)
    await uzchess_hall.game(1, 2, "0-1")  # Abdusattorov wins 2-0
    await uzchess_hall.do(DrawLots(match=2, method="physical", white=PRAGG))
    uzchess_hall.wait(10)
    await uzchess_hall.game(2, 1, "1-0")
    uzchess_hall.wait(10)
    await uzchess_hall.game(2, 2, "1/2-1/2")
    view = uzchess_hall.view()
    assert view["mode"] == "champion"
    assert view["champion"] == {
        "id": PRAGG, "name": PRAGG_NAME, "short": "Praggnanandhaa", "seed": 1
    }
    # Reg. 1: first prize undivided; the play-off's losers share 2nd and 3rd.
    assert [(r["place"], r["name"], r["prize"], r["points"], r["champion"])
            for r in view["placings"]] == [
        (1, PRAGG_NAME, "100,000", "13", True),
        (2, ABDU_NAME, "40,000", "10", False),
        (3, SINDAROV_NAME, "40,000", "8", False),
    ]
    # Reg. 2: the play-off decides the winner of the tournament: the champion.
    assert decision(view, 2) == "Praggnanandhaa beat Abdusattorov 1½–½"
    assert [r["outcome"] for r in rows(view, 2)] == ["champion", "out"]
    assert rows(view, 1)[0]["outcome"] == "advances"
    assert view["next"] is None and view["break"] is None and view["armageddon"] is None
    assert view["countdown"] is None
    assert view["schedule_note"] == "The play-off is over."
    assert view["next_change_ms"] is None


# --------------------------------------------------------------------------- four players


async def test_four_players_the_interval_shown_is_that_of_the_next_games_players(
    hall: Hall,
) -> None:
    """GCT 2015 reg. 8: 1 v 4 and 2 v 3 in parallel. Both semi-finals' intervals are
    under way; the next game is match 1's, so its players' interval is shown."""
    level = round_robin("ABCD", {pair: "1/2-1/2" for pair in ("AB", "CD", "AC", "BD", "AD", "BC")})
    await hall.create(level)
    state = hall.service.playoff(hall.playoff_id)
    assert [m.players for m in state.chess.matches][:2] == [
        (state.chess.player_with_seed(1), state.chess.player_with_seed(4)),
        (state.chess.player_with_seed(2), state.chess.player_with_seed(3)),
    ]
    for match in (1, 2):
        white = state.chess.match(match).players[0]
        await hall.do(DrawLots(match=match, method="physical", white=white))
    view = hall.view()
    assert [r["name"] for r in view["bracket"]] == ["Semi-finals", "Final"]
    assert [m["name"] for m in view["bracket"][0]["matches"]] == ["Semi-final 1", "Semi-final 2"]
    assert names([p["player"] for p in rows(view, 3)]) == [
        "Winner of Semi-final 1", "Winner of Semi-final 2"
    ]
    hall.until(at(12, 30))
    await hall.do(StartGame(match=1, game=1), StartGame(match=2, game=1))
    view = hall.view()
    assert [g["clock"] for g in view["live"]] == ["1:1", "2:1"]
    assert [g["title"] for g in view["live"]] == ["Semi-final 1 · Game 1", "Semi-final 2 · Game 1"]
    hall.wait(20)
    await hall.do(RecordResult(match=1, game=1, result="1/2-1/2"))  # 12:50
    hall.wait(2)
    await hall.do(RecordResult(match=2, game=1, result="1/2-1/2"))  # 12:52
    hall.wait(3)
    view = hall.view()
    assert view["mode"] == "idle"
    assert (view["next"]["match"], view["next"]["game"]) == (1, 2)
    assert view["next"]["due_ms"] == ms(at(13, 0))
    assert view["break"]["end_ms"] == ms(at(13, 0))  # match 1's, not match 2's (13:02)
    assert view["break"]["who"] == " and ".join(
        hall.service.playoff(hall.playoff_id).names[p] for p in state.chess.match(1).players
        if p is not None
    )


# --------------------------------------------------------------------------- bridge


async def extra_boards(hall: Hall) -> None:
    """The Hubert Phillips Bowl's 48-board stage: three stanzas of two boards, partners
    changing after each (EBU 143.2.1 Exception)."""
    created, _ = await hall.service.create_event(parse_event(json.dumps(BRIDGE)))
    state = await hall.service.create_extra_boards(
        created.id, "N", "S", 48, "hubert-phillips-bowl", None, "chief"
    )
    hall.playoff_id = state.id


def board_rows(view: dict[str, Any], stanza: int) -> list[tuple[Any, ...]]:
    for s in (s for st in view["scoreboard"]["sets"] for s in st["stanzas"]):
        if s["stanza"] == stanza:
            return [(b["state"], b["table_1"], b["table_2"], b["home_imps"], b["away_imps"])
                    for b in s["boards"]]
    raise KeyError(stanza)


async def test_the_extra_board_scoreboard_and_the_stanzas(hall: Hall) -> None:
    await extra_boards(hall)
    view = hall.view()
    assert (view["kind"], view["mode"], view["title"]) == (
        "extra-boards", "scoreboard", "North London v Surrey"
    )
    board = view["scoreboard"]
    assert board["stanza_text"] == "Stanza 1 (1 of 3)"
    assert board["partner_change"] == "Partners change after this stanza"
    assert view["break"] is None  # no pause before the first stanza
    for stanza, number, table, ns in ((1, 1, 1, 620), (1, 1, 2, 170), (1, 2, 1, 0),
                                      (1, 2, 2, 0), (2, 1, 1, 100)):
        await hall.do(ScoreBoard(stanza=stanza, board=number, table=table, ns_score=ns))
    view = hall.view()
    board = view["scoreboard"]
    assert board["total"] == ["10", "0"]
    assert board["caption"] == "IMPs, running total"
    assert board["stanza_text"] == "Stanza 2 (2 of 3)"
    (only,) = board["sets"]
    assert only["current"] and only["text"] == "Set 1: 10–0 so far"
    first, second = only["stanzas"]
    # No swing on board 2: 0 IMPs each, not blank.
    assert board_rows(view, 1) == [
        ("scored", "+620", "+170", "10", ""), ("scored", "0", "0", "0", "0")
    ]
    assert first["partners_note"] == "partners changed after stanza 1"
    assert second["current"]
    assert [(s["label"], s["when"], s["partners_note"]) for s in view["stanzas"]][:2] == [
        ("Stanza 1 · 2 boards", "played", "then partners change"),
        ("Stanza 2 · 2 boards", "playing", "then partners change"),
    ]
    stanza_3 = view["stanzas"][2]
    assert stanza_3["label"] == "Stanza 3 · 2 boards" and stanza_3["when"].startswith("about ")
    assert view["next"]["label"] == "Stanza 3 · 2 boards"
    assert view["next"]["vs"] == "North London v Surrey"
    assert view["next"]["estimate"] and view["countdown"] is None  # stanza 2 is played
    for number, table, ns in ((1, 2, 100), (2, 1, -50), (2, 2, -50)):
        await hall.do(ScoreBoard(stanza=2, board=number, table=table, ns_score=ns))
    board = hall.view()["scoreboard"]
    # The set's last stanza: partners change after it only if the set is played again.
    assert board["stanza_text"] == "Stanza 3 (3 of 3)"
    assert board["partner_change"] == "Partners change after this stanza if still tied"
    for number, table, ns in ((1, 1, 400), (1, 2, -100), (2, 1, 0), (2, 2, 0)):
        await hall.do(ScoreBoard(stanza=3, board=number, table=table, ns_score=ns))
    view = hall.view()
    assert view["scoreboard"]["winner"] == "North London win the extra boards"
    assert view["scoreboard"]["home"]["won"] and view["scoreboard"]["stanza_text"] is None
    assert view["next"] is None and view["schedule_note"] == "The play-off is over."
    assert view["break"] is None and view["countdown"] is None


async def test_a_boards_score_is_shown_only_once_both_tables_have_played_it(hall: Hall) -> None:
    """Table 1 has played board 1 (+620); table 2 has not yet: the hall must not tell
    table 2 what happened on a board it is still to play."""
    await extra_boards(hall)
    await hall.do(ScoreBoard(stanza=1, board=1, table=1, ns_score=620))
    view = hall.view()
    assert board_rows(view, 1) == [
        ("playing", None, None, None, None), ("to play", None, None, None, None)
    ]
    assert "620" not in json.dumps(view)
    await hall.do(ScoreBoard(stanza=1, board=1, table=2, ns_score=620))
    assert board_rows(hall.view(), 1)[0] == ("scored", "+620", "+620", "0", "0")


async def test_between_stanzas_the_pause_is_a_stanza_change_and_a_replayed_set_keeps_the_first(
    hall: Hall,
) -> None:
    """Every board of the first set is flat: tied after six boards, the set is played
    again (EBU 143.2.1), and the first set stays on the board."""
    await extra_boards(hall)
    for stanza in (1, 2, 3):
        for number in (1, 2):
            for table in (1, 2):
                await hall.do(ScoreBoard(stanza=stanza, board=number, table=table, ns_score=420))
        view = hall.view()
        brk = view["break"]
        assert brk["kind"] == "stanza-change" and brk["label"] == "Stanza change"
        assert brk["who"] == "North London and Surrey" and brk["end_ms"] is None
        assert "interval" not in brk["reason"].lower() and "reg. 5" not in brk["reason"]
        assert view["countdown"]["due_text"] == STANZA_DUE  # no interval is owed
        if stanza == 1:
            assert brk["reason"] == "Stanza 1 complete; stanza 2 next, 2 boards; partners change"
    assert brk["reason"] == (
        "Still tied after stanza 3: the extra boards are played again; stanza 4 next, "
        "2 boards; partners change"
    )
    board = view["scoreboard"]
    assert (board["current_set"], board["caption"]) == (2, "IMPs, set 2, running total")
    first, second = board["sets"]
    assert not first["current"] and second["current"]
    assert first["text"] == "Set 1: 0–0, still tied: played again"
    assert [s["stanza"] for s in first["stanzas"]] == [1, 2, 3]
    assert board_rows(view, 3) == [("scored", "+420", "+420", "0", "0")] * 2
    assert [s["stanza"] for s in second["stanzas"]] == [4]
    # The schedule lists the set in play; the earlier set is on the scoreboard.
    assert [s["stanza"] for s in view["stanzas"]] == [4, 5, 6]
    assert view["stanzas"][0]["when"] == STANZA_DUE
    await hall.do(ScoreBoard(stanza=4, board=1, table=2, ns_score=-100))
    view = hall.view()
    assert view["break"] is None  # stanza 4 is being played
    assert len(view["scoreboard"]["sets"]) == 2


# --------------------------------------------------------------------------- words


async def test_the_hall_names_people_not_ids_and_writes_money_with_separators(
    uzchess_hall: Hall,
) -> None:
    """No FIDE id, ISO instant or internal event name anywhere in the hall's words."""
    uzchess_hall.until(at(12, 12))
    await uzchess_hall.game(1, 1, "0-1")
    uzchess_hall.wait(10)
    await uzchess_hall.game(1, 2, "1-0")  # Sindarov wins 2-0
    views = [uzchess_hall.view()]
    await uzchess_hall.do(DrawLots(match=2, method="physical", white=SINDAROV))
    uzchess_hall.wait(10)
    await uzchess_hall.do(StartGame(match=2, game=1))
    views.append(uzchess_hall.view())
    uzchess_hall.wait(30)
    await uzchess_hall.do(RecordResult(match=2, game=1, result="1-0"))
    uzchess_hall.wait(10)
    await uzchess_hall.game(2, 2, "1/2-1/2")
    views.append(uzchess_hall.view())
    assert decision(views[0], 1) == "Sindarov beat Abdusattorov 2–0"
    assert views[-1]["placings"][0]["prize"] == "100,000"
    ids = {PRAGG, ABDU, SINDAROV}
    for view in views:
        for text in words(view):
            assert not any(i in text for i in ids), text
            assert not re.search(r"\d{4}-\d{2}-\d{2}T", text), text
            assert not re.search(r"\b[a-z]+-[a-z]+ed\b|\bseq\b", text), text


def words(view: dict[str, Any]) -> list[str]:
    """Every string the hall can show: the view's texts, without its ids and keys."""
    found: list[str] = []

    def walk(value: Any, key: str = "") -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                if k not in {"id", "clock", "clocks", "view", "kind", "mode", "status", "state"}:
                    walk(v, k)
        elif isinstance(value, list | tuple):
            for item in value:
                walk(item, key)
        elif isinstance(value, str):
            found.append(value)

    walk(view)
    return found


def test_short_names_are_family_names_unless_two_players_share_one() -> None:
    from orchestrator.views.hall import short_names as _short_names

    assert _short_names({
        "1": "Abdusattorov, Nodirbek", "2": "Praggnanandhaa R", "3": "Wei Yi",
        "4": "Carlsen, Magnus", "5": "Carlsen, Henrik", "6": "Player A", "7": "Player B",
    }) == {
        "1": "Abdusattorov", "2": "Praggnanandhaa", "3": "Wei Yi",
        "4": "Carlsen, Magnus", "5": "Carlsen, Henrik", "6": "Player A", "7": "Player B",
    }


def test_money_has_thousands_separators_and_the_currency_only_when_there_is_one() -> None:
    from playoff_formats.words import money as _money

    assert [_money(100000), _money(33333.33), _money(None), _money("40000")] == [
        "100,000", "33,333.33", "", "40,000"
    ]
    assert [_money(100000, "USD"), _money(1500.5, "€")] == ["USD 100,000", "€1,500.50"]


# --------------------------------------------------------------------------- a pure function


async def test_the_view_depends_on_the_state_and_the_context_only(uzchess_hall: Hall) -> None:
    state = uzchess_hall.service.playoff(uzchess_hall.playoff_id)
    ctx = uzchess_hall.context()
    uzchess_hall.wait(90)  # the service's clock moves on; the view's instant does not
    assert hall_view(state, ctx) == hall_view(state, ctx)
    assert hall_view(state, ctx)["server_ms"] == ms(at(12, 0))
    later = uzchess_hall.context()
    assert hall_view(state, later)["next"]["due"] is True
    assert hall_view(state, later)["break"] is None


# --------------------------------------------------------------------------- its only reader


def test_the_display_page_holds_no_rules_of_its_own() -> None:
    """The hall page renders this view: it names no event type, writes no result,
    reads no REST route and knows nothing of moves or turns."""
    union = get_args(get_args(PlayoffEvent)[0])
    event_types = {model.model_fields["type"].default for model in union}
    assert {"clock-pressed", "result-corrected", "board-scored"} <= event_types
    forbidden = event_types | {r.value for r in Result} | {
        "fetch(", "XMLHttpRequest", "/api/", "to_move", "next_move", "moves", "white_points",
    }
    # The event's hall page (before a play-off, no websocket) reads its one view.
    page = [path for path in PAGE.glob("*.js") if path.name != "event.js"]
    event_page = (PAGE / "event.js").read_text()
    assert event_page.count("/api/") == 1 and "view?kind=hall" in event_page
    sources = {path.name: path.read_text() for path in page}
    assert {"display.js", "render.js", "tick.js"} <= set(sources)
    found = {
        (name, word) for name, text in sources.items() for word in forbidden if word in text
    }
    assert found == set()
