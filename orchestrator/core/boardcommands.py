"""The board clock's commands: the call for the arbiter, the sides of a board, the
Laws' penalty for an illegal move, an outage past the allowance; and the frames a
board or a console sends that log nothing (a board's battery, a new board key).

Part of :mod:`orchestrator.core.commands` (its :data:`Command` union holds them):
import them from there, which loads this module once its bases exist.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool

from orchestrator.core.auth import Action, Role
from orchestrator.core.commands import (
    CommandBase,
    Context,
    NotPermitted,
    Reason,
    _GameCommand,
)
from orchestrator.core.events import (
    ArbiterCalled,
    BoardOutage,
    BoardSidesSet,
    PenaltyGiven,
    PlayoffEvent,
)
from orchestrator.core.refusals import KnownRefusal, RefusalKind
from orchestrator.core.state import PlayoffState
from playoff_formats.clock import ClockStatus
from playoff_formats.errors import PlayoffError
from playoff_formats.model import Colour
from playoff_formats.phrase import Said
from playoff_formats.stamps import (
    ALLOWANCES,
    OutageTooLong,
    illegal_move_penalty,
    stamped_instant,
)

__all__ = [
    "BoardStatus",
    "CallArbiter",
    "GivePenalty",
    "IssueBoardKey",
    "OutageRefused",
    "ReportOutage",
    "SetBoardSides",
    "check_board",
]


class CallArbiter(CommandBase):
    """A board calls the arbiter (FIDE Laws, Article 6.12.2): the clock of the match's
    game under way stops (at the board's stamp, when it is consistent) until an
    arbiter resumes it; every console of the play-off is alerted."""

    type: Literal["call-arbiter"] = "call-arbiter"
    action: ClassVar[Action] = Action.PRESS
    match: int = Field(ge=1, le=1000)
    stamp_ms: int | None = Field(default=None, ge=0)

    def decide(self, state: PlayoffState, ctx: Context) -> list[PlayoffEvent]:
        under_way = [
            (key, clock) for key, clock in sorted(state.clocks.items())
            if key[0] == self.match
            and clock.status in (ClockStatus.RUNNING, ClockStatus.PAUSED)
        ]
        if not under_way:
            raise PlayoffError(Said.tr(
                "match {match} has no game under way: there is no clock to stop",
                match=self.match,
            ))
        key, clock = under_way[-1]
        at_ms = ctx.server_ms
        if self.stamp_ms is not None and clock.running is not None:
            assert clock.since_ms is not None
            at_ms = stamped_instant(
                self.stamp_ms, turn_started_ms=clock.since_ms, since_ms=clock.since_ms,
                now_ms=ctx.server_ms, allowance_ms=ALLOWANCES.lag_ms,
            ).at_ms
        return [ArbiterCalled(match=self.match, game=key[1], at_ms=at_ms)]


class ReportOutage(_GameCommand):
    """The service's own: a board came back from an outage past the allowance (its
    press refused): the consoles are alerted, and the arbiter sets the clock."""

    type: Literal["board-outage"] = "board-outage"
    action: ClassVar[Action] = Action.PRESS
    since_ms: int
    presses: int = Field(ge=1)
    at_ms: int

    def decide(self, state: PlayoffState, ctx: Context) -> list[PlayoffEvent]:
        return [BoardOutage(
            match=self.match, game=self.game, since_ms=self.since_ms, presses=self.presses,
            at_ms=self.at_ms,
        )]


class OutageRefused(KnownRefusal):
    """A queued press past the outage allowance: refused, and ``alert`` (the first
    time for this outage) is logged for the consoles."""

    kind: ClassVar[RefusalKind] = "outage-too-long"

    def __init__(self, exc: OutageTooLong, alert: BoardOutage | None) -> None:
        self.alert = alert
        super().__init__(exc.reason)

    def alert_command(self) -> ReportOutage | None:
        if self.alert is None:
            return None
        return ReportOutage(
            match=self.alert.match, game=self.alert.game, since_ms=self.alert.since_ms,
            presses=self.alert.presses, at_ms=self.alert.at_ms,
        )


class BoardStatus(BaseModel):
    """A board clock's ``board-status``: its battery where its browser tells it.
    Presence, not a change of the play-off: kept in memory, never logged."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    type: Literal["board-status"]
    match: int = Field(ge=1, le=1000)
    battery: float | None = Field(default=None, ge=0, le=1)
    charging: StrictBool | None = None

    def check(self, role: Role, board_match: int | None) -> None:
        """Only a board says its own status."""
        if role is not Role.BOARD:
            raise NotPermitted(Said.tr("only a board clock says its battery"))
        if self.match != board_match:
            raise NotPermitted(Said.tr(
                "a board key speaks only for match {match}", match=board_match
            ))


class IssueBoardKey(BaseModel):
    """The console mints a board key for ``match`` (answered, over the websocket, as
    ``POST /api/events/{id}/tokens`` answers)."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    type: Literal["issue-board-key"]
    match: int = Field(ge=1, le=1000)


class SetBoardSides(CommandBase):
    """Which colour sits on the left half of a match's board clock (White unless set)."""

    type: Literal["board-sides"] = "board-sides"
    match: int = Field(ge=1, le=1000)
    left: Colour

    def decide(self, state: PlayoffState, ctx: Context) -> list[PlayoffEvent]:
        return [BoardSidesSet(match=self.match, left=self.left)]


class GivePenalty(_GameCommand):
    """The arbiter's penalty for a player's first completed illegal move: the opponent
    gains the time the FIDE Laws give (Article 7.5.5; one minute in blitz, Appendix
    B.2), logged as an arbiter's change with its reason. A second illegal move by the
    same player loses the game: that is the arbiter's result to record."""

    type: Literal["penalty"] = "penalty"
    offender: Colour
    kind: Literal["illegal-move"] = "illegal-move"
    reason: Reason

    def decide(self, state: PlayoffState, ctx: Context) -> list[PlayoffEvent]:
        clock = state.clocks.get((self.match, self.game))
        if clock is None:
            raise PlayoffError(Said.tr(
                "match {match}, game {game} has no clock: start it first",
                match=self.match, game=self.game,
            ))
        delta_ms, article = illegal_move_penalty(clock.control)
        return [PenaltyGiven(
            match=self.match, game=self.game, offender=self.offender, kind=self.kind,
            delta_ms=delta_ms, article=article, reason=self.reason, at_ms=ctx.server_ms,
        )]


def check_board(match: int | None, board_match: int | None) -> None:
    """A board key acts on its own match only, and only from its clock page."""
    if board_match is None:
        raise NotPermitted(Said.tr(
            "a board key presses its clock only from its board clock page: over REST it only "
            "reads"
        ))
    if match != board_match:
        raise NotPermitted(Said.tr(
            "a board key presses only the clock of match {match}", match=board_match
        ))
