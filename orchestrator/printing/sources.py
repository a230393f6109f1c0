"""What a printout is made from: the event and its play-off as the log holds them,
its standings, and the instant it is printed at, made into the context the screens'
views are computed in (the schedule as planned then, the final placings)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, tzinfo

from orchestrator.core import schedule
from orchestrator.core.reasons import reason
from orchestrator.core.state import EventState, PlayoffState
from orchestrator.views.context import ViewContext
from playoff_formats.errors import PlayoffError
from playoff_formats.placings import Awards, final_placings
from playoff_formats.playoff import champion
from playoff_formats.schedule import Plan
from playoff_formats.standings import Standings

__all__ = ["Sources", "view_context"]


@dataclass(frozen=True)
class Sources:
    """The event, its play-off (None for the event's own standings), how to get its
    standings (refused while a game is pending), when the printout is made, and the
    hall's offset from UTC (the play-off's own, where there is one)."""

    event: EventState
    playoff: PlayoffState | None
    standings: Callable[[], Standings]
    now: datetime
    server_ms: int
    zone: tzinfo
    """The hall's zone: the play-off's, else the event's or the service's."""


def view_context(sources: Sources, state: PlayoffState) -> ViewContext:
    """The context the hall's and the console's views of ``state`` are computed in at
    the instant of printing: the schedule as planned then, and the final placings once
    the play-off has its champion."""
    plan: Plan | None = None
    error = None
    try:
        plan = schedule.plan(state, sources.now)
    except (PlayoffError, ValueError) as exc:
        error = reason(exc, state.names)
    placings: Awards | None = None
    if state.playoff is not None and champion(state.playoff) is not None:
        placings = final_placings(
            sources.standings(), state.playoff, state.prizes, state.points
        )
    return ViewContext(
        now=sources.now, server_ms=sources.server_ms, plan=plan, plan_error=error,
        placings=placings,
    )
