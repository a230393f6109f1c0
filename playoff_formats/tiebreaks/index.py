"""A per-player view of an individual event, built once and shared by criteria.

Every criterion reads the same facts (scores, who met whom, with which colour,
how each round was scored), so they are computed in one pass over the games.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from enum import StrEnum

from playoff_formats.model import Bye, ByeKind, Colour, Game, IndividualEvent, Player


class RoundKind(StrEnum):
    """How a player's round was decided."""

    PLAYED = "played"  # over the board
    FORFEIT_WIN = "forfeit-win"
    FORFEIT_LOSS = "forfeit-loss"  # includes a double forfeit
    BYE = "bye"


@dataclass(frozen=True, slots=True)
class PlayerRound:
    """One round from one player's side."""

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
    """Scores and per-round records of every player of an event."""

    event: IndividualEvent
    players: dict[str, Player]
    order: tuple[str, ...]
    scores: dict[str, float]
    rounds_of: dict[str, tuple[PlayerRound, ...]]
    rounds: int

    @classmethod
    def of(cls, event: IndividualEvent) -> EventIndex:
        per_player: dict[str, list[PlayerRound]] = defaultdict(list)
        for game in event.games:
            for player_id in (game.white, game.black):
                per_player[player_id].append(_round_of_game(game, player_id))
        for bye in event.byes:
            per_player[bye.player].append(_round_of_bye(bye))
        rounds_of = {
            p.id: tuple(sorted(per_player.get(p.id, []), key=lambda r: r.round))
            for p in event.players
        }
        scores = {pid: sum(r.points for r in rs) for pid, rs in rounds_of.items()}
        return cls(
            event=event,
            players={p.id: p for p in event.players},
            order=tuple(p.id for p in event.players),
            scores=scores,
            rounds_of=rounds_of,
            rounds=event.rounds,
        )

    def name(self, player_id: str) -> str:
        return self.players[player_id].name

    def points_between(self, player_id: str, opponents: frozenset[str]) -> float:
        """Points ``player_id`` scored in games (forfeits included) against ``opponents``."""
        return sum(
            r.points for r in self.rounds_of[player_id] if r.opponent is not None
            and r.opponent in opponents
        )


def _round_of_game(game: Game, player_id: str) -> PlayerRound:
    is_white = player_id == game.white
    points = game.points_of(player_id)
    if game.result.played:
        kind = RoundKind.PLAYED
    elif points > 0:
        kind = RoundKind.FORFEIT_WIN
    else:
        kind = RoundKind.FORFEIT_LOSS
    return PlayerRound(
        round=game.round,
        kind=kind,
        points=points,
        opponent=game.opponent_of(player_id),
        colour=Colour.WHITE if is_white else Colour.BLACK,
    )


def _round_of_bye(bye: Bye) -> PlayerRound:
    return PlayerRound(round=bye.round, kind=RoundKind.BYE, points=bye.kind.points, bye=bye.kind)
