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
from playoff_formats.speech import tr

__all__ = ["placings_body"]


def placings_body(words: Words) -> str:
    rows = placing_rows(words.console)
    winner = champion(words.state.chess)
    if rows is None or winner is None:
        raise PlayoffError(tr(PLACINGS_WAIT))
    # The columns the organiser gave amounts for.
    prizes = bool(words.state.prizes)
    points = bool(words.state.points)
    headers = [tr("Place"), tr("Player"), tr("Score")]
    figures = [True, False, True]
    widths = ["12mm", "", "12mm"]
    if prizes:
        headers.append(tr("Prize"))
        figures.append(True)
        widths.append("22mm")
    if points:
        headers.append(tr("Tour points"))
        figures.append(True)
        widths.append("18mm")
    headers.append(tr("Place from"))
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
        f"<h2>{esc(tr('Champion: {player}', player=words.console.name(winner)))}</h2>",
        table(headers, cells, figures=figures, classes="grid condensed", widths=widths),
        # The note is the placings' own, marked where it is written.
        f'<p class="note small">{esc(tr(PLACES_NOTE))}</p>',
    ])
