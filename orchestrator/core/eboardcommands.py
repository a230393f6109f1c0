"""The commands of electronic boards (DGT, read through LiveChess by
``playoff-arbiter dgt``): a board's position, read into the game's moves; the flag
its own clock shows; which e-board plays which match; and its status, which logs
nothing.

Part of :mod:`orchestrator.core.commands` (its :data:`Command` union holds them):
import them from there, which loads this module once its bases exist.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from orchestrator.core.auth import Action, Role
from orchestrator.core.commands import CommandBase, Context, NotPermitted
from orchestrator.core.events import (
    FlagFell,
    MoveMade,
    MoveTakenBack,
    PlayoffEvent,
    PositionUnread,
    ResultRecorded,
)
from orchestrator.core.state import GameKey, PlayoffState
from playoff_formats.clock import Clock, ClockStatus
from playoff_formats.eboard import read_placement, valid_placement
from playoff_formats.errors import PlayoffError
from playoff_formats.model import Colour, Result
from playoff_formats.phrase import Said
from playoff_formats.speech import marked
from playoff_formats.stamps import ALLOWANCES, stamped_instant

__all__ = ["BoardFlag", "EboardStatus", "MapEboard", "ReadPosition", "in_play"]

Serial = str
"""An e-board's serial number, as LiveChess gives it."""

NOT_RUNNING = {
    Colour.WHITE: marked(
        "white's clock is not running in match {match}, game {game}: its flag cannot fall"
    ),
    Colour.BLACK: marked(
        "black's clock is not running in match {match}, game {game}: its flag cannot fall"
    ),
}
"""A board's flag refused, by side: each a whole sentence, for the languages whose
colour words change with the sentence around them."""


def in_play(state: PlayoffState, match: int, game: int | None) -> tuple[GameKey, Clock]:
    """The game of ``match`` being played (``game``, or the last one started)."""
    played = [
        (key, clock) for key, clock in sorted(state.clocks.items())
        if key[0] == match and (game is None or key[1] == game)
        and clock.status in (ClockStatus.RUNNING, ClockStatus.PAUSED)
    ]
    if not played:
        if game is None:
            raise PlayoffError(Said.tr(
                "match {match} has no game being played: the board's moves wait for it",
                match=match,
            ))
        raise PlayoffError(Said.tr(
            "match {match}, game {game} has no game being played: the board's moves wait "
            "for it", match=match, game=game,
        ))
    return played[-1]


class ReadPosition(CommandBase):
    """An e-board's settled position (its piece placement): read into the moves of the
    game its match is playing (:func:`playoff_formats.eboard.read_placement`), or kept
    for the arbiter as unread when no legal move reaches it."""

    type: Literal["board-position"] = "board-position"
    action: ClassVar[Action] = Action.PRESS
    repeats: ClassVar[bool] = True  # the same position again: nothing to log
    match: int = Field(ge=1, le=1000)
    game: int | None = Field(default=None, ge=1, le=1000)
    placement: str = Field(min_length=15, max_length=100, description="A FEN's piece placement")
    serial: Serial | None = Field(default=None, min_length=1, max_length=32)
    stamp_ms: int | None = Field(default=None, ge=0)

    @field_validator("placement")
    @classmethod
    def _a_placement(cls, value: str) -> str:
        if not valid_placement(value):
            raise ValueError(
                "a FEN's piece placement is eight ranks of pieces (KQRBNP, kqrbnp) and "
                "empty squares (1-8), separated by /"
            )
        return value

    def decide(self, state: PlayoffState, ctx: Context) -> list[PlayoffEvent]:
        key, _ = in_play(state, self.match, self.game)
        match, game = key
        played = state.moves.get(key, ())
        reading = read_placement(self.placement, [m.uci for m in played])
        if reading.unread:
            if state.unread.get(match) == self.placement:
                return []  # the same position again: already shown
            return [PositionUnread(match=match, game=game, placement=self.placement)]
        events: list[PlayoffEvent] = []
        if reading.keep < len(played) and not reading.moves:
            events.append(MoveTakenBack(match=match, game=game, ply=len(played)))
        events.extend(
            MoveMade(match=match, game=game, ply=reading.keep + 1 + i, uci=uci, san=san)
            for i, (uci, san) in enumerate(reading.moves)
        )
        if not events and match in state.unread:  # back to the game's position
            events.append(PositionUnread(match=match, game=game, placement=None))
        return events


class BoardFlag(CommandBase):
    """The board's own clock (a DGT clock) shows ``side``'s flag: the game's flag
    (docs/policies.md, "DGT e-boards"), at the board's stamp when it is consistent,
    whatever time the service's clock had left."""

    type: Literal["board-flag"] = "board-flag"
    action: ClassVar[Action] = Action.PRESS
    match: int = Field(ge=1, le=1000)
    game: int | None = Field(default=None, ge=1, le=1000)
    side: Colour
    stamp_ms: int | None = Field(default=None, ge=0)

    def decide(self, state: PlayoffState, ctx: Context) -> list[PlayoffEvent]:
        key, clock = in_play(state, self.match, self.game)
        if clock.running is not self.side:
            raise PlayoffError(Said.tr(
                NOT_RUNNING[self.side], match=key[0], game=key[1]
            ))
        at_ms = ctx.server_ms
        if self.stamp_ms is not None:
            assert clock.since_ms is not None
            at_ms = stamped_instant(
                self.stamp_ms, turn_started_ms=clock.since_ms, since_ms=clock.since_ms,
                now_ms=ctx.server_ms, allowance_ms=ALLOWANCES.lag_ms,
            ).at_ms
        result = Result.BLACK_WINS if self.side is Colour.WHITE else Result.WHITE_WINS
        return [
            FlagFell(match=key[0], game=key[1], side=self.side, at_ms=at_ms, board=True),
            ResultRecorded(
                match=key[0], game=key[1], result=result, at_ms=at_ms,
                reason=f"{self.side.value} flag",
            ),
        ]


class MapEboard(CommandBase):
    """Put the e-board ``serial`` on ``match`` (``None``: take it off), as the arbiter
    sets the boards up: its positions become that match's moves."""

    type: Literal["map-eboard"] = "map-eboard"
    serial: Serial = Field(min_length=1, max_length=32)
    match: int | None = Field(default=None, ge=1, le=1000)

    def decide(self, state: PlayoffState, ctx: Context) -> list[PlayoffEvent]:
        from orchestrator.core.events import EboardMapped

        if state.eboards.get(self.serial) == self.match and self.match is not None:
            raise PlayoffError(Said.tr(
                "the e-board {serial} is already on match {match}", serial=self.serial,
                match=self.match,
            ))
        return [EboardMapped(serial=self.serial, match=self.match)]


class EboardStatus(BaseModel):
    """An e-board's ``eboard-status`` as LiveChess reports it (its state and battery),
    sent by the forwarder: presence, not a change of the play-off: kept in memory,
    never logged."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    type: Literal["eboard-status"]
    serial: Serial = Field(min_length=1, max_length=32)
    state: str | None = Field(default=None, max_length=32)
    battery: str | None = Field(default=None, max_length=16)

    def check(self, role: Role) -> None:
        if not role.may(Action.PRESS):
            raise NotPermitted(Said.tr("only an arbiter or a board key says an e-board's status"))
