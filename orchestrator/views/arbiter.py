"""The arbiter console's view of a play-off: the hall's, and what each control may do."""

from __future__ import annotations

from typing import Any

from orchestrator.state import PlayoffState
from orchestrator.views.context import ViewContext
from orchestrator.views.hall import hall_view

__all__ = ["arbiter_view"]


def arbiter_view(state: PlayoffState, ctx: ViewContext) -> dict[str, Any]:
    """Everything the arbiter console shows and allows, as of ``ctx.now``."""
    return {**hall_view(state, ctx), "view": "arbiter"}
