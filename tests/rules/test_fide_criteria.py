"""FIDE C.07 (from 1 March 2026): each tie-break code, by its article.

Every expected number below was worked out by hand from the crosstables in the
comments; the working is written next to the assertion.
"""

from __future__ import annotations

from playoff_formats.model import IndividualEvent
from playoff_formats.tiebreaks.catalogue import CODES, Settings, criterion_of, parse_code
from playoff_formats.tiebreaks.core import Criterion, LabelledCriterion, resolve_tie
from playoff_formats.tiebreaks.fide import (
    Buchholz,
    BuchholzCut1,
    DirectEncounter,
    GamesWithBlack,
    GamesWon,
    Koya,
    SonnebornBerger,
    SonnebornBergerCut1,
    Unplayed,
    Wins,
    WinsWithBlack,
    adjusted_score,
    all_rounds,
    categorise,
)
from playoff_formats.tiebreaks.index import EventIndex
from tests.support.events import event, swiss

EVERYONE = list("ABCDEF")


def values(criterion: Criterion, ev: IndividualEvent, group: list[str]) -> dict[str, float]:
    result = {}
    for p, v in criterion.evaluate(EventIndex.of(ev), group).items():
        assert not isinstance(v, tuple)
        result[p] = v
    return result


def test_the_swiss_event_scores_as_described() -> None:
    assert EventIndex.of(swiss()).scores == {"A": 3, "B": 2, "C": 1.5, "D": 0.5, "E": 3, "F": 1.5}


# --- Art. 16: unplayed rounds in Swiss tournaments ---


def test_art_16_2_sorts_unplayed_rounds_into_categories() -> None:
    index = EventIndex.of(swiss())
    by_round = {p: dict(enumerate(categorise(all_rounds(index, p)), start=1)) for p in "BCDEF"}
    assert by_round["B"][2] is Unplayed.FULL_POINT_BYE  # 16.2.1
    assert (by_round["E"][1], by_round["E"][4]) == (Unplayed.FORFEIT_WIN,) * 2  # 16.2.2
    assert by_round["C"][3] is Unplayed.BYE_BEFORE_RETURN  # 16.2.3: C played R4
    assert by_round["F"][2] is Unplayed.BYE_BEFORE_RETURN  # 16.2.3: F played R3
    assert (by_round["F"][1], by_round["D"][4]) == (Unplayed.FORFEIT_LOSS,) * 2  # 16.2.4
    assert by_round["D"][3] is Unplayed.BYE_AT_END  # 16.2.5: a forfeit loss is no return
    assert by_round["B"][1] is None  # a game played over the board


def test_art_16_2_a_round_without_any_record_is_an_absence() -> None:
    # Y plays only R1 of two rounds; R2 has no game and no bye for Y.
    ev = event("XYZ", [(1, "X", "Y", "1-0"), (2, "X", "Z", "1-0")])
    index = EventIndex.of(ev)
    rounds = all_rounds(index, "Y")
    assert [r.round for r in rounds] == [1, 2]
    assert categorise(rounds) == [None, Unplayed.BYE_AT_END]
    # Art. 16.3: Y's absent last round counts as a draw for X: 0 + ½.
    assert adjusted_score(index, "Y") == 0.5


def test_art_16_3_adjusted_scores_count_only_category_16_2_5_as_draws() -> None:
    index = EventIndex.of(swiss())
    # D: ½ + 0 + (R3 16.2.5 as a draw) ½ + 0 = 1. F's R2 zero bye is 16.2.3
    # and stays at 0, so F is 1½, not 2.
    assert {p: adjusted_score(index, p) for p in EVERYONE} == {
        "A": 3,
        "B": 2,
        "C": 1.5,
        "D": 1,
        "E": 3,
        "F": 1.5,
    }


# --- Art. 7: the participant's own results ---


def test_art_7_1_win_counts_rounds_scored_as_a_win_with_or_without_playing() -> None:
    # A: R1, R3. B: R2 pairing-allocated bye, R4. E: R1 and R4 forfeits, R2. F: R3.
    assert values(Wins(), swiss(), EVERYONE) == {"A": 2, "B": 2, "C": 0, "D": 0, "E": 3, "F": 1}


