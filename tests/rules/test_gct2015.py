"""Grand Chess Tour 2015, reg. 4: each mathematical tiebreak, by its letter."""

from __future__ import annotations

from playoff_formats.regulations import get_regulation
from playoff_formats.regulations.gct2015 import special_prize_playoffs
from playoff_formats.tiebreaks.criteria import (
    DirectEncounter,
    ExtendedKoya,
    GamesWonOverTheBoard,
    SonnebornBerger,
)
from playoff_formats.tiebreaks.index import EventIndex
from tests.support.events import event, round_robin

GCT = get_regulation("gct2015")


def test_reg_4a_counts_games_won_over_the_board_only() -> None:
    # A: one win over the board, one forfeit win, one full-point bye.
    ev = event(
        "ABCD",
        [(1, "A", "B", "1-0"), (2, "A", "C", "+/-"), (1, "C", "D", "0-1"), (2, "B", "D", "1-0")],
        byes=[(3, "A", "full"), (3, "B", "pairing-allocated")],
    )
    values = GamesWonOverTheBoard().evaluate(EventIndex.of(ev), ["A", "B", "C", "D"])
    assert values == {"A": 1, "B": 1, "C": 0, "D": 1}


def test_reg_4a_splits_a_tie_and_says_so() -> None:
    # A, B and E on 2 points: A and E won twice, B won once and drew twice.
    ev = round_robin(
        "ABCDE",
        {"AC": "1-0", "AD": "1-0", "AE": "0-1", "AB": "0-1",
         "BC": "1/2-1/2", "BD": "1/2-1/2", "BE": "0-1",
         "CD": "1-0", "CE": "1-0", "DE": "1-0"},
    )
    index = EventIndex.of(ev)
    assert index.scores == {"A": 2, "B": 2, "C": 2.5, "D": 1.5, "E": 2}
    standings = GCT.standings(ev)
    first = standings.steps[0]
    assert first.label == "Reg. 4 (a)"
    assert first.groups == (("A", "E"), ("B",))
    assert standings.ranks["B"] == 4
    assert "Player B is fourth: 1 win against 2." in first.sentences


def test_reg_4b_mini_table_decides_after_equal_wins() -> None:
    # A and B on 1½ with one win each; A beat B.
    ev = round_robin(
        "ABCD",
        {"AB": "1-0", "CA": "1-0", "AD": "1/2-1/2", "BC": "1-0", "BD": "1/2-1/2",
         "CD": "1-0"},
    )
    index = EventIndex.of(ev)
    assert index.scores == {"A": 1.5, "B": 1.5, "C": 2, "D": 1}
    standings = GCT.standings(ev)
    step = standings.steps[1]
    assert step.label == "Reg. 4 (b)"
    assert step.values == {"A": 1.0, "B": 0.0}
    assert (standings.ranks["A"], standings.ranks["B"]) == (2, 3)


def test_reg_4b_counts_every_game_of_a_double_round_robin() -> None:
    ev = event(
        "ABC",
        [(1, "A", "B", "1-0"), (2, "C", "A", "0-1"), (3, "B", "C", "1-0"),
         (4, "B", "A", "1/2-1/2"), (5, "A", "C", "0-1"), (6, "C", "B", "1/2-1/2")],
    )
    values = DirectEncounter().evaluate(EventIndex.of(ev), ["A", "B"])
    # A: 1 (round 1) + ½ (round 4); B: 0 + ½.
    assert values == {"A": 1.5, "B": 0.5}


def test_reg_4b_is_applied_again_to_the_smaller_group_it_leaves() -> None:
    # A, B, C, D all on 3 points with 2 wins each. Among the four: A 2½, D 1½,
    # B 1, C 1. (b) is applied again to B and C alone: B beat C.
    ev = event(
        "ABCDXY",
        [
            (1, "A", "B", "1-0"), (1, "C", "D", "1/2-1/2"),
            (2, "A", "C", "1/2-1/2"), (2, "D", "B", "1-0"),
            (3, "A", "D", "1-0"), (3, "B", "C", "1-0"),
            (4, "B", "X", "1-0"), (4, "C", "Y", "1-0"),
            (5, "C", "X", "1-0"), (5, "D", "Y", "1-0"),
        ],
        byes=[(4, "A", "half"), (4, "D", "half"), (5, "B", "full")],
    )
    index = EventIndex.of(ev)
    assert {p: index.scores[p] for p in "ABCD"} == {"A": 3, "B": 3, "C": 3, "D": 3}
    standings = GCT.standings(ev)
    de_steps = [
        s for s in standings.steps
        if s.criterion == "direct_encounter" and set(s.tied) <= set("ABCD")
    ]
    assert [s.tied for s in de_steps] == [("A", "B", "C", "D"), ("B", "C")]
    assert de_steps[0].values == {"A": 2.5, "B": 1, "C": 1, "D": 1.5}
    assert de_steps[1].values == {"B": 1, "C": 0}
    assert [standings.ranks[p] for p in "ADBC"] == [1, 2, 3, 4]
    assert "sonneborn_berger" not in [s.criterion for s in standings.steps if "A" in s.tied]


