"""What a view needs besides the state: the time, the schedule, the placings."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from orchestrator.core.commands import Context
from orchestrator.core.state import PlayoffState
from playoff_formats.placings import Awards
from playoff_formats.schedule import Plan

__all__ = ["BoardPresence", "EboardPresence", "ViewContext"]


@dataclass(frozen=True, slots=True)
class BoardPresence:
    """A board clock as the service hears it (in memory of the worker holding its
    connection, never logged): whether one is connected, when it was last heard, and
    the battery its browser tells of."""

    match: int
    online: bool
    last_heard_ms: int | None = None
    battery: float | None = None
    charging: bool | None = None


@dataclass(frozen=True, slots=True)
class EboardPresence:
    """An e-board as its forwarder last reported it (LiveChess's state and battery),
    in memory of the worker that heard it, never logged."""

    serial: str
    state: str | None
    battery: str | None
    last_heard_ms: int


@dataclass(frozen=True)
class ViewContext:
    """The instant a view is computed for, and what the service knows at that instant."""

    now: datetime
    server_ms: int
    plan: Plan | None
    plan_error: str | None = None
    placings: Awards | None = None
    """The final placings (places, prize money, points), once the play-off is decided."""
    previous_plan: Plan | None = None
    """The schedule as the previous view of this play-off showed it (to say what moved)."""
    since: tuple[str, ...] = ()
    """The types of the events logged since the previous view (what moved the schedule)."""
    boards: tuple[BoardPresence, ...] = ()
    """The board clocks of the play-off: each match with a board key issued, and what
    is heard of it."""
    eboards: tuple[EboardPresence, ...] = ()
    """The e-boards whose status was reported for the play-off."""

    def command_context(self) -> Context:
        """A context to check commands against (:func:`orchestrator.core.commands.refusal`):
        the same time, the same schedule, and a fixed seed, since nothing is drawn."""

        def planned_start(state: PlayoffState, match: int, game: int) -> datetime | None:
            if self.plan is None:
                return None
            for planned in self.plan.games:
                if (planned.match, planned.game) == (match, game):
                    return planned.start
            return None

        return Context(
            now=self.now, server_ms=self.server_ms, new_seed=lambda: bytes(32),
            planned_start=planned_start,
        )

    def schedule_json(self) -> dict[str, Any]:
        if self.plan is None:
            return {"error": self.plan_error or "no schedule"}
        return self.plan.as_json()