def test_art_7_2_won_counts_games_won_over_the_board_only() -> None:
    # B's bye and E's two forfeit wins are not games won: B 1 (R4), E 1 (R2).
    assert values(GamesWon(), swiss(), EVERYONE) == {"A": 2, "B": 1, "C": 0, "D": 0, "E": 1, "F": 1}


def test_art_15_2_won_in_a_round_robin_counts_a_forfeit_win_as_a_game() -> None:
    # Pre-determined pairings: E's forfeit wins are regular games, E 3.
    assert values(GamesWon("round-robin"), swiss(), ["B", "E"]) == {"B": 1, "E": 3}


def test_art_7_3_bpg_counts_games_played_with_black_and_not_unplayed_ones() -> None:
    # Black: B R1; C R2, R4; D R1; E R2, R3 (R4 -/+ not played); F R3, R4
    # (R1 forfeit not played). A always had White.
    assert values(GamesWithBlack(), swiss(), EVERYONE) == {
        "A": 0,
        "B": 1,
        "C": 2,
        "D": 1,
        "E": 2,
        "F": 2,
    }


def test_art_15_2_bpg_in_a_round_robin_counts_forfeit_wins_but_not_losses() -> None:
    # E's R4 forfeit win with Black counts (3); F's R1 forfeit loss with Black does not (2).
    assert values(GamesWithBlack("round-robin"), swiss(), ["E", "F"]) == {"E": 3, "F": 2}


def test_art_7_4_bwg_counts_games_won_with_black() -> None:
    # E won R2 with Black (D-E 0-1), F won R3 (B-F 0-1). E's R4 -/+ is not a game.
    assert values(WinsWithBlack(), swiss(), EVERYONE) == {
        "A": 0,
        "B": 0,
        "C": 0,
        "D": 0,
        "E": 1,
        "F": 1,
    }
    assert values(WinsWithBlack("round-robin"), swiss(), ["E"]) == {"E": 2}


# --- Art. 8.1 and 14.1.1 (a): Buchholz and Buchholz cut 1 ---


def test_art_8_1_buchholz_with_the_dummies_of_art_16_4() -> None:
    # Opponents' adjusted scores (Art. 16.3); own unplayed rounds count a dummy
    # on the player's own score, capped (Art. 16.4.1, 16.4.2; cap 2).
    # A: B 2 + C 1½ + E 3 + F 1½ = 8
    # B: A 3 + bye min(2, 2) 2 + F 1½ + C 1½ = 8
    # C: D 1 + A 3 + bye min(1½, 2) 1½ + B 2 = 7½   (D counts 1, not ½)
    # D: C 1½ + E 3 + bye min(½, 2) ½ + forfeit min(½, E 3) ½ = 5½
    # E: forfeit min(3, F 1½) 1½ + D 1 + A 3 + forfeit min(3, D 1) 1 = 6½
    #    (the uncapped 2024 rule would give 3 + 1 + 3 + 3 = 10)
    # F: forfeit min(1½, E 3) 1½ + bye min(1½, 2) 1½ + B 2 + A 3 = 8
    assert values(Buchholz(), swiss(), EVERYONE) == {
        "A": 8,
        "B": 8,
        "C": 7.5,
        "D": 5.5,
        "E": 6.5,
        "F": 8,
    }


def test_art_16_4_2_caps_a_bye_dummy_at_a_draw_per_round() -> None:
    # R1 X-Y 1-0, Z bye; R2 X-Z 1-0, Y bye (pairing-allocated); R3 Y-Z ½-½, X zero bye.
    # X 2, Y 1½, Z 1½; cap ½ × 3 = 1½. X's absent last round is 16.2.5, so
    # Y and Z see X as 2½ (Art. 16.3), but X's own dummy is min(2, 1½) = 1½.
    ev = event(
        "XYZ",
        [(1, "X", "Y", "1-0"), (2, "X", "Z", "1-0"), (3, "Y", "Z", "1/2-1/2")],
        byes=[(1, "Z", "pairing-allocated"), (2, "Y", "pairing-allocated"), (3, "X", "zero")],
    )
    # X: Y 1½ + Z 1½ + dummy 1½ = 4½ (2024: dummy 2, 5).
    # Y: X 2½ + bye min(1½, 1½) 1½ + Z 1½ = 5½.  Z: bye 1½ + X 2½ + Y 1½ = 5½.
    assert values(Buchholz(), ev, ["X", "Y", "Z"]) == {"X": 4.5, "Y": 5.5, "Z": 5.5}
    # Art. 16.5.1: X's cut takes the dummy of the VUR: 4½ - 1½ = 3.
    assert values(BuchholzCut1(), ev, ["X"]) == {"X": 3}


