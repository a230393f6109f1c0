"""A per-player view of an individual event, built once and shared by criteria.

Every criterion reads the same facts (scores, who met whom, with which colour,
how each round was scored), so they are computed in one pass over the games.
Facts derived from the whole event (adjusted scores, a participant's
contributions to Buchholz) are kept once computed: an index never changes, and
a criterion applied to every tied group would otherwise compute them again for
each.

The index reads any :class:`IndividualResults`: the model's
:class:`~playoff_formats.model.IndividualEvent`, or the plain event a TRF is
read into (:class:`~playoff_formats.io.trf.TrfEvent`), which needs no pydantic.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum
from typing import Any, Literal, NamedTuple, Protocol

from playoff_formats.values import ByeKind, Colour, Result

__all__ = [
    "ByeFacts",
    "EventIndex",
    "GameFacts",
    "IndividualResults",
    "PlayerFacts",
    "PlayerRound",
    "RoundKind",
]


class PlayerFacts(Protocol):
    """What the criteria read of a player."""

    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def rating(self) -> int | None: ...


class GameFacts(Protocol):
    """What the criteria read of a paired game."""

    @property
    def round(self) -> int: ...

    @property
    def white(self) -> str: ...

    @property
    def black(self) -> str: ...

    @property
    def result(self) -> Result: ...


class ByeFacts(Protocol):
    """What the criteria read of a bye."""

    @property
    def round(self) -> int: ...

    @property
    def player(self) -> str: ...

    @property
    def kind(self) -> ByeKind: ...


class IndividualResults(Protocol):
    """A finished individual event as the rules read it: who played, and every result."""

    @property
    def name(self) -> str: ...

    @property
    def kind(self) -> Literal["individual"]: ...

    @property
    def regulation(self) -> str: ...

    @property
    def players(self) -> Sequence[PlayerFacts]: ...

    @property
    def games(self) -> Sequence[GameFacts]: ...

    @property
    def byes(self) -> Sequence[ByeFacts]: ...

    @property
    def rounds(self) -> int: ...

    @property
    def start_date(self) -> date | None:
        """The first day of the event, when known: it chooses the edition of FIDE C.07."""
        ...


class RoundKind(StrEnum):
    """How a player's round was decided."""

    PLAYED = "played"  # over the board
    FORFEIT_WIN = "forfeit-win"
    FORFEIT_LOSS = "forfeit-loss"  # includes a double forfeit
    BYE = "bye"


class PlayerRound(NamedTuple):
    """One round from one player's side (a tuple: an event has thousands of them)."""

    round: int
    kind: RoundKind
    points: float
    opponent: str | None = None
    colour: Colour | None = None
    bye: ByeKind | None = None

    @property
    def played(self) -> bool:
        return self.kind is RoundKind.PLAYED

    @property
    def won_over_the_board(self) -> bool:
        return self.kind is RoundKind.PLAYED and self.points == 1.0


@dataclass(frozen=True)
class EventIndex:
    """Scores and per-round records of every player of an event.

    ``memo`` holds facts derived from the whole index (see :meth:`memo_of`).
    """

    names: dict[str, str]
    order: tuple[str, ...]
    scores: dict[str, float]
    rounds_of: dict[str, tuple[PlayerRound, ...]]
    rounds: int
    ratings: dict[str, int | None] = field(default_factory=dict)
    start_date: date | None = None
    win: float = 1.0
    """The points of a win: 1 in an individual event; for teams, the match points of
    a match won, or every board's game point (C.07 Art. 16 counts in draws of it)."""
    memo: dict[Hashable, dict[Any, Any]] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(cls, event: IndividualResults) -> EventIndex:
        per_player: dict[str, list[PlayerRound]] = defaultdict(list)
        for game in event.games:
            white_kind, white_points, black_kind, black_points = _SIDES_OF[game.result]
            white = PlayerRound(game.round, white_kind, white_points, game.black, Colour.WHITE)
            per_player[game.white].append(white)
            if game.white == game.black:  # refused by every reader; a model may hold it
                per_player[game.black].append(white)
                continue
            per_player[game.black].append(
                PlayerRound(game.round, black_kind, black_points, game.white, Colour.BLACK)
            )
        for bye in event.byes:
            per_player[bye.player].append(_round_of_bye(bye))
        rounds_of = {
            p.id: tuple(sorted(per_player.get(p.id, []), key=_round_number))
            for p in event.players
        }
        scores = {pid: sum(r.points for r in rs) for pid, rs in rounds_of.items()}
        return cls(
            names={p.id: p.name for p in event.players},
            order=tuple(p.id for p in event.players),
            scores=scores,
            rounds_of=rounds_of,
            rounds=event.rounds,
            ratings={p.id: p.rating for p in event.players},
            start_date=event.start_date,
        )

    def name(self, player_id: str) -> str:
        return self.names[player_id]

    def memo_of(self, fact: Hashable) -> dict[Any, Any]:
        """The values of ``fact`` computed so far, by whatever key the fact is looked up."""
        found = self.memo.get(fact)
        if found is None:
            found = self.memo[fact] = {}
        return found

    def points_between(self, player_id: str, opponents: frozenset[str]) -> float:
        """Points ``player_id`` scored in games (forfeits included) against ``opponents``."""
        return sum(
            r.points for r in self.rounds_of[player_id] if r.opponent is not None
            and r.opponent in opponents
        )


def _round_number(r: PlayerRound) -> int:
    return r.round


def _kind(result: Result, points: float) -> RoundKind:
    if result.played:
        return RoundKind.PLAYED
    return RoundKind.FORFEIT_WIN if points > 0 else RoundKind.FORFEIT_LOSS


_SIDES_OF: dict[Result, tuple[RoundKind, float, RoundKind, float]] = {
    result: (
        _kind(result, result.white_points),
        result.white_points,
        _kind(result, result.black_points),
        result.black_points,
    )
    for result in Result
}
"""How a result decided White's round and Black's, and the points of each."""


def _round_of_bye(bye: ByeFacts) -> PlayerRound:
    return PlayerRound(round=bye.round, kind=RoundKind.BYE, points=bye.kind.points, bye=bye.kind)