def test_reg_4c_sonneborn_berger_values() -> None:
    ev = round_robin(
        "ABCD",
        {"AB": "1-0", "AC": "1/2-1/2", "AD": "0-1", "BC": "1-0", "BD": "1/2-1/2",
         "CD": "1-0"},
    )
    index = EventIndex.of(ev)
    # Scores: A 1.5, B 1.5, C 1.5, D 1.5.
    assert set(index.scores.values()) == {1.5}
    sb = SonnebornBerger().evaluate(index, ["A", "B", "C", "D"])
    # A: 1*1.5 (B) + ½*1.5 (C) + 0 = 2.25; every player 2.25 here by symmetry of scores.
    assert sb == {"A": 2.25, "B": 2.25, "C": 2.25, "D": 2.25}


def test_reg_4c_sonneborn_berger_separates() -> None:
    # A and B on 2 points, equal wins, drew each other: SB decides.
    ev = round_robin(
        "ABCDE",
        {"AB": "1/2-1/2", "AC": "1-0", "AD": "1/2-1/2", "AE": "0-1",
         "BC": "0-1", "BD": "1-0", "BE": "1/2-1/2",
         "CD": "1-0", "CE": "1/2-1/2", "DE": "1/2-1/2"},
    )
    index = EventIndex.of(ev)
    # Scores: A 2, B 2, C 2.5, D 1, E 2.5.
    assert (index.scores["A"], index.scores["B"]) == (2, 2)
    sb = SonnebornBerger().evaluate(index, ["A", "B"])
    # A: ½*2 (B) + 1*2.5 (C) + ½*1 (D) + 0 (E) = 4.0
    # B: ½*2 (A) + 0 (C) + 1*1 (D) + ½*2.5 (E) = 3.25
    assert sb == {"A": 4.0, "B": 3.25}
    standings = GCT.standings(ev)
    assert standings.steps[-1].criterion == "sonneborn_berger"
    assert standings.ranks["A"] < standings.ranks["B"]
    assert "Player A is" in " ".join(standings.steps[-1].sentences)


def test_reg_4d_i_points_against_players_on_fifty_percent() -> None:
    ev = round_robin(
        "ABCD",
        {"AB": "1/2-1/2", "CA": "1-0", "AD": "1-0", "BC": "1-0", "DB": "1-0",
         "CD": "1-0"},
    )
    index = EventIndex.of(ev)
    # Scores: A 1.5, B 1.5, C 2, D 1; 50% of 3 rounds is 1.5: A, B, C count.
    assert index.scores == {"A": 1.5, "B": 1.5, "C": 2, "D": 1}
    koya = ExtendedKoya().evaluate(index, ["A", "B"])
    # A: ½ (B) + 0 (C) = ½;  B: ½ (A) + 1 (C) = 1½.
    assert koya == {"A": (0.5,), "B": (1.5,)}


def test_reg_4d_ii_widens_step_by_step_to_lower_score_groups() -> None:
    # A and B both lost to H (the only player above 50%): (i) gives 0 each.
    # Step (ii) adds the best group below 50%, L1 on 1 point, whom A beat.
    ev = event(
        ["H", "A", "B", "L1", "L2"],
        [(1, "H", "A", "1-0"), (1, "B", "L2", "1-0"), (2, "H", "B", "1-0"),
         (2, "A", "L1", "1-0")],
        byes=[(1, "L1", "full"), (2, "L2", "zero"), (3, "A", "full"), (3, "B", "full"),
              (3, "H", "full"), (3, "L1", "zero"), (3, "L2", "zero")],
    )
    index = EventIndex.of(ev)
    assert index.scores == {"H": 3, "A": 2, "B": 2, "L1": 1, "L2": 0}
    koya = ExtendedKoya().evaluate(index, ["A", "B"])
    assert koya == {"A": (0.0, 1.0), "B": (0.0, 0.0)}


def test_reg_4d_ii_keeps_every_step_when_nothing_separates() -> None:
    ev = round_robin(
        "ABCD",
        {"AB": "1-0", "AC": "1-0", "AD": "1-0", "BC": "1/2-1/2", "BD": "1-0",
         "CD": "1-0"},
    )
    koya = ExtendedKoya().evaluate(EventIndex.of(ev), ["B", "C"])
    # 50% = 1.5: A (3), B (1.5), C (1.5); then D (0) is added.
    assert koya == {"B": (0.5, 1.5), "C": (0.5, 1.5)}