def test_art_14_1_1a_buchholz_cut_1_cuts_a_voluntarily_unplayed_round_first() -> None:
    # Art. 16.5.1: with a VUR, its contribution is cut instead of the lowest.
    # A: 8 - 1½ (lowest, C or F) = 6½          B: 8 - 1½ (F or C; the bye is no VUR) = 6½
    # C: 7½ - 1½ (the half-point bye, not D's 1) = 6
    # D: 5½ - ½ (a VUR dummy) = 5               E: 6½ - 1 (lowest: D, or the R4 dummy) = 5½
    # F: 8 - 1½ (a VUR dummy) = 6½
    assert values(BuchholzCut1(), swiss(), EVERYONE) == {
        "A": 6.5,
        "B": 6.5,
        "C": 6,
        "D": 5,
        "E": 5.5,
        "F": 6.5,
    }


# --- Art. 9.1 and 14.1.1 (d): Sonneborn-Berger and Sonneborn-Berger cut 1 ---


def test_art_9_1_sonneborn_berger_in_a_swiss() -> None:
    # Opponent's (or dummy's) score × points scored in the round.
    # A: 2×1 + 1½×½ + 3×1 + 1½×½ = 6½         B: 3×0 + 2×1 + 1½×0 + 1½×1 = 3½
    # C: 1×½ + 3×½ + 1½×½ + 2×0 = 2¾          D: 1½×½ + 3×0 + ½×0 + ½×0 = ¾
    # E: 1½×1 + 1×1 + 3×0 + 1×1 = 3½          F: 1½×0 + 1½×0 + 2×1 + 3×½ = 3½
    assert values(SonnebornBerger(), swiss(), EVERYONE) == {
        "A": 6.5,
        "B": 3.5,
        "C": 2.75,
        "D": 0.75,
        "E": 3.5,
        "F": 3.5,
    }


def test_art_15_2_sonneborn_berger_in_a_round_robin_counts_forfeits_as_games() -> None:
    # Final scores, forfeits at face value, rounds without an opponent add nothing.
    # B: A 3×0 + F 1½×0 + C 1½×1 = 1½ (the R2 bye has no opponent)
    # E: F 1½×1 + D ½×1 + A 3×0 + D ½×1 = 2½
    assert values(SonnebornBerger("round-robin"), swiss(), ["B", "E"]) == {"B": 1.5, "E": 2.5}


def test_art_14_1_1d_sonneborn_berger_cut_1() -> None:
    # The cut takes the contribution of the lowest-scored opponent; with a VUR,
    # the higher of that and the lowest VUR contribution (Art. 16.5.1).
    # A: lowest opponents C, F (1½), contributions ¾ each: 6½ - ¾ = 5¾
    # C: lowest opponent D (1) gives ½; the half-point bye gives 1½×½ = ¾,
    #    which is higher, so ¾ is cut: 2¾ - ¾ = 2
    # E: lowest opponent score 1 (D in R2, the R4 dummy): 1 each: 3½ - 1 = 2½
    # F: the lowest score is 1½, the dummies of the two VURs, each giving
    #    1½×0 = 0; the lowest VUR contribution is that same 0: 3½ - 0 = 3½
    assert values(SonnebornBergerCut1(), swiss(), ["A", "C", "E", "F"]) == {
        "A": 5.75,
        "C": 2,
        "E": 2.5,
        "F": 3.5,
    }


# --- Art. 9.2: Koya ---


