"""A TRF with team records read as a chess team event: teams, matches and boards from
the players' lines; byes, forfeits and empty boards as the TRF writes them; the
TRF-2026 records (310, 300, 330, 240); and refusals with the line and column."""

from __future__ import annotations

import pytest

from playoff_formats.errors import InputError
from playoff_formats.io.json_event import load_event
from playoff_formats.io.trf import has_team_records, read_trf
from playoff_formats.io.trf_teams import read_team_event
from playoff_formats.model import BoardResult, ByeKind, TeamEvent
from playoff_formats.regulations.custom import regulation_from_text
from tests.support import ROOT
from tests.support.gacrux import team_swiss_unplayed

H, A = "home", "away"


def player(number: int, cells: list[str]) -> str:
    """A player line: starting rank ``number``, the round cells as written."""
    points = sum({"1": 1.0, "=": 0.5, "+": 1.0, "U": 1.0, "F": 1.0, "H": 0.5}.get(c[-1], 0.0)
                 for c in cells if c.strip())
    head = (
        f"001 {number:4d} m    {'Player' + str(number) + ', Test':<33} 2000 ENG "
        f"{10000000 + number:>11} 2000/01/01 {points:4.1f} {number:4d}"
    )
    return (head + "  " + "  ".join(c.ljust(8) for c in cells)).rstrip()


def team013(name: str, members: list[int]) -> str:
    return f"013 {name:<32}" + " ".join(f"{m:4d}" for m in members)


def team310(number: int, name: str, members: list[int]) -> str:
    return (
        f"310 {number:3d} {name:<32} {'':<5} {2000:6d} {0.0:6.1f} {0.0:6.1f} {number:3d}  "
        + " ".join(f"{m:4d}" for m in members)
    )


def document(*lines: str) -> str:
    return "\n".join(["012 League", "042 2026/04/10", *lines]) + "\n"


# Teams of two: A (1, 2), B (3, 4), C (5, 6). Round 1: A v B, C's players have U.
# Round 2: C v A, board 2 of A left empty; B absent. Round 3: B v C forfeited by C
# (named forfeits), A has a half-point bye.
LEAGUE = document(
    player(1, ["   3 w 1", "   5 b =", "0000 - H"]),
    player(2, ["   4 b =", "0000 - -", "0000 - H"]),
    player(3, ["   1 b 0", "0000 - Z", "   5 w +"]),
    player(4, ["   2 w =", "0000 - Z", "   6 b +"]),
    player(5, ["0000 - U", "   1 w =", "   3 b -"]),
    player(6, ["0000 - U", "0000 - +", "   4 w -"]),
    team013("Alpha", [1, 2]),
    team013("Beta", [3, 4]),
    team013("Gamma", [5, 6]),
)


def test_matches_boards_and_byes_are_read_as_written() -> None:
    event = read_team_event(LEAGUE, "county1980", "league.trf")
    assert [t.name for t in event.teams] == ["Alpha", "Beta", "Gamma"]
    matches = {(m.round, m.home, m.away): m.boards for m in event.matches}
    assert matches == {
        # Alpha has White on board 1: home.
        (1, "1", "2"): [BoardResult.HOME_WINS, BoardResult.DRAW],
        # Gamma has White on board 1; Alpha left board 2 empty, Gamma's player won it.
        (2, "3", "1"): [BoardResult.DRAW, BoardResult.HOME_WINS_BY_FORFEIT],
        # Forfeited whole by Gamma, its players named: not played.
        (3, "2", "3"): [BoardResult.HOME_WINS_BY_FORFEIT] * 2,
    }
    byes = {(b.round, b.team): b.kind for b in event.byes}
    assert byes == {
        (1, "3"): ByeKind.PAIRING_ALLOCATED,
        (2, "2"): ByeKind.ZERO_POINT,
        (3, "1"): ByeKind.HALF_POINT,
    }
    assert [m.played for m in event.matches] == [True, True, False]


def test_the_team_json_expresses_what_the_trf_says() -> None:
    event = read_team_event(LEAGUE, "county1980", "league.trf")
    again = load_event(event.model_dump_json(), "league.json")
    assert again == event


def test_a_team_regulation_scores_byes_and_forfeits() -> None:
    event = read_team_event(LEAGUE, "league", "league.trf")
    rules = regulation_from_text(
        'name = "league"\nscore = "MP"\npairing = "swiss"\ncriteria = ["GP"]\n', "l.toml"
    )
    rows = {r.id: r for r in rules.standings(event).rows}
    # Alpha: a win, a lost match, a half-point bye (1). Beta: a loss, absent, a
    # forfeit win. Gamma: a pairing-allocated bye (1), a win, a forfeit loss.
    assert {t: rows[t].score for t in rows} == {"1": 3.0, "2": 2.0, "3": 3.0}
    game_points = {t: rows[t].tiebreaks["game_points"] for t in rows}
    # Game points: Alpha 1.5 + 0.5 + 1 (half the boards); Beta 0.5 + 0 + 2; Gamma 2
    # (every board of its bye) + 1.5 + 0.
    assert game_points == {"1": 3.0, "2": 2.5, "3": 3.5}


