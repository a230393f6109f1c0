"""The typed events of the log, and the fold that turns them into state.

Every logged event is a frozen model of the discriminated unions
:data:`EventStreamEvent` (a main event's stream) and :data:`PlayoffEvent` (a
play-off's stream). An event applies itself to the state it follows
(``event.apply(state, stamp)``), as a move applies itself to a board; the fold
(:func:`apply_playoff`, :func:`fold_playoff`) is only that, event after event.
An event that is not an allowed transition from the state raises
:class:`~playoff_formats.errors.PlayoffError`, and the command layer applies the
same events before logging them, so the log only ever holds events that fold.

What each kind of event means for the rest of the service is said once, here, as
class attributes: :attr:`PlayoffEventBase.clock_only` (changes a clock and
nothing the schedule depends on), :attr:`PlayoffEventBase.schedule_override`
(an arbiter's change to the schedule, refused when the plan cannot follow) and
:attr:`PlayoffEventBase.arbiter_change` (listed among the changes by arbiters).

The log holds the facts only. Derived data (the clock as it stands after an
event, the Armageddon's terms) goes on the wire, computed from the state
(:mod:`orchestrator.views`). Logs written before events were typed carried such
data inside the event; :func:`parse_playoff_event` drops it on reading.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Annotated, Any, get_args

from pydantic import Field, TypeAdapter

from orchestrator.core.events.base import (
    ClockEvent,
    GameEvent,
    PlayoffEventBase,
    Stamp,
    _check_exists,
    _check_new,
    _fold,
)
from orchestrator.core.events.board import (
    ArbiterCalled,
    BoardOutage,
    BoardSidesSet,
    PenaltyGiven,
)
from orchestrator.core.events.boards import (
    BoardScoreCorrected,
    BoardScored,
    StanzaAdvanced,
)
from orchestrator.core.events.games import (
    BOARD_CLOCK_ALLOWANCE_MS,
    ArmageddonColoursChosen,
    BoardClock,
    ClockAdjusted,
    ClockPaused,
    ClockPressed,
    ClockResumed,
    CoinTossed,
    ExtraBoardsCreated,
    FlagFell,
    GameStarted,
    LotsDrawn,
    PlayoffCreated,
    ResultCorrected,
    ResultRecorded,
    VoidedGame,
)
from orchestrator.core.events.moves import (
    EboardMapped,
    MoveMade,
    MoveTakenBack,
    PositionUnread,
)
from orchestrator.core.events.schedule import (
    DeadlineSet,
    Postponed,
    StartMoved,
    TimeControlRestored,
    TimeControlShortened,
    TransitionFired,
)
from orchestrator.core.events.stream import (
    EventCreated,
    EventStreamEvent,
    GameResultRecorded,
    HallForesightSet,
    PendingGameData,
    PlayoffLinked,
    TokenData,
    TokenIssued,
    apply_event,
    fold_event,
    parse_event_stream_event,
)
from orchestrator.core.state import PlayoffState

__all__ = [
    "ARBITER_CHANGE_EVENTS",
    "BOARD_CLOCK_ALLOWANCE_MS",
    "ArbiterCalled",
    "ArmageddonColoursChosen",
    "BoardClock",
    "BoardOutage",
    "BoardScoreCorrected",
    "BoardScored",
    "BoardSidesSet",
    "ClockAdjusted",
    "ClockEvent",
    "ClockPaused",
    "ClockPressed",
    "ClockResumed",
    "CoinTossed",
    "DeadlineSet",
    "EboardMapped",
    "EventCreated",
    "EventStreamEvent",
    "ExtraBoardsCreated",
    "FlagFell",
    "GameEvent",
    "GameResultRecorded",
    "GameStarted",
    "HallForesightSet",
    "LotsDrawn",
    "MoveMade",
    "MoveTakenBack",
    "PenaltyGiven",
    "PendingGameData",
    "PlayoffCreated",
    "PlayoffEvent",
    "PlayoffEventBase",
    "PlayoffLinked",
    "PositionUnread",
    "Postponed",
    "ResultCorrected",
    "ResultRecorded",
    "Stamp",
    "StanzaAdvanced",
    "StartMoved",
    "TimeControlRestored",
    "TimeControlShortened",
    "TokenData",
    "TokenIssued",
    "TransitionFired",
    "VoidedGame",
    "apply_event",
    "apply_playoff",
    "fold_event",
    "fold_playoff",
    "parse_event_stream_event",
    "parse_playoff_event",
]


PlayoffEvent = Annotated[
    PlayoffCreated
    | ExtraBoardsCreated
    | LotsDrawn
    | CoinTossed
    | ArmageddonColoursChosen
    | GameStarted
    | ClockPressed
    | ClockPaused
    | ClockResumed
    | ClockAdjusted
    | FlagFell
    | ResultRecorded
    | ResultCorrected
    | StartMoved
    | Postponed
    | TimeControlShortened
    | TimeControlRestored
    | DeadlineSet
    | TransitionFired
    | BoardScored
    | StanzaAdvanced
    | BoardScoreCorrected
    | ArbiterCalled
    | BoardSidesSet
    | BoardOutage
    | PenaltyGiven
    | MoveMade
    | MoveTakenBack
    | PositionUnread
    | EboardMapped,
    Field(discriminator="type"),
]
_PLAYOFF: TypeAdapter[PlayoffEvent] = TypeAdapter(PlayoffEvent)

_DERIVED_BEFORE_TYPING = frozenset({"clock", "armageddon", "at_ms"})
"""Keys that logs written before events were typed carried beside the facts: the
clock after the event and the Armageddon's terms (derived), and the server instant
on events that do not act on a clock."""


def parse_playoff_event(type_: str, data: Mapping[str, Any]) -> PlayoffEvent:
    """The typed event of a logged (type, data); derived data of older logs dropped."""
    if _DERIVED_BEFORE_TYPING.intersection(data):
        fields = _FIELDS.get(type_, frozenset())
        data = {k: v for k, v in data.items() if k in fields or k not in _DERIVED_BEFORE_TYPING}
    return _PLAYOFF.validate_python({**data, "type": type_})


_FIELDS: dict[str, frozenset[str]] = {
    cls.model_fields["type"].default: frozenset(cls.model_fields)
    for cls in get_args(get_args(PlayoffEvent)[0])
}
"""The fields of each play-off event type (every type of :data:`PlayoffEvent`)."""

ARBITER_CHANGE_EVENTS: tuple[type[PlayoffEventBase], ...] = tuple(
    cls for cls in get_args(get_args(PlayoffEvent)[0]) if cls.arbiter_change
)
"""The events an arbiter makes by hand with a reason: those whose class says so
(:attr:`~PlayoffEventBase.arbiter_change`)."""


def apply_playoff(
    state: PlayoffState | None, event: PlayoffEvent, stamp: Stamp
) -> PlayoffState:
    """The state after ``event``; :class:`PlayoffError` if it is not allowed."""
    if isinstance(event, PlayoffCreated | ExtraBoardsCreated):
        _check_new(state, "the play-off")
        return event.create(stamp)
    return event.apply(_check_exists(state, event.type, "the play-off"), stamp)


def fold_playoff(events: Iterable[tuple[PlayoffEvent, Stamp]]) -> PlayoffState:
    return _fold(events, apply_playoff, "no such play-off")


