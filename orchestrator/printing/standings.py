"""The standings to post on the wall: the regulation's columns in its order of
criteria, who plays off, and the words that explain each tie split, as ``playoff
standings`` and the event's API give them (:mod:`playoff_formats.tiebreaks.columns`).
"""

from __future__ import annotations

from orchestrator.printing.layout import esc, table
from playoff_formats.regulations import Regulation
from playoff_formats.standings import Standings
from playoff_formats.tiebreaks.columns import NOT_APPLIED_NOTE, TIES_HEADING, standings_table

__all__ = ["STANDINGS_STYLE", "standings_body"]

STANDINGS_STYLE = """
table.standings td:nth-child(2) { font-weight: bold; }
table.standings tr.playoff td { background: #f0f0f0; }
"""


def standings_body(result: Standings, regulation: Regulation | None) -> str:
    shown = standings_table(result, regulation)
    # The players who play off, shaded.
    grid = table(
        shown.headers, shown.rows, figures=shown.right, classes="grid condensed standings",
        row_classes=["playoff" if row.playoff else "" for row in result.rows],
    )
    parts = [grid]
    if shown.not_applied:
        parts.append(f'<p class="note small">{esc(NOT_APPLIED_NOTE)}</p>')
    if result.playoff:
        parts.append(
            f'<p class="note"><b>Play-off:</b> {esc(", ".join(_names(result)))}</p>'
        )
    if result.explanation:
        lines = "".join(f"<li>{esc(line)}</li>" for line in result.explanation)
        parts.append(f"<h3>{esc(TIES_HEADING)}</h3><ul class=\"lines\">{lines}</ul>")
    return "".join(parts)


def _names(result: Standings) -> list[str]:
    names = {row.id: row.name for row in result.rows}
    return [names.get(p, p) for p in result.playoff]