def test_trf2026_records_give_board_order_forfeited_matches_and_team_byes() -> None:
    text = document(
        "142 2",
        player(1, ["   4 w 1", "0000 - +"]),
        player(2, ["   3 b 0"]),
        player(3, ["   2 w 1"]),
        player(4, ["   1 b 0"]),
        player(5, ["", ""]),
        player(6, ["", ""]),
        team310(1, "Alpha", [1, 2]),
        team310(2, "Beta", [3, 4]),
        team310(3, "Gamma", [5, 6]),
        # Round 1: Beta sat its players in another order than its list.
        "300 001   2   1    4    3",
        # Round 2: Gamma did not come to Alpha; Beta had a full-point bye.
        "330 +- 002   1   3",
        "240 F 002    2",
        "240 Z 001    3",
    )
    event = read_team_event(text, "t", "t.trf")
    matches = {(m.round, m.home, m.away): m.boards for m in event.matches}
    assert matches == {
        # Board 1: Alpha's 1 (White) beat Beta's 4; board 2: Beta's 3 (White) beat 2.
        (1, "1", "2"): [BoardResult.HOME_WINS, BoardResult.AWAY_WINS],
        (2, "1", "3"): [BoardResult.HOME_WINS_BY_FORFEIT] * 2,
    }
    assert {(b.round, b.team): b.kind for b in event.byes} == {
        (1, "3"): ByeKind.ZERO_POINT,
        (2, "2"): ByeKind.FULL_POINT,
    }


def test_a_team_file_read_for_players_is_the_individual_event_it_was() -> None:
    # The project's TRF-2026 sample has a team record and player byes (240).
    text = (ROOT / "tests" / "data" / "io" / "sample-trf26.trf").read_text(encoding="utf-8")
    assert has_team_records(text)
    event = read_trf(text, "sample-trf26.trf")
    assert event.kind == "individual" and event.teams is None
    assert {b.player for b in event.byes if b.kind is ByeKind.HALF_POINT} == {"3", "4"}


def test_generated_team_swiss_events_read_as_their_json() -> None:
    for trf2026 in (False, True):
        trf, written = team_swiss_unplayed(7, 9, 4, 6, trf2026)
        read = read_team_event(trf, "county1980", "t.trf")
        expected = load_event(written, "t.json")
        assert isinstance(expected, TeamEvent)
        assert sorted((m.round, m.home, m.away, tuple(m.boards)) for m in read.matches) == sorted(
            (m.round, m.home, m.away, tuple(m.boards)) for m in expected.matches
        )
        assert sorted((b.round, b.team, b.kind) for b in read.byes) == sorted(
            (b.round, b.team, b.kind) for b in expected.byes
        )


def refusal(text: str) -> InputError:
    with pytest.raises(InputError) as caught:
        read_team_event(text, "t", "t.trf")
    return caught.value


def with_line(base: str, old: str, new: str) -> str:
    assert old in base
    return base.replace(old, new)


@pytest.mark.parametrize(
    ("text", "where", "words"),
    [
        (with_line(LEAGUE, team013("Beta", [3, 4]), team013("Beta", [3, 1])), (10, 42),
         "player 1 is already in team 1 (Alpha, line 9)"),
        (with_line(LEAGUE, team013("Beta", [3, 4]), team013("Beta", [3, 4, 17])), (10, 47),
         "no player with starting rank 17"),
        (with_line(LEAGUE, team013("Gamma", [5, 6]), team013("Gamma", [5])), (8, None),
         "player 6 plays for no team"),
        (with_line(LEAGUE, player(5, ["0000 - U", "   1 w =", "   3 b -"]),
                   player(5, ["0000 - H", "   1 w =", "   3 b -"])), (8, 99),
         "team 3 (Gamma) has no match, and its players' lines give different byes"),
        (with_line(LEAGUE, player(2, ["   4 b =", "0000 - -", "0000 - H"]),
                   player(2, ["   4 b =", "0000 - F", "0000 - H"])), (4, 109),
         "player 2 has 'F' (a bye), but his team 1 plays a match against team 3"),
        (LEAGUE + "320  1.0  2.0    3\n", (12, 1), "record 320"),
        (LEAGUE + "362  W 3.0  D 1.0\n", (12, 8), "362 gives 3 match points for W"),
        (LEAGUE + "330 +- 001   1   2\n", (12, 1), "team 1 has games against team 2"),
        (LEAGUE + "330 ?? 001   1   2\n", (12, 5), "is not the result of a forfeited match"),
        (LEAGUE + "330 +- 001   1   9\n", (12, 16), "'9' is not a team"),
        (document(player(1, ["   2 w 1"]), player(2, ["   1 b 0"]), team013("Solo", [1, 2])),
         (None, None), "found 1 team record (013); a team event needs at least two teams"),
    ],
    ids=["two teams", "unknown player", "no team", "mixed byes", "bye in a match", "320",
         "362", "330 and games", "330 result", "330 team", "one team"],
)
def test_what_cannot_be_read_is_refused_with_line_and_column(
    text: str, where: tuple[int | None, int | None], words: str
) -> None:
    error = refusal(text)
    assert words in error.reason
    line, column = where
    if line is not None:
        assert error.line == line
    if column is not None:
        assert error.column == column


def test_a_file_without_team_records_is_no_team_event() -> None:
    text = document(player(1, ["   2 w 1"]), player(2, ["   1 b 0"]))
    assert not has_team_records(text)
    assert "no team records" in refusal(text).reason


def test_boards_out_of_both_orders_ask_for_a_board_order() -> None:
    text = document(
        player(1, ["   4 w 1"]), player(2, ["   3 b 0"]),
        player(3, ["   2 w 1"]), player(4, ["   1 b 0"]),
        team013("Alpha", [1, 2]), team013("Beta", [3, 4]),
    )
    error = refusal(text)
    assert "give the board order in a 300 record" in error.reason
    assert error.line == 3
