"""EBU White Book 143.7 (how to split a tie), clause by clause, with its two worked examples.

Bridge matches are built here: boards are the home team's net scores, and
``net_for(k)`` is a net score worth exactly ``k`` IMPs, so that the IMPs, VPs
and board results quoted by each test follow from the boards.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from playoff_formats.errors import PlayoffError
from playoff_formats.model import Team, TeamEvent, TeamMatch, Venue
from playoff_formats.regulations.ebu_143_7 import (
    NEEDS_A_DRAW,
    Ebu1437,
    ebu_143_7,
    ebu_143_7_pachabo,
    ebu_143_7_swiss,
    pachabo_match,
)
from playoff_formats.scoring import IMP_UPPER_BOUNDS, victory_points, victory_points_discrete
from playoff_formats.standings import Standings

# --- builders -----------------------------------------------------------------


def net_for(imps: int) -> int:
    """The smallest net score (signed) worth exactly ``imps`` IMPs."""
    if imps == 0:
        return 0
    net = IMP_UPPER_BOUNDS[abs(imps) - 1] + 10
    return net if imps > 0 else -net


def bm(
    round: int,
    home: str,
    away: str,
    boards: Iterable[int] = (),
    *,
    imps: tuple[float, float] | None = None,
    vps: tuple[float, float] | None = None,
    board_count: int | None = None,
    venue: str = "home",
) -> TeamMatch:
    """A bridge match: net scores for the home team, or totals."""
    return TeamMatch(
        round=round,
        home=home,
        away=away,
        venue=Venue(venue),
        boards=list(boards),
        imps=imps,
        vps=vps,
        board_count=board_count,
    )


def swing(imps: int, boards: int = 8, on: int = 1) -> list[int]:
    """A match decided on one board (``on``, 1-based) by ``imps``; every other board flat."""
    result = [0] * boards
    result[on - 1] = net_for(imps)
    return result


def bridge_event(
    teams: Sequence[str] | str,
    matches: Iterable[TeamMatch],
    names: dict[str, str] | None = None,
    regulation: str = "ebu-143.7",
) -> TeamEvent:
    names = names or {}
    return TeamEvent(
        name="Test bridge event",
        regulation=regulation,
        teams=[Team(id=t, name=names.get(t, t)) for t in teams],
        matches=list(matches),
    )


def order(standings: Standings) -> list[str]:
    return [row.id for row in standings.rows]


def labels(standings: Standings) -> list[str]:
    return [step.label for step in standings.steps]


def text(standings: Standings) -> str:
    return " ".join(standings.explanation)


def discrete(margin: int, boards: int) -> tuple[float, float]:
    home, away = victory_points_discrete(margin, boards)
    return float(home), float(away)


# --- scores ---------------------------------------------------------------------


def test_score_is_total_vps_from_boards_given_imps_or_given_vps() -> None:
    # Boards 420, -50, 0, 100: 9, -2, 0, 3 IMPs: 12-2, a 10-IMP margin over 4 boards.
    from_boards = bm(1, "A", "B", [420, -50, 0, 100])
    from_imps = bm(2, "A", "C", imps=(20, 5), board_count=16)
    given = bm(3, "B", "C", vps=(13.5, 6.5))
    ev = bridge_event("ABC", [from_boards, from_imps, given])
    standings = ebu_143_7().standings(ev)
    a_vs_b = victory_points(10, 4)
    a_vs_c = victory_points(15, 16)
    scores = {row.id: row.score for row in standings.rows}
    assert scores["A"] == pytest.approx(a_vs_b[0] + a_vs_c[0])
    assert scores["B"] == pytest.approx(a_vs_b[1] + 13.5)
    assert scores["C"] == pytest.approx(a_vs_c[1] + 6.5)


def test_a_match_without_imps_or_boards_count_is_refused() -> None:
    ev = bridge_event("AB", [bm(1, "A", "B", imps=(20, 5))])
    with pytest.raises(PlayoffError, match="board_count"):
        ebu_143_7().standings(ev)


def test_chess_event_is_refused() -> None:
    from tests.support.events import chess_match, team_event

    ev = team_event("AB", [chess_match(1, "A", "B", 4, home_wins=[1])])
    with pytest.raises(PlayoffError, match="bridge"):
        ebu_143_7().standings(ev)


# --- 143.7.1 (a) ------------------------------------------------------------------


def test_143_7_1_a_the_match_between_them_in_vps() -> None:
    # North beat South 12.5-7.5 and finish level with it on 22.5 VPs.
    ev = bridge_event(
        "NSE",
        [
            bm(1, "N", "S", vps=(12.5, 7.5), imps=(30, 20)),
            bm(2, "N", "E", vps=(10, 10), imps=(25, 25)),
            bm(3, "S", "E", vps=(15, 5), imps=(40, 15)),
        ],
        names={"N": "North", "S": "South", "E": "East"},
    )
    standings = ebu_143_7().standings(ev)
    assert order(standings) == ["N", "S", "E"]
    assert standings.ranks == {"N": 1, "S": 2, "E": 3}
    assert "143.7.1 (a): North beat South 12.5–7.5 VPs in their match; North is first." in (
        standings.explanation
    )
    assert labels(standings) == ["143.7.1 (a)"]
    assert standings.steps[0].values == {"N": 12.5, "S": 7.5}


def test_143_7_1_a_vps_tied_then_the_match_imps_decide() -> None:
    # On the discrete scale a 1-IMP win over 16 boards is 10-10 VPs: the IMPs decide.
    assert discrete(1, 16) == (10.0, 10.0)
    ev = bridge_event(
        "NSE",
        [
            bm(1, "S", "N", vps=discrete(1, 16), imps=(28, 27)),
            bm(2, "N", "E", vps=(14, 6), imps=(40, 20)),
            bm(3, "S", "E", vps=(14, 6), imps=(40, 20)),
        ],
        names={"N": "North", "S": "South", "E": "East"},
    )
    standings = ebu_143_7().standings(ev)
    assert order(standings) == ["S", "N", "E"]
    assert (
        "143.7.1 (a): North and South drew 10–10 VPs in their match, so the Basic method "
        "decides: South won on IMPs, 28–27; South is first." in standings.explanation
    )
    assert standings.steps[0].values == {"N": (10.0, 27.0), "S": (10.0, 28.0)}


def test_143_7_1_a_several_matches_between_them_are_added_together() -> None:
    # A double round robin: A won the first 12-8, lost the second 9-11: 21-19.
    ev = bridge_event(
        "AB",
        [bm(1, "A", "B", vps=(12, 8)), bm(2, "B", "A", vps=(11, 9))],
    )
    standings = ebu_143_7().standings(ev)
    # Totals 21-19: no tie at all.
    assert order(standings) == ["A", "B"]
    ev = bridge_event(
        "ABC",
        [
            bm(1, "A", "B", vps=(12, 8)),
            bm(2, "B", "A", vps=(11, 9)),
            bm(3, "A", "C", vps=(9, 11)),
            bm(4, "B", "C", vps=(11, 9)),
        ],
    )
    standings = ebu_143_7().standings(ev)
    assert standings.steps[0].values == {"A": 21, "B": 19}
    assert "A beat B 21–19 VPs in their 2 matches" in text(standings)
    assert order(standings)[:2] == ["A", "B"]


# --- 143.7.1 (b) ------------------------------------------------------------------


def swiss_event() -> TeamEvent:
    """A and B finish level without meeting; A's opponents scored more (6 teams, 2 rounds)."""
    return bridge_event(
        "ABCDEF",
        [
            bm(1, "A", "C", vps=(12, 8), imps=(30, 24)),
            bm(1, "B", "D", vps=(12, 8), imps=(30, 24)),
            bm(1, "E", "F", vps=(10, 10), imps=(20, 20)),
            bm(2, "A", "E", vps=(11, 9), imps=(22, 20)),
            bm(2, "B", "F", vps=(11, 9), imps=(22, 20)),
            bm(2, "C", "D", vps=(12, 8), imps=(30, 24)),
        ],
    )


