"""What the hall and the arbiter console both show, decided once for both: the flag
fall to announce, the next instant a view changes with the time alone, the final
placings, and the names of rounds.

Each screen words these as it needs (the hall for spectators, the console for the
arbiter), but neither decides them on its own, so the two never disagree on which
flag fell, when the view changes or who placed where.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from orchestrator.core.state import PlayoffState
from orchestrator.views.context import ViewContext
from playoff_formats.clock import ClockStatus
from playoff_formats.formats.said import said_name
from playoff_formats.model import Colour
from playoff_formats.placings import Award
from playoff_formats.playoff import Match, Playoff, champion
from playoff_formats.schedule import Plan, UnitStatus
from playoff_formats.zones import offset_at

__all__ = [
    "FlagFall", "flag_fall", "next_change", "offset_minutes", "placings", "round_name",
    "uncited",
]


def offset_minutes(state: PlayoffState, now: datetime) -> int:
    """The play-off's offset from UTC in force ``now``, in minutes (a page that cannot
    read the zone's name writes times of day at it)."""
    return round(offset_at(state.zone, now) / timedelta(minutes=1))


@dataclass(frozen=True, slots=True)
class FlagFall:
    """A flag that fell and the server scored: its game, the side, when it ended."""

    match: int
    game: int
    side: Colour
    ended: datetime | None
    """When its game ended (None while the log has no end for it)."""


def flag_fall(state: PlayoffState, now: datetime, match: int | None = None) -> FlagFall | None:
    """The flag that fell last (in ``match``, or in the whole play-off), for as long
    as no game has started since its game ended: the moment for FIDE art. 6.9, and
    the hall's announcement."""
    fallen = [
        (state.ended_at.get(key, now), key, clock.flagged)
        for key, clock in state.clocks.items()
        if (match is None or key[0] == match)
        and clock.status is ClockStatus.FLAGGED and clock.flagged is not None
    ]
    if not fallen:
        return None
    ended, key, side = max(fallen, key=lambda f: (f[0], f[1]))
    if any(started > ended for started in state.started_at.values()):
        return None
    return FlagFall(match=key[0], game=key[1], side=side, ended=state.ended_at.get(key))


def next_change(plan: Plan | None, now: datetime, also: Iterable[datetime] = ()) -> datetime | None:
    """The next instant after ``now`` at which a view changes with the time alone: a
    planned game falls due, a break starts or ends, the break after the main event
    is over, or one of ``also`` (a rest a start would cut short) comes."""
    instants = list(also)
    if plan is not None:
        instants += [g.start for g in plan.games if g.status is UnitStatus.PLANNED]
        for b in plan.breaks:
            instants += [b.start, b.end]
        if plan.break_over is not None:
            instants.append(plan.break_over)
    later = [t for t in instants if t > now]
    return min(later) if later else None


def placings(state: PlayoffState, ctx: ViewContext) -> tuple[Award, ...] | None:
    """The final places, prize money and tour points, once the play-off has its
    champion; every player of the event, in final order."""
    if ctx.placings is None or state.playoff is None or champion(state.playoff) is None:
        return None
    return ctx.placings.players


_CITATION = re.compile(r"\s*\((?:[^()]*\s)?(?:reg|regs|art|arts|rule|rules)\.?\s[^)]*\)\s*$")
"""A rule cited at the end of a round's name ("Final (reg. 6)")."""


def written_round_name(playoff: Playoff, match: Match) -> str | None:
    """The name of the round ``match`` is played in, as its format writes it (with the
    rule it cites, "Final (reg. 6)"); None for a match of no known round."""
    for r in playoff.rounds:
        if (r.stage, r.number) == (match.stage, match.round):
            return r.name
    return None


def round_name(playoff: Playoff, match: Match, *, cited: bool = True) -> str | None:
    """The name of the round ``match`` is played in, in the reader's language (a
    built-in format's) or as its organiser wrote it, with the rule it cites unless
    ``cited`` is false (for spectators and players: "Final"); None for a match of no
    known round."""
    written = written_round_name(playoff, match)
    if written is None:
        return None
    # The citation goes before the name is said: a language may put it elsewhere.
    return said_name(written if cited else uncited(written))


def uncited(name: str) -> str:
    """A round's name without the rule it cites, for spectators: "Final"."""
    return _CITATION.sub("", name)
