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
from playoff_formats.speech import marked, tr

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
    UnitStatus.PLAYED: marked("played"),
    UnitStatus.RUNNING: marked("in play"),
    UnitStatus.PLANNED: marked("planned"),
}


def _match(words: Words, shown: BracketMatch, *, alone: bool) -> str:
    playoff = words.state.chess
    match = playoff.match(shown.id)
    numbers = [g.number for g in playoff.games_of(match.id)]
    headers = [tr("Seed"), tr("Player"), *(tr("Game {game}", game=n) for n in numbers),
               tr("Total"), ""]
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
        said = tr("Board {board} · {time_control}", board=match.number,
                  time_control=view.time_control)
        parts.append(f'<p class="small">{esc(said)}</p>')
    parts.append(grid)
    if shown.decision:
        parts.append(f"<p><b>{esc(shown.decision)}</b></p>")
    return f'<section class="match">{"".join(parts)}</section>'


def bracket_body(words: Words) -> str:
    parts = [f"<h2>{esc(tr('Bracket'))}</h2>"]
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
    zone = tr("(the hall's time, {zone})", zone=hall_zone(offset, first))
    parts = [f'<h2>{esc(tr("Schedule"))} <span class="muted small">{esc(zone)}</span></h2>']
    if shown.error is not None:
        said = tr("No schedule: {reason}.", reason=shown.error)
        parts.append(f'<p class="note">{esc(said)}</p>')
        return "".join(parts)
    days: dict[str, list[list[str]]] = {}
    for g in shown.games:
        state = tr(_STATUS[g.status])
        if g.tentative and g.status is UnitStatus.PLANNED:
            state = tr("if needed")
        days.setdefault(day(g.start, offset), []).append([
            f"{instant(g.start, offset)}–{instant(g.end, offset)}",
            g.title, g.players, g.time_control or "", state,
        ])
    for when, rows in days.items():
        parts.append(f"<h3>{esc(when)}</h3>")
        parts.append(table(
            [tr("Time"), tr("Game"), tr("Players"), tr("Time control"), ""], rows,
            classes="grid condensed schedule", widths=["24mm", "", "", "", "17mm"],
        ))
    if shown.deadline is not None:
        parts.append(f'<p class="note">{esc(_deadline(shown, offset))}</p>')
    for warning in shown.warnings:
        parts.append(f'<p class="note small">{esc(warning)}</p>')
    return "".join(parts)


def _deadline(shown: ScheduleView, offset: tzinfo) -> str:
    """The deadline at the hall's time of day, and whether the schedule keeps it."""
    assert shown.deadline is not None
    at = {"time": instant(shown.deadline, offset), "day": day(shown.deadline, offset)}
    if shown.fits_text:
        return tr("Deadline {time}, {day}: the schedule {fits}.", fits=shown.fits_text, **at)
    return tr("Deadline {time}, {day}.", **at)