def test_143_7_1_b_tie_break_points_sum_of_opponents_final_scores() -> None:
    standings = ebu_143_7().standings(swiss_event())
    # A played C (20) and E (19): 39; B played D (16) and F (19): 35.
    assert order(standings)[:2] == ["A", "B"]
    assert labels(standings)[:2] == ["143.7.1 (a)", "143.7.1 (b)"]
    assert "A and B did not play each other" in text(standings)
    tbp = standings.steps[1]
    assert tbp.values == {"A": 39, "B": 35}
    assert tbp.groups == (("A",), ("B",))
    assert "A is first; B is second." in " ".join(tbp.sentences)
    assert standings.row("A").tiebreaks["tie_break_points"] == 39


def test_143_7_1_b_each_opponent_counts_once() -> None:
    # A meets C twice: C's final score counts once in A's tie-break points.
    ev = bridge_event(
        "ABCD",
        [
            bm(1, "A", "C", vps=(12, 8)),
            bm(2, "C", "A", vps=(10, 10)),
            bm(1, "B", "D", vps=(12, 8)),
            bm(2, "D", "B", vps=(10, 10)),
        ],
    )
    standings = ebu_143_7().standings(ev)
    assert standings.row("A").tiebreaks["tie_break_points"] == 18


def all_play_all_decided_by_imps() -> TeamEvent:
    """A and B drew with no swing; both beat C and D by the same VPs, A by more IMPs in total."""
    return bridge_event(
        "ABCD",
        [
            bm(1, "A", "B", vps=(10, 10), imps=(20, 20)),
            bm(1, "C", "D", vps=(10, 10), imps=(20, 20)),
            bm(2, "A", "C", vps=discrete(32, 16), imps=(42, 10)),
            bm(2, "B", "D", vps=discrete(30, 16), imps=(40, 10)),
            bm(3, "A", "D", vps=(12, 8), imps=(20, 12)),
            bm(3, "B", "C", vps=(12, 8), imps=(20, 12)),
        ],
    )


