"""Result slips: one per game, two to a page, for the players to sign after the game
and the arbiter to countersign (the paper is the legal record of the result).

Each says the event, the play-off's stage and round, the match and game, the board,
the planned start, the players with their colours (or how the colours will be
settled, with a box by each player for the colour drawn), the time control with its
increment and the move it starts from, the Armageddon's terms, the three results to
tick, and a line to sign for each player and for the arbiter.
"""

from __future__ import annotations

from orchestrator.printing.games import GameSheet, increment_text
from orchestrator.printing.layout import BOX, esc
from orchestrator.views.hall.models import PlayerLabel
from playoff_formats.model import Result
from playoff_formats.speech import tr
from playoff_formats.words import result_written

__all__ = ["SLIP_STYLE", "slips_body"]

SLIP_STYLE = """
section.slip {
  border: 1pt solid #000; padding: 4mm 5mm; margin: 0 0 7mm; break-inside: avoid;
}
section.slip + section.slip { border-top-style: dashed; }
.slip-head { display: flex; justify-content: space-between; align-items: baseline; }
.slip-head .what { font-size: 13pt; font-weight: bold; }
.slip-head .board { font-size: 13pt; font-weight: bold; white-space: nowrap; }
table.facts { width: 100%; border-collapse: collapse; margin: 2mm 0; }
table.facts th { text-align: left; width: 30mm; padding: 0.6mm 2mm 0.6mm 0; font-weight: normal;
  color: #333; vertical-align: top; }
table.facts td { padding: 0.6mm 0; font-weight: bold; }
table.players { width: 100%; border-collapse: collapse; margin: 2mm 0; }
table.players td { border: 0.75pt solid #000; padding: 2mm; vertical-align: middle; }
table.players td.colour { width: 24mm; font-weight: bold; white-space: nowrap; }
table.players td.name { font-size: 12pt; font-weight: bold; }
table.players td.seed { width: 18mm; text-align: right; white-space: nowrap; }
p.colours { margin: 1mm 0; }
.results { margin: 3mm 0; font-size: 13pt; }
.results span.box { margin-right: 12mm; white-space: nowrap; }
table.signatures { width: 100%; border-collapse: separate; border-spacing: 4mm 0;
  margin: 11mm 0 0; }
table.signatures td { border-top: 0.75pt solid #000; padding-top: 1mm; width: 33%;
  font-size: 8.5pt; vertical-align: top; }
"""


def _player(label: PlayerLabel) -> str:
    return label.name or tr("to be decided")


def _seed(label: PlayerLabel) -> str:
    return tr("seed {seed}", seed=label.seed) if label.seed is not None else ""


def _facts(event: str, sheet: GameSheet) -> list[tuple[str, str]]:
    """What the slip says of the game, each fact with its label."""
    facts = [
        (tr("Event"), tr("{event} · play-off", event=event)),
        (tr("Stage"), sheet.stage),
        (tr("Game"), sheet.title),
        (tr("Board"), str(sheet.board)),
    ]
    if sheet.start is not None:
        facts.append((tr("Time"), sheet.start))
    if sheet.control is not None:
        facts.append((tr("Time control"), str(sheet.control)))
        facts.append((tr("Increment"), increment_text(sheet.control)))
    if sheet.decider is not None:
        facts.append((tr("Terms"), sheet.decider))
    return facts


def slip(event: str, sheet: GameSheet) -> str:
    """One game's slip."""
    rows = "".join(
        f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>" for k, v in _facts(event, sheet)
    )
    if sheet.white is not None and sheet.black is not None:
        sides = [(tr("White"), sheet.white), (tr("Black"), sheet.black)]
        players = "".join(
            f'<tr><td class="colour">{esc(colour)}</td><td class="name">{esc(_player(p))}</td>'
            f'<td class="seed">{esc(_seed(p))}</td></tr>'
            for colour, p in sides
        )
        colours = ""
        signers = [tr("White: {player}", player=_player(sheet.white)),
                   tr("Black: {player}", player=_player(sheet.black))]
    else:
        players = "".join(
            f'<tr><td class="colour">{BOX} {esc(tr("White"))}<br>{BOX} {esc(tr("Black"))}</td>'
            f'<td class="name">{esc(_player(p))}</td><td class="seed">{esc(_seed(p))}</td></tr>'
            for p in sheet.players
        )
        said = tr("{rule}: tick each player's colour once it is known.",
                  rule=sheet.colours or "")
        colours = f'<p class="colours small">{esc(said)}</p>'
        signers = [_player(p) for p in sheet.players]
    results = "".join(
        f'<span class="box">{BOX} {esc(result_written(r))}</span>'
        for r in (Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS)
    )
    signatures = "".join(
        f"<td>{esc(who)}</td>" for who in [*signers, tr("Arbiter")]
    )
    return (
        '<section class="slip">'
        f'<div class="slip-head"><span class="what">{esc(tr("Result slip"))}</span>'
        f'<span class="board">{esc(tr("Board {board}", board=sheet.board))}</span></div>'
        f'<table class="facts">{rows}</table>'
        f'<table class="players">{players}</table>{colours}'
        f'<div class="results"><b>{esc(tr("Result:"))}</b> {results}</div>'
        f'<table class="signatures"><tr>{signatures}</tr></table>'
        "</section>"
    )


def slips_body(event: str, sheets: list[GameSheet]) -> str:
    return "".join(slip(event, sheet) for sheet in sheets)
