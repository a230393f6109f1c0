"""FIDE C.07 for chess team events (Art. 12 and 13): match points or game points as
the primary score, the criteria on either (``BH:GP``), the extended Sonneborn-Berger,
the board criteria (BC, TBR, BBE), EDE and SSSC.

The event: three teams of two boards, all-play-all.
R1 A-B 2-0; R2 B-C 1½-½; R3 C-A 1-1.
Match points (2 a match won, 1 drawn): A 3, B 2, C 1. Game points: A 3, B 1½, C 1½.
"""

from __future__ import annotations

import pytest

from playoff_formats.errors import InputError
from playoff_formats.model import BoardResult, TeamEvent, TeamMatch, Venue
from playoff_formats.regulations.custom import FideTeamRegulation, regulation_from_text
from playoff_formats.tiebreaks.catalogue import parse_code, team_criterion_of
from playoff_formats.tiebreaks.core import Value
from playoff_formats.tiebreaks.team import team_indexes
from tests.support.events import team_event


def three() -> TeamEvent:
    def match(n: int, home: str, away: str, boards: list[str]) -> TeamMatch:
        return TeamMatch(
            round=n, home=home, away=away, venue=Venue.NEUTRAL,
            boards=[BoardResult(b) for b in boards],
        )

    return TeamEvent(
        name="Three teams",
        teams=team_event("ABC", []).teams,
        matches=[
            match(1, "A", "B", ["1-0", "1-0"]),
            match(2, "B", "C", ["1/2-1/2", "1-0"]),
            match(3, "C", "A", ["1-0", "0-1"]),
        ],
    )


def values(code: str, primary: str = "MP") -> dict[str, Value]:
    criterion = team_criterion_of(parse_code(code, teams=True), primary)  # type: ignore[arg-type]
    index = team_indexes(three())[primary]  # type: ignore[index]
    return dict(criterion.evaluate(index, ["A", "B", "C"]))


def test_art_12_match_points_and_game_points() -> None:
    indexes = team_indexes(three())
    assert indexes["MP"].scores == {"A": 3, "B": 2, "C": 1}
    assert indexes["GP"].scores == {"A": 3, "B": 1.5, "C": 1.5}
    assert values("GP") == {"A": 3, "B": 1.5, "C": 1.5}
    assert values("MP", "GP") == {"A": 3, "B": 2, "C": 1}


def test_art_8_1_buchholz_on_either_score() -> None:
    # A's opponents B and C: match points 2 + 1, game points 1½ + 1½.
    assert values("BH:MP")["A"] == 3
    assert values("BH:GP")["A"] == 3
    # Without a score, the primary one.
    assert values("BH", "GP") == values("BH:GP", "GP")
    # Cut-1 (Art. 14) leaves out the opponent with the fewest: C's 1 match point.
    assert values("BH:MP/C1")["A"] == 2


def test_art_9_1_sonneborn_berger_and_art_13_2_its_extended_forms() -> None:
    # SB:MP A: B 2 × 2 + C 1 × 1 = 5; SB:GP A: B 1½ × 2 + C 1½ × 1 = 4½.
    assert values("SB:MP")["A"] == 5
    assert values("SB:GP")["A"] == 4.5
    # EMGSB: the opponent's match points times the game points scored against them;
    # EGMSB: the opponent's game points times the match points.
    assert values("EMGSB")["A"] == 2 * 2 + 1 * 1
    assert values("EGMSB")["A"] == 1.5 * 2 + 1.5 * 1
    assert values("EMMSB")["A"] == values("SB:MP")["A"]
    assert values("EGGSB")["A"] == values("SB:GP")["A"]


def test_art_7_1_win_counts_matches_won() -> None:
    assert values("WIN") == {"A": 1, "B": 1, "C": 0}


def test_a_team_regulation_ranks_by_its_score_then_art_6_between_tied_teams() -> None:
    # On game points B and C are level on 1½; B beat C 1½-½ (DE, Art. 6).
    regulation = regulation_from_text(
        'name = "league"\nscore = "GP"\ncriteria = ["DE", "BH:MP"]\n', "league.toml"
    )
    assert isinstance(regulation, FideTeamRegulation)
    standings = regulation.standings(three())
    assert [(r.rank, r.id) for r in standings.rows] == [(1, "A"), (2, "B"), (3, "C")]
    assert standings.explanation[0] == (
        "Teams are ranked by game points, then by the criteria in order."
    )
    assert standings.steps[0].values == {"B": 1.5, "C": 0.5}