def test_143_7_1_b_never_applies_in_an_all_play_all() -> None:
    ev = all_play_all_decided_by_imps()
    assert discrete(32, 16) == discrete(30, 16)
    standings = ebu_143_7().standings(ev)
    top = [s for s in standings.steps if set(s.tied) == {"A", "B"}]
    assert [s.label for s in top] == ["143.7.1 (a)", "143.7.1 (b)", "143.7.1 (c)"]
    assert top[1].values == {}
    assert "tie-break points never apply in an all-play-all event" in " ".join(top[1].sentences)
    assert "tie_break_points" not in standings.row("A").tiebreaks


# --- 143.7.1 (c) ------------------------------------------------------------------


def test_143_7_1_c_basic_method_over_all_boards_imp_difference() -> None:
    standings = ebu_143_7().standings(all_play_all_decided_by_imps())
    step = next(s for s in standings.steps if s.label == "143.7.1 (c)" and "A" in s.tied)
    assert step.values == {"A": 40, "B": 38}
    assert order(standings)[:2] == ["A", "B"]
    assert "IMP difference: A +40, B +38; A is first; B is second." in text(standings)


def test_143_7_1_c_cannot_count_a_match_given_by_vps_alone() -> None:
    ev = bridge_event(
        "ABC",
        [
            bm(1, "A", "B", vps=(10, 10)),
            bm(2, "A", "C", vps=(12, 8)),
            bm(3, "B", "C", vps=(12, 8)),
        ],
    )
    standings = ebu_143_7().standings(ev)
    c = next(s for s in standings.steps if s.label == "143.7.1 (c)")
    assert "gives VPs without IMPs" in " ".join(c.sentences)
    assert standings.ranks == {"A": 1, "B": 1, "C": 3}


# --- 143.7.1 (d) ------------------------------------------------------------------


def count_back_event() -> TeamEvent:
    """A and B level on VPs, the match between them and IMPs; A won more boards.

    Round 2: A beat C on two boards of 3 IMPs (90 each): +6. B beat D on one board
    of 6 IMPs (250) and by 10 points on another: +10 is 0 IMPs, a drawn board.
    """
    flat = [0, 0, 0, 0]
    return bridge_event(
        "ABCD",
        [
            bm(1, "A", "B", flat),
            bm(1, "C", "D", flat),
            bm(2, "A", "C", [90, 90, 0, 0]),
            bm(2, "B", "D", [0, 0, 10, 250]),
            bm(3, "A", "D", flat),
            bm(3, "B", "C", flat),
        ],
    )


def test_143_7_1_d_point_a_board_count_back_judged_by_imps() -> None:
    standings = ebu_143_7().standings(count_back_event())
    assert order(standings) == ["A", "B", "D", "C"]
    step = next(s for s in standings.steps if s.label == "143.7.1 (d)" and "A" in s.tied)
    # A: 2 boards won, 10 drawn = 7. B: 1 won; the +10 board is a draw (0 IMPs): 6½.
    assert step.values == {"A": 7.0, "B": 6.5}
    sentence = " ".join(step.sentences)
    assert "A 7, B 6½" in sentence
    assert "12 boards that both teams played" in sentence
    assert "a 10-point difference being a draw" in sentence


def test_143_7_1_d_on_the_raw_score_the_10_point_board_would_have_tied_them() -> None:
    # The same boards judged as board-a-match (any plus score wins) give 7 each:
    # the count-back above depends on judging boards by IMPs.
    from playoff_formats.scoring import point_a_board

    assert point_a_board([0, 0, 10, 250])[0] == 3.0
    assert point_a_board([0, 0, 10, 250], by_imps=True)[0] == 2.5
    assert point_a_board([90, 90, 0, 0], by_imps=True)[0] == 3.0


def test_143_7_1_d_not_used_when_boards_were_not_duplicated() -> None:
    standings = ebu_143_7_swiss().standings(count_back_event())
    assert standings.regulation == "ebu-143.7-swiss"
    step = next(s for s in standings.steps if s.label == "143.7.1 (d)" and "A" in s.tied)
    assert step.values == {}
    assert "were not duplicated" in " ".join(step.sentences)
    assert standings.ranks["A"] == standings.ranks["B"] == 1


