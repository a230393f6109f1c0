"""The final placings as the hall shows them: the places that carry a prize or tour
points, and every play-off player."""

from __future__ import annotations

from orchestrator.views.hall.core import (
    Core,
    family,
)
from orchestrator.views.hall.models import (
    PlacingRow,
)
from orchestrator.views.shared import placings
from playoff_formats.words import (
    money,
    points,
)

__all__ = [
    "placing_rows",
]


def placing_rows(core: Core, winner: str) -> list[PlacingRow]:
    """The places that carry a prize or tour points, and every play-off player."""
    in_playoff = set(core.state.names)
    rows = []
    for award in placings(core.state, core.ctx) or ():
        if award.place is None:
            continue
        if not (award.money or award.points or award.id in in_playoff):
            continue
        name = award.name or core.name(award.id)
        rows.append(PlacingRow(
            place=award.place,
            id=award.id,
            name=name,
            short=core.shorts.get(award.id) or family(name),
            prize="" if award.money is None else money(award.money),
            points="" if award.points is None else points(award.points),
            champion=award.id == winner,
            basis=award.basis.short,
        ))
    return sorted(rows, key=lambda r: r.place)
