"""What the planner cannot plan, and what it warns of, as data.

The planner never writes a sentence: it returns one of these, with the players
it speaks of as :class:`~playoff_formats.phrase.Player` and its instants as
instants, and :mod:`playoff_formats.schedule.words` puts it in words (the
players by their names, the times of day at the hall's offset).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from playoff_formats.phrase import Player

__all__ = ["Notice", "NoticeKind", "Problem", "ProblemKind", "RestKind"]


class ProblemKind(StrEnum):
    """Why inputs cannot be planned."""

    NOTHING_TO_PLACE = "nothing-to-place"
    NO_STANZA = "no-stanza"
    NO_SET = "no-set"
    NAIVE_NOW = "naive-now"
    MAIN_EVENT_END_UNKNOWN = "main-event-end-unknown"
    ACTUAL_FOR_UNKNOWN_GAME = "actual-for-unknown-game"
    PIN_FOR_UNKNOWN_GAME = "pin-for-unknown-game"
    POSTPONEMENT_FOR_UNKNOWN_MATCH = "postponement-for-unknown-match"
    POSTPONEMENT_FOR_UNKNOWN_GAME = "postponement-for-unknown-game"
    CHANGE_FOR_UNKNOWN_MATCH = "change-for-unknown-match"
    BRIDGE_TIME_CONTROL = "bridge-time-control"
    UNIT_TWICE = "unit-twice"
    UNIT_BEFORE_ITS_DEPENDENCY = "unit-before-its-dependency"
    STANZA_TWICE = "stanza-twice"
    STANZA_TEAMS = "stanza-teams"
    STANZA_ROUND = "stanza-round"
    BEYOND_THE_CALENDAR = "beyond-the-calendar"


@dataclass(frozen=True, slots=True)
class Problem:
    """Why the planner refuses its inputs: the kind, and what it is about.

    ``unit`` names a game (or a stanza, with ``stanza``) by match and number;
    ``after`` the game it depends on; ``players`` the players (or teams) concerned.
    """

    kind: ProblemKind
    match: int | None = None
    game: int | None = None
    stanza: bool = False
    after: tuple[int, int] | None = None
    players: tuple[Player, ...] = ()


class NoticeKind(StrEnum):
    """What a plan warns of."""

    MAIN_EVENT_END_UNKNOWN = "main-event-end-unknown"
    PIN_TOO_EARLY = "pin-too-early"
    RESULT_WITHOUT_TIMES = "result-without-times"


@dataclass(frozen=True, slots=True)
class Notice:
    """A warning of the plan: the kind, the unit, the players, the instants.

    ``asked`` is the start the arbiter pinned and ``at`` where the plan puts it
    (for an unknown main-event end, ``at`` is the organiser's earliest start);
    ``because`` is the bound that moved it, already in words.
    """

    kind: NoticeKind
    match: int | None = None
    game: int | None = None
    stanza: bool = False
    players: tuple[Player, ...] = ()
    asked: datetime | None = None
    at: datetime | None = None
    because: str = ""


class RestKind(StrEnum):
    MAIN_EVENT = "main-event-break"
    MINIMUM_INTERVAL = "minimum-interval"
    PREFERRED_INTERVAL = "preferred-interval"
    CHIEF_ARBITER_TIME = "chief-arbiter-time"
    """Not a rest: a start the chief arbiter moved or postponed to a later time."""