def test_143_7_1_d_uses_only_boards_every_tied_team_played() -> None:
    # B's round-2 match lists no boards (IMPs only): only rounds 1 and 3 are common.
    ev = bridge_event(
        "ABCD",
        [
            bm(1, "A", "B", [0, 0, 0, 0]),
            bm(1, "C", "D", [0, 0, 0, 0]),
            bm(2, "A", "C", [90, 90, 0, 0]),
            bm(2, "B", "D", imps=(6, 0), board_count=4),
            bm(3, "A", "D", [0, 0, 0, 0]),
            bm(3, "B", "C", [0, 0, 0, 0]),
        ],
    )
    standings = ebu_143_7().standings(ev)
    step = next(s for s in standings.steps if s.label == "143.7.1 (d)" and "A" in s.tied)
    assert step.values == {"A": 4.0, "B": 4.0}
    assert "8 boards that both teams played" in " ".join(step.sentences)
    assert "other boards are left out" in " ".join(step.sentences)


def test_143_7_1_d_not_used_when_a_team_played_twice_in_a_round() -> None:
    # A three-way match played in one round: board 1 of A's two matches are different deals.
    ev = bridge_event(
        "ABC",
        [
            bm(1, "A", "B", [0, 0]),
            bm(1, "B", "C", [0, 0]),
            bm(1, "C", "A", [0, 0]),
        ],
    )
    standings = ebu_143_7().standings(ev)
    step = next(s for s in standings.steps if s.label == "143.7.1 (d)")
    assert "two matches in one round" in " ".join(step.sentences)


# --- 143.7.1 (e)/(f): the draw --------------------------------------------------


def test_143_7_1_e_f_a_tie_left_after_d_needs_a_draw_never_made_silently() -> None:
    ev = bridge_event(
        "NS",
        [bm(1, "N", "S", [0, 420, -420, 0])],
        names={"N": "North", "S": "South"},
    )
    standings = ebu_143_7().standings(ev)
    assert standings.ranks == {"N": 1, "S": 1}
    assert standings.groups == (("N", "S"),)
    assert standings.playoff == ()
    last = standings.steps[-1]
    assert last.label == "143.7.1 (e)/(f)"
    assert last.criterion == "draw"
    assert NEEDS_A_DRAW == "needs a draw (cut of cards, 143.7.1)"
    assert NEEDS_A_DRAW in standings.explanation[-1]
    assert "The draw is not made here." in standings.explanation[-1]
    payload = standings.to_json()
    assert payload["unresolved"] == [["N", "S"]]
    assert payload["steps"][-1]["label"] == "143.7.1 (e)/(f)"
    assert all(row["tiebreaks"]["draw"] == NEEDS_A_DRAW for row in payload["standings"])


# --- the first worked example -------------------------------------------------------


def worked_example() -> TeamEvent:
    """A minimal faithful version of 143.7.1's worked example.

    Seven rounds of 8-board matches with duplicated boards; not all-play-all (A
    and B each meet seven of fourteen teams). A and B meet in round 1: 10-10, no
    swing. A then beats X1-X5 and draws with X6; B does the same against Y1-Y6,
    on board 2 where A won on board 1: by 20, 20, 20, 20 and 14 IMPs and 0, so
    each has +94 IMPs, five wins and two draws (the text's "four wins and four
    draws" for B cannot fit seven matches; it matters only that both make six),
    equal tie-break points, and the same point-a-board count on the same boards.
    """
    xs = [f"X{i}" for i in range(1, 7)]
    ys = [f"Y{i}" for i in range(1, 7)]
    margins = [20, 20, 20, 20, 14, 0]
    matches = [
        bm(1, "A", "B", [0] * 8),
        bm(1, "X1", "X2", [420, 0, 0, 0, 0, 0, 0, 0]),
        bm(1, "X3", "X4", [0, -100, 0, 0, 0, 0, 0, 0]),
        bm(1, "X5", "X6", [0] * 8),
        bm(1, "Y1", "Y2", [0] * 8),
        bm(1, "Y3", "Y4", [0, 0, 0, 0, 0, 0, 0, 650]),
        bm(1, "Y6", "Y5", [0, 0, 50, 0, 0, 0, 0, 0]),
    ]
    for r, (x, y, margin) in enumerate(zip(xs, ys, margins, strict=True), start=2):
        matches.append(bm(r, "A", x, swing(margin, 8, on=1)))
        matches.append(bm(r, y, "B", swing(-margin, 8, on=2)))
    return bridge_event(["A", "B", *xs, *ys], matches)


