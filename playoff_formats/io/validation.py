"""Checks an individual event must pass beyond the types its model enforces.

The model says what a player, a game and a bye look like; these checks say that
they fit together: ids are unique, games and byes name known players, nobody
plays himself or appears twice in a round, and end times carry a time zone.
Each problem comes with a JSON path (``games[7].black``) so that any reader of
events (JSON files, API requests) can report it the same way.

:func:`check_regulation_kind` holds for events of every kind: the regulation an
event names must rank events of its kind (individual or team, chess or bridge).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from playoff_formats.errors import InputError
from playoff_formats.regulations import kind_refusal, regulation_ranks

if TYPE_CHECKING:
    from playoff_formats.model import Event, IndividualEvent
    from playoff_formats.tiebreaks.index import IndividualResults

__all__ = ["EventProblem", "check_regulation_kind", "find_event_problem"]

TIME_ZONE_EXAMPLE = "2015-12-13T18:40:00Z"


@dataclass(frozen=True)
class EventProblem:
    """Where an event goes wrong (a JSON path) and why, in an arbiter's words."""

    path: str
    reason: str


def find_event_problem(event: IndividualEvent) -> EventProblem | None:
    """The first problem of ``event`` in document order, or ``None`` when it is sound.

    Players come first, then games, then byes, each in the order given.
    """
    first_use: dict[str, int] = {}
    for index, player in enumerate(event.players):
        if player.id in first_use:
            return EventProblem(
                f"players[{index}].id",
                f"player id '{player.id}' is used twice (also players[{first_use[player.id]}].id)",
            )
        first_use[player.id] = index

    busy: dict[tuple[int, str], str] = {}  # (round, player) -> path of the game or bye
    for index, game in enumerate(event.games):
        path = f"games[{index}]"
        for side in ("white", "black"):
            player_id = game.white if side == "white" else game.black
            if player_id not in first_use:
                return EventProblem(f"{path}.{side}", f"no player has the id '{player_id}'")
        if game.white == game.black:
            return EventProblem(
                f"{path}.black", f"player '{game.white}' cannot play against himself"
            )
        if game.ended_at is not None and game.ended_at.utcoffset() is None:
            return EventProblem(
                f"{path}.ended_at",
                f"the end time has no time zone; give a time zone, e.g. {TIME_ZONE_EXAMPLE}",
            )
        for side in ("white", "black"):
            player_id = game.white if side == "white" else game.black
            key = (game.round, player_id)
            if key in busy:
                return EventProblem(
                    f"{path}.{side}",
                    f"player '{player_id}' already has a game or bye in round {game.round} "
                    f"({busy[key]})",
                )
            busy[key] = path

    for index, bye in enumerate(event.byes):
        path = f"byes[{index}]"
        if bye.player not in first_use:
            return EventProblem(f"{path}.player", f"no player has the id '{bye.player}'")
        key = (bye.round, bye.player)
        if key in busy:
            return EventProblem(
                f"{path}.player",
                f"player '{bye.player}' already has a game or bye in round {bye.round} "
                f"({busy[key]})",
            )
        busy[key] = path
    return None


def check_regulation_kind(
    event: Event | IndividualResults, source: str | None = None, *, named: bool = True
) -> None:
    """Refuse, at path ``regulation``, an event whose regulation ranks another kind of event.

    ``named``: the document names its regulation; otherwise the model's default
    for its kind applies (county1980 for team events, chess), and the refusal
    says so, since a bridge file without one would otherwise blame a regulation
    it never mentions. A name no regulation has is let through: the arbiter may
    rank the event under a regulation file of that name (``--regulation FILE``),
    and the name is refused when it is applied without one.
    """
    ranks = regulation_ranks(event.regulation)
    if ranks is None:
        return
    problem = kind_refusal(event.regulation, ranks, event)
    if problem is None:
        return
    if not named:
        problem = f"no regulation is named and the default, {problem}"
    raise InputError(problem, source=source, path="regulation")
