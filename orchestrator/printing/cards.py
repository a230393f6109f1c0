"""Board cards: one page per board, put on the table, its players' names in large
type (the family name largest), their seeds, and their colours once known (for the
match's next game; until they are drawn, how they will be).
"""

from __future__ import annotations

from orchestrator.printing.games import GameSheet
from orchestrator.printing.layout import esc
from orchestrator.views.hall.core import family
from orchestrator.views.hall.models import PlayerLabel
from playoff_formats.speech import tr

__all__ = ["CARD_STYLE", "cards_body"]

CARD_STYLE = """
section.card { break-after: page; text-align: center; padding-top: 8mm; }
section.card:last-child { break-after: auto; }
.card .board { font-size: 40pt; font-weight: bold; margin: 0; }
.card .round { font-size: 15pt; margin: 2mm 0 8mm; }
.card .side { border: 1.5pt solid #000; padding: 6mm 4mm; margin: 0 0 6mm; }
.card .colour { font-size: 16pt; font-weight: bold; letter-spacing: 0.5pt; margin: 0 0 2mm; }
.card .family { font-size: 38pt; font-weight: bold; line-height: 1.2; margin: 0; }
.card .given { font-size: 20pt; margin: 1mm 0 0; }
.card .seed { font-size: 14pt; margin: 2mm 0 0; color: #333; }
.card .next { font-size: 12pt; margin: 4mm 0 0; }
"""


def _names(label: PlayerLabel) -> tuple[str, str]:
    """The family name, in large type, and the rest of the name under it."""
    name = label.name or tr("to be decided")
    first = family(name)
    rest = name[len(first):].strip(" ,") if name.startswith(first) else ""
    return first, rest


def _side(label: PlayerLabel, colour: str | None) -> str:
    big, small = _names(label)
    seed = tr("Seed {seed}", seed=label.seed) if label.seed is not None else ""
    return (
        '<div class="side">'
        + (f'<p class="colour">{esc(colour)}</p>' if colour else "")
        + f'<p class="family">{esc(big)}</p>'
        + (f'<p class="given">{esc(small)}</p>' if small else "")
        + (f'<p class="seed">{esc(seed)}</p>' if seed else "")
        + "</div>"
    )


def card(sheet: GameSheet) -> str:
    """The card of a board: its match's players, as they sit for ``sheet``'s game."""
    if sheet.white is not None and sheet.black is not None:
        sides = _side(sheet.white, tr("White")) + _side(sheet.black, tr("Black"))
        colours = ""
    else:
        sides = "".join(_side(p, None) for p in sheet.players)
        colours = f'<p class="next">{esc(sheet.colours or "")}</p>'
    control = f" · {sheet.control}" if sheet.control is not None else ""
    return (
        '<section class="card">'
        f'<p class="board">{esc(tr("Board {board}", board=sheet.board))}</p>'
        f'<p class="round">{esc(sheet.stage)}</p>'
        f"{sides}{colours}"
        f'<p class="next">{esc(sheet.title)}{esc(control)}</p>'
        "</section>"
    )


def cards_body(sheets: list[GameSheet]) -> str:
    return "".join(card(sheet) for sheet in sheets)