def test_worked_example_every_test_fails_and_the_tie_needs_a_draw() -> None:
    standings = ebu_143_7().standings(worked_example())
    assert standings.ranks["A"] == standings.ranks["B"] == 1
    top = [s for s in standings.steps if set(s.tied) == {"A", "B"}]
    # First/Second: the match (10 VPs each, no swing); Fourth: tie-break points;
    # Fifth: IMP difference; Sixth: point-a-board count-back; then the cut of cards.
    assert [s.label for s in top] == [
        "143.7.1 (a)",
        "143.7.1 (b)",
        "143.7.1 (c)",
        "143.7.1 (d)",
        "143.7.1 (e)/(f)",
    ]
    assert top[0].values == {"A": (10.0, 0.0), "B": (10.0, 0.0)}
    assert "no swing" in " ".join(top[0].sentences)
    assert top[1].values["A"] == top[1].values["B"]
    assert top[2].values == {"A": 94, "B": 94}
    assert top[3].values == {"A": 30.5, "B": 30.5}
    assert "56 boards that both teams played" in " ".join(top[3].sentences)
    assert NEEDS_A_DRAW in " ".join(top[4].sentences)
    assert ["A", "B"] in standings.to_json()["unresolved"]


def test_worked_example_third_test_wins_and_draws_when_chosen() -> None:
    reg = Ebu1437(wins_and_draws=True)
    standings = reg.standings(worked_example())
    top = [s for s in standings.steps if set(s.tied) == {"A", "B"}]
    assert [s.label for s in top][:3] == [
        "143.7.1 (a)",
        "143.7.1 example, third test",
        "143.7.1 (b)",
    ]
    assert top[1].values == {"A": 6, "B": 6}
    assert "a draw counting as half a win: A 6, B 6. Still tied." in " ".join(top[1].sentences)
    # The example's tie is not broken by it: both readings end with a draw.
    assert top[-1].label == "143.7.1 (e)/(f)"


def test_worked_example_wins_and_draws_is_the_named_regulation_ebu_143_7_wins_and_draws() -> None:
    # 143.7.1 worked example: its third test, reachable by name from every door.
    from playoff_formats.regulations import get_regulation

    named = get_regulation("ebu-143.7-wins-and-draws")
    assert isinstance(named, Ebu1437) and named.wins_and_draws
    standings = named.standings(worked_example())
    assert standings.regulation == "ebu-143.7-wins-and-draws"
    assert "143.7.1 example, third test" in [s.label for s in standings.steps]
    assert standings.to_json()["standings"] == (
        Ebu1437(wins_and_draws=True).standings(worked_example()).to_json()["standings"]
    )


def test_wins_and_draws_counts_a_draw_as_half_a_win_and_can_decide() -> None:
    # A: two wins (2); B: one win and a draw (1½); both on 30 VPs, never met.
    ev = bridge_event(
        "ABCDE",
        [
            bm(1, "A", "C", vps=(15, 5)),
            bm(2, "A", "D", vps=(15, 5)),
            bm(1, "B", "D", vps=(20, 0)),
            bm(2, "B", "E", vps=(10, 10)),
        ],
    )
    plain = ebu_143_7().standings(ev)
    chosen = Ebu1437(wins_and_draws=True).standings(ev)
    step = next(s for s in chosen.steps if s.label == "143.7.1 example, third test")
    assert step.values == {"A": 2, "B": 1.5}
    assert chosen.ranks["A"] < chosen.ranks["B"]
    # As written, tie-break points decide instead: B's opponents scored more.
    tbp = next(s for s in plain.steps if s.label == "143.7.1 (b)")
    assert tbp.values == {"A": 10, "B": 15}
    assert plain.ranks["B"] < plain.ranks["A"]


def test_wins_and_draws_as_a_percentage_when_match_counts_differ() -> None:
    # 143.6.2: A won both its matches; B won two of three. Both on 30 VPs.
    ev = bridge_event(
        "ABCDEF",
        [
            bm(1, "A", "C", vps=(15, 5)),
            bm(2, "A", "D", vps=(15, 5)),
            bm(1, "B", "E", vps=(12, 8)),
            bm(2, "B", "F", vps=(12, 8)),
            bm(3, "B", "C", vps=(6, 14)),
        ],
    )
    standings = Ebu1437(wins_and_draws=True).standings(ev)
    step = next(s for s in standings.steps if s.label == "143.7.1 example, third test")
    assert step.values["A"] == 100
    assert step.values["B"] == pytest.approx(200 / 3)
    assert "as a percentage (143.6.2)" in " ".join(step.sentences)
    assert standings.ranks["A"] < standings.ranks["B"]


# --- 143.7.2 ------------------------------------------------------------------------


def test_143_7_2_final_scores_among_them() -> None:
    # A, B, C level on 30; among themselves A 22, B 20, C 18. D beat E: D is first.
    ev = bridge_event(
        "ABCDE",
        [
            bm(1, "A", "B", vps=(12, 8), imps=(20, 10)),
            bm(2, "B", "C", vps=(12, 8), imps=(20, 10)),
            bm(3, "C", "A", vps=(10, 10), imps=(15, 15)),
            bm(1, "C", "D", vps=(12, 8), imps=(20, 10)),
            bm(2, "A", "D", vps=(8, 12), imps=(10, 20)),
            bm(3, "B", "D", vps=(10, 10), imps=(15, 15)),
            bm(4, "D", "E", vps=(15, 5), imps=(40, 10)),
        ],
    )
    standings = ebu_143_7().standings(ev)
    assert "143.7.2: A, B and C all played each other" in text(standings)
    first = standings.steps[0]
    assert first.label == "143.7.2 (1)"
    assert first.values == {"A": 22, "B": 20, "C": 18}
    assert order(standings) == ["D", "A", "B", "C", "E"]


