"""The hall display's view of a play-off."""

from __future__ import annotations

from typing import Any

from orchestrator.state import PlayoffState
from orchestrator.views.context import ViewContext
from orchestrator.views.playoff import clock_view, playoff_view

__all__ = ["hall_view"]


def hall_view(state: PlayoffState, ctx: ViewContext) -> dict[str, Any]:
    """Everything the hall display shows, as of ``ctx.now``."""
    return {
        "view": "hall",
        "seq": state.seq,
        "server_ms": ctx.server_ms,
        "playoff": playoff_view(state, ctx.schedule_json()),
        "clocks": {
            f"{key[0]}:{key[1]}": clock_view(key, clock, ctx.server_ms)
            for key, clock in sorted(state.clocks.items())
        },
        "placings": ctx.placings,
        "next_change_ms": None,
    }
