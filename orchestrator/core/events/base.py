"""What every logged event shares: its stamp, its frozen model, and what a play-off's
event says about itself."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from datetime import UTC, datetime, tzinfo
from typing import Annotated, Any, ClassVar, NamedTuple, TypeVar

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, PlainSerializer

from orchestrator.core.state import ArbiterChange, PlayoffState
from playoff_formats.clock import Clock
from playoff_formats.errors import PlayoffError
from playoff_formats.model import Result
from playoff_formats.schedule.words import instant

Instant = Annotated[AwareDatetime, PlainSerializer(lambda t: t.isoformat(), when_used="json")]
"""A timezone-aware instant, logged as ISO 8601 with its offset (``+00:00``)."""


_UTC: tzinfo = UTC
"""Times of day in words where no zone is given."""


class Stamp(NamedTuple):
    """Where and when an event was logged: its seq in its stream, the server time,
    and who made it."""

    seq: int
    recorded_at: datetime
    actor: str | None = None


class _Event(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    type: str

    def log_data(self) -> dict[str, Any]:
        """The event's data as logged (everything but its type)."""
        return self.model_dump(mode="json", exclude={"type"})


_State = TypeVar("_State")
_Logged = TypeVar("_Logged")


def _check_new(state: object | None, what: str) -> None:
    if state is not None:
        raise PlayoffError(f"{what} already exists")


def _check_exists(state: _State | None, event_type: str, what: str) -> _State:
    if state is None:
        raise PlayoffError(f"{event_type} before {what} was created")
    return state


def _fold(
    events: Iterable[tuple[_Logged, Stamp]],
    apply: Callable[[_State | None, _Logged, Stamp], _State],
    missing: str,
) -> _State:
    state: _State | None = None
    for event, stamp in events:
        state = apply(state, event, stamp)
    if state is None:
        raise PlayoffError(missing)
    return state


class PlayoffEventBase(_Event):
    """An event of a play-off's stream."""

    clock_only: ClassVar[bool] = False
    """Changes a clock and nothing the schedule depends on."""

    schedule_override: ClassVar[bool] = False
    """An arbiter's change to the schedule: refused when the plan cannot follow it."""

    arbiter_change: ClassVar[bool] = False
    """A change made by hand, listed with its reason for everyone to see (each such
    event, or those :attr:`listed` says are)."""

    @property
    def listed(self) -> bool:
        """This event is listed among the changes by arbiters (:attr:`arbiter_change`,
        or, for an event that is one only sometimes, this one is)."""
        return self.arbiter_change

    @property
    def shown_beyond_its_clock(self) -> bool:
        """A screen shows more of this change than the clock its frame carries (a
        change listed for everyone, a call for the arbiter and its end): a view
        follows, so that no page has to work out from an event what it means."""
        return self.listed

    def apply(self, state: PlayoffState, stamp: Stamp) -> PlayoffState:
        raise NotImplementedError

    def describe(self, names: Mapping[str, str], zone: tzinfo = _UTC) -> str:
        """The event in words, the players by their names (every change an arbiter makes
        by hand says this)."""
        raise NotImplementedError

    def _next(self, state: PlayoffState, stamp: Stamp, **changes: Any) -> PlayoffState:
        """One copy of the state per event: only what the event changes."""
        if self.listed:
            from orchestrator.core.events import ARBITER_CHANGE_EVENTS

            assert isinstance(self, ARBITER_CHANGE_EVENTS)
            entry = ArbiterChange(stamp.seq, stamp.recorded_at, stamp.actor, self)
            changes["changes"] = (*state.changes, entry)
        return replace(state, seq=stamp.seq, updated_at=stamp.recorded_at, **changes)


class GameEvent(PlayoffEventBase):
    """An event about one game (for bridge extra boards: match 1, the stanza)."""

    match: int = Field(ge=1)
    game: int = Field(ge=1)

    @property
    def key(self) -> tuple[int, int]:
        return (self.match, self.game)


class ClockEvent(GameEvent):
    """An event that acts on a game's clock at a server instant (``at_ms``)."""

    at_ms: int = Field(description="Server time of the event, in ms (the clocks' time)")

    def step(self, clock: Clock) -> Clock:
        raise NotImplementedError

    def apply(self, state: PlayoffState, stamp: Stamp) -> PlayoffState:
        clock = state.clocks.get(self.key)
        if clock is None:
            raise PlayoffError(
                f"match {self.match}, game {self.game} has no running clock: start it first"
            )
        return self._next(state, stamp, clocks={**state.clocks, self.key: self.step(clock)})


def _ns(score: int) -> str:
    """A North-South score as the slip writes it: ``+620``, ``-50``, ``0``."""
    return f"{score:+d}" if score else "0"


def _result_text(result: Result) -> str:
    return "½-½" if result is Result.DRAW else result.value


def _clock_time(moment: datetime, zone: tzinfo) -> str:
    return instant(moment, zone)
