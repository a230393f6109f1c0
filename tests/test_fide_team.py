"""FIDE C.07 for chess team events (Art. 12): match points or game points as the
primary score, the criteria on either (``BH:GP``), and the extended Sonneborn-Berger.

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
from tests.events import team_event


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


def test_art_9_1_sonneborn_berger_and_art_12_its_extended_forms() -> None:
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
        ('score = "MP"\npairing = "swiss"\ncriteria = ["DE"]', "pairing", "individual events"),
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
