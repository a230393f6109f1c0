"""The standings as a table for people: the regulation's columns in its order of
criteria, each cell as written, and what a dash in a cell means.

One table for every door that shows the standings (the command line's table, the
printed standings), so that they show the same columns in the same order.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from playoff_formats.regulations import CriteriaRegulation, Regulation
from playoff_formats.speech import marked
from playoff_formats.standings import Standings
from playoff_formats.tiebreaks.words import points as score_text

__all__ = [
    "NOT_APPLIED",
    "NOT_APPLIED_NOTE",
    "TIES_HEADING",
    "StandingsTable",
    "cell_text",
    "columns",
    "standings_table",
]

NOT_APPLIED = "—"
"""A criterion's cell for a player it was never applied to."""

NOT_APPLIED_NOTE = marked(
    "— not applied: only players still tied when the regulation reaches "
    "a criterion are compared by it."
)
"""What the dash means, said under a table that has one."""

TIES_HEADING = marked("How the ties were split")
"""The heading of the explanation, under the table."""


@dataclass(frozen=True, slots=True)
class StandingsTable:
    """The standings' table: its headers, which columns are figures (aligned right),
    each row's cells as written, and whether a criterion was not applied somewhere."""

    headers: list[str]
    right: list[bool]
    rows: list[list[str]]
    not_applied: bool


def standings_table(result: Standings, regulation: Regulation | None = None) -> StandingsTable:
    """Rank, name, score, the criteria in the regulation's order, and the play-off."""
    keys = columns(result, regulation)
    headers = ["Rank", "Name", "Score", *(key.replace("_", " ") for key in keys), "Play-off"]
    right = [True, False, True, *(True for _ in keys), False]
    # Chess scores read in halves (5½); bridge scores are VPs or HPs with decimals.
    bridge = regulation is not None and regulation.ranks.game == "bridge"
    show_score = cell_text if bridge else score_text
    not_applied = False
    rows: list[list[str]] = []
    for row in result.rows:
        cells = []
        for key in keys:
            value = row.tiebreaks.get(key)
            not_applied = not_applied or value is None
            cells.append(NOT_APPLIED if value is None else cell_text(value))
        rows.append([
            str(row.rank), row.name, show_score(row.score), *cells,
            "yes" if row.playoff else "",
        ])
    return StandingsTable(headers, right, rows, not_applied)


def columns(result: Standings, regulation: Regulation | None) -> list[str]:
    """The tiebreak columns in the regulation's order of criteria.

    A list of criteria gives its order. A regulation that decides by rules of its
    own (the county rules, EBU 143.7) applies them in order to each tie, so the order
    its steps took is its order; values that no step used keep the rows' order,
    before them.
    """
    keys: list[str] = []
    for row in result.rows:
        keys.extend(k for k in row.tiebreaks if k not in keys)
    if isinstance(regulation, CriteriaRegulation):
        order = [lc.criterion.key for lc in regulation.criteria]
    else:
        order = _order_of_steps(result)
    ranked = [k for k in order if k in keys]
    return [k for k in keys if k not in ranked] + ranked


def _order_of_steps(result: Standings) -> list[str]:
    """The criteria in the order each tie met them, merged over every tie."""
    sequences: dict[tuple[tuple[str, ...], int], list[str]] = {}
    first_seen: list[str] = []
    for step in result.steps:
        sequence = sequences.setdefault((tuple(step.tied), step.first_place), [])
        if step.criterion not in sequence:
            sequence.append(step.criterion)
        if step.criterion not in first_seen:
            first_seen.append(step.criterion)
    before: dict[str, set[str]] = {k: set() for k in first_seen}
    for sequence in sequences.values():
        for earlier, later in pairwise(sequence):
            before[later].add(earlier)
    order: list[str] = []
    while len(order) < len(first_seen):
        ready = [k for k in first_seen if k not in order and before[k] <= set(order)]
        # Ties that met criteria in contradictory orders: first come, first placed.
        order.append(ready[0] if ready else next(k for k in first_seen if k not in order))
    return order


def cell_text(value: Any) -> str:
    """A criterion's value as a cell shows it: ``22.25``, ``3``, ``1 → 0`` for a list."""
    if value is None:
        return ""
    if isinstance(value, list):
        return " → ".join(cell_text(v) for v in value)
    return f"{value:g}" if isinstance(value, float) else str(value)