def test_reg_4e_unresolved_players_share_the_rank() -> None:
    # B and C mirror each other exactly: every criterion leaves them level.
    ev = round_robin(
        "ABCD",
        {"AB": "1-0", "AC": "1-0", "AD": "1-0", "BC": "1/2-1/2", "BD": "1-0",
         "CD": "1-0"},
    )
    standings = GCT.standings(ev)
    assert [row.rank for row in standings.rows] == [1, 2, 2, 4]
    assert ("B", "C") in standings.groups
    assert any("reg. 4 (e)" in line for line in standings.explanation)
    # Every criterion was tried, (d) last.
    assert [s.label for s in standings.steps] == [
        "Reg. 4 (a)", "Reg. 4 (b)", "Reg. 4 (c)", "Reg. 4 (d)"
    ]


def test_reg_2_tie_for_first_goes_to_a_playoff_seeded_by_reg_4() -> None:
    ev = round_robin(
        "ABCD",
        {"AB": "1/2-1/2", "AC": "1-0", "AD": "1/2-1/2", "BC": "1-0", "BD": "1/2-1/2",
         "CD": "0-1"},
    )
    standings = GCT.standings(ev)
    index = EventIndex.of(ev)
    top = max(index.scores.values())
    leaders = {p for p, s in index.scores.items() if s == top}
    assert set(standings.playoff) == leaders
    assert len(leaders) > 1
    assert [r.id for r in standings.rows if r.playoff] == list(standings.playoff)
    assert "play-off" in standings.explanation[-1]


def test_no_playoff_when_first_place_is_clear() -> None:
    ev = round_robin("ABC", {"AB": "1-0", "AC": "1-0", "BC": "1/2-1/2"})
    standings = GCT.standings(ev)
    assert standings.playoff == ()
    assert not any(row.playoff for row in standings.rows)


def test_reg_4b_when_not_all_met_ranks_only_an_uncatchable_leader() -> None:
    # A beat B and C; B and C never met: neither could reach A's 2 even by winning it.
    ev = event("ABCD", [(1, "A", "B", "1-0"), (2, "A", "C", "1-0"), (1, "C", "D", "1-0")])
    split = DirectEncounter().split(EventIndex.of(ev), ["A", "B", "C"])
    assert split.groups == (("A",), ("B", "C"))
    assert split.note is not None and "Art. 6.3" in split.note


def test_reg_4b_when_not_all_met_and_a_leader_could_be_caught_it_is_not_applied() -> None:
    # A beat B; C met neither: C could have reached 2, so (b) does not apply.
    ev = event("ABCD", [(1, "A", "B", "1-0"), (1, "C", "D", "1-0")])
    split = DirectEncounter().split(EventIndex.of(ev), ["A", "B", "C"])
    assert split.groups == (("A", "B", "C"),)
    assert split.note is not None and "not applied" in split.note


def test_reg_4b_partial_double_round_robin_counts_each_missing_game() -> None:
    # Double round robin cut short: A-B played twice (A 2), A-C once (A 1), B-C once
    # (B 1). C could still win the missing A-C and B-C games: ceiling 0 + 2 = 2,
    # B's ceiling 1 + 1 = 2; A's 3 is above both, so A is first.
    ev = event(
        "ABC",
        [(1, "A", "B", "1-0"), (2, "B", "A", "0-1"), (3, "A", "C", "1-0"),
         (4, "B", "C", "1-0")],
    )
    split = DirectEncounter().split(EventIndex.of(ev), ["A", "B", "C"])
    assert split.values == {"A": 3.0, "B": 1.0, "C": 0.0}
    assert split.groups == (("A",), ("B", "C"))


def test_reg_3_a_special_prize_needs_a_playoff_only_when_the_tiebreaks_cannot_decide() -> None:
    # B and C mirror each other: level after (d) for places 2-3.
    ev = round_robin(
        "ABCD",
        {"AB": "1-0", "AC": "1-0", "AD": "1-0", "BC": "1/2-1/2", "BD": "1-0",
         "CD": "1-0"},
    )
    standings = GCT.standings(ev)
    # A prize for second place: the tiebreaks cannot give it, so B and C play off.
    assert special_prize_playoffs(standings, [2]) == (("B", "C"),)
    # A prize for fourth place is decided: D is alone there.
    assert special_prize_playoffs(standings, [4]) == ()
    # First place is reg. 2's business, not reg. 3's.
    assert special_prize_playoffs(standings, [1]) == ()