def test_art_9_2_koya_counts_points_against_players_on_half_or_more() -> None:
    # Round robin: R1 A-B 1-0, C-D ½-½; R2 A-C ½-½, B-D 1-0; R3 A-D 1-0, B-C ½-½.
    # A 2½, B 1½, C 1½, D ½. Half of the maximum 3 is 1½: A, B and C qualify.
    # A: B 1 + C ½ = 1½.  B: A 0 + C ½ = ½.  C: A ½ + B ½ = 1.  D: C ½ + B 0 + A 0 = ½.
    ev = event(
        "ABCD",
        [
            (1, "A", "B", "1-0"),
            (1, "C", "D", "1/2-1/2"),
            (2, "A", "C", "1/2-1/2"),
            (2, "B", "D", "1-0"),
            (3, "A", "D", "1-0"),
            (3, "B", "C", "1/2-1/2"),
        ],
    )
    assert values(Koya("round-robin"), ev, list("ABCD")) == {"A": 1.5, "B": 0.5, "C": 1, "D": 0.5}


def test_art_9_2_koya_in_an_odd_round_robin_counts_scheduled_games() -> None:
    # Three players, three rounds, one round off each: A-B 1-0, B-C 1-0, C-A 0-1.
    # A 2, B 1, C 0. Each can score at most 2, so the line is 1: A and B qualify,
    # and A's win over B counts. Over three rounds the line would be 1½.
    ev = event("ABC", [(1, "A", "B", "1-0"), (2, "B", "C", "1-0"), (3, "C", "A", "0-1")])
    assert values(Koya("round-robin"), ev, ["A"]) == {"A": 1}
    assert values(Koya("swiss"), ev, ["A"]) == {"A": 0}


# --- Art. 6: direct encounter ---

DE = [LabelledCriterion("DE", DirectEncounter())]


def test_art_6_2_all_met_then_a_level_subgroup_is_ranked_again() -> None:
    # R1 A-B 1-0, C-D ½-½; R2 C-A 1-0, B-D ½-½; R3 A-D 1-0, B-C 1-0;
    # R4 D-X 1-0, B-Y ½-½; R5 C-X ½-½.   A, B, C, D all on 2.
    # Among them: A 1+0+1 = 2, B 0+1+½ = 1½, C 1+0+½ = 1½, D 0+½+½ = 1.
    # B and C again between themselves: B beat C.
    ev = event(
        "ABCDXY",
        [
            (1, "A", "B", "1-0"),
            (1, "C", "D", "1/2-1/2"),
            (2, "C", "A", "1-0"),
            (2, "B", "D", "1/2-1/2"),
            (3, "A", "D", "1-0"),
            (3, "B", "C", "1-0"),
            (4, "D", "X", "1-0"),
            (4, "B", "Y", "1/2-1/2"),
            (5, "C", "X", "1/2-1/2"),
        ],
    )
    index = EventIndex.of(ev)
    assert {p: index.scores[p] for p in "ABCD"} == {"A": 2, "B": 2, "C": 2, "D": 2}
    ranked = resolve_tie(index, "ABCD", DE, 1)
    assert ranked.groups == (("A",), ("B",), ("C",), ("D",))
    assert ranked.steps[0].values == {"A": 2, "B": 1.5, "C": 1.5, "D": 1}
    assert ranked.steps[1].tied == ("B", "C")
    assert ranked.steps[1].values == {"B": 1, "C": 0}


def test_art_6_3_ranks_first_a_leader_nobody_could_catch_then_stops() -> None:
    # R1 P-Q 1-0, R-S 1-0; R2 P-R 1-0, Q-S 1-0; R3 S-P 1-0, Q-T 1-0; R4 R-T 1-0.
    # P, Q, R on 2; Q and R never met. Among them P 2, Q 0, R 0. The most Q
    # or R could have is 0 + 1 (their missing game) = 1 < 2: P is first.
    # Q and R alone have not met and are not separated.
    ev = event(
        "PQRST",
        [
            (1, "P", "Q", "1-0"),
            (1, "R", "S", "1-0"),
            (2, "P", "R", "1-0"),
            (2, "Q", "S", "1-0"),
            (3, "S", "P", "1-0"),
            (3, "Q", "T", "1-0"),
            (4, "R", "T", "1-0"),
        ],
    )
    index = EventIndex.of(ev)
    assert {p: index.scores[p] for p in "PQR"} == {"P": 2, "Q": 2, "R": 2}
    ranked = resolve_tie(index, "PQR", DE, 1)
    assert ranked.groups == (("P",), ("Q", "R"))
    assert ranked.steps[0].values == {"P": 2, "Q": 0, "R": 0}
    assert "Art. 6.3" in ranked.steps[0].sentences[1]
    assert ranked.steps[1].tied == ("Q", "R")
    assert ranked.steps[1].groups == (("Q", "R"),)


