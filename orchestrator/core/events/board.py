"""A play-off's events from its board clocks: the call for the arbiter, the sides of a
board, an outage longer than allowed, and the arbiter's penalties under the Laws."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import tzinfo
from typing import ClassVar, Literal

from pydantic import Field

from orchestrator.core.events.base import _UTC, ClockEvent, GameEvent, PlayoffEventBase, Stamp
from orchestrator.core.state import PlayoffState
from playoff_formats.clock import Clock, ClockStatus
from playoff_formats.errors import PlayoffError
from playoff_formats.model import Colour
from playoff_formats.words import seconds


class ArbiterCalled(ClockEvent):
    """A board called the arbiter (FIDE Laws, Article 6.12.2): the running clock is
    paused at ``at_ms`` until an arbiter resumes it."""

    type: Literal["arbiter-called"] = "arbiter-called"
    clock_only: ClassVar[bool] = True
    shown_beyond_its_clock: ClassVar[bool] = True

    def step(self, clock: Clock) -> Clock:
        if clock.status is ClockStatus.RUNNING:
            return clock.pause(self.at_ms)
        return clock

    def apply(self, state: PlayoffState, stamp: Stamp) -> PlayoffState:
        clock = state.clocks.get(self.key)
        if clock is None or clock.status not in (ClockStatus.RUNNING, ClockStatus.PAUSED):
            raise PlayoffError(
                f"match {self.match}, game {self.game} is not being played: no clock to stop"
            )
        if self.key in state.called:
            raise PlayoffError(
                f"the arbiter was already called to match {self.match}: the clocks are "
                "stopped until an arbiter resumes them"
            )
        return self._next(
            state, stamp, clocks={**state.clocks, self.key: self.step(clock)},
            called={**state.called, self.key: self.at_ms},
        )


class BoardSidesSet(PlayoffEventBase):
    """The arbiter set which colour sits on the left half of a match's board clock."""

    type: Literal["board-sides-set"] = "board-sides-set"
    match: int = Field(ge=1)
    left: Colour

    def apply(self, state: PlayoffState, stamp: Stamp) -> PlayoffState:
        state.chess.match(self.match)  # a match of the play-off
        if state.board_left.get(self.match, Colour.WHITE) is self.left:
            raise PlayoffError(
                f"{self.left.value} already sits on the left of match {self.match}'s board"
            )
        return self._next(state, stamp, board_left={**state.board_left, self.match: self.left})


class BoardOutage(GameEvent):
    """A board came back from an outage longer than allowed, holding ``presses`` presses
    since ``since_ms``: refused, the arbiter decides (sets the clocks)."""

    type: Literal["board-outage"] = "board-outage"
    since_ms: int
    presses: int = Field(ge=1)
    at_ms: int

    def apply(self, state: PlayoffState, stamp: Stamp) -> PlayoffState:
        return self._next(
            state, stamp, outages={**state.outages, self.key: (self.since_ms, self.presses)}
        )


class PenaltyGiven(ClockEvent):
    """The arbiter's penalty under the Laws: the opponent of ``offender`` gains
    ``delta_ms`` (for an illegal move, the time the Laws give, ``article``)."""

    type: Literal["penalty-given"] = "penalty-given"
    clock_only: ClassVar[bool] = True
    arbiter_change: ClassVar[bool] = True
    offender: Colour
    kind: Literal["illegal-move"]
    delta_ms: int = Field(gt=0)
    article: str
    reason: str

    @property
    def opponent(self) -> Colour:
        return Colour.BLACK if self.offender is Colour.WHITE else Colour.WHITE

    def step(self, clock: Clock) -> Clock:
        return clock.adjust(self.opponent, self.delta_ms, self.at_ms)

    def describe(self, names: Mapping[str, str], zone: tzinfo = _UTC) -> str:
        return (
            f"gave {seconds(self.delta_ms)} to {self.opponent.value} for "
            f"{self.offender.value}'s illegal move ({self.article}), match {self.match}, "
            f"game {self.game}"
        )
