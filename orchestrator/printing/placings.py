"""The final placings and prizes, the list prizes are paid against: every player's
place, score, prize money and tour points, and where the place comes from, as the
console lists them once the play-off has its champion."""

from __future__ import annotations

from orchestrator.printing.games import Words
from orchestrator.printing.layout import esc, table
from orchestrator.views.arbiter.placings import placing_rows
from orchestrator.views.printable import PLACINGS_WAIT
from playoff_formats.errors import PlayoffError
from playoff_formats.placings import PLACES_NOTE
from playoff_formats.playoff import champion

__all__ = ["placings_body"]


def placings_body(words: Words) -> str:
    rows = placing_rows(words.console)
    winner = champion(words.state.chess)
    if rows is None or winner is None:
        raise PlayoffError(PLACINGS_WAIT)
    # The columns the organiser gave amounts for.
    prizes = bool(words.state.prizes)
    points = bool(words.state.points)
    headers = ["Place", "Player", "Score"]
    figures = [True, False, True]
    widths = ["12mm", "", "12mm"]
    if prizes:
        headers.append("Prize")
        figures.append(True)
        widths.append("22mm")
    if points:
        headers.append("Tour points")
        figures.append(True)
        widths.append("18mm")
    headers.append("Place from")
    widths.append("58mm")
    cells = []
    for r in rows:
        line = [r.place, r.player, r.score]
        if prizes:
            line.append(r.money)
        if points:
            line.append(r.points)
        line.append(r.basis)
        cells.append(line)
    return "".join([
        f"<h2>Champion: {esc(words.console.name(winner))}</h2>",
        table(headers, cells, figures=figures, classes="grid condensed", widths=widths),
        f'<p class="note small">{esc(PLACES_NOTE)}</p>',
    ])
