"""The rest the regulation owes the players before a play-off game starts.

GCT 2015 reg. 5: "The play-off shall start at least 30 minutes after the
conclusion of the last game in the main tournament involving any player in the
play-off", and "there shall be not less than 5 minutes and if possible at least
10 minutes" between games. The first two are rules: a start that breaks them is
refused unless the chief arbiter overrides it with a reason. The 10 minutes are a
preference: a start inside them is allowed, with a warning.

The planner (:mod:`playoff_formats.schedule.placement`) places games so that
they keep these; this module judges a start the arbiter asks for at a given
instant, which may be earlier than the plan.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta
from enum import StrEnum

from playoff_formats.model import Frozen
from playoff_formats.schedule.model import Constraints
from playoff_formats.schedule.overrides import Overrides
from playoff_formats.schedule.words import instant, span

__all__ = ["RestBreach", "RestKind", "rest_breaches"]


class RestKind(StrEnum):
    MAIN_EVENT = "main-event-break"
    MINIMUM_INTERVAL = "minimum-interval"
    PREFERRED_INTERVAL = "preferred-interval"
    CHIEF_ARBITER_TIME = "chief-arbiter-time"
    """Not a rest: a start the chief arbiter moved or postponed to a later time."""


class RestBreach(Frozen):
    """A start earlier than a rest allows: until when, and why in words."""

    kind: RestKind
    binding: bool
    """A rule (refused without the chief arbiter's override), not a preference."""
    until: datetime
    """The earliest start the rest allows."""
    text: str


def rest_breaches(
    players: Iterable[str],
    at: datetime,
    constraints: Constraints,
    previous_end: Mapping[str, datetime],
    rule: str,
) -> tuple[RestBreach, ...]:
    """What a start at ``at`` of a game between ``players`` breaks, if anything.

    ``constraints.main_event_ended`` holds the main-event end of *every* play-off
    player: the break after it holds for the whole play-off. ``previous_end``
    holds each player's end of their previous play-off game, if any. ``rule`` is
    cited in the words ("GCT 2015 reg. 5").
    """
    breaches: list[RestBreach] = []
    cite = f" ({rule})" if rule else ""
    ended = constraints.main_event_ended
    if ended and constraints.break_after_main_event > timedelta(0):
        last = max(ended.values())
        until = last + constraints.break_after_main_event
        if at < until:
            breaches.append(RestBreach(
                kind=RestKind.MAIN_EVENT, binding=True, until=until,
                text=(
                    f"the play-off starts at least {span(constraints.break_after_main_event)} "
                    f"after the last main-event game of any play-off player{cite}: "
                    f"not before {instant(until, constraints.utc_offset)}"
                ),
            ))
    ends = [previous_end[player] for player in players if player in previous_end]
    if ends:
        latest = max(ends)
        rested = at - latest
        for kind, needed, binding, what in (
            (RestKind.MINIMUM_INTERVAL, constraints.min_interval, True, "not less than"),
            (RestKind.PREFERRED_INTERVAL, constraints.preferred_interval, False,
             "if possible at least"),
        ):
            if rested < needed:
                until = latest + needed
                breaches.append(RestBreach(
                    kind=kind, binding=binding, until=until,
                    text=(
                        f"{what} {span(needed)} between a player's games{cite}: "
                        f"not before {instant(until, constraints.utc_offset)}, the previous "
                        f"game having ended at {instant(latest, constraints.utc_offset)}"
                    ),
                ))
                break  # the minimum broken says enough; the preference is the lesser rule
    return tuple(breaches)


def chief_time_breaches(
    match: int, game: int, at: datetime, overrides: Overrides, utc_offset: timedelta
) -> tuple[RestBreach, ...]:
    """A start at ``at`` before the time the chief arbiter moved game ``game`` of
    ``match`` to, or postponed it to: the chief arbiter's own decision, so binding
    as a rest is (only the chief arbiter starts it earlier, giving the reason)."""
    breaches: list[RestBreach] = []
    for pin in overrides.pins:
        if (pin.match, pin.game) == (match, game) and at < pin.start:
            breaches.append(RestBreach(
                kind=RestKind.CHIEF_ARBITER_TIME, binding=True, until=pin.start,
                text=f"the chief arbiter set its start for {instant(pin.start, utc_offset)}",
            ))
    for later in overrides.postponements:
        applies = later.match in (None, match) and later.game in (None, game)
        if applies and at < later.not_before:
            breaches.append(RestBreach(
                kind=RestKind.CHIEF_ARBITER_TIME, binding=True, until=later.not_before,
                text=(
                    f"the chief arbiter postponed it to "
                    f"{instant(later.not_before, utc_offset)}"
                ),
            ))
    return tuple(breaches)
