"""Team events in the JSON format: good files read, bad ones refused with match and board."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from playoff_formats.errors import InputError
from playoff_formats.io.json_event import parse_event
from playoff_formats.model import BoardResult, TeamEvent, Venue


def county(change: Callable[[dict[str, Any]], None] | None = None) -> str:
    data: dict[str, Any] = {
        "name": "Northern counties",
        "kind": "team",
        "regulation": "county1980",
        "teams": [
            {"id": "LAN", "name": "Lancashire"},
            {"id": "YOR", "name": "Yorkshire"},
            {"id": "CHE", "name": "Cheshire"},
        ],
        "matches": [
            {"round": 1, "home": "LAN", "away": "YOR", "venue": "home",
             "boards": ["1-0", "1/2-1/2", "0-1", "1-0"]},
            {"round": 2, "home": "YOR", "away": "CHE", "venue": "neutral",
             "boards": ["1/2-1/2", "1/2-1/2", "1-0", "0-1"], "score": [2, 2]},
        ],
    }
    if change:
        change(data)
    return json.dumps(data)


def bridge(change: Callable[[dict[str, Any]], None] | None = None) -> str:
    data: dict[str, Any] = {
        "name": "Knock-out",
        "kind": "team",
        "regulation": "ebu-143.7",
        "teams": [{"id": "N", "name": "North"}, {"id": "S", "name": "South"}],
        "matches": [
            {"round": 1, "home": "N", "away": "S", "venue": "neutral",
             "boards": [420, -50, 0, 10, -1430], "imps": [9, 18]},
        ],
    }
    if change:
        change(data)
    return json.dumps(data)


def refusal(text: str) -> InputError:
    with pytest.raises(InputError) as caught:
        parse_event(text, "league.json")
    return caught.value


def test_reads_a_chess_team_event() -> None:
    event = parse_event(county())
    assert isinstance(event, TeamEvent)
    assert event.matches[0].boards[0] is BoardResult.HOME_WINS
    assert event.matches[1].venue is Venue.NEUTRAL
    assert not event.is_bridge


def test_reads_a_bridge_team_event() -> None:
    event = parse_event(bridge())
    assert isinstance(event, TeamEvent)
    assert event.is_bridge
    assert event.matches[0].bridge_boards == [420, -50, 0, 10, -1430]


def test_unknown_team_names_the_match() -> None:
    error = refusal(county(lambda d: d["matches"][1].update(away="LEI")))
    assert error.path == "matches[1].away"
    assert "match 2 (round 2, YOR v LEI): unknown team 'LEI'" in error.reason


def test_team_playing_itself() -> None:
    error = refusal(county(lambda d: d["matches"][0].update(away="LAN")))
    assert error.path == "matches[0].away"
    assert "cannot play itself" in error.reason


def test_invalid_board_result_names_match_and_board() -> None:
    def change(d: dict[str, Any]) -> None:
        d["matches"][0]["boards"][2] = "2-0"

    error = refusal(county(change))
    assert error.path == "matches[0].boards[2]"
    assert "match 1 (round 1, LAN v YOR), board 3: '2-0' is not a board result" in error.reason


def test_given_score_contradicting_the_boards() -> None:
    error = refusal(county(lambda d: d["matches"][1].update(score=[3, 1])))
    assert error.path == "matches[1].score"
    assert "the score 3–1 contradicts the boards, which add up to 2–2" in error.reason


def test_given_imps_contradicting_the_boards() -> None:
    error = refusal(bridge(lambda d: d["matches"][0].update(imps=[12, 3])))
    assert error.path == "matches[0].imps"
    assert "contradict the boards" in error.reason


def test_bridge_score_not_a_multiple_of_ten() -> None:
    def change(d: dict[str, Any]) -> None:
        d["matches"][0]["boards"][1] = -55

    error = refusal(bridge(change))
    assert error.path == "matches[0].boards[1]"
    assert "board 2: -55 is not a bridge score" in error.reason


def test_chess_and_bridge_boards_mixed_in_one_match() -> None:
    def change(d: dict[str, Any]) -> None:
        d["matches"][0]["boards"][3] = 420

    error = refusal(county(change))
    assert error.path == "matches[0].boards[3]"
    assert "mixes chess results and bridge scores" in error.reason


def test_duplicate_team_id() -> None:
    error = refusal(county(lambda d: d["teams"].append({"id": "LAN", "name": "Leics"})))
    assert error.path == "teams[3].id"


def test_bad_venue() -> None:
    error = refusal(county(lambda d: d["matches"][0].update(venue="away")))
    assert error.path == "matches[0].venue"
    assert "use home or neutral" in error.reason


def test_match_without_boards() -> None:
    error = refusal(county(lambda d: d["matches"][0].update(boards=[])))
    assert error.path == "matches[0].boards"


def test_byes_and_boards_not_played_are_expressible() -> None:
    def change(d: dict[str, Any]) -> None:
        d["matches"][0]["boards"] = ["1-0", "+/-", "-/+", "-/-"]
        d["matches"][0]["score"] = [2, 1]
        d["matches"].append({"round": 3, "home": "LAN", "away": "CHE", "venue": "home",
                             "boards": ["+/-"] * 4})
        d["byes"] = [{"round": 1, "team": "CHE", "kind": "pairing-allocated"},
                     {"round": 2, "team": "LAN", "kind": "half"}]

    event = parse_event(county(change))
    assert isinstance(event, TeamEvent)
    assert event.matches[0].boards[1] is BoardResult.HOME_WINS_BY_FORFEIT
    assert [m.played for m in event.matches] == [True, True, False]
    assert [(b.round, b.team, b.kind.value) for b in event.byes] == [
        (1, "CHE", "pairing-allocated"), (2, "LAN", "half")]


def test_a_bye_names_a_team_free_in_its_round() -> None:
    error = refusal(county(lambda d: d.update(byes=[{"round": 1, "team": "LEI", "kind": "full"}])))
    assert error.path == "byes[0].team"
    assert "bye 1 (round 1): unknown team 'LEI'; the teams are LAN, YOR, CHE" in error.reason
    error = refusal(county(lambda d: d.update(byes=[{"round": 1, "team": "YOR", "kind": "full"}])))
    assert error.path == "byes[0].round"
    assert "bye 1: team YOR already has a match (match 1) in round 1" in error.reason
    error = refusal(county(lambda d: d.update(byes=[{"round": 1, "team": "CHE", "kind": "full"},
                                                    {"round": 1, "team": "CHE", "kind": "zero"}])))
    assert "bye 2: team CHE already has a bye (bye 1) in round 1" in error.reason


def test_a_bridge_event_has_no_byes() -> None:
    error = refusal(bridge(lambda d: d.update(byes=[{"round": 2, "team": "N", "kind": "full"}])))
    assert error.path == "byes[0]"
    assert "a bye is for chess team events" in error.reason
