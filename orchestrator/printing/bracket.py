"""The bracket and the schedule, for the wall: each round's matches as the hall shows
them (seeds, each game's points, totals, who advances and how), each match's time
controls as the console words them, then every game in time, at the hall's time of
day, as the schedule stands when printed.
"""

from __future__ import annotations

from datetime import tzinfo

from orchestrator.printing.games import Words
from orchestrator.printing.layout import day, esc, hall_zone, table
from orchestrator.views.arbiter.match import match_view
from orchestrator.views.arbiter.models import ScheduleView
from orchestrator.views.arbiter.schedule import schedule_view
from orchestrator.views.hall.bracket import bracket
from orchestrator.views.hall.models import BracketMatch
from playoff_formats.schedule import UnitStatus
from playoff_formats.schedule.words import instant

__all__ = ["BRACKET_STYLE", "bracket_body", "schedule_body"]

BRACKET_STYLE = """
section.match { break-inside: avoid; margin: 0 0 4mm; }
h4 { font-size: 10.5pt; margin: 2mm 0 1mm; }
section.match p { margin: 0.8mm 0; }
table.bracket td.outcome { white-space: nowrap; }
tr.out td { color: #555; }
tr.advances td, tr.champion td { font-weight: bold; }
table.schedule td:first-child { white-space: nowrap; }
"""

_STATUS = {
    UnitStatus.PLAYED: "played",
    UnitStatus.RUNNING: "in play",
    UnitStatus.PLANNED: "planned",
}


def _match(words: Words, shown: BracketMatch, *, alone: bool) -> str:
    playoff = words.state.chess
    match = playoff.match(shown.id)
    numbers = [g.number for g in playoff.games_of(match.id)]
    headers = ["Seed", "Player", *(f"Game {n}" for n in numbers), "Total", ""]
    rows, marked = [], []
    for side in shown.players:
        marks = {m.game: m.text for m in side.marks}
        seed = str(side.player.seed) if side.player.seed is not None else ""
        outcome = side.outcome or ""
        rows.append([seed, side.player.name, *(marks.get(n, "") for n in numbers),
                     side.total, outcome])
        marked.append(outcome)
    grid = table(
        headers, rows, figures=[True, False, *(True for _ in numbers), True],
        classes="grid bracket", row_classes=marked,
        widths=["14mm", "", *("19mm" for _ in numbers), "15mm", "27mm"],
    )
    # A round of one match is named as its match: said once.
    parts = [] if alone else [f"<h4>{esc(shown.name)}</h4>"]
    if not shown.bye:
        view = match_view(words.console, match)
        parts.append(f'<p class="small">Board {match.number} · {esc(view.time_control)}</p>')
    parts.append(grid)
    if shown.decision:
        parts.append(f"<p><b>{esc(shown.decision)}</b></p>")
    return f'<section class="match">{"".join(parts)}</section>'


def bracket_body(words: Words) -> str:
    parts = ["<h2>Bracket</h2>"]
    for shown in bracket(words.hall, words.state.chess):
        parts.append(f'<h3 class="round">{esc(shown.name)} <span class="muted small">'
                     f"({esc(shown.status)})</span></h3>")
        alone = len(shown.matches) == 1 and shown.matches[0].name == shown.name
        parts.extend(_match(words, m, alone=alone) for m in shown.matches)
    return "".join(parts)


def schedule_body(words: Words, plan: ScheduleView | None = None) -> str:
    """Every game in time, at the hall's time of day, day by day."""
    shown = plan if plan is not None else schedule_view(words.console)
    offset: tzinfo = words.state.zone
    first = shown.games[0].start if shown.games else words.console.ctx.now
    parts = [f"<h2>Schedule <span class=\"muted small\">(the hall's time, "
             f"{esc(hall_zone(offset, first))})</span></h2>"]
    if shown.error is not None:
        parts.append(f'<p class="note">No schedule: {esc(shown.error)}.</p>')
        return "".join(parts)
    days: dict[str, list[list[str]]] = {}
    for g in shown.games:
        state = _STATUS[g.status]
        if g.tentative and g.status is UnitStatus.PLANNED:
            state = "if needed"
        days.setdefault(day(g.start, offset), []).append([
            f"{instant(g.start, offset)}–{instant(g.end, offset)}",
            g.title, g.players, g.time_control or "", state,
        ])
    for when, rows in days.items():
        parts.append(f"<h3>{esc(when)}</h3>")
        parts.append(table(
            ["Time", "Game", "Players", "Time control", ""], rows,
            classes="grid condensed schedule", widths=["24mm", "", "", "", "17mm"],
        ))
    if shown.deadline is not None:
        fits = f": the schedule {shown.fits_text}" if shown.fits_text else ""
        parts.append(
            f'<p class="note">Deadline {esc(instant(shown.deadline, offset))}, '
            f"{esc(day(shown.deadline, offset))}{esc(fits)}.</p>"
        )
    for warning in shown.warnings:
        parts.append(f'<p class="note small">{esc(warning)}</p>')
    return "".join(parts)
