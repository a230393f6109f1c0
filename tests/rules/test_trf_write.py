"""The TRF writer: which rating list a game goes to (FIDE Laws A.1 and B.1, the
Rating Regulations for rapid and blitz), and files the project's reader reads back
with the same players, games, results and colours."""

from __future__ import annotations

from datetime import date

import pytest

from playoff_formats.io.trf import parse_trf_document
from playoff_formats.io.trf_write import (
    TOO_FAST,
    UNEQUAL_TIMES,
    RatingPool,
    ReportGame,
    ReportHeader,
    ReportPlayer,
    rating_pool,
    rating_reports,
    time_for_60_moves_ms,
)
from playoff_formats.timecontrol import TimeControl
from playoff_formats.values import Result

RAPID, BLITZ = TimeControl.parse("G/15+10"), TimeControl.parse("G/3+2")


@pytest.mark.parametrize(
    ("control", "pool"),
    [
        ("G/10", RatingPool.BLITZ),  # B.1: 10 minutes or less
        ("G/9+2", RatingPool.RAPID),  # 9 minutes + 60 x 2 s: more than 10 (A.1)
        ("G/3+2", RatingPool.BLITZ),  # 5 minutes for 60 moves
        ("G/3", TOO_FAST),  # the blitz list rates more than 3 minutes
        ("G/2+1", TOO_FAST),  # 2 minutes + 60 x 1 s: exactly 3
        ("G/59", RatingPool.RAPID),  # A.1: less than 60 minutes
        ("G/50+10", RatingPool.STANDARD),  # 60 minutes
        ("40/90+30, G/30+30", RatingPool.STANDARD),
        ("G/5+3 from move 61", RatingPool.BLITZ),  # no increment within 60 moves: 5 minutes
        ("G/8 d2", RatingPool.BLITZ),  # a delay counts as an increment: exactly 10
        ("G/8 d3", RatingPool.RAPID),  # 11
        ("W G/5 / B G/4", UNEQUAL_TIMES),  # the Armageddon
        ("W G/5+3 from move 61 / B G/4+3 from move 61", UNEQUAL_TIMES),
    ],
)
def test_the_list_of_a_time_control(control: str, pool: RatingPool | str) -> None:
    assert rating_pool(TimeControl.parse(control)) == pool


def test_the_time_for_60_moves() -> None:
    assert time_for_60_moves_ms(TimeControl.parse("G/25+10")) == 35 * 60_000
    assert time_for_60_moves_ms(TimeControl.parse("40/90+30, G/30+30")) == 150 * 60_000
    assert time_for_60_moves_ms(TimeControl.parse("G/5+3 from move 61")) == 5 * 60_000


def test_no_time_control_no_list() -> None:
    assert rating_pool(None) == "its time control is not known"


PLAYERS = [
    ReportPlayer("a", "Непомнящий, Ян", 2760, "GM", "FID", "24101605", 1),
    ReportPlayer("b", "Ζαφειρόπουλος, Γιώργος", None, None, "GRE", None, 3),
    ReportPlayer("c", "Abdusattorov, Nodirbek Abdusattorovich Junior", 2767, "GM", "UZB",
                 "14204118", 2),
    ReportPlayer("d", "Dubov, Daniil", 2700, "GM", "FID", "24126055", 4),
]
DAY = date(2026, 6, 21)


def game(white: str, black: str, result: Result, order: tuple[int, ...],
         control: TimeControl = RAPID, day: date | None = DAY) -> ReportGame:
    return ReportGame(white, black, result, control, day, order, f"game {order}")


# A knock-out of four: semi-finals a-d and c-b (two games each, played together),
# then the final a-c; a double forfeit, a forfeit, and a blitz decider.
GAMES = [
    game("a", "d", Result.WHITE_WINS, (1, 1, 1)),
    game("c", "b", Result.DRAW, (1, 1, 1)),
    game("d", "a", Result.DRAW, (1, 1, 2)),
    game("b", "c", Result.BLACK_WINS_BY_FORFEIT, (1, 1, 2)),
    game("a", "c", Result.DOUBLE_FORFEIT, (1, 2, 1)),
    game("c", "a", Result.BLACK_WINS, (1, 2, 2)),
    game("a", "c", Result.DRAW, (1, 2, 3), control=BLITZ, day=date(2026, 6, 22)),
    game("c", "a", Result.DRAW, (1, 2, 4), control=TimeControl.parse("W G/5 / B G/4")),
]


