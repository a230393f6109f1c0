"""How the schedule words its reasons: instants, spans, citations, numbers, and
the planner's problems and notices (:mod:`playoff_formats.schedule.reasons`).

Reasons and warnings are read by arbiters, so an instant keeps only the
precision it has, a span is said the way a hall announcement says it, and a
player is named, never shown by id.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta, tzinfo
from typing import TYPE_CHECKING

from playoff_formats.phrase import Player, and_list
from playoff_formats.schedule.reasons import Notice, NoticeKind, Problem, ProblemKind, RestKind
from playoff_formats.speech import ntr, tr

if TYPE_CHECKING:  # the rests' module words its breaches here
    from playoff_formats.schedule.rest import RestBreach

__all__ = [
    "adjective",
    "cite",
    "instant",
    "local",
    "main_event_bound",
    "notice",
    "plain_number",
    "players",
    "problem",
    "rest_breach",
    "span",
    "unit",
]


def cite(rule: str) -> str:
    """`` (reg. 5)`` for a rule, nothing when no rule is cited."""
    return f" ({rule})" if rule else ""


def instant(moment: datetime | None, zone: tzinfo = UTC) -> str:
    """The time of day as the hall reads it: ``13:29`` in the event's time zone
    (``zone``), with the offset in force at that instant; ``unknown`` for ``None``. A
    play-off is played in one day, so the time of day says which instant it is."""
    if moment is None:
        return "unknown"
    return f"{local(moment, zone):%H:%M}"


def local(moment: datetime, zone: tzinfo) -> datetime:
    """``moment`` as the hall's clocks show it: in the event's zone, at the offset in
    force at that instant (never one offset for the whole day: a change of
    daylight-saving time may fall in the play-off)."""
    return moment.astimezone(zone)


def span(delta: timedelta) -> str:
    """``10 minutes``, ``1 minute``, ``7 min 30 s``, ``1 h 5 min``, to the second."""
    total = round(delta.total_seconds())
    sign = "-" if total < 0 else ""
    total = abs(total)
    hours, rest = divmod(total, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours == 0 and seconds == 0:
        return sign + ntr("{n} minute", "{n} minutes", minutes)
    parts = []
    if hours:
        parts.append(tr("{hours} h", hours=hours))
    if minutes:
        parts.append(tr("{minutes} min", minutes=minutes))
    if seconds:
        parts.append(tr("{seconds} s", seconds=seconds))
    return sign + " ".join(parts)


def adjective(delta: timedelta) -> str:
    """``30-minute`` for whole minutes, else the span."""
    total = round(delta.total_seconds())
    if total % 60 == 0:
        return tr("{minutes}-minute", minutes=total // 60)
    return span(delta)


def plain_number(value: float) -> str:
    """``8`` rather than ``8.0``; ``7.5`` stays."""
    return str(int(value)) if float(value).is_integer() else str(value)


def unit(match: int, number: int, *, stanza: bool = False) -> str:
    """``game 2 of match 1``, ``stanza 3 of match 1``."""
    return f"{'stanza' if stanza else 'game'} {number} of match {match}"


def players(who: Sequence[Player], names: Mapping[str, str]) -> str:
    """``Abdusattorov, Nodirbek and Sindarov, Javokhir``: each by name (by id when unnamed)."""
    return and_list(names.get(p.id, p.id) for p in who)


def main_event_bound(
    rest: timedelta,
    rule: str,
    last: Sequence[Player],
    ended: datetime,
    names: Mapping[str, str],
    zone: tzinfo,
) -> str:
    """Why nothing starts earlier: the break after the main event, and whose game ended last."""
    return (
        f"the {adjective(rest)} break after the main event{cite(rule)}: the last "
        f"main-event game of a play-off player ({players(last, names)}) ended at "
        f"{instant(ended, zone)}"
    )


def problem(about: Problem, names: Mapping[str, str]) -> str:
    """Why the planner refuses its inputs, in words."""
    kind, match, game = about.kind, about.match, about.game
    missing = "which the plan does not have"
    if kind is ProblemKind.NOTHING_TO_PLACE:
        return "there is nothing to place"
    if kind is ProblemKind.BEYOND_THE_CALENDAR:
        return (
            "the schedule would run past the last date a calendar holds (the year 9999): "
            "check the play-off's dates, durations and postponements"
        )
    if kind is ProblemKind.NO_STANZA:
        return "there is no stanza to place"
    if kind is ProblemKind.NO_SET:
        return "at least one set of extra boards"
    if kind is ProblemKind.NAIVE_NOW:
        return "now must be timezone-aware"
    if kind is ProblemKind.MAIN_EVENT_END_UNKNOWN:
        return (
            f"the end of the last main-event game of {players(about.players, names)} is "
            "unknown: give it, or an earliest start (not_before), so that the break after "
            "the main event can be kept"
        )
    if kind is ProblemKind.ACTUAL_FOR_UNKNOWN_GAME:
        return f"actual times are given for game {game} of match {match}, {missing}"
    if kind is ProblemKind.PIN_FOR_UNKNOWN_GAME:
        return f"a start is pinned for game {game} of match {match}, {missing}"
    if kind is ProblemKind.POSTPONEMENT_FOR_UNKNOWN_MATCH:
        return f"a postponement names match {match}, {missing}"
    if kind is ProblemKind.POSTPONEMENT_FOR_UNKNOWN_GAME:
        return f"a postponement names game {game} of match {match}, {missing}"
    if kind is ProblemKind.CHANGE_FOR_UNKNOWN_MATCH:
        return (
            f"a time control change names match {match}, which is not a played match "
            "of this play-off"
        )
    if kind is ProblemKind.BRIDGE_TIME_CONTROL:
        return "bridge stanzas have no time control to change"
    if kind is ProblemKind.UNIT_TWICE:
        return f"{unit(match or 0, game or 0, stanza=about.stanza)} appears twice"
    if kind is ProblemKind.UNIT_BEFORE_ITS_DEPENDENCY:
        before = about.after or (0, 0)
        return (
            f"{unit(match or 0, game or 0, stanza=about.stanza)} depends on game "
            f"{before[1]} of match {before[0]}, which is not placed before it"
        )
    if kind is ProblemKind.STANZA_TWICE:
        return "a stanza of a match is listed twice"
    if kind is ProblemKind.STANZA_TEAMS:
        return f"the stanzas of match {match} must be played by the same two teams"
    return f"the stanzas of match {match} must be in the same round"


def notice(about: Notice, names: Mapping[str, str], zone: tzinfo) -> str:
    """A warning of the plan, in words."""
    if about.kind is NoticeKind.MAIN_EVENT_END_UNKNOWN:
        return (
            f"the end of the last main-event game of {players(about.players, names)} is "
            "unknown: the play-off starts no earlier than the organiser's earliest start, "
            f"{instant(about.at, zone)}"
        )
    what = unit(about.match or 0, about.game or 0, stanza=about.stanza)
    if about.kind is NoticeKind.PIN_TOO_EARLY:
        return (
            f"the arbiter's start {instant(about.asked, zone)} for {what} is earlier "
            f"than allowed by {about.because}; it is planned at "
            f"{instant(about.at, zone)}, the earliest legal time"
        )
    return f"{what} has a result but no recorded times: its times are estimated"


def rest_breach(breach: RestBreach, zone: tzinfo) -> str:
    """Why a start is too early for the rest owed, and from when it may be."""
    until = instant(breach.until, zone)
    needed = span(breach.required or timedelta(0))
    if breach.kind is RestKind.MAIN_EVENT:
        return (
            f"the play-off starts at least {needed} after the last main-event game of any "
            f"play-off player{cite(breach.rule)}: not before {until}"
        )
    if breach.kind is RestKind.CHIEF_ARBITER_TIME:
        if breach.postponed:
            return f"the chief arbiter postponed it to {until}"
        return f"the chief arbiter set its start for {until}"
    what = "not less than" if breach.kind is RestKind.MINIMUM_INTERVAL else "if possible at least"
    return (
        f"{what} {needed} between a player's games{cite(breach.rule)}: not before {until}, "
        f"the previous game having ended at {instant(breach.since, zone)}"
    )
