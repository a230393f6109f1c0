"""GCT 2015 reg. 5, the rests owed to the players, as the service enforces them.

"The play-off shall start at least 30 minutes after the conclusion of the last game
in the main tournament involving any player in the play-off" and "there shall be not
less than 5 minutes and if possible at least 10 minutes" between games: the first
two are rules (a start that breaks them is refused, 409 naming the regulation,
unless the chief arbiter overrides with a reason, which is logged and shown); the
10 minutes are a preference (a warning, not a refusal).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from orchestrator.core.timesource import ManualTime
from playoff_formats.schedule import Constraints, RestKind, rest_breaches
from tests.support.events import ABDU, PRAGG, SINDAROV, uzchess_json
from tests.support.server import RunningServer, running_server

NOON = datetime(2025, 6, 28, 12, 0, tzinfo=UTC)
RULE = "GCT 2015 reg. 5"


# --------------------------------------------------------------------------- the rule


def test_reg_5_the_play_off_waits_30_minutes_after_any_play_off_players_last_game() -> None:
    limits = Constraints(main_event_ended={"A": NOON, "B": NOON - timedelta(hours=1), "C": NOON})
    early = rest_breaches(["B", "C"], NOON + timedelta(minutes=29), limits, {}, RULE)
    assert [(b.kind, b.binding) for b in early] == [(RestKind.MAIN_EVENT, True)]
    assert early[0].until == NOON + timedelta(minutes=30)
    assert "(GCT 2015 reg. 5)" in early[0].text and "not before 12:30" in early[0].text
    # B finished an hour earlier, but the break runs from the last game of *any*
    # play-off player (A's and C's).
    assert rest_breaches(["B", "C"], NOON + timedelta(minutes=30), limits, {}, RULE) == ()


def test_reg_5_not_less_than_5_minutes_and_if_possible_10_between_games() -> None:
    limits = Constraints(main_event_ended={"A": NOON, "B": NOON})
    ended = {"A": NOON + timedelta(hours=1)}
    at = NOON + timedelta(hours=1)
    four = rest_breaches(["A", "B"], at + timedelta(minutes=4), limits, ended, RULE)
    assert [(b.kind, b.binding) for b in four] == [(RestKind.MINIMUM_INTERVAL, True)]
    assert "not less than 5 minutes" in four[0].text
    seven = rest_breaches(["A", "B"], at + timedelta(minutes=7), limits, ended, RULE)
    assert [(b.kind, b.binding) for b in seven] == [(RestKind.PREFERRED_INTERVAL, False)]
    assert "if possible at least 10 minutes" in seven[0].text
    assert rest_breaches(["A", "B"], at + timedelta(minutes=10), limits, ended, RULE) == ()
    # The times of day are the hall's.
    east = limits.model_copy(update={"utc_offset": timedelta(hours=5)})
    assert "not before 18:05" in rest_breaches(["A"], at, east, ended, RULE)[0].text


# --------------------------------------------------------------------------- the service


@dataclass
class Hall:
    server: RunningServer
    clock: ManualTime
    chief: httpx.Client
    arbiter: httpx.Client
    playoff: str

    def start(self, client: httpx.Client, game: int, **body: Any) -> httpx.Response:
        return client.post(
            f"/api/playoffs/{self.playoff}/matches/1/games/{game}/start", json=body or None
        )

    def view(self) -> dict[str, Any]:
        got: dict[str, Any] = self.chief.get(
            f"/api/playoffs/{self.playoff}", params={}
        ).json()
        return got

    def log(self) -> list[dict[str, Any]]:
        events: list[dict[str, Any]] = self.chief.get(
            f"/api/playoffs/{self.playoff}/events"
        ).json()["events"]
        return events


@pytest.fixture
def hall(tmp_path: Path) -> Iterator[Hall]:
    """Match 1 (Abdusattorov White in game 1) of a play-off whose main event ended at
    noon, as the manual clock reads: the break runs to 12:30."""
    clock = ManualTime(wall=NOON)
    event = uzchess_json(NOON)
    with running_server(tmp_path / "log.db", clock) as server, server.client() as anonymous:
        created = anonymous.post(
            "/api/events", content=event, headers={"Content-Type": "application/json"}
        ).json()
        with server.client(created["chief_token"]) as chief:
            playoff = chief.post(f"/api/events/{created['id']}/playoff").json()["id"]
            token = chief.post(
                f"/api/events/{created['id']}/tokens", json={"role": "arbiter"}
            ).json()["token"]
            chief.post(f"/api/playoffs/{playoff}/matches/1/lots",
                       json={"method": "physical", "white": ABDU})
            with server.client(token) as arbiter:
                yield Hall(server, clock, chief, arbiter, playoff)


def test_a_start_inside_the_break_is_refused_naming_the_regulation(hall: Hall) -> None:
    hall.clock.advance(timedelta(minutes=20))
    before = len(hall.log())
    refused = hall.start(hall.arbiter, 1)
    assert refused.status_code == 409
    reason = refused.json()["detail"]
    assert "GCT 2015 reg. 5" in reason and "not before 12:30" in reason
    assert "10 minutes from now" in reason
    assert len(hall.log()) == before  # nothing logged
    hall.clock.advance(timedelta(minutes=10))
    assert hall.start(hall.arbiter, 1).status_code == 201


def test_the_chief_arbiter_may_start_early_with_a_reason_which_is_logged_and_shown(
    hall: Hall,
) -> None:
    hall.clock.advance(timedelta(minutes=12))
    # An arbiter may not set the regulation aside; a reason is needed.
    by_arbiter = hall.start(hall.arbiter, 1, override="the players asked to begin")
    assert by_arbiter.status_code == 403  # an override: not the arbiter's
    assert "only the chief arbiter" in by_arbiter.json()["detail"]
    no_reason = hall.start(hall.chief, 1, override="")
    assert no_reason.status_code == 422
    assert no_reason.json()["detail"][0]["loc"] == ["body", "override"]
    started = hall.start(hall.chief, 1, override="the players asked to begin")
    assert started.status_code == 201, started.text
    logged = started.json()["events"][0]
    assert logged["data"]["override"] == "the players asked to begin"
    assert "GCT 2015 reg. 5" in logged["data"]["overridden"][0]
    assert logged["actor"] == "chief:chief"
    change = hall.view()["changes"][-1]
    assert change["type"] == "game-started"
    assert "started early" in change["text"] and change["override"] == logged["data"]["override"]


def test_between_games_5_minutes_are_a_rule_and_10_a_warning(hall: Hall) -> None:
    hall.clock.advance(timedelta(minutes=31))
    assert hall.start(hall.arbiter, 1).status_code == 201
    hall.clock.advance(timedelta(minutes=40))
    result = hall.arbiter.post(
        f"/api/playoffs/{hall.playoff}/matches/1/games/1/result", json={"result": "1-0"}
    )
    assert result.status_code == 201
    hall.clock.advance(timedelta(minutes=3))
    too_soon = hall.start(hall.arbiter, 2)
    assert too_soon.status_code == 409
    assert "not less than 5 minutes" in too_soon.json()["detail"]
    hall.clock.advance(timedelta(minutes=4))  # 7 minutes: allowed, with the warning
    started = hall.start(hall.arbiter, 2)
    assert started.status_code == 201, started.text
    data = started.json()["events"][0]["data"]
    assert data["override"] is None and data["overridden"] == []
    assert "if possible at least 10 minutes" in data["warnings"][0]


def test_a_correction_that_voids_played_games_shows_them_first_and_needs_a_confirmation(
    tmp_path: Path,
) -> None:
    """Match 1 decided in two games, the final played to its end; then game 2 of
    match 1 is corrected (Sindarov won it, not Abdusattorov): match 1 is level again,
    so the final (and its champion, and the placings) are void until match 1 is
    settled by its Armageddon."""
    clock = ManualTime(wall=NOON)
    with running_server(tmp_path / "log.db", clock) as server, server.client() as anonymous:
        created = anonymous.post(
            "/api/events", content=uzchess_json(NOON - timedelta(hours=1)),
            headers={"Content-Type": "application/json"},
        ).json()
        with server.client(created["chief_token"]) as chief:
            playoff = chief.post(f"/api/events/{created['id']}/playoff",
                                 json={"prizes": [100000, 50000, 30000]}).json()["id"]
            url = f"/api/playoffs/{playoff}"

            def play(match: int, game: int, result: str) -> None:
                clock.advance(timedelta(minutes=10))
                assert chief.post(f"{url}/matches/{match}/games/{game}/start").status_code == 201
                clock.advance(timedelta(minutes=50))
                done = chief.post(f"{url}/matches/{match}/games/{game}/result",
                                  json={"result": result})
                assert done.status_code == 201, done.text

            chief.post(f"{url}/matches/1/lots", json={"method": "physical", "white": ABDU})
            play(1, 1, "1-0")
            play(1, 2, "0-1")  # Abdusattorov (Black in game 2) wins 2-0
            chief.post(f"{url}/matches/2/lots", json={"method": "physical", "white": ABDU})
            play(2, 1, "1-0")
            play(2, 2, "1/2-1/2")
            state = chief.get(url).json()
            assert state["champion"] == ABDU
            pgn_before = chief.get(f"{url}/pgn").text
            assert pgn_before.count("[Event ") == 4

            correction = {"result": "1-0", "reason": "the scoresheets were swapped"}
            refused = chief.put(f"{url}/matches/1/games/2/result", json=correction)
            assert refused.status_code == 409
            reason = refused.json()["detail"]
            assert "match 2, game 1 (Abdusattorov, Nodirbek v Praggnanandhaa R), 1-0" in reason
            assert "match 2, game 2" in reason and "½-½" in reason
            assert "Abdusattorov, Nodirbek as the play-off winner, and the final placings" in reason
            assert chief.get(url).json()["seq"] == state["seq"]  # nothing changed

            confirmed = chief.put(f"{url}/matches/1/games/2/result",
                                  json={**correction, "confirm": True})
            assert confirmed.status_code == 200, confirmed.text
            logged = confirmed.json()["events"][0]["data"]
            assert [(v["match"], v["game"], v["result"]) for v in logged["voided"]] == [
                (2, 1, "1-0"), (2, 2, "1/2-1/2")
            ]
            assert logged["champion_before"] == ABDU
            after = chief.get(url).json()
            assert after["champion"] is None
            assert "voided: match 2, game 1" in after["changes"][-1]["text"]
            # The PGN follows: the final's games are gone, match 1 shows the correction.
            pgn = chief.get(f"{url}/pgn").text
            assert pgn.count("[Event ") == 2 and '[Round "1.1.2"]' in pgn
            assert pgn.count('[Result "1-0"]') == 2
            # ... and the placings: first prize waits for the play-off again.
            placings = chief.get(f"{url}/placings").json()
            assert sorted(placings["awaiting_playoff"]) == sorted([ABDU, SINDAROV, PRAGG])
            assert placings["pending"]["first_prize"] == 100000
