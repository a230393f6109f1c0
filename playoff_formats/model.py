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
from datetime import UTC, date, datetime
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

# The plain values live apart, for readers and tiebreaks that run without pydantic.
from playoff_formats.values import DEFAULT_INDIVIDUAL_REGULATION as DEFAULT_INDIVIDUAL_REGULATION
from playoff_formats.values import EARLIEST as EARLIEST
from playoff_formats.values import LATEST as LATEST
from playoff_formats.values import MAX_BOARD_COUNT as MAX_BOARD_COUNT
from playoff_formats.values import MAX_BOARDS as MAX_BOARDS
from playoff_formats.values import MAX_BRIDGE_SCORE as MAX_BRIDGE_SCORE
from playoff_formats.values import MAX_BYES as MAX_BYES
from playoff_formats.values import MAX_GAME_POINTS as MAX_GAME_POINTS
from playoff_formats.values import MAX_GAMES as MAX_GAMES
from playoff_formats.values import MAX_ID as MAX_ID
from playoff_formats.values import MAX_IMPS as MAX_IMPS
from playoff_formats.values import MAX_MATCHES as MAX_MATCHES
from playoff_formats.values import MAX_NAME as MAX_NAME
from playoff_formats.values import MAX_PLAYERS as MAX_PLAYERS
from playoff_formats.values import MAX_ROUND as MAX_ROUND
from playoff_formats.values import MAX_TEAMS as MAX_TEAMS
from playoff_formats.values import MAX_VPS as MAX_VPS
from playoff_formats.values import BoardResult as BoardResult
from playoff_formats.values import ByeKind as ByeKind
from playoff_formats.values import Colour as Colour
from playoff_formats.values import Result as Result
from playoff_formats.values import Venue as Venue
from playoff_formats.zones import ZONE_EXAMPLE, not_a_zone, zone_names, zone_or_none


class Frozen(BaseModel):
    """Base for immutable models that refuse unknown keys and non-finite numbers."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)


# --------------------------------------------------------------------------- limits
# The bounds themselves (MAX_NAME...) are plain values: see playoff_formats.values.

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
class PlainText(_Bound):
    """Text with no control characters: no line break, tab, NUL or other C0/C1 control,
    no line or paragraph separator, and no bidirectional override or isolate. A name
    goes into records (PGN tags, printed slips) and onto screens: a control in it can
    end a record's line and write another, or make a name read otherwise than it is.
    """

    def check(self, value: Any) -> None:
        for at, char in enumerate(value, start=1):
            if is_control(char):
                raise PydanticCustomError(
                    "control_character",
                    "Input should have no control characters (U+{code} at character {at})",
                    {"code": f"{ord(char):04X}", "at": at},
                )

    def json_schema(self, kind: object) -> dict[str, Any]:
        return {"pattern": CONTROL_FREE}


CONTROL_FREE = "^[^\\x00-\\x1f\\x7f-\\x9f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069]*$"
"""The JSON Schema's pattern for :class:`PlainText` (ECMA-262 syntax)."""


def is_control(char: str) -> bool:
    """A character :class:`PlainText` refuses."""
    code = ord(char)
    return (
        code < 0x20 or 0x7F <= code <= 0x9F or code in (0x2028, 0x2029)
        or 0x202A <= code <= 0x202E or 0x2066 <= code <= 0x2069
    )


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


YEARS_1900_2199 = "^(19|20|21)[0-9][0-9]-"
"""The JSON Schema's pattern for a date from 1900 and before 2200 (its year)."""


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
        return {"pattern": YEARS_1900_2199}


@dataclass(frozen=True)
class ZoneName(_Bound):
    """An IANA time zone's name (``Asia/Tashkent``) that this service can read."""

    def check(self, value: Any) -> None:
        if zone_or_none(value) is None:
            raise PydanticCustomError("time_zone", "{reason}", {"reason": not_a_zone(value)})

    def json_schema(self, kind: object) -> dict[str, Any]:
        # Every name the service reads, so that a client may offer them to choose from.
        return {"enum": list(zone_names()), "examples": ["Asia/Tashkent", ZONE_EXAMPLE]}