@pytest.mark.parametrize(
    ("text", "path", "words"),
    [
        ('score = "VP"\ncriteria = ["DE"]', "score", 'must be "MP" (match points) or "GP"'),
        ('score = "MP"\ncriteria = ["KS"]', "criteria[0]", "unknown tie-break code 'KS'"),
        ('score = "MP"\ncriteria = ["WIN:GP"]', "criteria[0]", "only BH, DE, SB name a score"),
        ('score = "MP"\nfide_edition = 2026\ncriteria = ["DE"]', "fide_edition",
         "individual events"),
        ('score = "MP"\npairing = "knock-out"\ncriteria = ["DE"]', "pairing", "'knock-out'"),
    ],
)
def test_team_regulations_refuse_what_they_cannot_apply(text: str, path: str, words: str) -> None:
    with pytest.raises(InputError) as caught:
        regulation_from_text(f'name = "t"\n{text}\n', "t.toml")
    assert caught.value.path == path
    assert words in caught.value.reason


def test_a_score_is_named_only_in_team_events() -> None:
    with pytest.raises(InputError) as caught:
        regulation_from_text('name = "t"\ncriteria = ["BH:GP"]\n', "t.toml")
    assert "named only in team events" in caught.value.reason


def test_art_12_1_board_count_the_lower_sum_ranks_higher() -> None:
    # Art. 12.1: each board number times the game points scored on that board,
    # summed; the lower the sum of these products, the higher the team ranks.
    # Boards over the event: A 1 and 2, B ½ and 1, C 1½ and 0.
    bc = team_criterion_of(parse_code("BC", teams=True), "GP")
    index = team_indexes(three())["GP"]
    shown = {t: bc.to_json(v) for t, v in bc.evaluate(index, ["A", "B", "C"]).items()}
    assert shown == {"A": 1 * 1 + 2 * 2, "B": 1 * 0.5 + 2 * 1, "C": 1 * 1.5 + 2 * 0}
    # B and C are level on 1½ game points: C, with its points on board 1, is ahead.
    regulation = regulation_from_text('name = "t"\nscore = "GP"\ncriteria = ["BC"]\n', "t.toml")
    standings = regulation.standings(three())
    assert [r.id for r in standings.rows] == ["A", "C", "B"]
    assert standings.steps[0].values == {"B": -2.5, "C": -1.5}
    assert standings.steps[0].sentences == (
        "BC board count: B 2.5, C 1.5.",
        "C is second: 1.5 against 2.5.",
        "B is third: 2.5 against 1.5.",
    )


def knockout() -> TeamEvent:
    # A drawn match of four boards: X won boards 1 and 4, Y boards 2 and 3.
    return TeamEvent(
        name="Drawn match",
        teams=team_event("XY", []).teams,
        matches=[
            TeamMatch(
                round=1, home="X", away="Y", venue=Venue.NEUTRAL,
                boards=[BoardResult(b) for b in ["1-0", "0-1", "0-1", "1-0"]],
            )
        ],
    )


def ranked(criteria: str, event: TeamEvent) -> list[str]:
    regulation = regulation_from_text(
        f'name = "t"\nscore = "GP"\ncriteria = [{criteria}]\n', "t.toml"
    )
    return [r.id for r in regulation.standings(event).rows]


def test_art_12_2_top_board_results_board_1_first_then_down() -> None:
    # Art. 12.2: the points on board 1; if equal, on board 2, and so on.
    # BC leaves X and Y level (1 + 4 = 2 + 3); X won board 1.
    tbr = team_criterion_of(parse_code("TBR", teams=True), "GP")
    index = team_indexes(knockout())["GP"]
    assert tbr.evaluate(index, ["X", "Y"]) == {"X": (1, 0, 0, 1), "Y": (0, 1, 1, 0)}
    regulation = regulation_from_text('name = "t"\nscore = "GP"\ncriteria = ["BC"]\n', "t.toml")
    assert regulation.standings(knockout()).steps[0].groups == (("X", "Y"),)
    regulation = regulation_from_text('name = "t"\nscore = "GP"\ncriteria = ["TBR"]\n', "t.toml")
    assert regulation.standings(knockout()).steps[0].groups == (("X",), ("Y",))
    # Three teams: B and C are level on 1½ game points; C scored 1½ on board 1, B ½.
    assert ranked('"TBR"', three()) == ["A", "C", "B"]


