"""The arbiter's changes to a play-off's schedule: starts moved, time controls
changed, deadlines, and the transitions the scheduler fires."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import tzinfo
from typing import ClassVar, Literal

from pydantic import Field

from orchestrator.core.events.base import (
    _UTC,
    GameEvent,
    Instant,
    PlayoffEventBase,
    Stamp,
    _clock_time,
)
from orchestrator.core.state import PlayoffState
from playoff_formats.errors import PlayoffError
from playoff_formats.schedule import PinnedStart, TimeControlChange
from playoff_formats.timecontrol import TimeControl


class StartMoved(GameEvent):
    """The chief arbiter moved a game's start."""

    type: Literal["start-moved"] = "start-moved"
    schedule_override: ClassVar[bool] = True
    arbiter_change: ClassVar[bool] = True
    at: Instant
    reason: str
    public_reason: bool = Field(
        default=False, description="The chief arbiter chose to show the reason in the hall"
    )

    def apply(self, state: PlayoffState, stamp: Stamp) -> PlayoffState:
        key = self.key
        match = state.chess.match(key[0])
        if match.bye or match.rules.place(key[1]) is None:
            raise PlayoffError(f"match {key[0]} has no game {key[1]}")
        if match.decision is not None:
            raise PlayoffError(f"match {key[0]} is decided: it has no game left to move")
        if key in state.started_at:
            raise PlayoffError(f"match {key[0]}, game {key[1]} has already started")
        pin = PinnedStart(
            match=key[0], game=key[1], start=self.at, reason=self.reason,
            postponed=isinstance(self, Postponed), public_reason=self.public_reason,
        )
        return self._next(state, stamp, overrides=state.overrides.with_pin(pin))

    def describe(self, names: Mapping[str, str], zone: tzinfo = _UTC) -> str:
        return (
            f"start of match {self.match}, game {self.game} moved to "
            f"{_clock_time(self.at, zone)}"
        )


class Postponed(StartMoved):
    """The chief arbiter postponed a game by ``minutes``: its start is now ``at``."""

    type: Literal["postponed"] = "postponed"  # type: ignore[assignment]
    minutes: int = Field(gt=0)

    def describe(self, names: Mapping[str, str], zone: tzinfo = _UTC) -> str:
        return (
            f"match {self.match}, game {self.game} postponed {self.minutes} min "
            f"(to {_clock_time(self.at, zone)})"
        )


class TimeControlShortened(PlayoffEventBase):
    """The chief arbiter shortened the time limits (as the format allows): of one match,
    or of every match not yet begun (``match`` None)."""

    type: Literal["time-control-shortened"] = "time-control-shortened"
    schedule_override: ClassVar[bool] = True
    arbiter_change: ClassVar[bool] = True
    match: int | None = Field(default=None, ge=1)
    time_control: str
    reason: str

    def apply(self, state: PlayoffState, stamp: Stamp) -> PlayoffState:
        new = TimeControl.parse(self.time_control)
        playoff = state.chess
        if self.match is not None:
            targets = [self.match]
        else:
            targets = [m.id for m in playoff.matches if not m.bye and not state.begun(m.id)]
        for match_id in targets:
            match = playoff.match(match_id)
            if state.begun(match_id):
                raise PlayoffError(f"match {match_id} has begun: its time control cannot change")
            old = state.time_control(match, 1)
            if old is not None and new.estimated_duration_ms() > old.estimated_duration_ms():
                rule = state.format.shortening_rule
                raise PlayoffError(
                    f"{new} is not shorter than {old}: the chief arbiter may only shorten the "
                    "time limits" + (f" ({rule})" if rule else "")
                )
        if not targets:
            raise PlayoffError("every match has begun: no time control is left to shorten")
        change = TimeControlChange(
            time_control=new, matches=tuple(targets), made_at=stamp.recorded_at,
            reason=self.reason,
        )
        return self._next(state, stamp, overrides=state.overrides.with_time_control(change))

    def describe(self, names: Mapping[str, str], zone: tzinfo = _UTC) -> str:
        which = f"match {self.match}" if self.match is not None else "every match not begun"
        return f"time control shortened to {self.time_control} ({which})"


class TimeControlRestored(PlayoffEventBase):
    """The chief arbiter undid a shortening: the regulation's time control again, for
    one match or for every match not begun whose control was shortened."""

    type: Literal["time-control-restored"] = "time-control-restored"
    schedule_override: ClassVar[bool] = True
    arbiter_change: ClassVar[bool] = True
    match: int | None = Field(default=None, ge=1)
    reason: str

    def apply(self, state: PlayoffState, stamp: Stamp) -> PlayoffState:
        playoff = state.chess
        matches = [playoff.match(self.match)] if self.match is not None else [
            m for m in playoff.matches if not m.bye and not state.begun(m.id)
        ]
        overrides = state.overrides
        restored = []
        for match in matches:
            if state.begun(match.id):
                raise PlayoffError(f"match {match.id} has begun: its time control cannot change")
            now = state.time_control(match, 1)
            if match.time_control is None or now == match.time_control:
                continue
            overrides = overrides.with_time_control(TimeControlChange(
                time_control=match.time_control, matches=(match.id,),
                made_at=stamp.recorded_at, reason=self.reason,
            ))
            restored.append(match.id)
        if not restored:
            raise PlayoffError("no time control not yet begun was shortened: nothing to restore")
        return self._next(state, stamp, overrides=overrides)

    def describe(self, names: Mapping[str, str], zone: tzinfo = _UTC) -> str:
        which = f"match {self.match}" if self.match is not None else "every match not begun"
        return f"the regulation's time control restored ({which})"


class DeadlineSet(PlayoffEventBase):
    """The organiser's deadline, set or cleared (None)."""

    type: Literal["deadline-set"] = "deadline-set"
    schedule_override: ClassVar[bool] = True
    arbiter_change: ClassVar[bool] = True
    deadline: Instant | None
    reason: str

    def apply(self, state: PlayoffState, stamp: Stamp) -> PlayoffState:
        return self._next(state, stamp, deadline=self.deadline)

    def describe(self, names: Mapping[str, str], zone: tzinfo = _UTC) -> str:
        if self.deadline is None:
            return "deadline cleared"
        return f"deadline set to {_clock_time(self.deadline, zone)}"


class TransitionFired(PlayoffEventBase):
    """A timed transition of the schedule fired (players called, game due, break over)."""

    type: Literal["transition-fired"] = "transition-fired"
    job: str
    kind: Literal["players-called", "game-due", "break-over"]
    at: Instant
    match: int | None = None
    game: int | None = None

    def apply(self, state: PlayoffState, stamp: Stamp) -> PlayoffState:
        if self.job in state.fired:
            raise PlayoffError(f"{self.job} has already fired")
        return self._next(state, stamp, fired=state.fired | {self.job})


