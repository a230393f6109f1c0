"""The plain values of the event model: bounds, results, byes, colours, venues.

They need no validation machinery, so they live apart from the pydantic models
of :mod:`playoff_formats.model` (which re-exports every name here): a reader or
a tiebreak that works on plain data imports them without loading pydantic,
which costs more than reading and ranking a 500-player Swiss.
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum

__all__ = [
    "DEFAULT_INDIVIDUAL_REGULATION",
    "EARLIEST",
    "LATEST",
    "MAX_BOARDS",
    "MAX_BOARD_COUNT",
    "MAX_BRIDGE_SCORE",
    "MAX_BYES",
    "MAX_GAMES",
    "MAX_GAME_POINTS",
    "MAX_ID",
    "MAX_IMPS",
    "MAX_MATCHES",
    "MAX_NAME",
    "MAX_PLAYERS",
    "MAX_ROUND",
    "MAX_TEAMS",
    "MAX_VPS",
    "BoardResult",
    "ByeKind",
    "Colour",
    "Result",
    "Venue",
]

# --------------------------------------------------------------------------- limits

MAX_NAME = 200
"""Characters in a name: an event's, a player's, a team's."""
MAX_ID = 64
"""Characters in an id (a player's, a team's, the ids games name), a regulation's
name, a title, a federation, a FIDE id."""
MAX_PLAYERS = 2000
MAX_GAMES = 20_000
MAX_BYES = 20_000
MAX_TEAMS = 500
MAX_MATCHES = 10_000
MAX_BOARDS = 200
"""Boards listed for one team match."""
MAX_BOARD_COUNT = 1000
"""Boards played in one team match, when only totals are given."""
MAX_ROUND = 1000
MAX_BRIDGE_SCORE = 100_000
"""The largest net score of a bridge board, either way."""
MAX_GAME_POINTS = 10_000
MAX_IMPS = 100_000
MAX_VPS = 1000
EARLIEST = datetime(1900, 1, 1, tzinfo=UTC)
LATEST = datetime(2200, 1, 1, tzinfo=UTC)
"""Dates are from :data:`EARLIEST` and before :data:`LATEST` (a date without a zone
is read as UTC for this)."""

DEFAULT_INDIVIDUAL_REGULATION = "gct2015"
"""The regulation of an individual event that names none (a TRF never does)."""


# --------------------------------------------------------------------------- individual events


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
        return _BYE_POINTS[self.value]


_BYE_POINTS = {"full": 1.0, "half": 0.5, "zero": 0.0, "pairing-allocated": 1.0}


# --------------------------------------------------------------------------- team events


class Venue(StrEnum):
    """Where a team match was played: at the home team's ground, or neutral."""

    HOME = "home"
    NEUTRAL = "neutral"


class BoardResult(StrEnum):
    """A chess board of a team match, from the home team's side.

    The forfeits are boards not played: ``+/-`` the away team's player did not
    play (absent, or the board left empty), ``-/+`` the home team's, ``-/-``
    neither side's. The side that was there wins the board; nobody wins ``-/-``.
    """

    HOME_WINS = "1-0"
    DRAW = "1/2-1/2"
    AWAY_WINS = "0-1"
    HOME_WINS_BY_FORFEIT = "+/-"
    AWAY_WINS_BY_FORFEIT = "-/+"
    DOUBLE_FORFEIT = "-/-"

    @property
    def home_points(self) -> float:
        return _HOME_BOARD_POINTS[self.value]

    @property
    def away_points(self) -> float:
        return _AWAY_BOARD_POINTS[self.value]

    @property
    def played(self) -> bool:
        """True when the board was played over the board (not a forfeit)."""
        return self.value in ("1-0", "1/2-1/2", "0-1")


_HOME_BOARD_POINTS = {"1-0": 1.0, "1/2-1/2": 0.5, "0-1": 0.0, "+/-": 1.0, "-/+": 0.0, "-/-": 0.0}
_AWAY_BOARD_POINTS = {"1-0": 0.0, "1/2-1/2": 0.5, "0-1": 1.0, "+/-": 0.0, "-/+": 1.0, "-/-": 0.0}