def test_art_12_3_bottom_board_elimination_drops_the_bottom_boards_in_turn() -> None:
    # Art. 12.3: the points on every board but the bottom one; if equal, the next
    # bottom board is left out too. Without board 4: X 1, Y 2, so Y is ahead,
    # where top board results put X ahead.
    bbe = team_criterion_of(parse_code("BBE", teams=True), "GP")
    index = team_indexes(knockout())["GP"]
    assert bbe.evaluate(index, ["X", "Y"]) == {"X": (1, 1, 1), "Y": (2, 1, 0)}
    assert ranked('"BBE"', knockout()) == ["Y", "X"]
    assert ranked('"TBR"', knockout()) == ["X", "Y"]


def test_art_13_3_extended_direct_encounter_falls_back_on_game_points() -> None:
    # Art. 13.3: direct encounter on the primary score, then on the other one.
    # A beat B 1½-½, B beat C 2-0, C beat A 1½-½: 2 match points each among
    # themselves, but game points A ½ + 1½ = 2, B ½ + 2 = 2½, C 1½ + 0 = 1½.
    def match(n: int, home: str, away: str, boards: list[str]) -> TeamMatch:
        return TeamMatch(
            round=n, home=home, away=away, venue=Venue.NEUTRAL,
            boards=[BoardResult(b) for b in boards],
        )

    event = TeamEvent(
        name="Cycle",
        teams=team_event("ABC", []).teams,
        matches=[
            match(1, "A", "B", ["1-0", "1/2-1/2"]),
            match(2, "B", "C", ["1-0", "1-0"]),
            match(3, "C", "A", ["1-0", "1/2-1/2"]),
        ],
    )
    regulation = regulation_from_text('name = "t"\nscore = "MP"\ncriteria = ["DE"]\n', "t.toml")
    assert regulation.standings(event).steps[0].groups == (("A", "B", "C"),)
    regulation = regulation_from_text('name = "t"\nscore = "MP"\ncriteria = ["EDE"]\n', "t.toml")
    standings = regulation.standings(event)
    assert [r.id for r in standings.rows] == ["B", "A", "C"]
    assert standings.steps[0].values == {"A": 2, "B": 2.5, "C": 1.5}
    assert standings.steps[0].sentences[1] == "On game points."


def test_art_13_3_2_two_teams_level_on_both_scores_go_to_the_boards_of_their_match() -> None:
    # Art. 13.3.2: two teams still level on match and game points are ranked by the
    # board criteria of Art. 12 on their own matches. X and Y drew 2-2, with equal
    # board counts; X won board 1, Y won more above the bottom board.
    assert ranked('"EDE"', knockout()) == ["X", "Y"]
    regulation = regulation_from_text('name = "t"\nscore = "GP"\ncriteria = ["EDEC"]\n', "t.toml")
    assert regulation.standings(knockout()).steps[0].groups == (("X", "Y"),)
    regulation = regulation_from_text('name = "t"\nscore = "GP"\ncriteria = ["EDET"]\n', "t.toml")
    assert regulation.standings(knockout()).steps[0].groups == (("X",), ("Y",))
    assert ranked('"EDEB"', knockout()) == ["Y", "X"]
    assert ranked('"EDEBB"', knockout()) == ["Y", "X"]
    regulation = regulation_from_text('name = "t"\nscore = "GP"\ncriteria = ["EDEBT"]\n', "t.toml")
    standings = regulation.standings(knockout())
    assert [r.id for r in standings.rows] == ["X", "Y"]
    assert standings.steps[0].sentences[0] == (
        "EDEBT extended direct encounter, then board count then top board results: "
        "X 5 then 1 then 0 then 0 then 1, Y 5 then 0 then 1 then 1 then 0."
    )