def forfeit_between_leaders() -> IndividualEvent:
    # R1 P-Q +/-, R-S 1-0; R2 P-R 1-0, Q-S 1-0; R3 Q-R 1-0; R4 R-T 1-0.
    # P 1+1 = 2, Q 0+1+1 = 2, R 1+0+0+1 = 2.
    return event(
        "PQRST",
        [
            (1, "P", "Q", "+/-"),
            (1, "R", "S", "1-0"),
            (2, "P", "R", "1-0"),
            (2, "Q", "S", "1-0"),
            (3, "Q", "R", "1-0"),
            (4, "R", "T", "1-0"),
        ],
    )


def test_art_6_1_1_a_forfeit_is_no_encounter_in_a_swiss() -> None:
    # Swiss: P-Q was forfeited, so P and Q have not met. Among them P 1 (R),
    # Q 1 (R), R 0; P or Q could reach 1 + 1 = 2, so nobody is surely first
    # and the criterion is not applied (Art. 6.3).
    index = EventIndex.of(forfeit_between_leaders())
    split = DirectEncounter().split(index, ["P", "Q", "R"])
    assert split.values == {"P": 1, "Q": 1, "R": 0}
    assert split.groups == (("P", "Q", "R"),)
    assert split.note is not None and "forfeit" in split.note and "6.1.1" in split.note


def test_art_15_2_a_forfeit_is_an_encounter_in_a_round_robin() -> None:
    # Pre-determined pairings: P's forfeit win counts. P 2, Q 1, R 0, all met.
    index = EventIndex.of(forfeit_between_leaders())
    split = DirectEncounter("round-robin").split(index, ["P", "Q", "R"])
    assert split.values == {"P": 2, "Q": 1, "R": 0}
    assert split.groups == (("P",), ("Q",), ("R",))


def test_art_6_1_2_players_who_met_twice_count_the_average() -> None:
    # R1 P-Q 1-0, R-S 1-0; R2 Q-P 0-1; R3 P-R 0-1, Q-S 1-0; R4 Q-R 1-0.
    # P, Q, R on 2. P beat Q twice: average 1, not 2. P 1 + 0 = 1,
    # Q 0 + 1 = 1, R 1 + 0 = 1: level (a sum would have put P first on 2).
    ev = event(
        "PQRS",
        [
            (1, "P", "Q", "1-0"),
            (1, "R", "S", "1-0"),
            (2, "Q", "P", "0-1"),
            (3, "P", "R", "0-1"),
            (3, "Q", "S", "1-0"),
            (4, "Q", "R", "1-0"),
        ],
    )
    index = EventIndex.of(ev)
    assert {p: index.scores[p] for p in "PQR"} == {"P": 2, "Q": 2, "R": 2}
    split = DirectEncounter().split(index, ["P", "Q", "R"])
    assert split.values == {"P": 1, "Q": 1, "R": 1}
    assert not split.separates


# --- The codes ---


def test_every_code_makes_a_fresh_criterion_with_its_own_key() -> None:
    made = {code: criterion_of(parse_code(code), Settings()) for code in CODES}
    assert made["DE"] is not criterion_of(parse_code("DE"), Settings())
    # GE (2024) and REP (2026) name the same criterion.
    assert len({c.key for c in made.values()}) == len(CODES) - 1
    assert isinstance(made["DE"], DirectEncounter) and made["DE"].depends_on_group


def test_art_14_a_cut_names_its_criterion_and_its_key() -> None:
    cut = criterion_of(parse_code("BH-C1"), Settings())
    assert isinstance(cut, Buchholz) and cut.cut == 1 and cut.key == "buchholz_cut1"
    assert criterion_of(parse_code("BH/C1"), Settings()).key == "buchholz_cut1"
    median = criterion_of(parse_code("BH/M1"), Settings())
    assert isinstance(median, Buchholz) and (median.cut, median.top) == (1, 1)


def test_round_robin_settings_pass_the_pairing_on() -> None:
    made = criterion_of(parse_code("SB"), Settings(pairing="round-robin"))
    assert isinstance(made, SonnebornBerger) and made.pairing == "round-robin"
