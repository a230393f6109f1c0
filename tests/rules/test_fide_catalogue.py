"""The FIDE C.07 catalogue beyond the first codes: modifiers (Art. 14), Fore
Buchholz and AOB (Art. 8), progressive score and rounds elected to play (Art. 7),
rating-based criteria (Art. 10), and the two editions of the text (2024, 2026).
Each test quotes the article it checks."""

from __future__ import annotations

from datetime import date

import pytest

from playoff_formats.errors import InputError
from playoff_formats.io.trf import read_trf
from playoff_formats.model import Bye, ByeKind, Game, IndividualEvent, Player, Result
from playoff_formats.regulations.custom import regulation_from_text
from playoff_formats.tiebreaks.catalogue import Code, Settings, criterion_of, parse_code
from playoff_formats.tiebreaks.core import Value
from playoff_formats.tiebreaks.editions import edition_for, edition_sentence
from playoff_formats.tiebreaks.index import EventIndex
from playoff_formats.tiebreaks.ratings import expected_percent, perfect_performance
from tests.support.events import swiss

EVERYONE = list("ABCDEF")


def values(
    code: str, ev: IndividualEvent, players: list[str], **settings: object
) -> dict[str, Value]:
    criterion = criterion_of(parse_code(code), Settings(**settings))  # type: ignore[arg-type]
    return dict(criterion.evaluate(EventIndex.of(ev), players))


def rated(
    ratings: dict[str, int | None],
    games: list[tuple[int, str, str, str]],
    byes: list[tuple[int, str, str]] = (),  # type: ignore[assignment]
    start: date | None = None,
) -> IndividualEvent:
    return IndividualEvent(
        name="Rated",
        players=[Player(id=p, name=f"Player {p}", rating=r) for p, r in ratings.items()],
        games=[Game(round=n, white=w, black=b, result=Result(res)) for n, w, b, res in games],
        byes=[Bye(round=n, player=p, kind=ByeKind(k)) for n, p, k in byes],
        start_date=start,
    )


def four() -> IndividualEvent:
    """R1 A-B 1-0, C-D ½-½; R2 A-C ½-½, B-D 1-0; R3 A-D 1-0, C-B 1-0.

    A 2½ (2000), B 1 (1800), C 2 (1600), D ½ (1400).
    """
    return rated(
        {"A": 2000, "B": 1800, "C": 1600, "D": 1400},
        [
            (1, "A", "B", "1-0"), (1, "C", "D", "1/2-1/2"),
            (2, "A", "C", "1/2-1/2"), (2, "B", "D", "1-0"),
            (3, "A", "D", "1-0"), (3, "C", "B", "1-0"),
        ],
    )


# --- Art. 14: cuts and medians ---


def test_art_14_buchholz_cut_2_and_median_1() -> None:
    # BH (Art. 8.1, with Art. 16) A 8: contributions B 2, C 1½, E 3, F 1½.
    # Cut-2 leaves the two highest: 3 + 2 = 5. Median-1 cuts the lowest and the
    # highest: 2 + 1½ = 3½. D: C 1½, E 3, bye-dummy ½ (VUR), forfeit-dummy ½ (VUR);
    # Cut-2 takes both VUR first (Art. 16.5.1): 1½ + 3 = 4½; Median-1 cuts a VUR ½
    # and the highest, E's 3: 1½ + ½ = 2.
    assert values("BH/C2", swiss(), ["A", "D"]) == {"A": 5, "D": 4.5}
    assert values("BH/M1", swiss(), ["A", "D"]) == {"A": 3.5, "D": 2}


def test_art_14_the_2024_way_of_writing_a_cut_names_the_same_criterion() -> None:
    assert parse_code("BH-C1") == Code(name="BH", written="BH-C1", cut=1)
    assert parse_code("bh/c1") == Code(name="BH", written="BH/C1", cut=1)
    assert values("BH-C1", swiss(), EVERYONE) == values("BH/C1", swiss(), EVERYONE)


