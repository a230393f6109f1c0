"""What a view needs besides the state: the time, the schedule, the placings."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from playoff_formats.schedule import Plan

__all__ = ["ViewContext"]


@dataclass(frozen=True)
class ViewContext:
    """The instant a view is computed for, and what the service knows at that instant."""

    now: datetime
    server_ms: int
    plan: Plan | None
    plan_error: str | None = None
    placings: dict[str, Any] | None = None
    """The final placings (places, prize money, points), once the play-off is decided."""

    def schedule_json(self) -> dict[str, Any]:
        if self.plan is None:
            return {"error": self.plan_error or "no schedule"}
        return self.plan.model_dump(mode="json")
