"""GCT 2015 reg. 1: prize money and tour points after the tiebreaks and the play-off."""

from __future__ import annotations

from fractions import Fraction

import pytest

from playoff_formats.builders.gct import gct2015_playoff
from playoff_formats.errors import PlayoffError
from playoff_formats.io.json_event import parse_json_event
from playoff_formats.model import Result
from playoff_formats.placings import award_prizes, final_placings
from playoff_formats.playoff import choose_decider_colours, record_result, set_game_one_colours
from playoff_formats.regulations import get_regulation
from tests.support import DATA
from tests.support.events import round_robin

GCT = get_regulation("gct2015")
UZCHESS = DATA / "uzchess-cup-masters-2025.json"

# A, B, C tied for first on 3½/5; D and E level on 2, separated by reg. 4 (a):
# D won a game (against F), E drew all five.
TIE = round_robin(
    "ABCDEF",
    {"AB": "1/2-1/2", "AC": "1/2-1/2", "BC": "1/2-1/2",
     "AF": "1-0", "BF": "1-0", "CF": "1-0",
     "AD": "1-0", "AE": "1/2-1/2", "BD": "1/2-1/2", "BE": "1-0",
     "CD": "1-0", "CE": "1/2-1/2",
     "DE": "1/2-1/2", "DF": "1-0", "EF": "1/2-1/2"},
)
PRIZES = [100000, 50000, 30000, 20000, 10000, 5000]
POINTS = [13, 10, 8, 7, 6, 5]


def test_tie_is_as_described() -> None:
    standings = GCT.standings(TIE)
    assert [r.score for r in standings.rows] == [3.5, 3.5, 3.5, 2, 2, 0.5]
    assert set(standings.playoff) == {"A", "B", "C"}


def test_reg_1_first_prize_is_never_divided_and_playoff_losers_share() -> None:
    standings = GCT.standings(TIE)
    winner = standings.playoff[2]  # the lowest seed wins the play-off
    awards = award_prizes(standings, PRIZES, POINTS, playoff_winner=winner)
    assert awards.award(winner).money == 100000
    losers = [p for p in standings.playoff if p != winner]
    for p in losers:
        # Places 2 and 3 shared equally: (50000 + 30000) / 2.
        assert awards.award(p).money == 40000
    # D and E are level on score: they share places 4-5 although (a) separated them.
    assert awards.award("D").money == awards.award("E").money == 15000


def test_reg_1_tour_points_follow_playoff_then_tiebreaks_undivided() -> None:
    # UzChess Cup Masters 2025: seeds Praggnanandhaa, Abdusattorov, Sindarov.
    event = parse_json_event(UZCHESS.read_text(encoding="utf-8"))
    standings = GCT.standings(event)
    pragg, abdu, sindarov = standings.playoff
    awards = award_prizes(standings, PRIZES, POINTS, playoff_winner=sindarov)
    assert (awards.award(sindarov).place, awards.award(sindarov).points) == (1, 13)
    # The losers keep their tiebreak order for the points, which are not divided...
    assert (awards.award(pragg).place, awards.award(pragg).points) == (2, 10)
    assert (awards.award(abdu).place, awards.award(abdu).points) == (3, 8)
    # ...but share the money of places 2 and 3.
    assert awards.award(pragg).money == awards.award(abdu).money == 40000
    assert awards.award(sindarov).money == 100000


def test_reg_4e_playoff_losers_still_tied_share_the_tour_points() -> None:
    # In TIE, A, B and C are level after every criterion (reg. 4 (e)).
    standings = GCT.standings(TIE)
    assert ("A", "B", "C") in standings.groups
    awards = award_prizes(standings, PRIZES, POINTS, playoff_winner="B")
    assert awards.award("B").points == 13
    assert awards.award("A").points == awards.award("C").points == 9
    # D won a game, E none: D is fourth with 7 points, E fifth with 6; not divided.
    assert (awards.award("D").points, awards.award("E").points) == (7, 6)


