"""County team ties (1980): rules 1-7 and the worked examples I to VI.

Matches are built from the boards each side won (every other board drawn), so
the game points and board counts quoted by the text follow from the boards.
"""

from __future__ import annotations

import json

from playoff_formats.io.json_event import load_event
from playoff_formats.regulations import get_regulation
from playoff_formats.standings import Standings
from tests.support.events import chess_match, team_event

COUNTY = get_regulation("county1980")


def order(standings: Standings) -> list[str]:
    return [row.id for row in standings.rows]


def test_example_I_rule_1_eliminates_C_then_A_beat_B() -> None:
    # A beat B 8½-7½; B beat C 9½-6½; C drew with A 8-8, board counts C 31, A 38.
    # D and E are the rest of the league, placed so that A, B, C finish level on 5.
    ev = team_event(
        "ABCDE",
        [
            chess_match(1, "A", "B", 16, home_wins=[1]),
            chess_match(2, "B", "C", 16, home_wins=[1, 2, 3]),
            chess_match(3, "C", "A", 16, home_wins=[1, 14, 16], away_wins=[10, 13, 15]),
            chess_match(4, "A", "D", 16, away_wins=[1]),
            chess_match(4, "B", "E", 16),
            chess_match(5, "A", "E", 16, home_wins=[2]),
            chess_match(5, "D", "B", 16, away_wins=[3]),
            chess_match(6, "C", "D", 16, home_wins=[1]),
            chess_match(6, "E", "C", 16, away_wins=[4]),
            chess_match(7, "D", "E", 16, home_wins=[5]),
        ],
    )
    standings = COUNTY.standings(ev)
    assert [r.score for r in standings.rows[:3]] == [5, 5, 5]
    assert order(standings)[:3] == ["A", "B", "C"]
    first = standings.steps[0]
    assert first.label == "Rule 1"
    assert first.values == {"A": 3, "B": 2, "C": 1}
    assert first.groups == (("A", "B"), ("C",))
    # C's "win" on board count against A is not relevant: rule 2 is never applied.
    assert "Rule 2" not in [s.label for s in standings.steps]
    text = " ".join(standings.explanation)
    assert "match points A 3, B 2, C 1; C is eliminated." in text
    assert "A beat B 8½–7½" in text


def test_example_II_all_decided_by_rule_1_goes_to_rule_4_and_IV_decides() -> None:
    # A beat B 8½-7½; B beat C 9½-6½; C beat A 10½-9½ (20 boards).
    ev = team_event(
        "ABC",
        [
            chess_match(1, "A", "B", 16, home_wins=[1]),
            chess_match(2, "B", "C", 16, home_wins=[1, 2, 3]),
            chess_match(3, "C", "A", 20, home_wins=[1]),
        ],
    )
    standings = COUNTY.standings(ev)
    labels = [s.label for s in standings.steps]
    # Example II: rules 1-3 give 2 match points each, nothing gained; proceed to rule 4.
    assert labels[:4] == ["Rule 1", "Rule 2", "Rule 3", "Rule 4"]
    for step in standings.steps[:3]:
        assert step.values == {"A": 2, "B": 2, "C": 2}
    # Example IV: game scores A 0, B 2, C -2; C eliminated; then A beat B by rule 1.
    rule_4 = standings.steps[3]
    assert rule_4.values == {"A": 0, "B": 2, "C": -2}
    assert rule_4.groups == (("A", "B"), ("C",))
    assert order(standings) == ["A", "B", "C"]
    # B is not made top team by comparing A 0 with B 2.
    assert standings.steps[4].label == "Rule 1"
    assert standings.steps[4].tied == ("A", "B")


def test_example_III_rule_2_eliminates_A_then_B_beats_C_on_board_count() -> None:
    # All drawn: A-B 8-8 (board counts 31-31, B won the last decisive board; the
    # text's "board 17" is read as board 16), B-C 8-8 (29-33), C-A 10-10 (31-38).
    ev = team_event(
        "ABC",
        [
            chess_match(1, "A", "B", 16, home_wins=[2, 14, 15], away_wins=[3, 12, 16]),
            chess_match(2, "B", "C", 16, home_wins=[1, 12, 16], away_wins=[4, 14, 15]),
            chess_match(3, "C", "A", 20, home_wins=[12, 19], away_wins=[18, 20]),
        ],
    )
    standings = COUNTY.standings(ev)
    rule_1, rule_2 = standings.steps[:2]
    assert rule_1.values == {"A": 2, "B": 2, "C": 2}
    assert rule_2.values == {"A": 1, "B": 3, "C": 2}
    assert rule_2.groups == (("B", "C"), ("A",))
    # Then B v C: drawn under rule 1, won by B under rule 2.
    assert [s.label for s in standings.steps[2:]] == ["Rule 1", "Rule 2"]
    assert order(standings) == ["B", "C", "A"]
    # A's "win" against B under rule 3 is never invoked.
    assert "Rule 3" not in [s.label for s in standings.steps]


def _example_v_matches(b_wins_vs_c: list[int], c_wins_vs_a: list[int]) -> list:
    return [
        chess_match(1, "A", "B", 12, home_wins=[2, 7, 8, 9], away_wins=[10, 11, 12]),
        chess_match(2, "B", "C", 12, home_wins=b_wins_vs_c, away_wins=[8, 11]),
        chess_match(3, "C", "A", 12, home_wins=c_wins_vs_a, away_wins=[8, 12]),
    ]


