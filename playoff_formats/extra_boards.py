"""A tied bridge knock-out match playing extra boards (EBU 143.2.1), as a pure value.

The arbiters enter each board's score at both tables: the North-South score,
signed, as the travelling score slip gives it. The home team sits North-South at
the first table and East-West at the second, so the home team's net score on a
board is the NS score at table 1 minus the NS score at table 2, and its IMPs come
from the WBF scale. A stanza is complete when every board has both scores; the
plan (``builders.stanzas``) then says whether the set is decided or which stanza
comes next, and with a partner change or not (Hubert Phillips Bowl).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from playoff_formats.builders.stanzas import StanzaOutcome, StanzaPlan, stanza_outcome
from playoff_formats.errors import PlayoffError
from playoff_formats.model import Frozen
from playoff_formats.phrase import Phrase, Player, Said
from playoff_formats.scoring import imps

Table = Literal[1, 2]


def _not_a_score(ns_score: int) -> Phrase:
    return Said.tr("{score} is not a bridge score (a multiple of 10)", score=ns_score)


class TableScore(Frozen):
    """The NS score of one board at one table."""

    stanza: int = Field(ge=1, description="1-based, counting every stanza played")
    board: int = Field(ge=1, description="1-based within the stanza")
    table: Table
    ns_score: int


class ExtraBoards(Frozen):
    """Extra boards between two tied teams: the plan, the stanzas opened, the scores."""

    home: str
    away: str
    plan: StanzaPlan
    stanzas: tuple[int, ...] = Field(description="Boards of each stanza opened so far")
    scores: tuple[TableScore, ...] = ()
    winner: str | None = None

    @classmethod
    def start(cls, home: str, away: str, plan: StanzaPlan) -> ExtraBoards:
        return cls(home=home, away=away, plan=plan, stanzas=(plan.stanzas[0],))

    @property
    def current(self) -> int:
        """The stanza being played (1-based)."""
        return len(self.stanzas)

    def score_of(self, stanza: int, board: int, table: int) -> int | None:
        for s in self.scores:
            if (s.stanza, s.board, s.table) == (stanza, board, table):
                return s.ns_score
        return None

    def record(self, stanza: int, board: int, table: Table, ns_score: int) -> ExtraBoards:
        """One score entered; refused if the contest is over, or the board is not in play."""
        if self.winner is not None:
            raise PlayoffError(Said.tr("the extra boards are over: {team} won",
                                       team=Player(self.winner)))
        if stanza != self.current:
            raise PlayoffError(Said.tr("stanza {current} is being played, not stanza {stanza}",
                                       current=self.current, stanza=stanza))
        if not 1 <= board <= self.stanzas[stanza - 1]:
            raise PlayoffError(Said.tr(
                "stanza {stanza} has boards 1-{boards}, not board {board}",
                stanza=stanza, boards=self.stanzas[stanza - 1], board=board,
            ))
        if ns_score % 10:
            raise PlayoffError(_not_a_score(ns_score))
        if self.score_of(stanza, board, table) is not None:
            raise PlayoffError(Said.tr(
                "stanza {stanza}, board {board}, table {table} already has its score",
                stanza=stanza, board=board, table=table,
            ))
        entry = TableScore(stanza=stanza, board=board, table=table, ns_score=ns_score)
        return self.model_copy(update={"scores": (*self.scores, entry)})

    def correct(
        self, stanza: int, board: int, table: Table, ns_score: int
    ) -> tuple[ExtraBoards, tuple[TableScore, ...]]:
        """A score entered earlier, corrected, and the scores it voids.

        The contest is played again from its first stanza with the corrected score:
        a stanza whose outcome changes may decide the match where it went on before,
        or open a stanza where it was decided. Scores of stanzas no longer played
        are voided (returned); every other score stands.
        """
        previous = self.score_of(stanza, board, table)
        if previous is None:
            raise PlayoffError(Said.tr(
                "stanza {stanza}, board {board}, table {table} has no score yet: enter it "
                "instead of correcting it",
                stanza=stanza, board=board, table=table,
            ))
        if ns_score % 10:
            raise PlayoffError(_not_a_score(ns_score))
        if ns_score == previous:
            raise PlayoffError(Said.tr(
                "stanza {stanza}, board {board}, table {table} already has the score {score}",
                stanza=stanza, board=board, table=table, score=ns_score,
            ))
        scores = [
            s.model_copy(update={"ns_score": ns_score})
            if (s.stanza, s.board, s.table) == (stanza, board, table) else s
            for s in self.scores
        ]
        replayed = ExtraBoards.start(self.home, self.away, self.plan)
        voided: list[TableScore] = []
        for s in sorted(scores, key=lambda s: (s.stanza, s.board, s.table)):
            while replayed.winner is None and replayed.outcome() is not None and (
                s.stanza > replayed.current
            ):
                replayed = replayed.advance()
            if (replayed.winner is not None or s.stanza != replayed.current
                    or s.board > replayed.stanzas[s.stanza - 1]):
                voided.append(s)
                continue
            replayed = replayed.model_copy(update={"scores": (*replayed.scores, s)})
        if replayed.winner is None and replayed.outcome() is not None:
            replayed = replayed.advance()
        return replayed, tuple(voided)

    def board_imps(self, stanza: int, board: int) -> int | None:
        """The home team's IMPs on a board (negative: the away team's), once both tables
        have scored."""
        first, second = self.score_of(stanza, board, 1), self.score_of(stanza, board, 2)
        if first is None or second is None:
            return None
        return imps(first - second)

    def stanza_imps(self, stanza: int) -> tuple[int, int]:
        """IMPs won by the home and the away team in one stanza (complete boards only)."""
        home = away = 0
        for board in range(1, self.stanzas[stanza - 1] + 1):
            value = self.board_imps(stanza, board)
            if value is not None:
                home += max(value, 0)
                away += max(-value, 0)
        return home, away

    def stanza_complete(self, stanza: int) -> bool:
        return all(
            self.board_imps(stanza, board) is not None
            for board in range(1, self.stanzas[stanza - 1] + 1)
        )

    def set_imps(self, stanza: int) -> tuple[int, int]:
        """IMPs of the set ``stanza`` belongs to, up to and including it."""
        per_set = len(self.plan.stanzas)
        first = (stanza - 1) // per_set * per_set + 1
        totals = [self.stanza_imps(s) for s in range(first, stanza + 1)]
        return sum(t[0] for t in totals), sum(t[1] for t in totals)

    def outcome(self) -> StanzaOutcome | None:
        """After a complete current stanza: decided, or the next stanza; else None."""
        if self.winner is not None or not self.stanza_complete(self.current):
            return None
        home, away = self.set_imps(self.current)
        return stanza_outcome(self.plan, self.current - 1, home, away)

    def advance(self) -> ExtraBoards:
        """Apply the outcome of a complete stanza: a winner, or the next stanza opened."""
        result = self.outcome()
        if result is None:
            raise PlayoffError(Said.tr("stanza {stanza} is not complete", stanza=self.current))
        if result.decided:
            return self.model_copy(
                update={"winner": self.home if result.winner == "home" else self.away}
            )
        assert result.next_boards is not None
        return self.model_copy(update={"stanzas": (*self.stanzas, result.next_boards)})

    def scoreboard(self) -> dict[str, Any]:
        """What the hall sees: boards, IMPs, the running total, the stanza, partner changes."""
        per_set = len(self.plan.stanzas)
        stanzas = []
        for number, size in enumerate(self.stanzas, start=1):
            boards = [
                {
                    "board": b,
                    "table_1": self.score_of(number, b, 1),
                    "table_2": self.score_of(number, b, 2),
                    "imps": self.board_imps(number, b),
                }
                for b in range(1, size + 1)
            ]
            home, away = self.stanza_imps(number)
            stanzas.append({
                "stanza": number,
                "set": (number - 1) // per_set + 1,
                "boards": boards,
                "imps": [home, away],
                "partners_change_after": self.plan.partner_changes[(number - 1) % per_set],
            })
        running = self.set_imps(self.current)
        return {
            "home": self.home,
            "away": self.away,
            "current_stanza": self.current,
            "stanzas": stanzas,
            "running_total": list(running),
            "winner": self.winner,
            "plan": self.plan.to_json(),
        }