def cycle(
    ab: tuple[int, int], bc: tuple[int, int], ca: tuple[int, int], extra: Iterable[TeamMatch] = ()
) -> TeamEvent:
    """A, B, C all 10-10 on VPs against each other (discrete scale), IMPs as given."""
    return bridge_event(
        sorted({"A", "B", "C", *(t for m in extra for t in (m.home, m.away))}),
        [
            bm(1, "A", "B", vps=(10, 10), imps=ab),
            bm(2, "B", "C", vps=(10, 10), imps=bc),
            bm(3, "C", "A", vps=(10, 10), imps=ca),
            *extra,
        ],
    )


def test_143_7_2_the_team_that_defeated_all_the_others_on_imps() -> None:
    # A beat B by 1 IMP and C by 2; B beat C by 5. VPs among them 20 each.
    ev = cycle(ab=(21, 20), bc=(25, 20), ca=(28, 30))
    standings = ebu_143_7().standings(ev)
    assert labels(standings)[:3] == ["143.7.2 (1)", "143.7.2 (2)", "143.7.1 (a)"]
    defeated = standings.steps[1]
    assert defeated.values == {"A": 1.0, "B": 0.0, "C": 0.0}
    assert "A defeated each of B and C on IMPs head-on; A is first" in text(standings)
    # B and C restart at 143.7.1 (a): 10-10 VPs, B won on IMPs.
    assert "The tie between B and C for places 2-3 is split afresh among them, from 143.7.1." in (
        standings.explanation
    )
    assert order(standings) == ["A", "B", "C"]


def test_143_7_2_basic_scores_among_them() -> None:
    # A beat B by 3, B beat C by 2, C beat A by 1: nobody beat both.
    # IMP difference among them: A +2, B -1, C -1; then B beat C head-on.
    ev = cycle(ab=(23, 20), bc=(22, 20), ca=(21, 20))
    standings = ebu_143_7().standings(ev)
    assert labels(standings)[:4] == ["143.7.2 (1)", "143.7.2 (2)", "143.7.2 (3)", "143.7.1 (a)"]
    assert standings.steps[1].groups == (("A", "B", "C"),)
    assert "no team defeated all the others" in text(standings)
    assert standings.steps[2].values == {"A": 2, "B": -1, "C": -1}
    assert order(standings) == ["A", "B", "C"]


def test_143_7_2_then_143_7_1_b_to_f_and_a_smaller_tie_restarts() -> None:
    # A beat B, B beat C, C beat A, each by 2 IMPs: every 143.7.2 test fails.
    # Not all-play-all: A and C met X, B met Y; Y finished above X, so B's
    # tie-break points are highest. A and C then restart at 143.7.1 (a): C beat A.
    extra = [
        bm(4, "A", "X", vps=(12, 8), imps=(30, 20)),
        bm(4, "B", "Y", vps=(12, 8), imps=(30, 20)),
        bm(5, "C", "X", vps=(12, 8), imps=(30, 20)),
        bm(5, "Y", "X", vps=(15, 5), imps=(40, 10)),
    ]
    ev = cycle(ab=(22, 20), bc=(22, 20), ca=(22, 20), extra=extra)
    standings = ebu_143_7().standings(ev)
    assert labels(standings)[:5] == [
        "143.7.2 (1)",
        "143.7.2 (2)",
        "143.7.2 (3)",
        "143.7.1 (b)",
        "143.7.1 (a)",
    ]
    tbp = standings.steps[3]
    assert tbp.tied == ("A", "B", "C")
    # A: B 32 + C 32 + X 21 = 85; B: A 32 + C 32 + Y 23 = 87; C: 85.
    assert tbp.values == {"A": 85, "B": 87, "C": 85}
    assert tbp.groups == (("B",), ("A", "C"))
    assert "The tie between A and C for places 2-3 is split afresh among them, from 143.7.1." in (
        standings.explanation
    )
    assert order(standings)[:3] == ["B", "C", "A"]


