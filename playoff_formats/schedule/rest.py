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
from datetime import datetime, timedelta, tzinfo
from typing import Any

from playoff_formats.model import Frozen
from playoff_formats.schedule.model import Constraints
from playoff_formats.schedule.overrides import Overrides
from playoff_formats.schedule.reasons import RestKind
from playoff_formats.schedule.words import rest_breach

__all__ = ["RestBreach", "RestKind", "rest_breaches"]


class RestBreach(Frozen):
    """A start earlier than a rest allows: until when, and why (as data, and in
    words by :func:`playoff_formats.schedule.words.rest_breach`)."""

    kind: RestKind
    binding: bool
    """A rule (refused without the chief arbiter's override), not a preference."""
    until: datetime
    """The earliest start the rest allows."""
    required: timedelta | None = None
    """The rest owed (none for the chief arbiter's own time)."""
    since: datetime | None = None
    """The end of the previous game, for an interval between games."""
    rule: str = ""
    """The rule cited."""
    postponed: bool = False
    """For the chief arbiter's time: a postponement, not a moved start."""
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
    zone = constraints.zone
    ended = constraints.main_event_ended
    if ended and constraints.break_after_main_event > timedelta(0):
        last = max(ended.values())
        until = last + constraints.break_after_main_event
        if at < until:
            breaches.append(_worded(
                kind=RestKind.MAIN_EVENT, binding=True, until=until,
                required=constraints.break_after_main_event, rule=rule, zone=zone,
            ))
    ends = [previous_end[player] for player in players if player in previous_end]
    if ends:
        latest = max(ends)
        rested = at - latest
        for kind, needed, binding in (
            (RestKind.MINIMUM_INTERVAL, constraints.min_interval, True),
            (RestKind.PREFERRED_INTERVAL, constraints.preferred_interval, False),
        ):
            if rested < needed:
                breaches.append(_worded(
                    kind=kind, binding=binding, until=latest + needed, required=needed,
                    since=latest, rule=rule, zone=zone,
                ))
                break  # the minimum broken says enough; the preference is the lesser rule
    return tuple(breaches)


def chief_time_breaches(
    match: int, game: int, at: datetime, overrides: Overrides, zone: tzinfo
) -> tuple[RestBreach, ...]:
    """A start at ``at`` before the time the chief arbiter moved game ``game`` of
    ``match`` to, or postponed it to: the chief arbiter's own decision, so binding
    as a rest is (only the chief arbiter starts it earlier, giving the reason)."""
    breaches: list[RestBreach] = []
    for pin in overrides.pins:
        if (pin.match, pin.game) == (match, game) and at < pin.start:
            breaches.append(_worded(
                kind=RestKind.CHIEF_ARBITER_TIME, binding=True, until=pin.start,
                zone=zone,
            ))
    for later in overrides.postponements:
        applies = later.match in (None, match) and later.game in (None, game)
        if applies and at < later.not_before:
            breaches.append(_worded(
                kind=RestKind.CHIEF_ARBITER_TIME, binding=True, until=later.not_before,
                postponed=True, zone=zone,
            ))
    return tuple(breaches)


def _worded(*, zone: tzinfo, **data: Any) -> RestBreach:
    breach = RestBreach(**data, text="")
    return breach.model_copy(update={"text": rest_breach(breach, zone)})
