"""Players, games and individual events.

Models are frozen pydantic values. Results are stored as the arbiter writes them
(``1-0``, ``+/-``...), and everything a tiebreak needs (points, whether the game
was played over the board) is derived from them by pure functions.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Frozen(BaseModel):
    """Base for immutable models that refuse unknown keys."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class Result(StrEnum):
    """The result of a paired game, from White's side."""

    WHITE_WINS = "1-0"
    BLACK_WINS = "0-1"
    DRAW = "1/2-1/2"
    WHITE_WINS_BY_FORFEIT = "+/-"
    BLACK_WINS_BY_FORFEIT = "-/+"
    DOUBLE_FORFEIT = "-/-"

    @property
    def played(self) -> bool:
        """True when the game was played over the board (not a forfeit)."""
        return self in (Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW)

    @property
    def white_points(self) -> float:
        return _WHITE_POINTS[self]

    @property
    def black_points(self) -> float:
        return _BLACK_POINTS[self]


_WHITE_POINTS = {
    Result.WHITE_WINS: 1.0,
    Result.BLACK_WINS: 0.0,
    Result.DRAW: 0.5,
    Result.WHITE_WINS_BY_FORFEIT: 1.0,
    Result.BLACK_WINS_BY_FORFEIT: 0.0,
    Result.DOUBLE_FORFEIT: 0.0,
}
_BLACK_POINTS = {
    Result.WHITE_WINS: 0.0,
    Result.BLACK_WINS: 1.0,
    Result.DRAW: 0.5,
    Result.WHITE_WINS_BY_FORFEIT: 0.0,
    Result.BLACK_WINS_BY_FORFEIT: 1.0,
    Result.DOUBLE_FORFEIT: 0.0,
}


class Colour(StrEnum):
    WHITE = "white"
    BLACK = "black"


class ByeKind(StrEnum):
    """An unpaired round, with the TRF code it comes from."""

    FULL_POINT = "full"  # TRF F
    HALF_POINT = "half"  # TRF H
    ZERO_POINT = "zero"  # TRF Z or blank: a known absence
    PAIRING_ALLOCATED = "pairing-allocated"  # TRF U

    @property
    def points(self) -> float:
        return {"full": 1.0, "half": 0.5, "zero": 0.0, "pairing-allocated": 1.0}[self.value]


class Player(Frozen):
    """A participant of an individual event."""

    id: str = Field(min_length=1, description="TRF starting number, or any unique id")
    name: str = Field(min_length=1)
    rating: int | None = Field(default=None, ge=0)
    title: str | None = None
    federation: str | None = None
    fide_id: str | None = None


class Game(Frozen):
    """A paired game of the main event.

    ``rated`` is false for the TRF codes W, D and L (a game that lasted less than
    one move): such a game still counts as played over the board.
    """

    round: int = Field(ge=1)
    white: str
    black: str
    result: Result
    ended_at: datetime | None = Field(
        default=None, description="When the game ended (ISO 8601 with a zone)"
    )
    rated: bool = True

    def points_of(self, player_id: str) -> float:
        return self.result.white_points if player_id == self.white else self.result.black_points

    def opponent_of(self, player_id: str) -> str:
        return self.black if player_id == self.white else self.white


class Bye(Frozen):
    """A round in which a player was not paired."""

    round: int = Field(ge=1)
    player: str
    kind: ByeKind


class IndividualEvent(Frozen):
    """A finished individual event: who played, and every result."""

    name: str = Field(min_length=1)
    kind: Literal["individual"] = "individual"
    regulation: str = "gct2015"
    players: list[Player] = Field(min_length=2)
    games: list[Game] = Field(default_factory=list)
    byes: list[Bye] = Field(default_factory=list)

    def player(self, player_id: str) -> Player:
        for player in self.players:
            if player.id == player_id:
                return player
        raise KeyError(player_id)

    @property
    def rounds(self) -> int:
        """The number of rounds: the highest round that has a game or a bye."""
        return max([g.round for g in self.games] + [b.round for b in self.byes], default=0)


# --- Team events -----------------------------------------------------------


class Venue(StrEnum):
    """Where a team match was played: at the home team's ground, or neutral."""

    HOME = "home"
    NEUTRAL = "neutral"


class BoardResult(StrEnum):
    """A chess board of a team match, from the home team's side."""

    HOME_WINS = "1-0"
    DRAW = "1/2-1/2"
    AWAY_WINS = "0-1"

    @property
    def home_points(self) -> float:
        return {"1-0": 1.0, "1/2-1/2": 0.5, "0-1": 0.0}[self.value]


class Team(Frozen):
    """A team (a county, a club, a bridge squad)."""

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)


class TeamMatch(Frozen):
    """A match between two teams, boards in order (board 1 first).

    Chess boards are results from the home team's side; bridge boards are the
    home team's net scores. A bridge match may give its ``imps`` and ``vps``
    pairs (home, away) instead of, or as well as, the boards; a chess match may
    give its game-point ``score``. Given totals must agree with the boards.
    """

    round: int = Field(ge=1)
    home: str
    away: str
    venue: Venue = Venue.HOME
    boards: list[BoardResult | int] = Field(default_factory=list)
    score: tuple[float, float] | None = None
    imps: tuple[float, float] | None = None
    vps: tuple[float, float] | None = None
    board_count: int | None = Field(
        default=None, ge=1, description="Boards played, when only totals are given"
    )

    @property
    def is_bridge(self) -> bool:
        if self.boards:
            return isinstance(self.boards[0], int)
        return self.imps is not None or self.vps is not None

    @property
    def chess_boards(self) -> list[BoardResult]:
        return [b for b in self.boards if isinstance(b, BoardResult)]

    @property
    def bridge_boards(self) -> list[int]:
        return [b for b in self.boards if isinstance(b, int)]

    def side_of(self, team_id: str) -> int:
        """0 for the home team, 1 for the away team."""
        return 0 if team_id == self.home else 1

    def opponent_of(self, team_id: str) -> str:
        return self.away if team_id == self.home else self.home


class TeamEvent(Frozen):
    """A finished team event: the teams and every match."""

    name: str = Field(min_length=1)
    kind: Literal["team"] = "team"
    regulation: str = "county1980"
    teams: list[Team] = Field(min_length=2)
    matches: list[TeamMatch] = Field(default_factory=list)

    def team(self, team_id: str) -> Team:
        for team in self.teams:
            if team.id == team_id:
                return team
        raise KeyError(team_id)

    @property
    def is_bridge(self) -> bool:
        return any(m.is_bridge for m in self.matches)


Event = IndividualEvent | TeamEvent
