"""The hall view (orchestrator.views.hall): what the hall sees, decided on the server.

States are built through the real service (commands checked, logged to SQLite and
folded) on a manual clock, and the view is computed with the context the hub
gives it (the schedule as planned at that instant, the placings).

The UzChess Cup Masters 2025 play-off (GCT 2015 reg. 7): match 1 is seeds 2 v 3,
Abdusattorov v Sindarov, G/25+5 with an Armageddon decider; the final, match 2,
is Praggnanandhaa (seed 1) against its winner. Here the main event's last round
ended at 11:20 (Abdusattorov v Praggnanandhaa), 11:42 (Sindarov's game) and 11:55
(a game of two players outside the play-off), 28 June 2025 (UTC).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, get_args

import pytest

from orchestrator.commands import (
    ChooseArmageddonColours,
    CommandBase,
    CorrectResult,
    DrawLots,
    MoveStart,
    RecordResult,
    ScoreBoard,
    SetDeadline,
    StartGame,
    TossCoin,
)
from orchestrator.creation import PlayoffOptions
from orchestrator.events import PlayoffEvent
from orchestrator.hub import Hub
from orchestrator.service import Service
from orchestrator.store import AsyncEventStore, SqliteEventStore
from orchestrator.timesource import ManualTime
from orchestrator.views import ViewContext, hall_view
from orchestrator.views.hall import HallView
from playoff_formats.io.json_event import parse_event
from playoff_formats.model import Event, Result
from tests.events import round_robin

DATA = Path(__file__).parent / "data" / "uzchess-cup-masters-2025.json"
PAGE = Path(__file__).resolve().parent.parent / "clients" / "display"
PRAGG, ABDU, SINDAROV = "25059530", "14204118", "14205483"
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
    data = json.loads(DATA.read_text())
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
                return text
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
    for name in (PRAGG_NAME, ABDU_NAME, SINDAROV_NAME):
        assert name in brk["who"]
    nxt = view["next"]
    assert (nxt["match"], nxt["game"], nxt["label"]) == (1, 1, "Seeds 2 v 3 · Game 1")
    assert names(nxt["players"]) == [ABDU_NAME, SINDAROV_NAME]  # White, then Black
    assert [p["seed"] for p in nxt["players"]] == [2, 3]
    assert nxt["colours_known"] and not nxt["tentative"]
    assert (nxt["due_ms"], nxt["due"], nxt["due_text"]) == (ms(at(12, 12)), False, None)
    assert view["idle"] == {
        "label": "Break after the main event",
        "what": f"Seeds 2 v 3 · Game 1\n{ABDU_NAME} v {SINDAROV_NAME}",
        "until_ms": ms(at(12, 12)),
        "due_text": None,
        "note": brk["reason"],
    }
    # The view changes with the time alone when the break ends.
    assert view["next_change_ms"] == ms(at(12, 12))
    assert view["live"] == [] and view["armageddon"] is None and view["champion"] is None


async def test_after_the_break_the_first_game_is_due_until_it_starts(uzchess_hall: Hall) -> None:
    uzchess_hall.until(at(12, 12))
    view = uzchess_hall.view()
    assert view["break"] is None
    assert view["next"]["due"] is True and view["next"]["due_text"] == "starting now"
    assert view["idle"]["label"] == "Next game"
    assert view["idle"]["due_text"] == "starting now"
    uzchess_hall.wait(7)  # not started yet: still due, now
    view = uzchess_hall.view()
    assert view["next"]["due"] is True
    assert view["next"]["due_ms"] == ms(at(12, 19)) == view["server_ms"]


async def test_a_game_started_during_the_break_ends_it(uzchess_hall: Hall) -> None:
    uzchess_hall.until(at(12, 5))
    await uzchess_hall.do(StartGame(match=1, game=1))
    uzchess_hall.wait(1)
    view = uzchess_hall.view()
    assert view["mode"] == "games"
    assert view["break"] is None  # the arbiter started early: the break is over
    (live,) = view["live"]
    assert live["clock"] == "1:1"
    assert (live["title"], live["tag"], live["time_control"]) == (
        "Seeds 2 v 3 · Game 1", None, "G/25+5"
    )
    assert live["white"] == {"id": ABDU, "name": ABDU_NAME, "seed": 2}
    assert live["black"] == {"id": SINDAROV, "name": SINDAROV_NAME, "seed": 3}
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
    assert brk["who"] == f"{ABDU_NAME} and {SINDAROV_NAME}"
    nxt = view["next"]
    assert nxt["label"] == "Seeds 2 v 3 · Game 2"
    assert names(nxt["players"]) == [SINDAROV_NAME, ABDU_NAME]  # colours reversed
    assert nxt["due_ms"] == ms(at(13, 2))
    assert view["idle"]["label"] == "Interval" and view["idle"]["until_ms"] == ms(at(13, 2))
    assert view["next_change_ms"] == ms(at(13, 2))


async def test_under_a_tight_deadline_the_interval_is_the_minimum_of_5_minutes(
    uzchess_hall: Hall,
) -> None:
    await uzchess_hall.do(SetDeadline(deadline=at(16, 40), reason="the hall closes"))
    uzchess_hall.until(at(12, 12))
    await uzchess_hall.game(1, 1, "1-0", minutes=40)  # ends 12:52
    view = uzchess_hall.view()
    assert view["break"]["end_ms"] == ms(at(12, 57))
    assert "5 minutes" in view["break"]["reason"]
    assert view["next"]["due_ms"] == ms(at(12, 57))


async def test_a_later_earliest_start_the_countdown_runs_to_the_game_not_to_the_break(
    hall: Hall,
) -> None:
    """The break after the main event ends at 12:12, but the organiser's earliest
    start is 13:00: the hall counts down to the game."""
    await hall.create(uzchess(), not_before=at(13, 0))
    view = hall.view()
    assert view["break"]["end_ms"] == ms(at(12, 12))
    assert view["next"]["due_ms"] == ms(at(13, 0))
    assert view["idle"]["label"] == "Break after the main event"
    assert view["idle"]["until_ms"] == ms(at(13, 0))
    assert view["next_change_ms"] == ms(at(12, 12))
    hall.until(at(12, 20))
    view = hall.view()
    assert view["break"] is None
    assert view["idle"]["label"] == "Next game"
    assert view["idle"]["until_ms"] == ms(at(13, 0))
    assert view["next_change_ms"] == ms(at(13, 0))


async def test_an_interval_made_longer_is_worded_for_the_hall(uzchess_hall: Hall) -> None:
    """Game 1 played within the break after the main event (12:00-12:01): game 2
    waits for the break's end (12:12), past the 10-minute interval (12:11). The
    schedule's explanation, with ids and instants, is for the arbiters."""
    await uzchess_hall.game(1, 1, "1/2-1/2", minutes=1)
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
    assert view["idle"]["until_ms"] == ms(at(13, 30))


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
    assert view["next"]["label"] == "Seeds 2 v 3 · Game 3 · Armageddon"
    assert view["next"]["tentative"] is False  # needed now

    await uzchess_hall.do(TossCoin(match=1, method="physical", winner=SINDAROV))
    assert uzchess_hall.view()["armageddon"]["colours"] == (
        f"Coin toss won by {SINDAROV_NAME}: chooses the colours"
    )
    await uzchess_hall.do(ChooseArmageddonColours(match=1, white=ABDU, black=SINDAROV))
    banner = uzchess_hall.view()["armageddon"]
    assert banner["colours"] is None
    assert (banner["white"]["name"], banner["white_time"]) == (ABDU_NAME, "6′")
    assert (banner["black"]["name"], banner["black_time"]) == (SINDAROV_NAME, "5′")

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