def test_143_7_3_three_teams_who_did_not_all_play_each_other() -> None:
    # A, B and C level; A met B, C met neither: straight to 143.7.1 (b).
    ev = bridge_event(
        "ABCDE",
        [
            bm(1, "A", "B", vps=(10, 10), imps=(20, 20)),
            bm(1, "C", "D", vps=(10, 10), imps=(20, 20)),
            bm(2, "A", "D", vps=(12, 8), imps=(30, 20)),
            bm(2, "B", "E", vps=(12, 8), imps=(30, 20)),
            bm(3, "C", "E", vps=(12, 8), imps=(30, 20)),
            bm(3, "D", "E", vps=(15, 5), imps=(40, 10)),
        ],
    )
    standings = ebu_143_7().standings(ev)
    assert "143.7.3: A, B and C did not all play each other (A did not play C)" in text(standings)
    first = standings.steps[0]
    assert first.label == "143.7.1 (b)"
    # A: B 22 + D 33 = 55; B: A 22 + E 21 = 43; C: D 33 + E 21 = 54.
    assert first.values == {"A": 55, "B": 43, "C": 54}
    assert order(standings) == ["D", "A", "C", "B", "E"]


# --- Pachabo ------------------------------------------------------------------------


def test_pachabo_hps_point_a_board_element_and_aggregate_element() -> None:
    # Six boards: home wins five by 10 points; away wins one by 1430.
    facts = pachabo_match(bm(1, "A", "B", [10, 10, 10, 10, 10, -1430]), 1)
    assert facts.point_a_board == (F(5), F(1))  # 6 HPs x 5/6 and 6 x 1/6
    assert facts.aggregate == -1380  # B won the aggregate by 10 or more: 4 HPs
    assert facts.final == (F(5), F(5))
    level = pachabo_match(bm(1, "A", "B", [50, -50, 0, 0]), 1)
    assert level.point_a_board == (F(3), F(3))
    assert level.final == (F(5), F(5))  # aggregate level: 2 HPs each
    small = pachabo_match(bm(1, "A", "B", [10, 0, 0]), 1)
    assert small.final == (F(4 + 4), F(2))  # 6 x 2/3 = 4 and the aggregate by 10 points: 4


def test_pachabo_point_a_board_element_decides_a_tied_match() -> None:
    ev = bridge_event("AB", [bm(1, "A", "B", [10, 10, 10, 10, 10, -1430])])
    standings = ebu_143_7_pachabo().standings(ev)
    assert standings.regulation == "ebu-143.7-pachabo"
    assert order(standings) == ["A", "B"]
    sentence = standings.explanation[1]
    assert sentence == (
        "143.7.1 (a): A and B drew 5–5 HPs in their match; the point-a-board element, the "
        "more significant, decides: A won it 5–1 HPs; A is first."
    )


def pachabo_worked_example() -> TeamEvent:
    """A and B draw 5-5 HPs, level on the point-a-board element and on aggregate."""
    return bridge_event(
        "ABCD",
        [
            bm(1, "A", "B", [50, -50, 0, 0]),
            bm(2, "A", "C", [100, 100, -50, 0]),
            bm(2, "B", "D", [100, 100, -50, 0]),
            bm(3, "C", "D", [50, 0, 0, 0]),
        ],
        regulation="ebu-143.7-pachabo",
    )


def test_pachabo_worked_example_hps_then_point_a_board_then_aggregate_then_b() -> None:
    standings = ebu_143_7_pachabo().standings(pachabo_worked_example())
    top = [s for s in standings.steps if set(s.tied) == {"A", "B"}]
    assert [s.label for s in top] == ["143.7.1 (a)", "143.7.1 (b)"]
    assert top[0].values == {"A": (5.0, 3.0, 0.0), "B": (5.0, 3.0, 0.0)}
    assert top[0].sentences == (
        "143.7.1 (a): A and B drew 5–5 HPs in their match; the point-a-board element is level "
        "too, 3–3 HPs; the aggregate element is level as well. Still tied.",
    )
    # (b) on HPs: A's opponents B 12.75 and C 10; B's are A 12.75 and D 4.5.
    assert top[1].values == {"A": 22.75, "B": 17.25}
    assert order(standings)[:2] == ["A", "B"]


def test_pachabo_all_play_all_all_level_skips_c_and_needs_a_draw() -> None:
    ev = bridge_event("AB", [bm(1, "A", "B", [50, -50, 0, 0])])
    standings = ebu_143_7_pachabo().standings(ev)
    assert labels(standings) == [
        "143.7.1 (a)",
        "143.7.1 (b)",
        "143.7.1 (c)",
        "143.7.1 (d)",
        "143.7.1 (e)/(f)",
    ]
    assert "this one is scored by HPs" in text(standings)
    assert "a board won on any positive score" in text(standings)
    assert NEEDS_A_DRAW in text(standings)


def test_pachabo_refuses_vps_and_matches_without_boards() -> None:
    with pytest.raises(PlayoffError, match="HPs"):
        ebu_143_7_pachabo().standings(bridge_event("AB", [bm(1, "A", "B", vps=(12, 8))]))