def test_example_V_rule_5_eliminates_the_highest_board_count_difference() -> None:
    # A beat B, B beat C, C beat A, each by one game; board counts
    # A 46-39 = 7, B 49-45 = 4, C 25-36 = -11 (B won board 5 v C, C board 3 v A).
    ev = team_event("ABC", _example_v_matches([2, 5, 9], [1, 2, 3]))
    standings = COUNTY.standings(ev)
    rule_4 = next(s for s in standings.steps if s.label == "Rule 4")
    assert rule_4.values == {"A": 0, "B": 0, "C": 0}
    rule_5 = next(s for s in standings.steps if s.label == "Rule 5")
    assert rule_5.values == {"A": 7, "B": 4, "C": -11}
    assert rule_5.groups == (("B", "C"), ("A",))
    # Then rule 1 between B and C: B top, C second. C is not made top by B 4 v C -11.
    assert order(standings) == ["B", "C", "A"]


def test_example_VI_rule_6_eliminates_two_teams_together() -> None:
    # As V, but B won board 1 instead of 5 against C, and C board 10 instead of 3
    # against A: all board-count differences are 0. A and B won on board 12.
    ev = team_event("ABC", _example_v_matches([1, 2, 9], [1, 2, 10]))
    standings = COUNTY.standings(ev)
    rule_5 = next(s for s in standings.steps if s.label == "Rule 5")
    assert rule_5.values == {"A": 0, "B": 0, "C": 0}
    rule_6 = next(s for s in standings.steps if s.label == "Rule 6")
    assert rule_6.groups == (("C",), ("A", "B"))
    # C top; the tie for second between A and B is decided by rule 1: A beat B.
    assert order(standings) == ["C", "A", "B"]
    assert any("resolved afresh from rule 1" in line for line in standings.explanation)


def test_rule_3_decides_a_match_for_the_team_that_lost_the_lowest_decisive_board() -> None:
    # A v B 3-3 with board counts 6-6 (A won 1 and 5, B won 2 and 4): board 5 is
    # the lowest decisive board, won by A, so B wins the match by rule 3.
    ev = team_event("AB", [chess_match(1, "A", "B", 6, home_wins=[1, 5], away_wins=[2, 4])])
    standings = COUNTY.standings(ev)
    assert [s.label for s in standings.steps] == ["Rule 1", "Rule 2", "Rule 3"]
    assert order(standings) == ["B", "A"]


def test_rule_7_location_points_make_the_away_team_top() -> None:
    # Every board drawn at A's ground: the away team B becomes top (rule 7 note).
    ev = team_event("AB", [chess_match(1, "A", "B", 8)])
    standings = COUNTY.standings(ev)
    assert standings.steps[-1].label == "Rule 7"
    assert standings.steps[-1].values == {"A": 0, "B": 2}
    assert order(standings) == ["B", "A"]
    assert standings.playoff == ()


def test_a_tie_that_survives_rule_7_needs_a_playoff() -> None:
    # Every board drawn on neutral ground: the only case needing a play-off.
    ev = team_event("AB", [chess_match(1, "A", "B", 8, venue="neutral")])
    standings = COUNTY.standings(ev)
    assert [s.label for s in standings.steps] == [f"Rule {n}" for n in range(1, 8)]
    assert standings.playoff == ("A", "B")
    assert [r.rank for r in standings.rows] == [1, 1]
    assert "play-off is needed" in standings.explanation[-1]


def test_league_table_ranks_on_match_points_won_on_game_points() -> None:
    ev = team_event(
        "ABC",
        [
            chess_match(1, "A", "B", 6, home_wins=[1, 2]),
            chess_match(2, "B", "C", 6, away_wins=[3]),
            chess_match(3, "C", "A", 6),
        ],
    )
    standings = COUNTY.standings(ev)
    assert {r.id: r.score for r in standings.rows} == {"A": 3, "B": 0, "C": 3}


def test_rule_6_as_written_has_no_effect_when_every_tied_team_won_on_the_lowest_board() -> None:
    # Rule 6 eliminates "the team which won the lowest board on which there was a
    # decisive result". A, B and C each won a game on board 5; none did worse, and
    # the text has no count-back to a higher board, so rule 7 decides: location
    # points A 1, B 1, C 4 (two away matches), so C is first; then B beats A.
    ev = load_event(
        json.dumps(
            {
                "name": "r6",
                "kind": "team",
                "regulation": "county1980",
                "teams": [{"id": t, "name": t} for t in "ABC"],
                "matches": [
                    {"round": 1, "home": "A", "away": "C", "venue": "home",
                     "boards": ["1/2-1/2", "1-0", "1-0", "1/2-1/2", "1-0"]},
                    {"round": 2, "home": "A", "away": "B", "venue": "neutral",
                     "boards": ["0-1", "1/2-1/2", "1/2-1/2", "0-1", "0-1"]},
                    {"round": 3, "home": "B", "away": "C", "venue": "home",
                     "boards": ["1/2-1/2", "0-1", "0-1", "1/2-1/2", "0-1"]},
                ],
            }
        ),
        "r6.json",
    )
    standings = COUNTY.standings(ev)
    rule_6 = next(s for s in standings.steps if s.label == "Rule 6")
    assert rule_6.groups == (("A", "B", "C"),)
    assert "board 5" in rule_6.sentences[0] and "eliminates nobody" in rule_6.sentences[0]
    rule_7 = next(s for s in standings.steps if s.label == "Rule 7")
    assert rule_7.values == {"A": 1, "B": 1, "C": 4}
    assert rule_7.groups == (("C",), ("A", "B"))
    assert order(standings) == ["C", "B", "A"]
    assert "C is first." in standings.explanation
