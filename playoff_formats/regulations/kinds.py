"""Which kind of event a regulation ranks: individual or team, chess or bridge.

A regulation applied to an event of the other kind has nothing to say about it
(county1980 counts board results of team matches; an individual event has
none), so every door that accepts an event, or a regulation for one, compares
the two first and refuses a mismatch in words instead of failing inside the
rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from playoff_formats.model import Event
    from playoff_formats.tiebreaks.index import IndividualResults

__all__ = [
    "INDIVIDUAL_CHESS",
    "TEAM_BRIDGE",
    "TEAM_CHESS",
    "EventKind",
    "kind_mismatch",
    "kind_of",
]

Structure = Literal["individual", "team"]
Game = Literal["chess", "bridge"]


@dataclass(frozen=True)
class EventKind:
    """``structure``: individual or team; ``game``: chess or bridge, ``None`` when unknown."""

    structure: Structure
    game: Game | None = None


INDIVIDUAL_CHESS = EventKind("individual", "chess")
TEAM_CHESS = EventKind("team", "chess")
TEAM_BRIDGE = EventKind("team", "bridge")


def kind_of(event: Event | IndividualResults) -> EventKind:
    """The kind of ``event``; a team event without matches has no known game yet.

    Told by the ``kind`` every event carries, so that the plain event a TRF is
    read into is told apart without loading the models.
    """
    if event.kind == "individual":
        return INDIVIDUAL_CHESS
    if not event.matches:
        return EventKind("team")
    return TEAM_BRIDGE if event.is_bridge else TEAM_CHESS


def kind_mismatch(name: str, ranks: EventKind, event: Event | IndividualResults) -> str | None:
    """Why regulation ``name``, which ranks ``ranks`` events, cannot rank ``event``; else None.

    Individual events are all chess here, so the game is named only between
    team events, where it is what differs.
    """
    actual = kind_of(event)
    if actual.structure != ranks.structure:
        article = "an" if actual.structure == "individual" else "a"
        return (
            f"{name} ranks {ranks.structure} events; "
            f"this file is {article} {actual.structure} event"
        )
    if ranks.game is not None and actual.game is not None and actual.game != ranks.game:
        return (
            f"{name} ranks {ranks.game} {ranks.structure} events; "
            f"this file is a {actual.game} {actual.structure} event"
        )
    return None