@pytest.mark.parametrize("edition", ["16", "2026"])
def test_a_file_per_list_read_back_as_written(edition: str) -> None:
    reports = rating_reports(ReportHeader("Cup"), PLAYERS, GAMES, edition)  # type: ignore[arg-type]
    assert [r.pool for r in reports] == [RatingPool.RAPID, RatingPool.BLITZ]
    rapid = parse_trf_document(reports[0].text, "rapid.trf")
    names = {p.id: p.name for p in rapid.event.players}
    # Starting ranks in the players' order (the seeds); non-Latin names as written,
    # a name longer than TRF's 33 columns cut.
    assert names == {
        "1": "Непомнящий, Ян", "2": "Ζαφειρόπουλος, Γιώργος",
        "3": "Abdusattorov, Nodirbek Abdusattor", "4": "Dubov, Daniil",
    }
    ids = {"1": "a", "2": "b", "3": "c", "4": "d"}
    read = [(g.round, ids[g.white], ids[g.black], g.result) for g in rapid.event.games]
    # The semi-finals played together share their rounds; the final comes after.
    assert read == [
        (1, "a", "d", Result.WHITE_WINS), (1, "c", "b", Result.DRAW),
        (2, "d", "a", Result.DRAW), (2, "b", "c", Result.BLACK_WINS_BY_FORFEIT),
        (3, "a", "c", Result.DOUBLE_FORFEIT), (4, "c", "a", Result.BLACK_WINS),
    ]
    # Players out of the final have those rounds blank: not paired.
    assert {(b.round, ids[b.player]) for b in rapid.event.byes} == {
        (3, "b"), (3, "d"), (4, "b"), (4, "d")}
    assert rapid.header.start_date == rapid.header.end_date == DAY
    assert rapid.header.round_dates == (DAY,) * 4
    blitz = parse_trf_document(reports[1].text, "blitz.trf")
    assert [(ids[g.white], g.result) for g in blitz.event.games] == [("a", Result.DRAW)]
    assert blitz.header.start_date == date(2026, 6, 22)
    if edition == "2026":
        assert blitz.header.rounds == 1 and blitz.header.time_control == "180+2"


def test_the_lines_hold_ids_ratings_titles_points_and_ranks() -> None:
    (rapid, _) = rating_reports(ReportHeader("Cup"), PLAYERS, GAMES)
    lines = [line for line in rapid.text.splitlines() if line.startswith("001")]
    first = lines[0]
    assert first[10:13] == " GM" and first[48:52] == "2760" and first[53:56] == "FID"
    assert first[57:68] == "   24101605" and first[80:84] == " 2.5" and first[85:89] == "   1"
    assert lines[1][48:52] == "    "  # unrated
    assert [line[85:89].strip() for line in lines] == ["1", "3", "2", "4"]


def test_the_comments_say_what_the_file_is_and_what_no_list_rates() -> None:
    (rapid, _) = rating_reports(ReportHeader("Cup", finished=False, stage=None), PLAYERS, GAMES)
    comments = [line for line in rapid.text.splitlines() if line.startswith("###")]
    assert comments[:2] == [
        "### The play-off of Cup: its rapid games (FIDE Laws, Appendix A) for FIDE's rapid "
        "rating list, 6 games (TRF16).",
        "### Ranks: none yet: the play-off is not finished.",
    ]
    assert f"### Not in any list: game (1, 2, 4): {UNEQUAL_TIMES}." in comments


def test_a_round_without_a_known_day_leaves_the_round_dates_out() -> None:
    games = [game("a", "d", Result.WHITE_WINS, (1, 1, 1), day=None),
             game("d", "a", Result.DRAW, (1, 1, 2))]
    (rapid,) = rating_reports(ReportHeader("Cup"), PLAYERS, games)
    document = parse_trf_document(rapid.text)
    assert document.header.round_dates == ()
    assert document.header.start_date == DAY


def test_a_name_cannot_break_its_line() -> None:
    players = [ReportPlayer("a", "Smith,\nJohn"), ReportPlayer("b", "Jones, Tom")]
    (rapid,) = rating_reports(
        ReportHeader("Club\nChampionship"), players,
        [game("a", "b", Result.DRAW, (1, 1, 1))],
    )
    document = parse_trf_document(rapid.text)
    assert [p.name for p in document.event.players] == ["Smith, John", "Jones, Tom"]
    assert all(line[:3] in ("012", "###", "042", "052", "062", "072", "092", "122", "132",
                            "XXR", "001") for line in rapid.text.splitlines())


def test_the_armageddon_alone_gives_no_file() -> None:
    armageddon = game("a", "b", Result.DRAW, (1, 1, 1), control=TimeControl.parse("W G/5 / B G/4"))
    assert rating_reports(ReportHeader("Cup"), PLAYERS, [armageddon]) == []