# --------------------------------------------------------------------------- the bracket


async def test_marks_totals_and_decision_after_two_games(uzchess_hall: Hall) -> None:
    view = uzchess_hall.view()
    assert [r["name"] for r in view["bracket"]] == ["Seeds 2 v 3", "Final"]
    final = rows(view, 2)
    assert final[0]["player"] == {"id": PRAGG, "name": PRAGG_NAME, "seed": 1}
    assert final[1]["player"] == {"id": None, "name": "Winner of match 1", "seed": None}
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
    assert decision(view, 1) == f"{ABDU_NAME} advances 1½–½"
    assert rows(view, 2)[1]["player"]["name"] == ABDU_NAME
    assert view["armageddon"] is None  # decided in two games: no decider
    assert view["next"]["label"] == "Final · Game 1"


async def test_a_drawn_armageddon_black_advances_and_its_mark_stands_apart(
    uzchess_hall: Hall,
) -> None:
    uzchess_hall.until(at(12, 12))
    await uzchess_hall.game(1, 1, "0-1")
    await uzchess_hall.game(1, 2, "0-1")  # 1-1
    await uzchess_hall.do(
        TossCoin(match=1, method="physical", winner=ABDU),
        ChooseArmageddonColours(match=1, white=ABDU, black=SINDAROV),
    )
    await uzchess_hall.game(1, 3, "1/2-1/2", minutes=11)
    view = uzchess_hall.view()
    abdu, sindarov = rows(view, 1)
    assert [(m["text"], m["armageddon"]) for m in sindarov["marks"]] == [
        ("1", False), ("0", False), ("½", True)
    ]
    assert (abdu["total"], sindarov["total"]) == ("1", "1")  # the decider scores nothing
    assert sindarov["outcome"] == "advances"
    assert decision(view, 1) == f"{SINDAROV_NAME} advances: Armageddon drawn, Black wins"


