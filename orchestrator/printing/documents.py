"""Each printout as a whole HTML document, ready for :func:`~.render.render_pdf`:
what is printed (``slips``, ``cards``, ``standings``, ``bracket``, ``placings``), of
which play-off or event, on which paper.

A printout that cannot be made now is refused with the reason
(:class:`~playoff_formats.errors.PlayoffError`): the placings before the play-off has
its champion, a game or board it does not have, slips or cards while no game to play
has its players known.

Each is worded in the language in force when it is built (``speaking``): the door
that prints it (the API, ``playoff print``) says which.
"""

from __future__ import annotations

from orchestrator.printing.bracket import BRACKET_STYLE, bracket_body, schedule_body
from orchestrator.printing.cards import CARD_STYLE, cards_body
from orchestrator.printing.games import GameSheet, Words, game_keys, game_sheet, one_game
from orchestrator.printing.layout import Paper, document, printed_at
from orchestrator.printing.placings import placings_body
from orchestrator.printing.slips import SLIP_STYLE, slips_body
from orchestrator.printing.sources import Sources, view_context
from orchestrator.printing.standings import (
    STANDINGS_STYLE,
    WIDE,
    criteria_count,
    standings_body,
)
from orchestrator.views.printable import PRINTOUTS, print_refusal
from playoff_formats.errors import PlayoffError
from playoff_formats.formats.said import said_name
from playoff_formats.regulations import Regulation, get_regulation
from playoff_formats.speech import tr
from playoff_formats.standings import Standings

__all__ = ["printout_html", "standings_document"]


def printout_html(
    what: str, sources: Sources, paper: Paper, match: int | None = None,
    game: int | None = None,
) -> str:
    """The printout ``what`` of ``sources`` (its play-off, else its event's standings)
    as HTML; ``match`` and ``game``: one game's slip, one match's card."""
    state = sources.playoff
    event = sources.event.event
    printed = printed_at(sources.now, sources.zone)
    title = _title(what, event.name)
    if what == "standings" or state is None:
        try:
            regulation = get_regulation(event.regulation)
        except PlayoffError:
            regulation = None
        return standings_document(event.name, sources.standings(), regulation, paper, printed)
    refusal = print_refusal(state, what)
    if refusal is not None:
        raise PlayoffError(refusal)
    words = Words(state, view_context(sources, state))
    heading = [tr("Play-off · {stages}",
                  stages=" · ".join(said_name(s.name) for s in state.chess.stages))]
    if what == "slips":
        keys = [one_game(words, match, game)] if match is not None and game is not None else [
            key for key in game_keys(words) if match is None or key[0] == match
        ]
        if not keys:
            raise PlayoffError(_nothing_to_play(words, match))
        sheets = [game_sheet(words, key) for key in keys]
        return document(title, heading, slips_body(event.name, sheets), paper, printed,
                        style=SLIP_STYLE)
    if what == "cards":
        sheets = _boards(words, match)
        return document(title, heading, cards_body(sheets), paper, printed, style=CARD_STYLE)
    if what == "bracket":
        body = bracket_body(words) + schedule_body(words)
        return document(title, heading, body, paper, printed, style=BRACKET_STYLE)
    return document(title, heading, placings_body(words), paper, printed)


def standings_document(
    name: str, result: Standings, regulation: Regulation | None, paper: Paper, printed: str,
) -> str:
    """The standings of the event ``name``: across the page when the regulation has
    more criteria than stand on it."""
    named = getattr(regulation, "title", None) or result.regulation
    return document(
        _title("standings", name), [tr("Main event · {regulation}", regulation=named)],
        standings_body(result, regulation), paper, printed, style=STANDINGS_STYLE,
        landscape=criteria_count(result, regulation) > WIDE,
    )


def _title(what: str, event: str) -> str:
    return tr("{printout}: {event}", printout=tr(PRINTOUTS[what]), event=event)


def _boards(words: Words, match: int | None) -> list[GameSheet]:
    """Each board's card, for its match's next game to play (its players known)."""
    chosen: dict[int, GameSheet] = {}
    for key in game_keys(words):
        if key[0] not in chosen and (match is None or key[0] == match):
            chosen[key[0]] = game_sheet(words, key)
    if not chosen:
        raise PlayoffError(_nothing_to_play(words, match))
    return list(chosen.values())


def _nothing_to_play(words: Words, match: int | None) -> str:
    if match is not None:
        words.state.chess.match(match)  # no such match: said as the play-off says it
        return tr(
            "match {match} has no game to play with its players known: its games are "
            "played, or its players are still to be decided", match=match,
        )
    return tr(
        "no game is left to play with its players known: the play-off's games are played, "
        "or their players are still to be decided"
    )
