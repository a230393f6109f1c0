"""What the consoles' Print menus offer: the PDFs of a play-off and of an event,
their addresses, and why one cannot be printed yet (in the words the service
refuses it with).

A play-off prints its result slips (every game to play, or one game's), its board
cards, the event's standings, its bracket and schedule, and its placings and prizes;
an event before its play-off prints its standings. Each PDF is laid out for A4 or
US Letter (``?paper=``). The addresses are the API's, read with the console's own
token, sent as a header.

The menu is worded in the language in force when it is built (the console's); the
titles and refusals are marked here and said with ``tr`` where they are shown.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from orchestrator.core.reasons import not_final
from orchestrator.core.state import EventState, PlayoffState
from playoff_formats.playoff import champion
from playoff_formats.speech import marked, tr

__all__ = [
    "EXTRA_BOARDS_PRINT",
    "PAPERS",
    "PLACINGS_WAIT",
    "PRINTOUTS",
    "PrintEntry",
    "PrintMenu",
    "event_print_menu",
    "playoff_print_menu",
    "print_path",
    "print_refusal",
]

PRINTOUTS: dict[str, str] = {
    "slips": marked("Result slips"),
    "cards": marked("Board cards"),
    "standings": marked("Standings"),
    "bracket": marked("Bracket and schedule"),
    "placings": marked("Placings and prizes"),
}
"""What a play-off prints (the ``{what}`` of its address), by its title."""

PAPERS: dict[str, str] = {"a4": marked("A4"), "letter": marked("US Letter")}
"""The papers a printout is laid out for (``?paper=``), by their names."""

PLACINGS_WAIT = marked(
    "the placings and prizes are printed once the play-off has its champion: until then "
    "the play-off's players have no final place"
)
EXTRA_BOARDS_PRINT = marked(
    "bridge extra boards have no chess games, bracket or placings to print: print the "
    "event's standings"
)


class _Menu(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class PaperChoice(_Menu):
    value: str = Field(description="The ``paper`` query value")
    label: str


class PrintEntry(_Menu):
    """One PDF: its title, its address (without the paper), and why it cannot be
    printed now (None: it can)."""

    what: str
    label: str
    path: str
    refusal: str | None = None


class PrintMenu(_Menu):
    """A console's Print menu."""

    title: str = "Print"
    words: str
    papers: list[PaperChoice]
    entries: list[PrintEntry]
    games: list[PrintEntry] = Field(
        default=[], description="One game's result slip each, in the schedule's order"
    )


def print_path(playoff_id: str, what: str) -> str:
    return f"/api/playoffs/{playoff_id}/print/{what}.pdf"


def print_refusal(state: PlayoffState, what: str) -> str | None:
    """Why ``what`` of the play-off cannot be printed now; None when it can."""
    if what == "standings":
        return None
    if state.playoff is None:
        return tr(EXTRA_BOARDS_PRINT)
    if what == "placings" and champion(state.playoff) is None:
        return tr(PLACINGS_WAIT)
    return None


def _papers() -> list[PaperChoice]:
    return [PaperChoice(value=value, label=tr(label)) for value, label in PAPERS.items()]


def playoff_print_menu(state: PlayoffState, games: list[tuple[int, int, str]]) -> PrintMenu:
    """The play-off's Print menu; ``games``: (match, game, title) of each game of the
    schedule, for one game's slip each."""
    entries = [
        PrintEntry(what=what, label=tr(label), path=print_path(state.id, what),
                   refusal=print_refusal(state, what))
        for what, label in PRINTOUTS.items()
    ]
    slips = [] if state.playoff is None else [
        PrintEntry(
            what="slips", label=tr("Result slip: {game}", game=title),
            path=f"{print_path(state.id, 'slips')}?match={match}&game={game}",
        )
        for match, game, title in games
    ]
    return PrintMenu(
        title=tr("Print"),
        words=tr(
            "PDFs to print for the hall: result slips for the players to sign, cards for "
            "the tables, the standings, the bracket and schedule for the wall, and the "
            "placings the prizes are paid against."
        ),
        papers=_papers(), entries=entries, games=slips,
    )


def event_print_menu(state: EventState) -> PrintMenu:
    """The event's Print menu: its standings, once no game is pending."""
    return PrintMenu(
        title=tr("Print"),
        words=tr("The standings, with every tie split explained, to post on the wall."),
        papers=_papers(),
        entries=[PrintEntry(
            what="standings", label=tr(PRINTOUTS["standings"]),
            path=f"/api/events/{state.id}/print/standings.pdf",
            refusal=not_final(state) if state.pending else None,
        )],
    )