@pytest.mark.parametrize(
    ("code", "why"),
    [
        ("SB/M1", "SB takes a cut (Cn)"),
        ("WIN/C1", "WIN takes no modifier"),
        ("BH/X1", "not a modifier"),
        ("KS/L0", "percentage from 1 to 100"),
    ],
)
def test_art_14_only_the_modifiers_an_article_defines_are_accepted(code: str, why: str) -> None:
    with pytest.raises(InputError) as caught:
        regulation_from_text(f'name = "x"\ncriteria = ["{code}"]\n', "x.toml")
    assert why in caught.value.reason and caught.value.path == "criteria[0]"


# --- Art. 8.2 and 8.3: Fore Buchholz and the average of opponents' Buchholz ---


def test_art_8_2_fore_buchholz_takes_every_last_round_pairing_as_a_draw() -> None:
    # R4 in the six-player Swiss: A-F ½-½, B-C 1-0, D-E -/+ (a forfeit, a draw
    # too). Fore scores: A 3, F 1½, B 1½, C 2, D 1, E 2½. A: B 1½ + C 2 + E 2½ +
    # F 1½ = 7½. E: R1 forfeit dummy min(2½, F 1½) 1½ + D 1 + A 3 + R4 D 1 = 6½.
    assert values("FB", swiss(), ["A", "E"]) == {"A": 7.5, "E": 6.5}


def test_art_8_3_aob_averages_the_buchholz_of_the_opponents_met() -> None:
    # BH: A 8, B 8, C 7½, D 5½, E 6½, F 8. A met B, C, E, F over the board:
    # (8 + 7½ + 6½ + 8) / 4 = 7½. D met C and E over the board (the R4 forfeit
    # is no game): (7½ + 6½) / 2 = 7.
    assert values("AOB", swiss(), ["A", "D"]) == {"A": 7.5, "D": 7}


# --- Art. 7: the participant's own results ---


def test_art_7_5_progressive_score_and_its_cut() -> None:
    # A's running scores 1, 1½, 2½, 3: 8; the cut leaves out round 1: 7.
    # D: ½, ½, ½, ½ = 2 (the byes and the forfeit add nothing).
    assert values("PS", swiss(), ["A", "D"]) == {"A": 8, "D": 2}
    assert values("PS/C1", swiss(), ["A", "D"]) == {"A": 7, "D": 1.5}


def test_art_7_6_rounds_elected_to_play_count_wins_without_playing() -> None:
    # B: 3 games and a pairing-allocated bye = 4. E: 2 games and 2 forfeit wins
    # = 4. C: 3 games (the half-point bye is not elected). D: 2 games (the zero
    # bye and the forfeit loss are not); F too. GE (2024) is the same criterion.
    expected = {"A": 4, "B": 4, "C": 3, "D": 2, "E": 4, "F": 2}
    assert values("REP", swiss(), EVERYONE) == expected
    assert values("GE", swiss(), EVERYONE) == expected


def test_art_16_1_2_vur_fewer_voluntarily_unplayed_rounds_rank_higher() -> None:
    # C a half-point bye (1); D a zero bye and a forfeit loss (2); F a forfeit
    # loss and a zero bye (2); B's pairing-allocated bye is not voluntary.
    criterion = criterion_of(parse_code("VUR"), Settings())
    found = criterion.evaluate(EventIndex.of(swiss()), EVERYONE)
    assert {p: criterion.to_json(v) for p, v in found.items()} == {
        "A": 0, "B": 0, "C": 1, "D": 2, "E": 0, "F": 2,
    }
    split = criterion.split(EventIndex.of(swiss()), ["D", "C", "A"])
    assert split.groups == (("A",), ("C",), ("D",))


def test_std_counts_more_than_a_draw_as_one() -> None:
    assert values("STD", swiss(), EVERYONE) == {
        "A": 3, "B": 2, "C": 1.5, "D": 0.5, "E": 3, "F": 1.5,
    }