def _written_as_text(value: Any) -> Any:
    # A number would be read as seconds since 1970: a date is only ever written as text.
    if isinstance(value, int | float) and not isinstance(value, bool):
        raise PydanticCustomError(
            "datetime_type",
            "Input should be a date and time written as ISO 8601 text, "
            "e.g. 2026-06-20T14:00:00Z, not a number",
        )
    return value


Name = Annotated[str, Field(min_length=1), AtMost(MAX_NAME), PlainText()]
Id = Annotated[str, Field(min_length=1), AtMost(MAX_ID)]
Ref = Annotated[str, AtMost(MAX_ID)]
"""An id named by a game, a bye or a match (checked against the event's ids)."""
Round = Annotated[int, Field(ge=1), Within(1, MAX_ROUND)]
TimeZoneName = Annotated[str, ZoneName()]
"""An IANA time zone (``Europe/London``): every time of day of the event is said in it."""
Instant = Annotated[datetime, InRange()]
"""A date and time from 1900 and before 2200 (a time zone is checked apart). Documents are
read strictly, where a date can only be text."""
AwareInstant = Annotated[AwareDatetime, BeforeValidator(_written_as_text), InRange()]
"""A date and time with its time zone, from 1900 and before 2200, as ISO 8601 text even in
a model validated leniently (an API body), where a number would pass for a date."""


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
    regulation: Ref = DEFAULT_INDIVIDUAL_REGULATION
    players: Annotated[list[Player], Field(min_length=2), AtMost(MAX_PLAYERS)]
    games: Annotated[list[Game], AtMost(MAX_GAMES)] = Field(default_factory=list)
    byes: Annotated[list[Bye], AtMost(MAX_BYES)] = Field(default_factory=list)
    start_date: date | None = Field(
        default=None,
        description="The first day of the event (TRF record 042): the FIDE tie-break "
        "rules applied are those in force on it",
    )
    time_zone: TimeZoneName | None = Field(
        default=None,
        description="The IANA time zone the event is played in (Asia/Tashkent): every "
        "time of day of its play-offs is given in it",
    )

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

    Chess boards are results from the home team's side (a forfeit, ``+/-``, for a
    board its player did not play or left empty); bridge boards are the
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

    @property
    def played(self) -> bool:
        """True unless every board of a chess match is a forfeit (a match forfeited
        whole); a match given by totals only counts as played."""
        boards = self.chess_boards
        return not boards or any(b.played for b in boards)

    def side_of(self, team_id: str) -> int:
        """0 for the home team, 1 for the away team."""
        return 0 if team_id == self.home else 1

    def opponent_of(self, team_id: str) -> str:
        return self.away if team_id == self.home else self.home


class TeamBye(Frozen):
    """A round in which a chess team was not paired.

    It scores by its ``kind``: ``full``, a match won (2 match points) and the game
    point of every board; ``half``, a drawn match and half the boards; ``zero``,
    nothing (the team was absent); ``pairing-allocated``, a drawn match and the
    game point of every board, as TRF-2026 scores a team's pairing-allocated bye
    by default. Every board is as many as the most boards a match of the event has.
    """

    round: Round
    team: Ref
    kind: ByeKind


class TeamEvent(Frozen):
    """A finished team event: the teams, every match and, in chess, the byes."""

    name: Name
    kind: Literal["team"] = "team"
    regulation: Ref = "county1980"
    teams: Annotated[list[Team], Field(min_length=2), AtMost(MAX_TEAMS)]
    matches: Annotated[list[TeamMatch], AtMost(MAX_MATCHES)] = Field(default_factory=list)
    time_zone: TimeZoneName | None = Field(
        default=None,
        description="The IANA time zone the event is played in (Asia/Tashkent): every "
        "time of day of its play-offs is given in it",
    )
    byes: Annotated[list[TeamBye], AtMost(MAX_BYES)] = Field(default_factory=list)

    def team(self, team_id: str) -> Team:
        for team in self.teams:
            if team.id == team_id:
                return team
        raise KeyError(team_id)

    @property
    def is_bridge(self) -> bool:
        return any(m.is_bridge for m in self.matches)


Event = IndividualEvent | TeamEvent
