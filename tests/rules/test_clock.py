"""The clock as a pure value: whole games on a fake monotonic time source."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from playoff_formats.clock import Clock, ClockError, ClockStatus, FlagFellError
from playoff_formats.errors import PlayoffError
from playoff_formats.model import Colour
from playoff_formats.timecontrol import (
    ARMAGEDDON,
    RAPID_15_5,
    RAPID_25_5,
    DelayMode,
    TimeControl,
)

MIN = 60_000
SEC = 1_000
W, B = Colour.WHITE, Colour.BLACK


@dataclass
class FakeMonotonic:
    """A monotonic millisecond source that moves only when told to."""

    now: int = 7_000_000

    def advance(self, ms: int) -> int:
        assert ms >= 0
        self.now += ms
        return self.now


def other(side: Colour) -> Colour:
    return B if side is W else W


def started(control: TimeControl, t: FakeMonotonic) -> Clock:
    clock = Clock.new(control).start(t.now)
    assert clock.running is W
    return clock


# -- a new clock, start ------------------------------------------------------------------


def test_a_new_clock_has_each_sides_first_period_and_does_not_run() -> None:
    clock = Clock.new(ARMAGEDDON)
    assert clock.status is ClockStatus.NOT_STARTED
    assert clock.running is None
    assert clock.flag_at_ms() is None
    assert clock.remaining_ms(W, 0) == 6 * MIN
    assert clock.remaining_ms(B, 10**12) == 5 * MIN
    assert clock.snapshot(0) == {
        "white_ms": 6 * MIN,
        "black_ms": 5 * MIN,
        "running": None,
        "to_move": "white",
        "status": "not-started",
        "flagged": None,
    }


def test_start_runs_whites_clock_and_sets_the_flag_timer() -> None:
    t = FakeMonotonic()
    clock = started(RAPID_25_5, t)
    assert clock.status is ClockStatus.RUNNING
    assert clock.turn_started_ms == t.now
    assert clock.flag_at_ms() == t.now + 25 * MIN
    t.advance(90 * SEC)
    assert clock.remaining_ms(W, t.now) == 25 * MIN - 90 * SEC
    assert clock.remaining_ms(B, t.now) == 25 * MIN
    assert clock.snapshot(t.now)["running"] == "white"


def test_transitions_return_new_values_and_the_value_is_frozen() -> None:
    t = FakeMonotonic()
    fresh = Clock.new(RAPID_25_5)
    running = fresh.start(t.now)
    pressed = running.press(W, 1, t.advance(3 * SEC))
    assert fresh.status is ClockStatus.NOT_STARTED
    assert running.to_move is W and running.white_moves == 0
    assert pressed.to_move is B and pressed.white_moves == 1
    with pytest.raises(ValidationError):
        pressed.white_ms = 1  # type: ignore[misc]


# -- whole games ---------------------------------------------------------------------------


def _rapid_think_ms(side: Colour, move: int) -> int:
    """Various speeds: White 10 s, 30 s then 20 s a move; Black 15 s then 29 s."""
    if side is W:
        return 10 * SEC if move <= 20 else 30 * SEC if move <= 40 else 20 * SEC
    return 15 * SEC if move <= 30 else 29 * SEC


def test_g25_plus_5_sixty_moves_each_exact_after_every_press() -> None:
    t = FakeMonotonic()
    clock = started(RAPID_25_5, t)
    expected = {W: 25 * MIN, B: 25 * MIN}
    for move in range(1, 61):
        for side in (W, B):
            think = _rapid_think_ms(side, move)
            # half-way through the move the clock has run down by half the thought
            assert clock.remaining_ms(side, t.now + think // 2) == expected[side] - think // 2
            clock = clock.press(side, move, t.advance(think))
            expected[side] += 5 * SEC - think
            assert clock.remaining_ms(side, t.now) == expected[side]
            assert clock.remaining_ms(other(side), t.now) == expected[other(side)]
            assert clock.moves_completed(side) == move
            assert clock.flag_at_ms() == t.now + expected[other(side)]
    # 25' - 20' used + 60 x 5 s, and 25' - 22' used + 60 x 5 s
    assert expected == {W: 10 * MIN, B: 8 * MIN}
    assert clock.snapshot(t.now) == {
        "white_ms": 10 * MIN,
        "black_ms": 8 * MIN,
        "running": "white",
        "to_move": "white",
        "status": "running",
        "flagged": None,
    }
    clock = clock.stop(t.advance(4 * SEC))
    assert clock.status is ClockStatus.STOPPED
    assert clock.running is None and clock.flag_at_ms() is None
    assert clock.remaining_ms(W, t.now + 10 * MIN) == 10 * MIN - 4 * SEC  # no increment


def _g15_after_forty_moves(t: FakeMonotonic) -> Clock:
    clock = started(RAPID_15_5, t)
    for move in range(1, 41):
        for side in (W, B):
            clock = clock.press(side, move, t.advance(20 * SEC))
    # 15' - 40 x 20 s + 40 x 5 s
    assert clock.remaining_ms(W, t.now) == 5 * MIN
    assert clock.remaining_ms(B, t.now) == 5 * MIN
    return clock.press(W, 41, t.advance(10 * SEC))


def test_g15_plus_5_black_flags_at_the_computed_expiry() -> None:
    t = FakeMonotonic()
    clock = _g15_after_forty_moves(t)
    assert clock.remaining_ms(W, t.now) == 5 * MIN - 10 * SEC + 5 * SEC
    expiry = clock.flag_at_ms()
    assert expiry == t.now + 5 * MIN
    assert clock.remaining_ms(B, expiry - 1) == 1
    assert clock.remaining_ms(B, expiry) == 0
    assert clock.remaining_ms(B, expiry + 10 * MIN) == 0  # never below 0

    # one millisecond before the flag the press counts, and earns the increment
    just_in_time = clock.press(B, 41, expiry - 1)
    assert just_in_time.remaining_ms(B, expiry - 1) == 1 + 5 * SEC

    # at the flag instant the press is refused: no increment after the flag
    with pytest.raises(FlagFellError) as refused:
        clock.press(B, 41, expiry)
    assert refused.value.side is B and refused.value.flag_at_ms == expiry
    assert "black's flag fell" in str(refused.value)
    with pytest.raises(ClockError, match=r"flag: it has .* left"):
        clock.flag(expiry - 1)

    flagged = clock.flag(expiry + 250)  # the server's timer fires a little late
    assert flagged.status is ClockStatus.FLAGGED and flagged.flagged is B
    assert flagged.running is None and flagged.flag_at_ms() is None
    assert flagged.remaining_ms(B, expiry + 10 * MIN) == 0
    assert flagged.remaining_ms(W, expiry + 10 * MIN) == 5 * MIN - 5 * SEC
    assert flagged.snapshot(expiry + 250)["flagged"] == "black"
    with pytest.raises(ClockError, match="black's flag fell") as after:
        flagged.press(B, 41, expiry + 300)
    assert not isinstance(after.value, FlagFellError)  # the game is over


def test_armageddon_no_increment_up_to_move_60_then_3_seconds_from_completing_move_61() -> None:
    t = FakeMonotonic()
    clock = started(ARMAGEDDON, t)
    expected = {W: 6 * MIN, B: 5 * MIN}
    think = {W: 5 * SEC, B: 4 * SEC}
    for move in range(1, 61):
        for side in (W, B):
            clock = clock.press(side, move, t.advance(think[side]))
            expected[side] -= think[side]  # nothing is credited for moves 1 to 60
            assert clock.remaining_ms(side, t.now) == expected[side]
    assert expected == {W: 60 * SEC, B: 60 * SEC}
    clock = clock.press(W, 61, t.advance(2 * SEC))
    assert clock.remaining_ms(W, t.now) == 60 * SEC - 2 * SEC + 3 * SEC
    clock = clock.press(B, 61, t.advance(1 * SEC))
    assert clock.remaining_ms(B, t.now) == 60 * SEC - 1 * SEC + 3 * SEC
    clock = clock.press(W, 62, t.advance(1 * SEC))
    assert clock.remaining_ms(W, t.now) == 61 * SEC - 1 * SEC + 3 * SEC
    assert clock.flag_at_ms() == t.now + 62 * SEC


def _armageddon_ledger(control: TimeControl) -> list[tuple[Colour, int, int]]:
    """Play 62 moves each (White 5 s a move, Black 4 s); (side, move, remaining) per press."""
    t = FakeMonotonic()
    clock = started(control, t)
    think = {W: 5 * SEC, B: 4 * SEC}
    ledger = []
    for move in range(1, 63):
        for side in (W, B):
            clock = clock.press(side, move, t.advance(think[side]))
            ledger.append((side, move, clock.remaining_ms(side, t.now)))
    return ledger


def test_armageddon_reading_chosen_first_increment_on_completing_move_61() -> None:
    """Reg. 10 a "+3 s per move from move 61": credited when move 61 is completed."""
    ours = {(side, move): left for side, move, left in _armageddon_ledger(ARMAGEDDON)}
    assert ours[(W, 60)] == 6 * MIN - 60 * 5 * SEC  # no +3 s for move 60
    assert ours[(B, 60)] == 5 * MIN - 60 * 4 * SEC
    assert ours[(W, 61)] == ours[(W, 60)] - 5 * SEC + 3 * SEC
    assert ours[(B, 61)] == ours[(B, 60)] - 4 * SEC + 3 * SEC
    assert ours[(W, 62)] == ours[(W, 61)] - 5 * SEC + 3 * SEC


def test_armageddon_other_reading_credit_from_the_press_of_move_60_is_not_what_we_do() -> None:
    """The other reading ("from move 61" = once move 60 is behind you, so the
    press that completes move 60 already earns +3 s) is what a control with
    ``increment_from_move=60`` does: each side 3 s ahead from its press of move
    60 on. ARMAGEDDON must not produce that ledger."""
    other_reading = TimeControl.parse("W 6' / B 5', +3 s from move 60")
    ours = _armageddon_ledger(ARMAGEDDON)
    theirs = _armageddon_ledger(other_reading)
    for (side, move, our_left), (their_side, their_move, their_left) in zip(
        ours, theirs, strict=True
    ):
        assert (side, move) == (their_side, their_move)
        if move < 60:
            assert our_left == their_left
        else:
            # the other reading is one increment (the one for move 60) ahead
            assert their_left == our_left + 3 * SEC
            assert our_left != their_left
    by_press = {(side, move): left for side, move, left in ours}
    assert by_press[(W, 60)] == 60 * SEC  # not 63 s
    assert by_press[(B, 60)] == 60 * SEC  # not 63 s
    assert by_press[(W, 61)] == 58 * SEC  # 60 s - 5 s + 3 s, not 61 s
    assert ARMAGEDDON.time_added_after_move(W, 60) == 0


# -- pause and resume ------------------------------------------------------------------


def test_no_time_runs_while_paused_and_the_flag_instant_moves_by_the_pause() -> None:
    t = FakeMonotonic()
    clock = started(RAPID_25_5, t).press(W, 1, t.advance(10 * SEC))
    clock = clock.press(B, 1, t.advance(20 * SEC))
    flag_before = clock.flag_at_ms()
    assert flag_before == t.now + 25 * MIN - 5 * SEC
    clock = clock.pause(t.advance(7 * SEC))
    assert clock.status is ClockStatus.PAUSED and clock.running is None
    assert clock.flag_at_ms() is None
    paused_at = t.now
    for later in (paused_at, paused_at + 1, paused_at + 3 * 60 * MIN):
        assert clock.remaining_ms(W, later) == 25 * MIN - 5 * SEC - 7 * SEC
        assert clock.remaining_ms(B, later) == 25 * MIN - 15 * SEC
    assert clock.snapshot(paused_at + MIN)["status"] == "paused"
    with pytest.raises(ClockError, match="the clock is paused"):
        clock.press(W, 2, t.now)
    with pytest.raises(ClockError, match="paused"):
        clock.pause(t.now)
    with pytest.raises(ClockError, match="paused"):
        clock.flag(t.now)
    clock = clock.resume(t.advance(45 * MIN))
    assert clock.running is W
    assert clock.flag_at_ms() == flag_before + 45 * MIN
    clock = clock.press(W, 2, t.advance(3 * SEC))
    assert clock.remaining_ms(W, t.now) == 25 * MIN - 5 * SEC - 10 * SEC + 5 * SEC
    with pytest.raises(ClockError, match="the clock is running"):
        clock.resume(t.now)


def test_pause_is_refused_once_the_flag_has_fallen() -> None:
    t = FakeMonotonic()
    clock = started(TimeControl.parse("G/1"), t)
    with pytest.raises(FlagFellError):
        clock.pause(t.advance(MIN))
    assert clock.pause(t.now - 1).remaining_ms(W, t.now + MIN) == 1


# -- adjustments -----------------------------------------------------------------------


def test_adjust_gives_and_takes_time_from_either_side() -> None:
    t = FakeMonotonic()
    clock = started(RAPID_25_5, t)
    t.advance(MIN)
    clock = clock.adjust(W, 2 * MIN, t.now)  # running side, mid-turn
    assert clock.remaining_ms(W, t.now) == 26 * MIN
    assert clock.flag_at_ms() == t.now + 26 * MIN
    clock = clock.adjust(B, -30 * SEC, t.advance(SEC))  # the waiting side
    assert clock.remaining_ms(B, t.now) == 25 * MIN - 30 * SEC
    clock = clock.press(W, 1, t.advance(SEC))
    assert clock.remaining_ms(W, t.now) == 26 * MIN - 2 * SEC + 5 * SEC
    assert clock.flag_at_ms() == t.now + 25 * MIN - 30 * SEC
    paused = clock.pause(t.advance(10 * SEC)).adjust(B, 10 * SEC, t.advance(MIN))
    assert paused.remaining_ms(B, t.now) == 25 * MIN - 30 * SEC
    before_start = Clock.new(RAPID_25_5).adjust(B, -5 * MIN, 0)
    assert before_start.remaining_ms(B, 0) == 20 * MIN
    assert before_start.status is ClockStatus.NOT_STARTED


def test_adjust_cannot_take_below_zero_and_is_refused_not_clamped() -> None:
    t = FakeMonotonic()
    clock = started(RAPID_25_5, t)
    t.advance(24 * MIN)
    with pytest.raises(ClockError, match=re.escape(
        "cannot take 1 min 1 s from white: white has 1 min left"
    )):
        clock.adjust(W, -(MIN + SEC), t.now)
    with pytest.raises(ClockError, match="nothing to change"):
        clock.adjust(W, 0, t.now)
    # taking exactly all is allowed: the running side's flag falls at once
    emptied = clock.adjust(W, -MIN, t.now)
    assert emptied.remaining_ms(W, t.now) == 0
    assert emptied.flag_at_ms() == t.now
    with pytest.raises(FlagFellError):
        emptied.press(W, 1, t.now)
    assert emptied.flag(t.now).flagged is W
    # a waiting side left with nothing flags as soon as its clock runs
    black_empty = clock.adjust(B, -25 * MIN, t.now).press(W, 1, t.advance(SEC))
    assert black_empty.flag_at_ms() == t.now
    assert black_empty.flag(t.now).flagged is B


def test_adjust_is_refused_after_the_flag_and_after_the_game() -> None:
    t = FakeMonotonic()
    clock = started(TimeControl.parse("G/1"), t)
    with pytest.raises(FlagFellError):
        clock.adjust(W, MIN, t.advance(MIN))
    with pytest.raises(FlagFellError):
        clock.adjust(B, MIN, t.now)
    flagged = clock.flag(t.now)
    with pytest.raises(ClockError, match="game is over"):
        flagged.adjust(W, MIN, t.now)
    stopped = started(RAPID_25_5, t).stop(t.advance(SEC))
    with pytest.raises(ClockError, match="clock was stopped"):
        stopped.adjust(B, MIN, t.now)


# -- delays ----------------------------------------------------------------------------


def test_bronstein_gives_back_the_time_used_up_to_the_delay() -> None:
    t = FakeMonotonic()
    control = TimeControl.parse("G/5 b3")
    assert control.white[0].delay is DelayMode.BRONSTEIN
    clock = started(control, t)
    assert clock.remaining_ms(W, t.now + 2 * SEC) == 5 * MIN - 2 * SEC  # it counts down
    clock = clock.press(W, 1, t.advance(2 * SEC))
    assert clock.remaining_ms(W, t.now) == 5 * MIN  # 2 s used, 2 s back
    clock = clock.press(B, 1, t.advance(10 * SEC))
    assert clock.remaining_ms(B, t.now) == 5 * MIN - 10 * SEC + 3 * SEC  # at most 3 s back
    clock = clock.press(W, 2, t.advance(0))
    assert clock.remaining_ms(W, t.now) == 5 * MIN
    # the flag falls when the clock reaches 0: the refund does not save a flag
    assert clock.flag_at_ms() == t.now + 5 * MIN - 7 * SEC
    expiry = clock.flag_at_ms()
    assert expiry is not None
    assert clock.press(B, 2, expiry - 1).remaining_ms(B, expiry) == 1 + 3 * SEC
    with pytest.raises(FlagFellError):
        clock.press(B, 2, expiry)
    # a game over is not refunded
    assert clock.stop(t.advance(2 * SEC)).remaining_ms(B, t.now) == 5 * MIN - 9 * SEC


def test_us_delay_does_not_count_down_until_the_delay_has_passed() -> None:
    t = FakeMonotonic()
    control = TimeControl.parse("G/5 d3")
    clock = started(control, t)
    for waited in (0, SEC, 3 * SEC):
        assert clock.remaining_ms(W, t.now + waited) == 5 * MIN
    assert clock.remaining_ms(W, t.now + 3 * SEC + 1) == 5 * MIN - 1
    clock = clock.press(W, 1, t.advance(2 * SEC))
    assert clock.remaining_ms(W, t.now) == 5 * MIN
    clock = clock.press(B, 1, t.advance(10 * SEC))
    assert clock.remaining_ms(B, t.now) == 5 * MIN - 7 * SEC
    # the flag falls delay + remaining after the turn began
    assert clock.flag_at_ms() == t.now + 3 * SEC + 5 * MIN
    expiry = clock.flag_at_ms()
    assert expiry is not None
    assert clock.remaining_ms(W, expiry - 1) == 1
    assert clock.remaining_ms(W, expiry) == 0
    with pytest.raises(FlagFellError):
        clock.press(W, 2, expiry)
    assert clock.flag(expiry).flagged is W


def test_a_pause_does_not_restart_the_us_delay() -> None:
    t = FakeMonotonic()
    clock = started(TimeControl.parse("G/5 d3"), t)
    clock = clock.pause(t.advance(2 * SEC)).resume(t.advance(MIN))
    assert clock.flag_at_ms() == t.now + SEC + 5 * MIN  # 1 s of delay was left
    clock = clock.press(W, 1, t.advance(2 * SEC))
    assert clock.remaining_ms(W, t.now) == 5 * MIN - SEC


def test_adjusting_during_a_us_delay_changes_the_time_behind_the_delay() -> None:
    t = FakeMonotonic()
    clock = started(TimeControl.parse("G/5 d3"), t)
    clock = clock.adjust(W, -(5 * MIN), t.advance(SEC))
    assert clock.remaining_ms(W, t.now) == 0
    assert clock.flag_at_ms() == t.now  # no time left: the delay does not save it
    with pytest.raises(FlagFellError):
        clock.press(W, 1, t.now)


# -- periods ---------------------------------------------------------------------------


def test_multi_period_40_moves_then_30_more_minutes() -> None:
    t = FakeMonotonic()
    clock = started(TimeControl.parse("40/90, G/30"), t)
    for move in range(1, 40):
        clock = clock.press(W, move, t.advance(2 * MIN))
        clock = clock.press(B, move, t.advance(MIN))
    assert clock.remaining_ms(W, t.now) == 90 * MIN - 39 * 2 * MIN
    clock = clock.press(W, 40, t.advance(2 * MIN))
    assert clock.remaining_ms(W, t.now) == 90 * MIN - 80 * MIN + 30 * MIN
    clock = clock.press(B, 40, t.advance(MIN))
    assert clock.remaining_ms(B, t.now) == 90 * MIN - 40 * MIN + 30 * MIN
    clock = clock.press(W, 41, t.advance(MIN))
    assert clock.remaining_ms(W, t.now) == 39 * MIN  # nothing more after move 41


def test_multi_period_with_increments_credits_both_on_move_40() -> None:
    t = FakeMonotonic()
    clock = started(TimeControl.parse("40/90+30, G/30+30"), t)
    for move in range(1, 41):
        clock = clock.press(W, move, t.advance(MIN))
        clock = clock.press(B, move, t.advance(MIN))
    assert clock.remaining_ms(W, t.now) == 90 * MIN - 40 * MIN + 40 * 30 * SEC + 30 * MIN
    clock = clock.press(W, 41, t.advance(MIN))
    assert clock.remaining_ms(W, t.now) == 100 * MIN - MIN + 30 * SEC


def test_the_delay_of_the_period_of_the_move_being_played_applies() -> None:
    t = FakeMonotonic()
    clock = started(TimeControl.parse("1/5 d2, G/5 b4"), t)
    clock = clock.press(W, 1, t.advance(5 * SEC))  # US delay 2 s: 3 s counted, +5'
    assert clock.remaining_ms(W, t.now) == 10 * MIN - 3 * SEC
    clock = clock.press(B, 1, t.advance(SEC))
    clock = clock.press(W, 2, t.advance(5 * SEC))  # Bronstein 4 s: 5 s counted, 4 s back
    assert clock.remaining_ms(W, t.now) == 10 * MIN - 3 * SEC - SEC


# -- refusals --------------------------------------------------------------------------


def test_illegal_transitions_are_refused_with_a_reason() -> None:
    t = FakeMonotonic()
    fresh = Clock.new(RAPID_25_5)
    with pytest.raises(ClockError, match="has not started"):
        fresh.press(W, 1, t.now)
    for transition in (fresh.pause, fresh.resume, fresh.flag, fresh.stop):
        with pytest.raises(ClockError, match="has not started"):
            transition(t.now)
    clock = fresh.start(t.now)
    with pytest.raises(ClockError, match="cannot start the clock: the clock is running"):
        clock.start(t.now)
    with pytest.raises(ClockError, match="it is white's turn"):
        clock.press(B, 1, t.advance(SEC))
    with pytest.raises(ClockError, match="white's next move is move 1"):
        clock.press(W, 2, t.now)
    clock = clock.press(W, 1, t.now)
    with pytest.raises(ClockError, match="black's next move is move 1"):
        clock.press(B, 0, t.advance(SEC))
    with pytest.raises(ClockError, match="the server's clock never goes back"):
        clock.press(B, 1, t.now - 2 * SEC)
    with pytest.raises(ClockError, match="the server's clock never goes back"):
        clock.remaining_ms(W, t.now - 2 * SEC)
    with pytest.raises(ClockError, match=r"flag: it has .* left"):
        clock.flag(t.now)
    stopped = clock.stop(t.now)
    for transition in (stopped.pause, stopped.resume, stopped.flag, stopped.stop):
        with pytest.raises(ClockError, match="game is over"):
            transition(t.now)
    with pytest.raises(ClockError, match="game is over"):
        stopped.press(B, 1, t.now)
    assert issubclass(ClockError, PlayoffError)


def test_stop_is_refused_after_the_flag_fell() -> None:
    t = FakeMonotonic()
    clock = started(TimeControl.parse("G/1"), t)
    with pytest.raises(FlagFellError):
        clock.stop(t.advance(MIN + 1))
    paused = started(TimeControl.parse("G/1"), t).pause(t.advance(SEC))
    assert paused.stop(t.advance(MIN)).remaining_ms(W, t.now) == MIN - SEC


def test_an_inconsistent_value_is_refused() -> None:
    with pytest.raises(ValidationError):
        Clock(control=RAPID_25_5, white_ms=1, black_ms=1, status=ClockStatus.FLAGGED)
    with pytest.raises(ValidationError):
        Clock(control=RAPID_25_5, white_ms=1, black_ms=1, status=ClockStatus.RUNNING)
    with pytest.raises(ValidationError):
        Clock(control=RAPID_25_5, white_ms=-1, black_ms=1)


# -- properties ------------------------------------------------------------------------

CONTROLS = [
    RAPID_25_5,
    RAPID_15_5,
    ARMAGEDDON,
    TimeControl.parse("G/1"),
    TimeControl.parse("G/2 b3"),
    TimeControl.parse("G/2 d3"),
    TimeControl.parse("2/1+1, G/1+2"),
    TimeControl.parse("3/1 d2, G/1 b2"),
    TimeControl.parse("G/1+2 from move 4"),
]

thinking = st.one_of(st.integers(0, 3_000), st.integers(0, 40_000), st.integers(0, 150_000))
turns = st.lists(
    st.tuples(
        st.lists(thinking, min_size=1, max_size=3),  # thinking, with a pause between parts
        st.integers(0, 600_000),  # each pause
        st.none() | st.tuples(st.sampled_from(list(Colour)), st.integers(-90_000, 90_000)),
    ),
    max_size=60,
)


def _counted(control: TimeControl, side: Colour, move: int, elapsed: int) -> int:
    stage = control.stage_for_move(side, move)
    if stage.delay is DelayMode.US:
        return max(0, elapsed - stage.delay_ms)
    return elapsed


def _refund(control: TimeControl, side: Colour, move: int, elapsed: int) -> int:
    stage = control.stage_for_move(side, move)
    return min(stage.delay_ms, elapsed) if stage.delay is DelayMode.BRONSTEIN else 0


def _check_flag_instant(clock: Clock) -> None:
    """The flag instant agrees with remaining_ms, flag() and press()."""
    expiry = clock.flag_at_ms()
    side = clock.running
    assert expiry is not None and side is not None and clock.since_ms is not None
    assert expiry >= clock.since_ms
    assert clock.remaining_ms(side, expiry) == 0
    assert clock.flag(expiry).flagged is side
    with pytest.raises(FlagFellError):
        clock.press(side, clock.moves_completed(side) + 1, expiry)
    if expiry > clock.since_ms:
        assert clock.remaining_ms(side, expiry - 1) == 1
        with pytest.raises(ClockError, match=r"flag: it has .* left"):
            clock.flag(expiry - 1)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(CONTROLS), turns)
def test_properties_of_whole_games(
    control: TimeControl,
    script: list[tuple[list[int], int, tuple[Colour, int] | None]],
) -> None:
    t = FakeMonotonic()
    start = t.now
    clock = started(control, t)
    paused_total = 0
    credited = {W: 0, B: 0}  # increments, next periods, refunds, adjustments
    counted = {W: 0, B: 0}  # time run down on completed moves
    delay_windows = 0  # time a US delay kept a clock from counting
    _check_flag_instant(clock)
    for parts, pause_ms, adjustment in script:
        side = clock.to_move
        move = clock.moves_completed(side) + 1
        elapsed = 0
        for index, part in enumerate(parts):
            if index:
                if t.now >= clock.flag_at_ms():  # type: ignore[operator]
                    with pytest.raises(FlagFellError):
                        clock.pause(t.now)
                    event("flag fell before a pause")
                    return
                paused = clock.pause(t.now)
                frozen = (paused.remaining_ms(W, t.now), paused.remaining_ms(B, t.now))
                t.advance(pause_ms)
                paused_total += pause_ms
                assert (paused.remaining_ms(W, t.now), paused.remaining_ms(B, t.now)) == frozen
                clock = paused.resume(t.now)
                _check_flag_instant(clock)
            # remaining never increases while the clock runs; the waiting side's is still
            samples = [t.now, t.now + part // 3, t.now + part // 2, t.now + part]
            mine = [clock.remaining_ms(side, at) for at in samples]
            assert mine == sorted(mine, reverse=True)
            assert {clock.remaining_ms(other(side), at) for at in samples} == {
                clock.banked_ms(other(side))
            }
            t.advance(part)
            elapsed += part
        if adjustment is not None and adjustment[1] != 0:
            whom, delta = adjustment
            before = clock.remaining_ms(whom, t.now)
            if t.now >= clock.flag_at_ms():  # type: ignore[operator]
                with pytest.raises(FlagFellError):
                    clock.adjust(whom, delta, t.now)
                event("flag fell before an adjustment")
                return
            if before + delta < 0:
                with pytest.raises(ClockError, match="cannot go below 0"):
                    clock.adjust(whom, delta, t.now)
                event("take refused")
            else:
                clock = clock.adjust(whom, delta, t.now)
                assert clock.remaining_ms(whom, t.now) == before + delta
                credited[whom] += delta
                _check_flag_instant(clock)
        expiry = clock.flag_at_ms()
        assert expiry is not None
        if t.now >= expiry:
            # the flag fell first: the press is refused and nothing is credited
            with pytest.raises(FlagFellError):
                clock.press(side, move, t.now)
            flagged = clock.flag(t.now)
            assert flagged.remaining_ms(side, t.now) == 0
            assert flagged.remaining_ms(other(side), t.now) == clock.banked_ms(other(side))
            event("flag fell before a press")
            return
        before = clock.remaining_ms(side, t.now)
        waiting = clock.remaining_ms(other(side), t.now)
        clock = clock.press(side, move, t.now)
        credit = _refund(control, side, move, elapsed) + control.time_added_after_move(side, move)
        # the press raises the mover's time by exactly its credit, nothing else
        assert clock.remaining_ms(side, t.now) == before + credit
        assert clock.remaining_ms(other(side), t.now) == waiting
        credited[side] += credit
        counted[side] += _counted(control, side, move, elapsed)
        delay_windows += elapsed - _counted(control, side, move, elapsed)
        # time used equals time elapsed
        for who in (W, B):
            used = control.initial_ms(who) + credited[who] - clock.remaining_ms(who, t.now)
            assert used == counted[who]
        assert counted[W] + counted[B] + delay_windows == t.now - start - paused_total
        _check_flag_instant(clock)
    event("no flag")


def test_a_clocks_refusal_is_said_in_the_language_of_the_door_that_shows_it() -> None:
    """The refusal is kept as messages when raised and said where it is shown: English
    as ever in its reason (what is logged and what the command line prints), in the
    reader's language at a door that speaks another."""
    from playoff_formats.speech import PSEUDO, speaking

    clock = Clock.new(RAPID_25_5).start(0)
    with pytest.raises(ClockError) as refused:
        clock.press(Colour.BLACK, 1, 1_000)
    assert refused.value.reason == "cannot press black's clock after move 1: it is white's turn"
    with speaking(PSEUDO):
        said = refused.value.words({})
    assert said.startswith("[ç") and "[îţ îš ŵĥîţé'š ţûŕñ" in said
    assert refused.value.words({}) == refused.value.reason