def test_tpn_the_lower_pairing_number_ranks_higher() -> None:
    criterion = criterion_of(parse_code("TPN"), Settings())
    split = criterion.split(EventIndex.of(swiss()), ["C", "A", "B"])
    assert split.groups == (("A",), ("B",), ("C",))
    assert criterion.to_json(split.values["C"]) == 3


def test_art_9_2_koya_with_a_limit() -> None:
    # Max 4. 50%: A, B, E (2 or more). 60% (2.4 or more): A and E only.
    # A scored 1 against B, 1 against E; B scored 0 against A.
    assert values("KS", swiss(), ["A", "B"]) == {"A": 2, "B": 0}
    assert values("KS/L60", swiss(), ["A", "B"]) == {"A": 1, "B": 0}


# --- Art. 10: rating-based ---


def test_art_10_1_average_rating_of_opponents_with_cut_and_median() -> None:
    # A met B 1800, C 1600, D 1400: 1600. Cut-1 leaves out D: 1700. Median-1: 1600.
    assert values("ARO", four(), ["A"]) == {"A": 1600}
    assert values("ARO/C1", four(), ["A"]) == {"A": 1700}
    assert values("ARO/M1", four(), ["A"]) == {"A": 1600}


def test_art_10_2_tournament_performance_rating() -> None:
    # A: 2½ of 3 = 83% -> dp 273 (B.02 table 8.1(a)); 1600 + 273 = 1873.
    # D: ½ of 3 = 17% -> dp -273; 1800 - 273 = 1527.
    assert values("TPR", four(), ["A", "D"]) == {"A": 1873, "D": 1527}


def test_art_10_3_perfect_performance_is_the_lowest_rating_that_reaches_the_score() -> None:
    found = values("PTP", four(), ["D"])["D"]
    assert isinstance(found, float)
    rating = int(found)

    def expected(r: int) -> int:
        return sum(expected_percent(r - o) for o in (1600, 1800, 2000))

    assert expected(rating) >= 50 > expected(rating - 1)
    # A zero score: the lowest opponent less 800. A perfect one: the lowest rating
    # expected to beat the strongest, 736 above it (B.02 table 8.1(b): 100% from 736).
    assert perfect_performance(0, [1600, 1800]) == 800
    assert perfect_performance(2, [1600, 1800]) == 2536


def test_art_10_4_apro_averages_the_opponents_performance_ratings() -> None:
    # TPR: B 1667 + dp(33%) -125 = 1542, C 1733 + dp(67%) 125 = 1858, D 1527.
    # A's opponents: (1542 + 1858 + 1527) / 3 = 1642.33 -> 1642.
    assert values("APRO", four(), ["A"]) == {"A": 1642}


def test_art_10_5_appo_averages_the_opponents_perfect_performances() -> None:
    ptp = values("PTP", four(), ["B", "C", "D"])
    expected = int(sum(float(v) for v in ptp.values()) / 3 + 0.5)  # type: ignore[arg-type]
    assert values("APPO", four(), ["A"]) == {"A": expected}


def test_art_10_rating_criteria_are_dropped_with_an_unrated_player_and_no_setting() -> None:
    ev = rated({"A": 2000, "B": None, "C": 1600}, [(1, "A", "B", "1-0"), (2, "B", "C", "0-1")])
    regulation = regulation_from_text('name = "r"\ncriteria = ["ARO"]\n', "r.toml")
    standings = regulation.standings(ev)
    assert "B is unrated" in " ".join(standings.explanation)
    assert "dropped (FIDE C.07 Art. 10)" in " ".join(standings.explanation)
    assert standings.row("A").tiebreaks["average_rating_of_opponents"] is None
    # With the regulation's rating for unrated players, B counts as 1200.
    counted = regulation_from_text(
        'name = "r"\ncriteria = ["ARO", "RTNG"]\nunrated_rating = 1200\n', "r.toml"
    ).standings(ev)
    assert counted.row("A").tiebreaks["average_rating_of_opponents"] == 1200
    assert counted.row("B").tiebreaks["rating"] == 1200


