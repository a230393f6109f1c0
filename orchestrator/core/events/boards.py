"""A bridge play-off's extra boards: each table's scores, the stanzas, and their
corrections."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import tzinfo
from typing import ClassVar, Literal

from pydantic import Field

from orchestrator.core.events.base import (
    _UTC,
    PlayoffEventBase,
    Stamp,
    _ns,
)
from orchestrator.core.state import PlayoffState
from playoff_formats.extra_boards import ExtraBoards, TableScore


class BoardScored(PlayoffEventBase):
    """A bridge extra board's North-South score at one table (EBU 143.2.1)."""

    type: Literal["board-scored"] = "board-scored"
    stanza: int = Field(ge=1)
    board: int = Field(ge=1)
    table: Literal[1, 2]
    ns_score: int

    def apply(self, state: PlayoffState, stamp: Stamp) -> PlayoffState:
        extra = state.extra_boards.record(self.stanza, self.board, self.table, self.ns_score)
        key = (1, self.stanza)
        started = state.started_at
        if key not in started:
            started = {**started, key: stamp.recorded_at}
        ended = state.ended_at
        if extra.stanza_complete(self.stanza):
            ended = {**ended, key: stamp.recorded_at}
        return self._next(state, stamp, extra=extra, started_at=started, ended_at=ended)


class StanzaAdvanced(PlayoffEventBase):
    """A stanza is complete: the match is decided, or the next stanza opens."""

    type: Literal["stanza-advanced"] = "stanza-advanced"
    decided: bool
    winner: Literal["home", "away"] | None = None
    next_stanza: int | None = None
    next_boards: int | None = None
    repeats_set: bool = False
    change_partners: bool = False
    reason: str
    stanza: int = Field(ge=1)
    imps: tuple[int, int]
    winner_team: str | None = None

    @classmethod
    def after(cls, extra: ExtraBoards) -> StanzaAdvanced | None:
        """What follows ``extra`` when its current stanza is complete; else None."""
        outcome = extra.outcome()
        if outcome is None:
            return None
        winner_team = None
        if outcome.decided:
            winner_team = extra.home if outcome.winner == "home" else extra.away
        return cls(
            **outcome.model_dump(), stanza=extra.current,
            imps=extra.set_imps(extra.current), winner_team=winner_team,
        )

    def apply(self, state: PlayoffState, stamp: Stamp) -> PlayoffState:
        return self._next(state, stamp, extra=state.extra_boards.advance())


class BoardScoreCorrected(PlayoffEventBase):
    """The chief arbiter corrected a bridge extra board's score at one table.

    The contest follows the corrected score from its first stanza: ``voided`` lists
    the scores of stanzas no longer played, ``winner_before`` the team the
    correction unseated, ``winner_after`` the team it made the winner.
    """

    type: Literal["board-score-corrected"] = "board-score-corrected"
    arbiter_change: ClassVar[bool] = True
    stanza: int = Field(ge=1)
    board: int = Field(ge=1)
    table: Literal[1, 2]
    ns_score: int
    previous: int
    reason: str
    voided: tuple[TableScore, ...] = ()
    winner_before: str | None = None
    winner_after: str | None = None

    @classmethod
    def of(
        cls, state: PlayoffState, stanza: int, board: int, table: Literal[1, 2],
        ns_score: int, reason: str,
    ) -> BoardScoreCorrected:
        before = state.extra_boards
        previous = before.score_of(stanza, board, table)
        after, voided = before.correct(stanza, board, table, ns_score)
        return cls(
            stanza=stanza, board=board, table=table, ns_score=ns_score,
            previous=previous if previous is not None else 0, reason=reason, voided=voided,
            winner_before=before.winner if before.winner != after.winner else None,
            winner_after=after.winner if before.winner != after.winner else None,
        )

    @property
    def voids(self) -> bool:
        """It throws away scores entered, or the match's winner."""
        return bool(self.voided) or self.winner_before is not None

    def consequences(self, names: Mapping[str, str]) -> str:
        """What the correction voids, in words (empty when nothing)."""
        parts = []
        stanzas = sorted({s.stanza for s in self.voided})
        if stanzas:
            which = " and ".join(str(n) for n in stanzas)
            plural = "s" if len(stanzas) > 1 else ""
            parts.append(f"the scores of stanza{plural} {which}, no longer played")
        if self.winner_before is not None:
            who = names.get(self.winner_before, self.winner_before)
            parts.append(f"{who} as the winner of the match")
        return "; ".join(parts)

    def apply(self, state: PlayoffState, stamp: Stamp) -> PlayoffState:
        extra, _ = state.extra_boards.correct(self.stanza, self.board, self.table, self.ns_score)
        opened = set(range(1, extra.current + 1))
        started = {k: v for k, v in state.started_at.items() if k[1] in opened}
        ended = {
            k: v for k, v in state.ended_at.items()
            if k[1] in opened and extra.stanza_complete(k[1])
        }
        return self._next(state, stamp, extra=extra, started_at=started, ended_at=ended)

    def describe(self, names: Mapping[str, str], zone: tzinfo = _UTC) -> str:
        text = (
            f"score of stanza {self.stanza}, board {self.board}, table {self.table} corrected "
            f"from NS {_ns(self.previous)} to NS {_ns(self.ns_score)}"
        )
        if self.winner_after is not None:
            text += f": {names.get(self.winner_after, self.winner_after)} win the match"
        voided = self.consequences(names)
        return f"{text}; voided: {voided}" if voided else text


