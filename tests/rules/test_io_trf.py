"""Reading FIDE TRF files (TRF16 and TRF-2026) into individual events."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from playoff_formats.errors import InputError
from playoff_formats.io.trf import TrfHeader, parse_trf, parse_trf_document
from playoff_formats.model import Bye, ByeKind, Game, IndividualEvent, Result
from tests import support

DATA = support.DATA / "io"
TRF16_FILE = DATA / "every-code-trf16.trf"
TRF26_FILE = DATA / "sample-trf26.trf"

# The TRF16 fixture as written (CRLF), and with plain line feeds for editing.
TRF16_RAW = TRF16_FILE.read_bytes().decode("utf-8")
TRF16 = TRF16_RAW.replace("\r\n", "\n")
TRF26 = TRF26_FILE.read_text(encoding="utf-8")

# In the TRF16 fixture, the player with starting rank r is on line 14 + r.
LINE = {rank: 14 + rank for rank in range(1, 9)}


def opponent_col(round_number: int) -> int:
    return 92 + 10 * (round_number - 1)


def colour_col(round_number: int) -> int:
    return opponent_col(round_number) + 5


def result_col(round_number: int) -> int:
    return opponent_col(round_number) + 7


def edit(text: str, *changes: tuple[int, int, str]) -> str:
    """Write ``new`` at 1-based (line, column), padding short lines with blanks."""
    lines = text.split("\n")
    for line_number, column, new in changes:
        line = lines[line_number - 1].ljust(column - 1 + len(new))
        lines[line_number - 1] = line[: column - 1] + new + line[column - 1 + len(new) :]
    return "\n".join(lines)


def append(text: str, *records: str) -> str:
    return text.rstrip("\n") + "\n" + "\n".join(records) + "\n"


def score(event: IndividualEvent, player_id: str) -> float:
    games = sum(g.points_of(player_id) for g in event.games if player_id in (g.white, g.black))
    byes = sum(b.kind.points for b in event.byes if b.player == player_id)
    return games + byes


def refusal(text: str) -> InputError:
    with pytest.raises(InputError) as caught:
        parse_trf(text, "event.trf")
    return caught.value


# --------------------------------------------------------------------------- valid files


def test_fixture_lines_are_where_the_tests_expect_them() -> None:
    lines = TRF16.split("\n")
    for rank, number in LINE.items():
        assert lines[number - 1].startswith(f"001 {rank:4d}")


def test_every_result_code_becomes_games_and_byes() -> None:
    event = parse_trf(TRF16_RAW, "every-code-trf16.trf")

    assert event.name == "Every Code Open 2024"
    assert [p.id for p in event.players] == [str(r) for r in range(1, 9)]
    assert event.rounds == 4
    assert event.games == [
        Game(round=1, white="1", black="2", result=Result.WHITE_WINS),  # 1 / 0
        Game(round=1, white="3", black="4", result=Result.DRAW),  # = / =
        Game(round=1, white="5", black="6", result=Result.WHITE_WINS_BY_FORFEIT),  # + / -
        Game(round=2, white="2", black="1", result=Result.WHITE_WINS, rated=False),  # W / L
        Game(round=2, white="4", black="3", result=Result.DRAW, rated=False),  # D / d
        Game(round=2, white="6", black="7", result=Result.BLACK_WINS_BY_FORFEIT),  # - / +
        Game(round=3, white="1", black="3", result=Result.BLACK_WINS),  # 0 / 1
        Game(round=3, white="2", black="4", result=Result.BLACK_WINS, rated=False),  # L / W
        Game(round=3, white="5", black="8", result=Result.DOUBLE_FORFEIT),  # - / -
        Game(round=4, white="1", black="4", result=Result.DRAW),
        Game(round=4, white="2", black="3", result=Result.WHITE_WINS),
        Game(round=4, white="8", black="6", result=Result.WHITE_WINS),
    ]
    assert event.byes == [
        Bye(round=1, player="7", kind=ByeKind.HALF_POINT),  # h (lower case)
        Bye(round=1, player="8", kind=ByeKind.PAIRING_ALLOCATED),  # U
        Bye(round=2, player="5", kind=ByeKind.FULL_POINT),  # F
        Bye(round=2, player="8", kind=ByeKind.ZERO_POINT),  # Z
        Bye(round=3, player="6", kind=ByeKind.FULL_POINT),  # + with 0000
        Bye(round=3, player="7", kind=ByeKind.ZERO_POINT),  # - with 0000
        Bye(round=4, player="5", kind=ByeKind.ZERO_POINT),  # blank round
        Bye(round=4, player="7", kind=ByeKind.ZERO_POINT),  # line ends before round 4
    ]
    # Forfeit wins and byes count with their points; the file's points column agrees.
    assert {p.id: score(event, p.id) for p in event.players} == {
        "1": 1.5,
        "2": 2.0,
        "3": 2.0,
        "4": 2.5,
        "5": 2.0,
        "6": 1.0,
        "7": 1.5,
        "8": 2.0,
    }


def test_player_fields() -> None:
    event = parse_trf(TRF16)
    first = event.player("1")
    assert (first.name, first.rating, first.title, first.federation, first.fide_id) == (
        "Alder, Anna",
        2710,
        "GM",
        "ENG",
        "400001",
    )
    assert event.player("3").title == "WGM"
    unrated = event.player("6")
    assert (unrated.rating, unrated.title, unrated.fide_id) == (None, None, None)


def test_header_records_are_kept() -> None:
    document = parse_trf_document(TRF16)
    assert document.header == TrfHeader(
        name="Every Code Open 2024",
        city="Tashkent",
        federation="UZB",
        start_date=date(2024, 6, 10),
        end_date=date(2024, 6, 13),
        chief_arbiter="IA Rustam Qodirov",
        deputy_arbiters=("IA Deputy One",),
        allotted_time="90 min/40 moves + 30 min + 30 sec increment from move 1",
        rounds=4,
        round_dates=(date(2024, 6, 10), date(2024, 6, 11), date(2024, 6, 12), date(2024, 6, 13)),
    )
    assert document.event == parse_trf(TRF16)


def test_line_endings_and_byte_order_mark_do_not_matter() -> None:
    plain = parse_trf(TRF16)
    assert parse_trf(TRF16_RAW) == plain
    assert parse_trf("\ufeff" + TRF16_RAW) == plain
    assert parse_trf(TRF16.replace("\n", "\r")) == plain


def test_trf2026_sample() -> None:
    document = parse_trf_document(TRF26, "sample-trf26.trf")
    header, event = document.header, document.event
    assert header.name == "TRF-2026 Sample Masters"
    assert header.time_control == "5400+30"
    assert header.tiebreaks == ("DE", "WIN", "SB", "KS")
    assert header.rounds == 4
    assert header.start_date == date(2025, 9, 1)
    assert len(event.players) == 4
    assert len(event.games) == 7
    # Record 240 gives player 3 the half-point bye his line leaves blank, and
    # agrees with the H on player 4's line.
    assert event.byes == [
        Bye(round=4, player="3", kind=ByeKind.HALF_POINT),
        Bye(round=4, player="4", kind=ByeKind.HALF_POINT),
    ]
    assert [score(event, p) for p in ("1", "2", "3", "4")] == [2.5, 1.5, 3.0, 1.0]


def test_trf16_and_trf2026_give_the_same_kind_of_event() -> None:
    for text in (TRF16, TRF26):
        assert isinstance(parse_trf(text), IndividualEvent)


def test_forfeit_without_colours_gives_white_to_the_lower_starting_rank() -> None:
    text = edit(TRF16, (LINE[5], colour_col(1), "-"), (LINE[6], colour_col(1), "-"))
    game = parse_trf(text).games[2]
    assert (game.white, game.black, game.result) == ("5", "6", Result.WHITE_WINS_BY_FORFEIT)


def test_blank_points_column_is_not_checked() -> None:
    event = parse_trf(edit(TRF16, (LINE[1], 81, "    ")))
    assert score(event, "1") == 1.5


def test_name_falls_back_to_the_source() -> None:
    text = "\n".join(line for line in TRF16.split("\n") if not line.startswith("012"))
    assert parse_trf(text, "club.trf").name == "club.trf"
    assert parse_trf(text).name == "Unnamed event"


def test_unknown_records_and_comments_are_ignored() -> None:
    text = append(
        TRF16,
        "### a comment",
        "DAT 0001 EMAIL someone@example.org",
        "ENG    1 m    Alder, Anna                       2100",
        "310   1 A team",
        "   ",
    )
    assert parse_trf(text) == parse_trf(TRF16)


def test_default_scoring_record_is_accepted() -> None:
    assert parse_trf(append(TRF16, "162  W 1.0    D 0.5    L 0.0")) == parse_trf(TRF16)


# --------------------------------------------------------------------------- refusals

P1, P2, P5, P6, P7, P8 = (LINE[r] for r in (1, 2, 5, 6, 7, 8))

BAD_PLAYER_LINES = [
    # (description, changes, line, column, word in the reason)
    ("duplicate starting rank", [(P8, 5, "   7")], P8, 5, "already used by line 21"),
    ("starting rank not a number", [(P1, 5, "  1A")], P1, 5, "starting rank"),
    ("no blank after 001", [(P1, 4, "x")], P1, 4, "blank"),
    ("no name", [(P1, 15, " " * 33)], P1, 15, "no name"),
    ("rating not a number", [(P1, 49, "27A0")], P1, 49, "'27A0'"),
    ("points not a number", [(P1, 81, " 1,x")], P1, 81, "not a number"),
    ("points do not match", [(P1, 81, " 2.5")], P1, 81, "add up to 1.5"),
    ("fields run into the rounds", [(P1, 90, "9")], P1, 90, "columns 90-91"),
    ("unknown opponent", [(P1, opponent_col(1), "  99")], P1, opponent_col(1), "no player"),
    ("paired with himself", [(P1, opponent_col(1), "   1")], P1, opponent_col(1), "himself"),
    ("opponent not a number", [(P1, opponent_col(1), " 2x ")], P1, opponent_col(1), "'2x'"),
    ("invalid result code", [(P1, result_col(1), "X")], P1, result_col(1), "result code"),
    ("invalid colour", [(P1, colour_col(1), "r")], P1, colour_col(1), "colour"),
    ("misaligned round", [(P1, opponent_col(1) + 4, "w")], P1, opponent_col(1) + 4, "blank"),
    (
        "game result without opponent",
        [(P1, opponent_col(1), "0000")],
        P1,
        result_col(1),
        "no opponent",
    ),
    (
        "bye code with an opponent",
        [(P7, opponent_col(1), "   3")],
        P7,
        result_col(1),
        "cannot have an opponent",
    ),
    ("opponent without result", [(P1, result_col(1), " ")], P1, result_col(1), "no result"),
    ("game without colour", [(P1, colour_col(1), "-")], P1, colour_col(1), "w or b"),
    ("results disagree", [(P2, result_col(1), "1")], P2, result_col(1), "do not fit"),
    ("colours disagree", [(P2, colour_col(1), "w")], P2, colour_col(1), "colours do not fit"),
    (
        "one-sided pairing",
        [(P6, opponent_col(2), "0000"), (P6, colour_col(2), "-")],
        P7,
        opponent_col(2),
        "line 20 gives no opponent",
    ),
    (
        "player twice in a round",
        [(P7, opponent_col(4), "   6 b 0")],
        P7,
        opponent_col(4),
        "player 6 appears twice",
    ),
    ("second pairing-allocated bye", [(P7, result_col(1), "U")], P8, result_col(1), "second"),
    ("tab in a player line", [(P1, 20, "\t")], P1, 20, "tab"),
]


@pytest.mark.parametrize(
    ("changes", "line", "column", "word"),
    [case[1:] for case in BAD_PLAYER_LINES],
    ids=[case[0] for case in BAD_PLAYER_LINES],
)
def test_bad_player_lines_are_refused_with_line_and_column(
    changes: list[tuple[int, int, str]], line: int, column: int, word: str
) -> None:
    error = refusal(edit(TRF16, *changes))
    assert (error.line, error.column) == (line, column), error.reason
    assert word in error.reason
    assert error.source == "event.trf"
    assert f"line {line}, column {column}" in str(error)


def test_points_mismatch_names_the_computed_score() -> None:
    error = refusal(edit(TRF16, (LINE[4], 81, " 3.0")))
    assert (error.line, error.column) == (LINE[4], 81)
    assert "says 3.0" in error.reason
    assert "add up to 2.5" in error.reason


BAD_RECORDS = [
    # (description, record appended after line 25, column, word)
    ("non-default scoring", "162  W 3.0    D 1.0", 6, "3.0 points for a win"),
    ("unreadable scoring", "162  W one", 6, "cannot read"),
    ("abnormal points", "299 -     -1.0 003    1", 1, "abnormal points"),
    ("bye type", "240 Q 004    3", 5, "not a bye type"),
    ("bye round", "240 H 009    3", 7, "4 rounds only"),
    ("bye for a player with a game", "240 H 001    1", 14, "has a game"),
    ("bye for an unknown player", "240 H 001   42", 13, "no player"),
    ("bye that disagrees with the line", "240 F 001    7", 14, "half-point bye"),
    ("bye without players", "240 H 001", 10, "at least one"),
]


@pytest.mark.parametrize(
    ("record", "column", "word"),
    [case[1:] for case in BAD_RECORDS],
    ids=[case[0] for case in BAD_RECORDS],
)
def test_bad_records_are_refused_with_line_and_column(record: str, column: int, word: str) -> None:
    error = refusal(append(TRF16, record))
    assert (error.line, error.column) == (26, column), error.reason
    assert word in error.reason


def test_a_file_without_two_players_is_refused() -> None:
    error = refusal("012 Nothing here\n042 2024/01/01\n")
    assert "at least two players" in error.reason
    error = refusal("hello world")
    assert "found 0 player records" in error.reason


def test_no_traceback_for_a_binary_looking_file() -> None:
    with pytest.raises(InputError):
        parse_trf("001\x00\x01\x02" * 50)


# --------------------------------------------------------------------------- fuzzing


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text())
def test_random_text_is_only_ever_refused_cleanly(text: str) -> None:
    try:
        event = parse_trf(text)
    except InputError as error:
        assert error.reason
    else:
        assert len(event.players) >= 2


_TRF_ALPHABET = " 0123456789wbWDLHFUZ=+-.xX\t\r\n"


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(min_value=0, max_value=len(TRF16) - 1),
    st.text(alphabet=_TRF_ALPHABET, max_size=4),
    st.integers(min_value=0, max_value=4),
)
def test_mutated_files_are_read_or_refused_cleanly(position: int, insert: str, cut: int) -> None:
    text = TRF16[:position] + insert + TRF16[position + cut :]
    try:
        event = parse_trf(text)
    except InputError as error:
        assert error.reason
    else:
        assert len(event.players) >= 2


def test_the_start_date_of_record_042_is_the_events() -> None:
    # It chooses the edition of FIDE C.07 the tie-breaks follow.
    from playoff_formats.io.trf import read_trf

    assert parse_trf(TRF16).start_date == date(2024, 6, 10)
    assert read_trf(TRF16).start_date == date(2024, 6, 10)
    undated = "\n".join(line for line in TRF16.splitlines() if not line.startswith("042"))
    assert read_trf(undated).start_date is None