# --- The editions: C.07 of 2024 and of 2026 ---


def test_the_2026_rules_apply_from_1_march_2026() -> None:
    assert edition_for(date(2026, 2, 28)) == 2024
    assert edition_for(date(2026, 3, 1)) == 2026
    assert edition_for(date(2024, 11, 5)) == 2024
    assert edition_for(None) == 2026


def test_art_16_4_the_2024_dummy_is_uncapped_and_the_2026_dummy_capped() -> None:
    # E's rounds 1 and 4 are forfeit wins. 2026 (Art. 16.4.1): each dummy at most the
    # scheduled opponent's score: F 1½, D 1; 1½ + 1 + 3 + 1 = 6½. 2024: E's own 3
    # each: 3 + 1 + 3 + 3 = 10.
    assert values("BH", swiss(), ["E"], edition=2026) == {"E": 6.5}
    assert values("BH", swiss(), ["E"], edition=2024) == {"E": 10}
    before = swiss().model_copy(update={"start_date": date(2025, 6, 1)})
    after = swiss().model_copy(update={"start_date": date(2026, 6, 1)})
    assert values("BH", before, ["E"]) == {"E": 10}
    assert values("BH", after, ["E"]) == {"E": 6.5}


def test_the_edition_comes_from_the_trf_start_date_and_the_explanation_says_which() -> None:
    trf = (
        "012 Dated\n042 {start}\n"
        "001    1 m    Alpha, A                          2000 ENG    10000001 2000/01/01  1.0"
        "    1     2 w 1\n"
        "001    2 m    Beta, B                           1900 ENG    10000002 2000/01/01  0.0"
        "    2     1 b 0\n"
    )
    regulation = regulation_from_text('name = "r"\ncriteria = ["BH"]\n', "r.toml")
    older = read_trf(trf.format(start="2025/11/20"), "old.trf")
    assert older.start_date == date(2025, 11, 20)
    said = regulation.standings(older).explanation[0]
    assert said == (
        "The FIDE tie-break rules applied are those of the 2024 edition of C.07 (in force "
        "from 1 April 2024): the event started on 20 November 2025."
    )
    newer = regulation.standings(read_trf(trf.format(start="2026/03/15"), "new.trf"))
    assert "2026 edition" in newer.explanation[0]
    assert "15 March 2026" in newer.explanation[0]


def test_a_regulation_can_pin_its_edition() -> None:
    pinned = regulation_from_text(
        'name = "r"\ncriteria = ["BH"]\nfide_edition = 2024\n', "r.toml"
    )
    after = swiss().model_copy(update={"start_date": date(2026, 6, 1)})
    standings = pinned.standings(after)
    assert standings.explanation[0].endswith("as the regulation names it.")
    assert standings.row("E").tiebreaks["buchholz"] == 10
    assert edition_sentence(2026, None).startswith(
        "The FIDE tie-break rules applied are those of the 2026 edition"
    )


@pytest.mark.parametrize("bad", ["2025", '"2026"', "true"])
def test_a_pinned_edition_is_2024_or_2026(bad: str) -> None:
    with pytest.raises(InputError) as caught:
        regulation_from_text(f'name = "r"\ncriteria = ["BH"]\nfide_edition = {bad}\n', "r.toml")
    assert caught.value.path == "fide_edition"
    assert "must be 2024 or 2026" in caught.value.reason


def test_art_8_note_2026_buchholz_in_a_round_robin_only_under_the_2024_edition() -> None:
    with pytest.raises(InputError) as caught:
        regulation_from_text(
            'name = "r"\npairing = "round-robin"\ncriteria = ["FB"]\n', "r.toml"
        )
    assert "Art. 8, note" in caught.value.reason
    allowed = regulation_from_text(
        'name = "r"\npairing = "round-robin"\nfide_edition = 2024\ncriteria = ["BH"]\n',
        "r.toml",
    )
    assert [c.label for c in allowed.criteria] == ["BH"]
