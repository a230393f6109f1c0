"""The arbiter's overrides (playoff_formats.schedule.overrides).

The play-off of three players (GCT 2015) has match 1 (seeds 2 and 3) and the final,
match 2; both play G/25+5 with an Armageddon decider of W 6' / B 5', +3 s from move 61.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from pydantic import ValidationError

from playoff_formats.builders.gct import gct2015_playoff
from playoff_formats.playoff import GameKind, Match
from playoff_formats.schedule import (
    Actuals,
    Constraints,
    Overrides,
    PinnedStart,
    Postponement,
    TimeControlChange,
    plan_playoff,
)
from playoff_formats.timecontrol import TimeControl

G25 = TimeControl.parse("G/25+5")
G20 = TimeControl.parse("G/20+5")
G15 = TimeControl.parse("G/15+5")
ARMAGEDDON = TimeControl.parse("W 6' / B 5', +3 s from move 61")
BLITZ = TimeControl.parse("G/3+2")


def at(hour: int, minute: int) -> datetime:
    return datetime(2015, 12, 13, hour, minute, tzinfo=UTC)


def match(number: int) -> Match:
    return gct2015_playoff(["p1", "p2", "p3"]).match(number)


def test_the_controls_of_the_match_when_nothing_is_changed() -> None:
    overrides = Overrides()
    assert overrides.time_control_for(match(1), 1, GameKind.REGULAR, None) == G25
    assert overrides.time_control_for(match(1), 3, GameKind.ARMAGEDDON, None) == ARMAGEDDON


def test_a_later_pin_of_the_same_game_replaces_the_earlier_one() -> None:
    first = PinnedStart(match=1, game=2, start=at(20, 30), reason="hall")
    other = PinnedStart(match=1, game=1, start=at(19, 20))
    later = PinnedStart(match=1, game=2, start=at(20, 45))
    overrides = Overrides().with_pin(first).with_pin(other).with_pin(later)
    assert overrides.pins == (other, later)
    # The same game of another match is another game.
    elsewhere = PinnedStart(match=2, game=2, start=at(22, 0))
    assert overrides.with_pin(elsewhere).pins == (other, later, elsewhere)


def test_with_methods_return_a_new_value_and_leave_the_old_one_alone() -> None:
    empty = Overrides()
    change = TimeControlChange(time_control="G/20+5")
    postponement = Postponement(not_before=at(19, 30))
    pinned = empty.with_pin(PinnedStart(match=1, game=1, start=at(19, 20)))
    assert empty == Overrides()
    assert pinned.time_controls == () and pinned.postponements == ()
    assert empty.with_time_control(change).time_controls == (change,)
    assert empty.with_postponement(postponement).postponements == (postponement,)
    assert empty.with_postponement(postponement).with_postponement(postponement).postponements == (
        postponement,
        postponement,
    )


def test_two_pins_of_one_game_are_refused() -> None:
    pins = (
        PinnedStart(match=1, game=2, start=at(20, 30)),
        PinnedStart(match=1, game=2, start=at(20, 45)),
    )
    with pytest.raises(ValidationError, match="two pinned starts"):
        Overrides(pins=pins)
    # Built without validation, the overrides are still checked by Actuals.
    with pytest.raises(ValidationError, match="two pinned starts"):
        Actuals(overrides=Overrides.model_construct(pins=pins))


def test_a_change_made_after_a_game_began_leaves_that_game_alone() -> None:
    overrides = Overrides().with_time_control(
        TimeControlChange(time_control="G/20+5", made_at=at(20, 0))
    )
    m = match(1)
    assert overrides.time_control_for(m, 1, GameKind.REGULAR, at(19, 10)) == G25
    # Begun when the change was made, or after, or not yet: the change applies.
    assert overrides.time_control_for(m, 2, GameKind.REGULAR, at(20, 0)) == G20
    assert overrides.time_control_for(m, 2, GameKind.REGULAR, at(20, 20)) == G20
    assert overrides.time_control_for(m, 2, GameKind.REGULAR, None) == G20


def test_a_change_without_a_time_applies_to_a_game_already_begun() -> None:
    overrides = Overrides(time_controls=(TimeControlChange(time_control="G/20+5"),))
    assert overrides.time_control_for(match(1), 1, GameKind.REGULAR, at(19, 10)) == G20


def test_a_change_naming_other_matches_does_not_apply() -> None:
    overrides = Overrides(time_controls=(TimeControlChange(time_control="G/15+5", matches=(2,)),))
    assert overrides.time_control_for(match(1), 1, GameKind.REGULAR, None) == G25
    assert overrides.time_control_for(match(2), 1, GameKind.REGULAR, None) == G15
    every = Overrides(time_controls=(TimeControlChange(time_control="G/15+5"),))
    assert every.time_control_for(match(1), 1, GameKind.REGULAR, None) == G15


def test_decider_changes_apply_only_to_the_armageddon() -> None:
    decider = TimeControlChange(time_control="G/3+2", decider=True)
    regular = TimeControlChange(time_control="G/20+5")
    overrides = Overrides(time_controls=(decider, regular))
    m = match(1)
    assert overrides.time_control_for(m, 1, GameKind.REGULAR, None) == G20
    assert overrides.time_control_for(m, 2, GameKind.REGULAR, None) == G20
    assert overrides.time_control_for(m, 3, GameKind.ARMAGEDDON, None) == BLITZ
    only_regular = Overrides(time_controls=(regular,))
    assert only_regular.time_control_for(m, 3, GameKind.ARMAGEDDON, None) == ARMAGEDDON


def test_a_later_change_overrides_an_earlier_one() -> None:
    overrides = (
        Overrides()
        .with_time_control(TimeControlChange(time_control="G/15+5"))
        .with_time_control(TimeControlChange(time_control="G/20+5", matches=(1,)))
    )
    assert overrides.time_control_for(match(1), 1, GameKind.REGULAR, None) == G20
    assert overrides.time_control_for(match(2), 1, GameKind.REGULAR, None) == G15


def test_an_armageddon_without_a_decider_is_refused() -> None:
    no_decider = match(1).model_copy(update={"decider": None})
    with pytest.raises(ValueError, match="match 1 has no decider"):
        Overrides().time_control_for(no_decider, 3, GameKind.ARMAGEDDON, None)


def test_the_planner_honours_the_pin_that_replaced_an_earlier_one() -> None:
    # Two players, the break ends at 19:10; game 1 at 19:10-20:10 (G/25+5, 60 min).
    # Game 2 pinned at 20:30, then re-pinned at 20:17: it starts at 20:17.
    overrides = (
        Overrides()
        .with_pin(PinnedStart(match=1, game=2, start=at(20, 30)))
        .with_pin(PinnedStart(match=1, game=2, start=at(20, 17)))
    )
    constraints = Constraints(main_event_ended={"p1": at(18, 40), "p2": at(18, 10)})
    plan = plan_playoff(gct2015_playoff(["p1", "p2"]), constraints, Actuals(overrides=overrides))
    g2 = plan.game(1, 2)
    assert (g2.start, g2.fixed) == (at(20, 17), True)
    assert g2.end - g2.start == timedelta(minutes=60)