async def test_a_correction_changes_the_bracket_and_the_next_game(uzchess_hall: Hall) -> None:
    uzchess_hall.until(at(12, 12))
    await uzchess_hall.game(1, 1, "1-0")
    await uzchess_hall.game(1, 2, "1-0")  # 1-1: the Armageddon is next
    assert uzchess_hall.view()["next"]["label"] == "Seeds 2 v 3 · Game 3 · Armageddon"
    await uzchess_hall.do(CorrectResult(match=1, game=2, result="0-1", reason="score sheet"))
    view = uzchess_hall.view()
    assert decision(view, 1) == f"{ABDU_NAME} advances 2–0"
    assert view["armageddon"] is None
    assert view["next"]["label"] == "Final · Game 1"
    assert names(view["next"]["players"]) == [PRAGG_NAME, ABDU_NAME]


# --------------------------------------------------------------------------- the end


async def test_the_champion_and_the_final_placings(uzchess_hall: Hall) -> None:
    uzchess_hall.until(at(12, 12))
    await uzchess_hall.game(1, 1, "1-0")
    await uzchess_hall.game(1, 2, "0-1")  # Abdusattorov wins 2-0
    await uzchess_hall.do(DrawLots(match=2, method="physical", white=PRAGG))
    await uzchess_hall.game(2, 1, "1-0")
    await uzchess_hall.game(2, 2, "1/2-1/2")
    view = uzchess_hall.view()
    assert view["mode"] == "champion"
    assert view["champion"] == {"id": PRAGG, "name": PRAGG_NAME, "seed": 1}
    # Reg. 1: first prize undivided; the play-off's losers share 2nd and 3rd.
    assert [(r["place"], r["name"], r["prize"], r["points"], r["champion"])
            for r in view["placings"]] == [
        (1, PRAGG_NAME, "100,000", "13", True),
        (2, ABDU_NAME, "40,000", "10", False),
        (3, SINDAROV_NAME, "40,000", "8", False),
    ]
    assert decision(view, 2) == f"{PRAGG_NAME} advances 1½–½"
    assert view["next"] is None and view["break"] is None and view["armageddon"] is None
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
    assert names([p["player"] for p in rows(view, 3)]) == [
        "Winner of match 1", "Winner of match 2"
    ]
    hall.until(at(12, 30))
    await hall.do(StartGame(match=1, game=1), StartGame(match=2, game=1))
    view = hall.view()
    assert [g["clock"] for g in view["live"]] == ["1:1", "2:1"]
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


async def test_the_extra_board_scoreboard_and_the_stanzas(hall: Hall) -> None:
    created, _ = await hall.service.create_event(parse_event(json.dumps(BRIDGE)))
    state = await hall.service.create_extra_boards(
        created.id, "N", "S", 48, "hubert-phillips-bowl", None, "chief"
    )
    hall.playoff_id = state.id
    view = hall.view()
    assert (view["kind"], view["mode"], view["title"]) == (
        "extra-boards", "scoreboard", "North London v Surrey"
    )
    board = view["scoreboard"]
    assert board["stanza_text"] == "Stanza 1 (1 of 3)"
    assert board["partner_change"] == "Partners change after this stanza"
    for stanza, number, table, ns in ((1, 1, 1, 620), (1, 1, 2, 170), (1, 2, 1, 0),
                                      (1, 2, 2, 0), (2, 1, 1, 100)):
        await hall.do(ScoreBoard(stanza=stanza, board=number, table=table, ns_score=ns))
    view = hall.view()
    board = view["scoreboard"]
    assert board["total"] == ["10", "0"]
    assert board["caption"] == "IMPs, running total"
    assert board["stanza_text"] == "Stanza 2 (2 of 3)"
    first, second = board["stanzas"]
    assert [(b["table_1"], b["table_2"], b["home_imps"], b["away_imps"])
            for b in first["boards"]] == [("+620", "+170", "10", ""), ("0", "0", "", "")]
    assert first["partners_note"] == "partners changed after stanza 1"
    assert second["current"] and second["boards"][0]["table_1"] == "+100"
    assert second["boards"][0]["table_2"] is None  # not scored yet
    assert [(s["label"], s["when"], s["partners_note"]) for s in view["stanzas"]] == [
        ("Stanza 1 · 2 boards", "played", "then partners change"),
        ("Stanza 2 · 2 boards", "playing", "then partners change"),
        ("Stanza 3 · 2 boards", None, None),
    ]
    assert view["next"]["label"] == "Stanza 3 · 2 boards"
    assert view["next"]["vs"] == "North London v Surrey"
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
    page = PAGE.glob("*.js")
    sources = {path.name: path.read_text() for path in page}
    assert {"display.js", "render.js", "tick.js"} <= set(sources)
    found = {
        (name, word) for name, text in sources.items() for word in forbidden if word in text
    }
    assert found == set()
