"""The commands of a bridge extra-board contest: a board's score at one table, and the
chief arbiter's correction of one.

Part of :mod:`orchestrator.core.commands` (its :data:`Command` union holds them):
import them from there, which loads this module once its bases exist.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, StrictBool

from orchestrator.core.auth import Action
from orchestrator.core.commands import CommandBase, Context, Reason, Route
from orchestrator.core.events import (
    BoardScoreCorrected,
    BoardScored,
    PlayoffEvent,
    StanzaAdvanced,
)
from orchestrator.core.state import PlayoffState
from playoff_formats.errors import PlayoffError
from playoff_formats.phrase import Said
from playoff_formats.speech import marked

__all__ = ["CorrectBoardScore", "ScoreBoard"]


class ScoreBoard(CommandBase):
    """A bridge extra board's North-South score at one table. When it completes a
    stanza, the stanza's outcome follows: decided, or the next stanza (EBU 143.2.1)."""

    type: Literal["board-score"] = "board-score"
    route = Route("POST", "/board-scores", "A bridge extra board's score at one table")
    stanza: int = Field(ge=1, le=1000)
    board: int = Field(ge=1, le=1000)
    table: Literal[1, 2]
    ns_score: int = Field(
        ge=-10_000, le=10_000, description="The North-South score at that table, signed"
    )

    def decide(self, state: PlayoffState, ctx: Context) -> list[PlayoffEvent]:
        scored = BoardScored(
            stanza=self.stanza, board=self.board, table=self.table, ns_score=self.ns_score
        )
        after = state.extra_boards.record(self.stanza, self.board, self.table, self.ns_score)
        follow = StanzaAdvanced.after(after)
        return [scored] if follow is None else [scored, follow]


class CorrectBoardScore(CommandBase):
    """The chief arbiter corrects a bridge extra board's score at one table, giving
    the reason. The contest follows the corrected score from its first stanza; a
    correction that voids scores entered, or the match's winner, is refused until
    it is sent again with ``confirm``."""

    type: Literal["board-score-correct"] = "board-score-correct"
    action: ClassVar[Action] = Action.OVERRIDE
    what: ClassVar[str | None] = marked("correct a board's score")
    route = Route("PUT", "/board-scores", "Correct a bridge extra board's score at one table")
    stanza: int = Field(ge=1, le=1000)
    board: int = Field(ge=1, le=1000)
    table: Literal[1, 2]
    ns_score: int = Field(
        ge=-10_000, le=10_000, description="The corrected North-South score at that table"
    )
    reason: Reason
    confirm: StrictBool = Field(
        default=False, description="Confirms a correction that voids scores or the winner"
    )

    def decide(self, state: PlayoffState, ctx: Context) -> list[PlayoffEvent]:
        corrected = BoardScoreCorrected.of(
            state, self.stanza, self.board, self.table, self.ns_score, self.reason
        )
        if corrected.voids and not self.confirm:
            raise PlayoffError(Said.tr(
                "this correction voids {voided}: send it again with confirm to go ahead",
                voided=corrected.consequences(state.names),
            ))
        return [corrected]
