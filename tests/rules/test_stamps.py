"""The stamped press: which instant a board's press is charged at, to the millisecond,
and the Laws' time for an illegal move."""

from __future__ import annotations

import pytest

from playoff_formats.clock import Clock
from playoff_formats.model import Colour
from playoff_formats.stamps import (
    ALLOWANCES,
    OutageTooLong,
    charge_press,
    illegal_move_penalty,
)
from playoff_formats.timecontrol import ARMAGEDDON, TimeControl

T = 1_751_122_800_000


def charge(stamp: int | None, now: int, *, turn: int = T, since: int = T, queued: bool = False):  # type: ignore[no-untyped-def]
    return charge_press(stamp, turn_started_ms=turn, since_ms=since, now_ms=now, queued=queued)


def test_the_allowances_are_the_documented_ones() -> None:
    assert (ALLOWANCES.lag_ms, ALLOWANCES.future_ms, ALLOWANCES.outage_ms) == (1500, 50, 60_000)


def test_a_consistent_stamp_is_charged_at_the_stamp() -> None:
    assert charge(T + 9_400, T + 10_000) == (T + 9_400, "stamp", None)
    assert charge(T + 8_500, T + 10_000).charged == "stamp"  # exactly the lag allowance


def test_without_a_stamp_on_arrival() -> None:
    assert charge(None, T + 10_000) == (T + 10_000, "arrival", None)


def test_each_inconsistent_stamp_is_charged_on_arrival_with_its_why() -> None:
    before = charge(T - 1, T + 10_000)
    assert before.at_ms == T + 10_000 and before.charged == "arrival"
    assert before.why is not None and before.why.words() == "stamped before the previous press"
    late = charge(T + 7_700, T + 10_000)
    assert late.at_ms == T + 10_000
    assert late.why is not None
    assert late.why.words() == "arrived 2.3 s after its stamp: the allowance is 1.5 s"
    ahead = charge(T + 10_200, T + 10_000)
    assert ahead.at_ms == T + 10_000 and ahead.why is not None
    assert ahead.why.words() == (
        "stamped 0.2 s ahead of the server's time: the allowance is 0.05 s"
    )
    paused = charge(T + 3_000, T + 10_000, since=T + 5_000)
    assert paused.why is not None and paused.why.kind == "before-change"


def test_a_stamp_a_little_ahead_is_now() -> None:
    assert charge(T + 10_030, T + 10_000) == (T + 10_000, "stamp", None)


def test_queued_presses_have_the_outage_allowance() -> None:
    assert charge(T + 1_000, T + 11_000, queued=True) == (T + 1_000, "stamp", None)
    assert charge(T + 1_000, T + 61_000, queued=True).charged == "stamp"
    with pytest.raises(OutageTooLong) as refused:
        charge(T + 1_000, T + 61_001, queued=True)
    assert refused.value.reason == (
        "this press was held 60 s by the board, past the 60 s a board may be offline: the "
        "arbiter was called to set the clocks"
    )
    # Live, the same press is charged on arrival.
    assert charge(T + 1_000, T + 11_000).charged == "arrival"


def test_a_press_stamped_before_the_flag_counts_after_it() -> None:
    clock = Clock.new(TimeControl.parse("G/1")).start(T)
    flag_at = clock.flag_at_ms()
    assert flag_at == T + 60_000
    arrived = flag_at + 700
    at = charge(flag_at - 300, arrived).at_ms
    after = clock.press(Colour.WHITE, 1, at)
    assert after.remaining_ms(Colour.WHITE, arrived) == 300
    assert after.running is Colour.BLACK


def test_the_laws_time_for_a_first_illegal_move() -> None:
    assert illegal_move_penalty(TimeControl.parse("G/25+5")) == (
        120_000, "FIDE Laws, Article 7.5.5 and Appendix A.4.2 (rapid)"
    )
    assert illegal_move_penalty(ARMAGEDDON) == (
        60_000, "FIDE Laws, Article 7.5.5 and Appendix B.2 (blitz)"
    )
    assert illegal_move_penalty(TimeControl.parse("G/3+2"))[0] == 60_000
    assert illegal_move_penalty(TimeControl.parse("G/90+30"))[0] == 120_000
