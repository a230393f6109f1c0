"""Players, games and individual events.

Models are frozen pydantic values. Results are stored as the arbiter writes them
(``1-0``, ``+/-``...), and everything a tiebreak needs (points, whether the game
was played over the board) is derived from them by pure functions.

Numbers are finite (no NaN or infinity, which cannot be written back as JSON).
Sizes, numbers and dates are bounded where data enters (the ``MAX_...`` values),
so that no upload can stall the service; an event already stored is read back
with :func:`stored_context`, which waives those bounds: what was accepted once
always loads again.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import (
    AwareDatetime,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    GetCoreSchemaHandler,
    GetJsonSchemaHandler,
    ValidationInfo,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, PydanticCustomError, core_schema


class Frozen(BaseModel):
    """Base for immutable models that refuse unknown keys and non-finite numbers."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)


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

_STORED = "stored"


def stored_context() -> dict[str, bool]:
    """The validation context for reading back an event already stored: no bound applies."""
    return {_STORED: True}


def _waived(info: ValidationInfo) -> bool:
    context = info.context
    return isinstance(context, dict) and bool(context.get(_STORED))


@dataclass(frozen=True)
class _Bound:
    """A bound checked where data enters and shown in the JSON Schema."""

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        return core_schema.with_info_after_validator_function(self._validate, handler(source))

    def __get_pydantic_json_schema__(
        self, schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        json_schema = handler(schema)
        json_schema.update(self.json_schema(json_schema.get("type")))
        return json_schema

    def _validate(self, value: Any, info: ValidationInfo) -> Any:
        if not _waived(info):
            self.check(value)
        return value

    def check(self, value: Any) -> None:
        raise NotImplementedError

    def json_schema(self, kind: object) -> dict[str, Any]:
        raise NotImplementedError


@dataclass(frozen=True)
class AtMost(_Bound):
    """At most ``most`` characters (text) or entries (a list)."""

    most: int

    def check(self, value: Any) -> None:
        size = len(value)
        if size <= self.most:
            return
        if isinstance(value, str):
            raise PydanticCustomError(
                "string_too_long",
                "String should have at most {max_length} characters",
                {"max_length": self.most, "actual_length": size},
            )
        raise PydanticCustomError(
            "too_long",
            "List should have at most {max_length} items, not {actual_length}",
            {"field_type": "List", "max_length": self.most, "actual_length": size},
        )

    def json_schema(self, kind: object) -> dict[str, Any]:
        return {"maxLength" if kind == "string" else "maxItems": self.most}


@dataclass(frozen=True)
class Within(_Bound):
    """A number from ``least`` to ``most``."""

    least: int
    most: int

    def check(self, value: Any) -> None:
        if value > self.most:
            raise PydanticCustomError(
                "less_than_equal", "Input should be less than or equal to {le}", {"le": self.most}
            )
        if value < self.least:
            raise PydanticCustomError(
                "greater_than_equal",
                "Input should be greater than or equal to {ge}",
                {"ge": self.least},
            )

    def json_schema(self, kind: object) -> dict[str, Any]:
        return {"minimum": self.least, "maximum": self.most}


@dataclass(frozen=True)
class InRange(_Bound):
    """A date and time from :data:`EARLIEST` and before :data:`LATEST`."""

    def check(self, value: Any) -> None:
        moment = value if value.tzinfo is not None else value.replace(tzinfo=UTC)
        if not EARLIEST <= moment < LATEST:
            raise PydanticCustomError(
                "datetime_range",
                "Input should be a date from {first} and before {last}",
                {"first": EARLIEST.date().isoformat(), "last": LATEST.date().isoformat()},
            )

    def json_schema(self, kind: object) -> dict[str, Any]:
        return {}


def _written_as_text(value: Any) -> Any:
    # A number would be read as seconds since 1970: a date is only ever written as text.
    if isinstance(value, int | float) and not isinstance(value, bool):
        raise PydanticCustomError(
            "datetime_type",
            "Input should be a date and time written as ISO 8601 text, "
            "e.g. 2026-06-20T14:00:00Z, not a number",
        )
    return value


Name = Annotated[str, Field(min_length=1), AtMost(MAX_NAME)]
Id = Annotated[str, Field(min_length=1), AtMost(MAX_ID)]
Ref = Annotated[str, AtMost(MAX_ID)]
"""An id named by a game, a bye or a match (checked against the event's ids)."""
Round = Annotated[int, Field(ge=1), Within(1, MAX_ROUND)]
Instant = Annotated[datetime, InRange()]
"""A date and time from 1900 and before 2200 (a time zone is checked apart). Documents are
read strictly, where a date can only be text."""
AwareInstant = Annotated[AwareDatetime, BeforeValidator(_written_as_text), InRange()]
"""A date and time with its time zone, from 1900 and before 2200, as ISO 8601 text even in
a model validated leniently (an API body), where a number would pass for a date."""


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

    id: Id = Field(description="TRF starting number, or any unique id")
    name: Name
    rating: int | None = Field(default=None, ge=0)
    title: Ref | None = None
    federation: Ref | None = None
    fide_id: Ref | None = None


class Game(Frozen):
    """A paired game of the main event.

    ``rated`` is false for the TRF codes W, D and L (a game that lasted less than
    one move): such a game still counts as played over the board.
    """

    round: Round
    white: Ref
    black: Ref
    result: Result
    ended_at: Instant | None = Field(
        default=None, description="When the game ended (ISO 8601 with a zone)"
    )
    rated: bool = True

    def points_of(self, player_id: str) -> float:
        return self.result.white_points if player_id == self.white else self.result.black_points

    def opponent_of(self, player_id: str) -> str:
        return self.black if player_id == self.white else self.white


class Bye(Frozen):
    """A round in which a player was not paired."""

    round: Round
    player: Ref
    kind: ByeKind


class IndividualEvent(Frozen):
    """A finished individual event: who played, and every result."""

    name: Name
    kind: Literal["individual"] = "individual"
    regulation: Ref = "gct2015"
    players: Annotated[list[Player], Field(min_length=2), AtMost(MAX_PLAYERS)]
    games: Annotated[list[Game], AtMost(MAX_GAMES)] = Field(default_factory=list)
    byes: Annotated[list[Bye], AtMost(MAX_BYES)] = Field(default_factory=list)

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

    id: Id
    name: Name


BridgeScore = Annotated[int, Within(-MAX_BRIDGE_SCORE, MAX_BRIDGE_SCORE)]
GamePoints = Annotated[float, Within(-MAX_GAME_POINTS, MAX_GAME_POINTS)]
Imps = Annotated[float, Within(-MAX_IMPS, MAX_IMPS)]
Vps = Annotated[float, Within(-MAX_VPS, MAX_VPS)]


class TeamMatch(Frozen):
    """A match between two teams, boards in order (board 1 first).

    Chess boards are results from the home team's side; bridge boards are the
    home team's net scores. A bridge match may give its ``imps`` and ``vps``
    pairs (home, away) instead of, or as well as, the boards; a chess match may
    give its game-point ``score``. Given totals must agree with the boards.
    """

    round: Round
    home: Ref
    away: Ref
    venue: Venue = Venue.HOME
    boards: Annotated[list[BoardResult | BridgeScore], AtMost(MAX_BOARDS)] = Field(
        default_factory=list
    )
    score: tuple[GamePoints, GamePoints] | None = None
    imps: tuple[Imps, Imps] | None = None
    vps: tuple[Vps, Vps] | None = None
    board_count: Annotated[int, Field(ge=1), Within(1, MAX_BOARD_COUNT)] | None = Field(
        default=None, description="Boards played, when only totals are given"
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

    name: Name
    kind: Literal["team"] = "team"
    regulation: Ref = "county1980"
    teams: Annotated[list[Team], Field(min_length=2), AtMost(MAX_TEAMS)]
    matches: Annotated[list[TeamMatch], AtMost(MAX_MATCHES)] = Field(default_factory=list)

    def team(self, team_id: str) -> Team:
        for team in self.teams:
            if team.id == team_id:
                return team
        raise KeyError(team_id)

    @property
    def is_bridge(self) -> bool:
        return any(m.is_bridge for m in self.matches)


Event = IndividualEvent | TeamEvent
