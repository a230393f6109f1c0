"""The final placings as the console lists them: place, prize money, tour points."""

from __future__ import annotations

from orchestrator.views.arbiter.core import (
    Core,
)
from orchestrator.views.arbiter.models import (
    PlacingRow,
)
from orchestrator.views.shared import placings
from playoff_formats.words import (
    money,
    number,
)

__all__ = [
    "placing_rows",
]


def placing_rows(core: Core) -> tuple[PlacingRow, ...] | None:
    """Every player's final place, prize money and tour points, as written."""
    awards = placings(core.state, core.ctx)
    if awards is None:
        return None
    return tuple(
        PlacingRow(
            place="" if a.place is None else str(a.place), player=a.name or core.name(a.id),
            score=number(a.score), money="" if a.money is None else money(a.money),
            points="" if a.points is None else number(float(a.points)),
            basis=a.basis.words,
        )
        for a in awards
    )