def test_reg_1_without_the_playoff_result_no_first_prize_is_given() -> None:
    standings = GCT.standings(TIE)
    awards = award_prizes(standings, PRIZES, POINTS)
    assert awards.awaiting_playoff == standings.playoff
    for p in standings.playoff:
        assert awards.award(p).money is None
        assert awards.award(p).points is None
    assert awards.pending_first_prize == 100000
    assert awards.pending_each_loser == 40000
    assert sum(a.money or 0 for a in awards.players) == 35000
    data = awards.to_json()
    assert {"id", "money", "points"} <= set(data["players"][0])


def test_reg_4e_shares_tour_points_of_an_unresolved_tie() -> None:
    # B and C mirror each other: still tied after (d), so they share 10 + 8.
    ev = round_robin(
        "ABCD",
        {"AB": "1-0", "AC": "1-0", "AD": "1-0", "BC": "1/2-1/2", "BD": "1-0",
         "CD": "1-0"},
    )
    awards = award_prizes(GCT.standings(ev), [300, 200, 100], [13, 10, 8, 7])
    assert awards.award("B").points == awards.award("C").points == 9
    assert awards.award("B").money == awards.award("C").money == 150
    assert awards.award("A").points == 13


def test_money_is_exact_and_shown_to_the_cent() -> None:
    ev = round_robin("ABCD", {"AB": "1/2-1/2", "AC": "1-0", "AD": "1-0",
                              "BC": "1-0", "BD": "1-0", "CD": "1/2-1/2"})
    # A and B tied for first; C and D share places 3-4 of 100 + 0.
    standings = GCT.standings(ev)
    awards = award_prizes(standings, [1000, 500, 100], playoff_winner=standings.playoff[0])
    assert awards.award("C").money == Fraction(50)
    ev3 = round_robin("ABC", {"AB": "1/2-1/2", "AC": "1/2-1/2", "BC": "1/2-1/2"})
    st3 = GCT.standings(ev3)
    awards3 = award_prizes(st3, [100, 100, 100], playoff_winner=st3.playoff[0])
    assert awards3.award(st3.playoff[1]).money == Fraction(100)


def test_playoff_winner_must_be_in_the_playoff() -> None:
    standings = GCT.standings(TIE)
    with pytest.raises(PlayoffError, match="not in the play-off"):
        award_prizes(standings, PRIZES, playoff_winner="D")


def test_final_placings_from_a_played_out_playoff() -> None:
    event = parse_json_event(UZCHESS.read_text(encoding="utf-8"))
    standings = GCT.standings(event)
    pragg, abdu, sindarov = standings.playoff
    playoff = gct2015_playoff(standings.playoff)
    # Reg. 7: seeds 2 and 3 play first; Sindarov wins the Armageddon with a draw as Black.
    first = next(m for m in playoff.matches if set(m.players) == {abdu, sindarov})
    playoff = set_game_one_colours(playoff, first.id, abdu, sindarov)
    playoff = record_result(playoff, first.id, 1, Result.WHITE_WINS)
    playoff = record_result(playoff, first.id, 2, Result.WHITE_WINS)
    playoff = choose_decider_colours(playoff, first.id, abdu, sindarov)
    playoff = record_result(playoff, first.id, 3, Result.DRAW)
    open_awards = final_placings(standings, playoff, PRIZES, POINTS)
    assert open_awards.awaiting_playoff == standings.playoff
    final = next(m for m in playoff.matches if set(m.players) == {pragg, sindarov})
    playoff = set_game_one_colours(playoff, final.id, sindarov, pragg)
    playoff = record_result(playoff, final.id, 1, Result.WHITE_WINS)
    playoff = record_result(playoff, final.id, 2, Result.DRAW)
    awards = final_placings(standings, playoff, PRIZES, POINTS)
    assert [a.id for a in awards.players[:3]] == [sindarov, pragg, abdu]
    assert [a.money for a in awards.players[:3]] == [100000, 40000, 40000]
    assert [a.points for a in awards.players[:3]] == [13, 10, 8]


def test_final_placings_refuse_a_playoff_of_other_players() -> None:
    standings = GCT.standings(TIE)
    with pytest.raises(PlayoffError, match="not the players"):
        final_placings(standings, gct2015_playoff(["A", "D"]), PRIZES)
