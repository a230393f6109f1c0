"""Time controls: the GCT 2015 controls, notation, TRF-2026 record 222."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from playoff_formats.errors import InputError, PlayoffError
from playoff_formats.model import Colour
from playoff_formats.timecontrol import (
    ARMAGEDDON,
    RAPID_15_5,
    RAPID_25_5,
    DelayMode,
    NotExpressibleError,
    Stage,
    TimeControl,
)

MIN = 60_000
SEC = 1_000

# -- the Grand Chess Tour 2015 controls ----------------------------------------------


def test_gct_regs_6_to_8_rapid_is_25_minutes_plus_5_seconds_from_move_1() -> None:
    stage = Stage(base_ms=25 * MIN, increment_ms=5 * SEC, increment_from_move=1)
    assert TimeControl(white=(stage,), black=(stage,)) == RAPID_25_5
    assert RAPID_25_5.symmetric
    assert RAPID_25_5.increment_after_move(Colour.WHITE, 1) == 5 * SEC
    assert str(RAPID_25_5) == "G/25+5"


def test_gct_reg_9_knockout_rapid_is_15_minutes_plus_5_seconds() -> None:
    stage = Stage(base_ms=15 * MIN, increment_ms=5 * SEC)
    assert TimeControl(white=(stage,), black=(stage,)) == RAPID_15_5
    assert str(RAPID_15_5) == "G/15+5"


def test_gct_reg_10a_armageddon_white_6_black_5_increment_from_move_61() -> None:
    assert not ARMAGEDDON.symmetric
    assert ARMAGEDDON.for_side(Colour.WHITE) == (
        Stage(base_ms=6 * MIN, increment_ms=3 * SEC, increment_from_move=61),
    )
    assert ARMAGEDDON.for_side(Colour.BLACK) == (
        Stage(base_ms=5 * MIN, increment_ms=3 * SEC, increment_from_move=61),
    )
    assert ARMAGEDDON.initial_ms(Colour.WHITE) == 6 * MIN
    assert ARMAGEDDON.initial_ms(Colour.BLACK) == 5 * MIN
    assert str(ARMAGEDDON) == "W 6' / B 5', +3 s from move 61"


@pytest.mark.parametrize("colour", list(Colour))
def test_armageddon_first_increment_is_credited_on_completing_move_61(colour: Colour) -> None:
    assert [ARMAGEDDON.increment_after_move(colour, m) for m in (1, 59, 60)] == [0, 0, 0]
    assert [ARMAGEDDON.increment_after_move(colour, m) for m in (61, 62, 100)] == [3 * SEC] * 3


# -- parsing and printing ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "white", "black"),
    [
        ("G/25+5", [Stage(base_ms=25 * MIN, increment_ms=5 * SEC)], None),
        ("G/90+30", [Stage(base_ms=90 * MIN, increment_ms=30 * SEC)], None),
        ("90+30", [Stage(base_ms=90 * MIN, increment_ms=30 * SEC)], None),
        ("90m+30s", [Stage(base_ms=90 * MIN, increment_ms=30 * SEC)], None),
        ("90 min + 30 sec", [Stage(base_ms=90 * MIN, increment_ms=30 * SEC)], None),
        (
            "40/90+30, G/30+30",
            [
                Stage(base_ms=90 * MIN, increment_ms=30 * SEC, moves=40),
                Stage(base_ms=30 * MIN, increment_ms=30 * SEC),
            ],
            None,
        ),
        ("G/5 d3", [Stage(base_ms=5 * MIN, delay_ms=3 * SEC, delay=DelayMode.US)], None),
        ("G/5;d3", [Stage(base_ms=5 * MIN, delay_ms=3 * SEC, delay=DelayMode.US)], None),
        ("G/5 b3", [Stage(base_ms=5 * MIN, delay_ms=3 * SEC, delay=DelayMode.BRONSTEIN)], None),
        ("G/5 d0", [Stage(base_ms=5 * MIN, delay=DelayMode.US)], None),
        ("G/4'30\"+0.5", [Stage(base_ms=270 * SEC, increment_ms=500)], None),
        (
            "g/3+2 FROM MOVE 41",
            [Stage(base_ms=3 * MIN, increment_ms=2 * SEC, increment_from_move=41)],
            None,
        ),
        (
            "W 6' / B 5', +3 s from move 61",
            [Stage(base_ms=6 * MIN, increment_ms=3 * SEC, increment_from_move=61)],
            [Stage(base_ms=5 * MIN, increment_ms=3 * SEC, increment_from_move=61)],
        ),
        ("W 5' / B 4'", [Stage(base_ms=5 * MIN)], [Stage(base_ms=4 * MIN)]),
        (
            "W G/6+2 / B G/5",
            [Stage(base_ms=6 * MIN, increment_ms=2 * SEC)],
            [Stage(base_ms=5 * MIN)],
        ),
    ],
)
def test_parse_documented_notations(
    text: str, white: list[Stage], black: list[Stage] | None
) -> None:
    control = TimeControl.parse(text)
    assert control.white == tuple(white)
    assert control.black == tuple(black if black is not None else white)
    assert TimeControl.parse(str(control)) == control


@pytest.mark.parametrize(
    ("text", "printed"),
    [
        ("90+30", "G/90+30"),
        ("40/90+30,G/30+30", "40/90+30, G/30+30"),
        ("G/5;d3", "G/5 d3"),
        ("G/270s", "G/4'30\""),
        ("W 6 / B 5, +3 from move 61", "W 6' / B 5', +3 s from move 61"),
        ("W G/6+2 / B G/5", "W G/6+2 / B G/5"),
        ("W 5' / B 4', b2", "W 5' / B 4', b2"),
    ],
)
def test_canonical_printing(text: str, printed: str) -> None:
    assert str(TimeControl.parse(text)) == printed


@pytest.mark.parametrize(
    ("text", "column", "reason"),
    [
        ("", 1, "empty"),
        ("G25", 2, "expected '/' after 'G'"),
        ("G/25+", 6, "expected an increment"),
        ("G/25 x", 6, "unexpected 'x'"),
        ("G/25+5 from 61", 13, "expected 'move'"),
        ("G/25+5 from move 0", 18, "numbered from 1"),
        ("40/90", 1, "last period must be the rest of the game"),
        ("G/30, 40/90", 1, "only the last period"),
        ("G/0.00001", 3, "whole number of milliseconds"),
        ("W 6', +3 / B 5'", 5, "after Black's time"),
        ("W 6' B 5'", 6, "expected '/ B'"),
        ("G/5+2, +3", 8, "a period has its own"),
        ("G/5;x", 5, "expected a delay"),
        ("G/5\n", 4, "one line"),
        ("x", 1, "expected a period"),
    ],
)
def test_bad_notation_is_refused_with_column_and_reason(
    text: str, column: int, reason: str
) -> None:
    with pytest.raises(InputError) as caught:
        TimeControl.parse(text)
    assert caught.value.column == column
    assert reason in caught.value.reason
    assert f"column {column}" in str(caught.value)


# -- the model ---------------------------------------------------------------------------


def test_the_last_period_is_the_rest_of_the_game() -> None:
    with pytest.raises(ValidationError):
        TimeControl(white=(Stage(base_ms=MIN, moves=40),), black=(Stage(base_ms=MIN),))
    with pytest.raises(ValidationError):
        TimeControl(white=(Stage(base_ms=MIN), Stage(base_ms=MIN)), black=(Stage(base_ms=MIN),))


def test_a_delay_needs_a_mode_and_times_are_not_negative() -> None:
    with pytest.raises(ValidationError):
        Stage(base_ms=MIN, delay_ms=SEC)
    with pytest.raises(ValidationError):
        Stage(base_ms=-1)
    with pytest.raises(ValidationError):
        Stage(base_ms=0, increment_from_move=0)


def test_periods_and_time_added_at_the_control() -> None:
    control = TimeControl.parse("40/90+30, G/30+30")
    assert control.stage_for_move(Colour.BLACK, 40).moves == 40
    assert control.stage_for_move(Colour.BLACK, 41).moves is None
    assert control.time_added_after_move(Colour.WHITE, 39) == 30 * SEC
    assert control.time_added_after_move(Colour.WHITE, 40) == 30 * SEC + 30 * MIN
    assert control.time_added_after_move(Colour.WHITE, 41) == 30 * SEC


# -- estimated duration -------------------------------------------------------------------


def test_estimated_duration_of_the_gct_controls() -> None:
    # Both sides: 25 min + 60 x 5 s = 30 min.
    assert RAPID_25_5.estimated_duration_ms() == 60 * MIN
    assert RAPID_15_5.estimated_duration_ms() == 40 * MIN
    # 6 + 5 minutes; no increment before move 61.
    assert ARMAGEDDON.estimated_duration_ms(60) == 11 * MIN
    # Moves 61-80 earn 3 s each for both sides.
    assert ARMAGEDDON.estimated_duration_ms(80) == 11 * MIN + 2 * 20 * 3 * SEC


def test_estimated_duration_counts_only_periods_reached_and_delays() -> None:
    control = TimeControl.parse("40/90+30, G/30+30")
    assert control.estimated_duration_ms(40) == 2 * (90 * MIN + 40 * 30 * SEC)
    assert control.estimated_duration_ms(41) == 2 * (120 * MIN + 41 * 30 * SEC)
    assert TimeControl.parse("G/5 d3").estimated_duration_ms(10) == 2 * (5 * MIN + 30 * SEC)
    assert RAPID_25_5.estimated_duration_ms(0) == 50 * MIN


# -- TRF-2026 record 222 -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("record", "notation"),
    [
        ("5400+30", "G/90+30"),
        ("40/6000+30:900+30", "40/100+30, G/15+30"),
        ("W300-B240", "W 5' / B 4'"),
        ("600", "G/10"),
        ("1500+5", "G/25+5"),
        ("W40/5400+30:1800-B40/4800:1800", "W 40/90+30, G/30 / B 40/80, G/30"),
    ],
)
def test_trf222_examples(record: str, notation: str) -> None:
    control = TimeControl.from_trf222(record)
    assert control == TimeControl.parse(notation)
    assert control.to_trf222() == record


def test_trf222_of_the_rapid_controls() -> None:
    assert RAPID_25_5.to_trf222() == "1500+5"
    assert RAPID_15_5.to_trf222() == "900+5"


def test_trf222_cannot_say_increment_from_move_61_so_it_refuses() -> None:
    with pytest.raises(NotExpressibleError, match="from move 61"):
        ARMAGEDDON.to_trf222()
    assert issubclass(NotExpressibleError, PlayoffError)


def test_trf222_an_increment_from_the_first_move_of_a_later_period_is_expressible() -> None:
    control = TimeControl.parse("40/90, G/30+30 from move 41")
    assert control.to_trf222() == "40/5400:1800+30"


@pytest.mark.parametrize("notation", ["G/5 d3", "G/5 b2", "G/4'30.5\"", "G/5+0.5"])
def test_trf222_refuses_delays_and_fractions_of_a_second(notation: str) -> None:
    with pytest.raises(NotExpressibleError):
        TimeControl.parse(notation).to_trf222()


@pytest.mark.parametrize(
    ("record", "column"),
    [("W300", 5), ("5400+", 6), ("40/6000+30", 1), ("W300-B240x", 10), ("90'+30\"", 3), ("", 1)],
)
def test_trf222_bad_records_are_refused_with_a_column(record: str, column: int) -> None:
    with pytest.raises(InputError) as caught:
        TimeControl.from_trf222(record)
    assert caught.value.column == column


# -- printing then parsing is the identity ---------------------------------------------


@st.composite
def stages(draw: st.DrawFn, last: bool) -> Stage:
    delay = draw(st.sampled_from([None, DelayMode.US, DelayMode.BRONSTEIN]))
    return Stage(
        base_ms=draw(st.integers(min_value=0, max_value=10**9)),
        increment_ms=draw(st.integers(min_value=0, max_value=10**6)),
        increment_from_move=draw(st.integers(min_value=1, max_value=200)),
        moves=None if last else draw(st.integers(min_value=1, max_value=100)),
        delay_ms=0 if delay is None else draw(st.integers(min_value=0, max_value=10**6)),
        delay=delay,
    )


@st.composite
def sides(draw: st.DrawFn) -> tuple[Stage, ...]:
    earlier = draw(st.lists(stages(last=False), max_size=3))
    return (*earlier, draw(stages(last=True)))


@st.composite
def controls(draw: st.DrawFn) -> TimeControl:
    white = draw(sides())
    shape = draw(st.sampled_from(["symmetric", "armageddon", "any"]))
    if shape == "symmetric":
        return TimeControl(white=white, black=white)
    if shape == "armageddon":
        black = white[-1].model_copy(update={"base_ms": draw(st.integers(0, 10**9))})
        return TimeControl(white=(white[-1],), black=(black,))
    return TimeControl(white=white, black=draw(sides()))


@given(controls())
def test_printing_then_parsing_is_the_identity(control: TimeControl) -> None:
    assert TimeControl.parse(str(control)) == control


@given(controls())
def test_trf222_round_trip_when_expressible(control: TimeControl) -> None:
    try:
        record = control.to_trf222()
    except NotExpressibleError:
        return
    assert TimeControl.from_trf222(record) == _normalised(control)


def _normalised(control: TimeControl) -> TimeControl:
    """What 222 keeps: an increment from (or before) a period's first move, or no
    increment at all, reads back as 'from move 1'."""

    def side(stages: tuple[Stage, ...]) -> tuple[Stage, ...]:
        return tuple(stage.model_copy(update={"increment_from_move": 1}) for stage in stages)

    return TimeControl(white=side(control.white), black=side(control.black))