def test_art_13_3_2_board_count_the_lower_count_ranks_higher() -> None:
    # Art. 12.1, applied by Art. 13.3.2: X scored on boards 1, 3 and 4 (1 + 1½ + 2
    # = 4½), Y on boards 2, 3 and 4 (2 + 1½ + 2 = 5½): X is ahead.
    event = TeamEvent(
        name="Drawn match",
        teams=team_event("XY", []).teams,
        matches=[
            TeamMatch(
                round=1, home="Y", away="X", venue=Venue.NEUTRAL,
                boards=[BoardResult(b) for b in ["0-1", "1-0", "1/2-1/2", "1/2-1/2"]],
            )
        ],
    )
    regulation = regulation_from_text('name = "t"\nscore = "GP"\ncriteria = ["EDEC"]\n', "t.toml")
    assert regulation.standings(event).steps[0].groups == (("X",), ("Y",))


def test_art_13_1_mpvgp_is_the_score_that_is_not_the_primary_one() -> None:
    # Art. 13.1: match points when the primary score is game points, and the reverse.
    assert values("MPVGP", "MP") == {"A": 3, "B": 1.5, "C": 1.5}
    assert values("MPVGP", "GP") == {"A": 3, "B": 2, "C": 1}


def test_art_13_4_sssc_adds_the_primary_buchholz_over_the_normalisation_factor() -> None:
    # Art. 13.4: the secondary score plus the Buchholz on the primary score divided
    # by the normalisation factor. Three rounds of two boards: 6 match points at
    # most over 2 game points a match, and 6 game points at most over 2 match
    # points a match, give a factor of 3 either way.
    # Primary MP: Buchholz A 2 + 1, B 3 + 1, C 3 + 2; game points A 3, B and C 1½;
    # rounded to two decimals, half up: B 1½ + 4/3 = 2.83, C 1½ + 5/3 = 3.17.
    assert values("SSSC", "MP") == {"A": 3 + 3 / 3, "B": 2.83, "C": 3.17}
    # Primary GP: Buchholz A 1½ + 1½, B 3 + 1½, C 3 + 1½.
    assert values("SSSC", "GP") == {"A": 3 + 1, "B": 2 + 1.5, "C": 1 + 1.5}


def test_art_13_3_a_subgroup_is_ranked_again_on_the_score_that_separated_it() -> None:
    # Five teams of two boards, all on 4 match points; direct encounter on match
    # points leaves them level, on game points gives C 4½, B, D, E 4, A 3½. Among
    # B, D and E, still on game points: D 1 + 2 = 3, B 1 + 1½ = 2½, E ½ + 0 = ½.
    # Starting again on match points would leave B and D level (3 each).
    results = {
        ("A", "B"): ["1-0", "1/2-1/2"], ("A", "C"): ["0-1", "1-0"],
        ("A", "D"): ["1/2-1/2", "1/2-1/2"], ("A", "E"): ["0-1", "0-1"],
        ("B", "C"): ["1/2-1/2", "1/2-1/2"], ("B", "D"): ["1/2-1/2", "1/2-1/2"],
        ("B", "E"): ["1-0", "1/2-1/2"], ("C", "D"): ["1-0", "1-0"],
        ("C", "E"): ["0-1", "1/2-1/2"], ("D", "E"): ["1-0", "1-0"],
    }
    event = TeamEvent(
        name="Five",
        teams=team_event("ABCDE", []).teams,
        matches=[
            TeamMatch(
                round=n, home=home, away=away, venue=Venue.NEUTRAL,
                boards=[BoardResult(b) for b in boards],
            )
            for n, ((home, away), boards) in enumerate(results.items(), start=1)
        ],
    )
    regulation = regulation_from_text('name = "t"\nscore = "MP"\ncriteria = ["EDE"]\n', "t.toml")
    standings = regulation.standings(event)
    assert standings.ranks == {"C": 1, "D": 2, "B": 3, "E": 4, "A": 5}
    assert standings.steps[1].values == {"B": 2.5, "D": 3, "E": 0.5}
    assert standings.steps[1].sentences[1] == "On game points."
