"""The standings to post on the wall: the regulation's columns in its order of
criteria, who plays off, and the words that explain each tie split, as ``playoff
standings`` and the event's API give them (:mod:`playoff_formats.tiebreaks.columns`).
"""

from __future__ import annotations

from orchestrator.printing.layout import esc, table
from playoff_formats.regulations import Regulation
from playoff_formats.speech import tr
from playoff_formats.standings import Standings
from playoff_formats.tiebreaks.columns import NOT_APPLIED_NOTE, TIES_HEADING, standings_table

__all__ = ["STANDINGS_STYLE", "WIDE", "criteria_count", "standings_body"]

STANDINGS_STYLE = """
table.grid.standings td.figure { white-space: normal; }
table.standings td:nth-child(2) { font-weight: bold; }
table.standings tr.playoff td { background: #f0f0f0; }
"""

WIDE = 6
"""More criteria than this: the standings are printed across the page (landscape)."""


def criteria_count(result: Standings, regulation: Regulation | None) -> int:
    """The criteria columns the table has."""
    return len(standings_table(result, regulation).headers) - 4


def standings_body(result: Standings, regulation: Regulation | None) -> str:
    shown = standings_table(result, regulation)
    # Every column fits the page: the criteria share what the rank, the score, the
    # play-off mark and a quarter of the page for the name leave (a long value wraps);
    # the name has the rest.
    criteria = len(shown.headers) - 4
    share = f"{min(13, (100 - 25 - 6 - 7 - 9) / max(1, criteria)):.2f}%"
    grid = table(
        shown.headers, shown.rows, figures=shown.right, classes="grid condensed standings",
        widths=["6%", "", "7%", *(share for _ in range(criteria)), "9%"],
        # The players who play off, shaded.
        row_classes=["playoff" if row.playoff else "" for row in result.rows],
    )
    parts = [grid]
    # The note and the heading are the standings' own, marked where they are written.
    if shown.not_applied:
        parts.append(f'<p class="note small">{esc(tr(NOT_APPLIED_NOTE))}</p>')
    if result.playoff:
        parts.append(
            f'<p class="note"><b>{esc(tr("Play-off:"))}</b> {esc(", ".join(_names(result)))}</p>'
        )
    if result.explanation:
        lines = "".join(f"<li>{esc(line)}</li>" for line in result.explanation)
        parts.append(f"<h3>{esc(tr(TIES_HEADING))}</h3><ul class=\"lines\">{lines}</ul>")
    return "".join(parts)


def _names(result: Standings) -> list[str]:
    names = {row.id: row.name for row in result.rows}
    return [names.get(p, p) for p in result.playoff]