def test_pachabo_143_7_2_defeated_all_on_hps() -> None:
    # Every match 5-5 on HPs; A won both its point-a-board elements.
    ev = bridge_event(
        "ABC",
        [
            bm(1, "A", "B", [10, 10, 10, 10, 10, -1430]),
            bm(2, "A", "C", [10, 10, 10, 10, 10, -1430]),
            bm(3, "B", "C", [50, -50, 0, 0]),
        ],
    )
    standings = ebu_143_7_pachabo().standings(ev)
    assert labels(standings)[:2] == ["143.7.2 (1)", "143.7.2 (2)"]
    assert standings.steps[1].values == {"A": 1.0, "B": 0.0, "C": 0.0}
    assert order(standings)[0] == "A"


# --- properties -------------------------------------------------------------------

NETS = [0, 0, 0, 10, -10, 50, -50, 110, -110, 420, -420]
VP_PAIRS = [(10.0, 10.0), (12.0, 8.0), (8.0, 12.0), (15.0, 5.0)]


@st.composite
def bridge_events(draw: st.DrawFn) -> TeamEvent:
    n = draw(st.integers(min_value=2, max_value=6))
    ids = [f"t{i}" for i in range(n)]
    pairs = [(a, b) for i, a in enumerate(ids) for b in ids[i + 1 :]]
    if draw(st.booleans()):
        chosen = pairs
    else:
        chosen = draw(
            st.lists(st.sampled_from(pairs), min_size=1, max_size=len(pairs), unique=True)
        )
    given_vps = draw(st.booleans())
    boards = draw(st.integers(min_value=1, max_value=4))
    matches = []
    for number, (a, b) in enumerate(chosen, start=1):
        rnd = draw(st.integers(min_value=1, max_value=number))
        if given_vps:
            matches.append(bm(rnd, a, b, vps=draw(st.sampled_from(VP_PAIRS)), venue="neutral"))
        else:
            nets = draw(st.lists(st.sampled_from(NETS), min_size=boards, max_size=boards))
            matches.append(bm(rnd, a, b, nets, venue="neutral"))
    names = {t: f"Team {chr(65 + i)}" for i, t in enumerate(ids)}
    return bridge_event(ids, matches, names=names)


def _relabelled(event: TeamEvent, mapping: dict[str, str], rng: random.Random) -> TeamEvent:
    teams = [t.model_copy(update={"id": mapping[t.id]}) for t in event.teams]
    matches = [
        m.model_copy(update={"home": mapping[m.home], "away": mapping[m.away]})
        for m in event.matches
    ]
    rng.shuffle(teams)
    rng.shuffle(matches)
    return event.model_copy(update={"teams": teams, "matches": matches})


def _swapped(event: TeamEvent) -> TeamEvent:
    def swap(m: TeamMatch) -> TeamMatch:
        return m.model_copy(
            update={
                "home": m.away,
                "away": m.home,
                "boards": [-b for b in m.bridge_boards],
                "imps": None if m.imps is None else (m.imps[1], m.imps[0]),
                "vps": None if m.vps is None else (m.vps[1], m.vps[0]),
            }
        )

    return event.model_copy(update={"matches": [swap(m) for m in event.matches]})


REGULATIONS = [ebu_143_7(), ebu_143_7_pachabo(), Ebu1437(wins_and_draws=True)]


def _standings(reg: Ebu1437, event: TeamEvent) -> Standings | None:
    try:
        return reg.standings(event)
    except PlayoffError:
        return None  # the Pachabo refuses matches given by VPs


@settings(max_examples=120, deadline=None)
@given(bridge_events(), st.randoms(use_true_random=False), st.sampled_from(REGULATIONS))
def test_relabelling_teams_and_reordering_matches_changes_nothing(
    event: TeamEvent, rng: random.Random, reg: Ebu1437
) -> None:
    ids = [t.id for t in event.teams]
    shuffled = ids[:]
    rng.shuffle(shuffled)
    mapping = {old: f"new-{new}" for old, new in zip(ids, shuffled, strict=True)}
    before = _standings(reg, event)
    after = _standings(reg, _relabelled(event, mapping, rng))
    if before is None or after is None:
        assert before is None and after is None
        return
    assert {mapping[t]: r for t, r in before.ranks.items()} == after.ranks
    assert [mapping[r.id] for r in before.rows] == [r.id for r in after.rows]
    assert [r.tiebreaks for r in before.rows] == [r.tiebreaks for r in after.rows]
    assert [tuple(mapping[t] for t in g) for g in before.groups] == list(after.groups)
    assert before.explanation == after.explanation
    assert [s.label for s in before.steps] == [s.label for s in after.steps]


@settings(max_examples=120, deadline=None)
@given(bridge_events(), st.sampled_from(REGULATIONS))
def test_neutral_venue_home_away_swap_with_negated_boards_changes_nothing(
    event: TeamEvent, reg: Ebu1437
) -> None:
    before = _standings(reg, event)
    after = _standings(reg, _swapped(event))
    if before is None or after is None:
        assert before is None and after is None
        return
    assert before.to_json() == after.to_json()
