"""A play-off's events from electronic boards (DGT): the moves read from a board's
positions, a position no legal move reaches, and which e-board plays which match."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import tzinfo
from typing import ClassVar, Literal

from pydantic import Field

from orchestrator.core.events.base import _UTC, GameEvent, PlayoffEventBase, Stamp
from orchestrator.core.state import GameKey, Move, PlayoffState
from playoff_formats.clock import ClockStatus
from playoff_formats.errors import PlayoffError

_PLAYED = (ClockStatus.RUNNING, ClockStatus.PAUSED)


def _in_play(state: PlayoffState, key: GameKey) -> None:
    clock = state.clocks.get(key)
    if clock is None or clock.status not in _PLAYED:
        raise PlayoffError(
            f"match {key[0]}, game {key[1]} is not being played: its moves cannot change"
        )


class MoveMade(GameEvent):
    """Move ``ply`` of a game (1 is White's first), read from its e-board: the moves
    from ``ply`` on are replaced by this one (a move changed before the clock was
    pressed replaces the one read first)."""

    type: Literal["move-made"] = "move-made"
    clock_only: ClassVar[bool] = True
    shown_beyond_its_clock: ClassVar[bool] = True  # the hall's diagram
    ply: int = Field(ge=1, le=2_000)
    uci: str = Field(min_length=4, max_length=5, pattern=r"^[a-h][1-8][a-h][1-8][qrbn]?$")
    san: str = Field(min_length=2, max_length=8)

    def apply(self, state: PlayoffState, stamp: Stamp) -> PlayoffState:
        _in_play(state, self.key)
        played = state.moves.get(self.key, ())
        if self.ply > len(played) + 1:
            raise PlayoffError(
                f"move {self.ply} of match {self.match}, game {self.game} cannot come "
                f"before move {len(played) + 1}"
            )
        moves = (*played[: self.ply - 1], Move(self.uci, self.san))
        unread = {m: p for m, p in state.unread.items() if m != self.match}
        return self._next(
            state, stamp, moves={**state.moves, self.key: moves}, unread=unread
        )


class MoveTakenBack(GameEvent):
    """The e-board shows the position before the last move again: the move was taken
    back before the clock was pressed."""

    type: Literal["move-taken-back"] = "move-taken-back"
    clock_only: ClassVar[bool] = True
    shown_beyond_its_clock: ClassVar[bool] = True
    ply: int = Field(ge=1, le=2_000)

    def apply(self, state: PlayoffState, stamp: Stamp) -> PlayoffState:
        _in_play(state, self.key)
        played = state.moves.get(self.key, ())
        if self.ply != len(played):
            raise PlayoffError(
                f"only the last move of match {self.match}, game {self.game} can be taken "
                "back"
            )
        unread = {m: p for m, p in state.unread.items() if m != self.match}
        return self._next(
            state, stamp, moves={**state.moves, self.key: played[:-1]}, unread=unread
        )


class PositionUnread(GameEvent):
    """The e-board of a game settled on a position no legal move reaches from the
    game's moves (a piece knocked over, moved illegally, set up by hand): shown to the
    arbiter as it stands, no move invented. ``placement`` None: the board shows the
    game's position again; a move read clears it too."""

    type: Literal["position-unread"] = "position-unread"
    clock_only: ClassVar[bool] = True
    shown_beyond_its_clock: ClassVar[bool] = True  # the consoles' alert
    placement: str | None = Field(min_length=15, max_length=100)

    def apply(self, state: PlayoffState, stamp: Stamp) -> PlayoffState:
        unread = {m: p for m, p in state.unread.items() if m != self.match}
        if self.placement is not None:
            unread[self.match] = self.placement
        return self._next(state, stamp, unread=unread)


class EboardMapped(PlayoffEventBase):
    """The arbiter put the e-board ``serial`` on ``match`` (``None``: off every match)."""

    type: Literal["eboard-mapped"] = "eboard-mapped"
    serial: str = Field(min_length=1, max_length=32)
    match: int | None = Field(default=None, ge=1)

    def apply(self, state: PlayoffState, stamp: Stamp) -> PlayoffState:
        eboards = {s: m for s, m in state.eboards.items() if s != self.serial}
        if self.match is not None:
            state.chess.match(self.match)  # a match of the play-off
            eboards = {s: m for s, m in eboards.items() if m != self.match}
            eboards[self.serial] = self.match
        elif self.serial not in state.eboards:
            raise PlayoffError(f"the e-board {self.serial} is on no match")
        return self._next(state, stamp, eboards=eboards)

    def describe(self, names: Mapping[str, str], zone: tzinfo = _UTC) -> str:
        if self.match is None:
            return f"e-board {self.serial} taken off its match"
        return f"e-board {self.serial} put on match {self.match}"
