"""The bodies the routes read and the answers they give, as models of the OpenAPI
description."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi.responses import PlainTextResponse
from pydantic import BaseModel, ConfigDict, Field, StrictBool

from playoff_formats.errors import InputError
from playoff_formats.formats import BUILT_IN, PlayoffFormat, built_in
from playoff_formats.formats.custom import format_from_document
from playoff_formats.model import (
    MAX_BOARD_COUNT,
    MAX_ID,
    AwareInstant,
    Ref,
    TimeZoneName,
)

MAX_LABEL = 100
"""Characters in a token's label."""
MAX_PLACES = 1000
"""Prizes or tour points by place, at most."""
MAX_MONEY = 10**12
"""The largest prize (in any currency) or number of tour points."""
MAX_SEQ = 2**62
"""The largest sequence number a log can reach (SQLite integers are 64 bits)."""




# --------------------------------------------------------------------------- bodies


class Body_(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


Money = Annotated[float, Field(ge=0, le=MAX_MONEY)]


class TokenRequest(Body_):
    role: Literal["arbiter", "display", "board", "broadcast"]
    label: str = Field(default="", max_length=MAX_LABEL)
    playoff: str | None = Field(
        default=None, max_length=64, description="A board key's play-off"
    )
    match: int | None = Field(default=None, ge=1, le=1000, description="A board key's match")
    language: Literal["en", "es", "fr", "de", "ru", "en-XA"] | None = Field(
        default=None,
        description="The language the screens (a display key) or the tablet (a board key) "
        "open in; a screen's ?lang= overrides it",
    )


class PlayoffRequest(Body_):
    prizes: list[Money] = Field(default_factory=list, max_length=MAX_PLACES)
    points: list[Money] = Field(default_factory=list, max_length=MAX_PLACES)
    deadline: AwareInstant | None = None
    not_before: AwareInstant | None = None
    generic: StrictBool = False
    format: str | dict[str, Any] | None = Field(
        default=None,
        description="The organiser's own play-off format in place of the regulation's: a "
        "built-in format's name, or a format document (`playoff schema --playoff-format`)",
    )
    time_zone: TimeZoneName | None = Field(
        default=None,
        description="The IANA time zone the play-off is played in (Asia/Tashkent), in "
        "place of the event's or its regulation's: for a TRF upload, which names none",
    )


def _playoff_format(value: str | dict[str, Any] | None, at: str = "format") -> PlayoffFormat | None:
    """The format a play-off request names or gives; 422 with its path if refused.

    ``at`` is where the format is in the body: under ``format`` in a JSON request,
    the body itself when the body is the format (a TOML document)."""
    if value is None:
        return None
    if isinstance(value, str):
        found = built_in(value)
        if found is not None:
            return found
        known = ", ".join(BUILT_IN)
        if len(value) > MAX_ID or not value.strip() or any(c in value for c in "\n=[{"):
            # A document sent as a name (a TOML file pasted into the JSON): never echoed.
            raise InputError(
                f"a built-in format's name ({known}) or a format document as a JSON "
                f"object; {_A_TOML_FORMAT}", path=at,
            )
        raise InputError(f"no built-in play-off format {value!r}; known: {known}", path=at)
    return format_from_document(value, "", at=at)


TOML = "application/toml"
"""The media type of a TOML document, as the TOML specification names it."""

_A_TOML_FORMAT = (
    f"a format written in TOML is sent as the body itself, with Content-Type: {TOML}"
)


class ExtraBoardsRequest(Body_):
    home: Ref
    away: Ref
    scheduled: int = Field(ge=1, le=MAX_BOARD_COUNT, description="Boards scheduled in the match")
    competition: str | None = Field(
        default=None, max_length=MAX_ID, description="hubert-phillips-bowl"
    )
    stage_boards: int | None = Field(default=None, ge=1, le=MAX_BOARD_COUNT)
    time_zone: TimeZoneName | None = Field(
        default=None,
        description="The IANA time zone the extra boards are played in, in place of the "
        "event's or its regulation's",
    )


# --------------------------------------------------------------------------- answers


class _Open(BaseModel):
    """An answer whose objects may carry more than the fields described."""

    model_config = ConfigDict(extra="allow")


class EventCreatedAnswer(BaseModel):
    id: str
    chief_token: str = Field(description="The chief arbiter's token, shown this once")


class PendingGameAnswer(BaseModel):
    round: int
    white: str
    black: str


class EventAnswer(BaseModel):
    id: str
    seq: int
    name: str
    kind: Literal["individual", "team"]
    regulation: str
    time_zone: str | None = Field(
        default=None, description="The IANA time zone the event names (null: none)"
    )
    playoffs: list[str]
    pending: list[PendingGameAnswer] = Field(
        description="Games paired but not yet finished: the standings are final without any"
    )
    hall_foresight: bool = Field(description="The hall display shows the play-off watch")


class GameResultRequest(Body_):
    round: int = Field(ge=1, le=1000)
    white: Ref
    black: Ref
    result: Literal["1-0", "0-1", "1/2-1/2", "+/-", "-/+", "-/-"]
    ended_at: AwareInstant | None = Field(
        default=None, description="When the game ended; without it, when it is recorded"
    )


class HallForesightRequest(Body_):
    on: StrictBool = Field(description="Show the play-off watch on the hall display, or hide it")


class ForesightPlayer(BaseModel):
    id: str
    name: str
    first_alone: float = Field(description="Outcomes in which the player is first alone")
    in_playoff: float = Field(description="Outcomes in which the player plays off for first")
    p_first_alone: float
    p_in_playoff: float


class ForesightAnswer(BaseModel):
    """Every outcome of the pending games under the event's regulation (counts), and
    how likely (probabilities under ``model``)."""

    regulation: str
    pending: list[PendingGameAnswer]
    outcomes: int
    exact: bool
    playoff_outcomes: float
    probability: float
    model: str
    players: list[ForesightPlayer]
    conditions: list[str]
    sample: int | None = None
    error: float | None = None


class BroadcastFeed(BaseModel):
    playoff: str
    title: str = Field(description="The play-off as people know it")
    link: str = Field(description="The feed's address, the key in its query: what a "
                      "broadcast platform polls")


class TokenAnswer(BaseModel):
    role: Literal["arbiter", "display", "board", "broadcast"]
    token: str
    playoff: str | None = None
    match: int | None = None
    link: str | None = Field(
        default=None, description="A board key: its board clock page, the key after #key="
    )
    qr_svg: str | None = Field(
        default=None, description="A board key: the QR code of the link's absolute address"
    )
    feeds: list[BroadcastFeed] | None = Field(
        default=None, description="A broadcast key: the feed of each play-off of the event"
    )


class StandingsAnswer(_Open):
    regulation: str
    standings: list[dict[str, Any]]
    playoff: list[str]
    unresolved: list[list[str]]
    explanation: list[str]
    steps: list[dict[str, Any]]


class PlayoffAnswer(_Open):
    """The play-off: a knock-out (bracket, games, draws) or extra boards."""

    id: str
    kind: Literal["knock-out", "extra-boards"]
    event_id: str
    seq: int
    regulation: str
    name: str
    names: dict[str, str]
    schedule: dict[str, Any] | None = Field(
        description="Every planned time with the offset of the play-off's zone in force at "
        "it (2026-10-25T01:30:00+01:00), or why there is no plan"
    )
    time_zone: str | None = Field(
        default=None,
        description="The play-off's IANA time zone (null: a fixed offset from UTC, for a "
        "play-off created before zones)",
    )
    changes: list[dict[str, Any]]
    updated_at: str | None


class LoggedEvent(_Open):
    """An event as logged, with what travels beside it (a clock as it stands...)."""

    stream: str
    seq: int
    type: str
    data: dict[str, Any]
    actor: str | None
    recorded_at: str
    command_id: str | None


class CommandAnswer(BaseModel):
    seq: int = Field(description="The play-off's sequence number after the command")
    events: list[LoggedEvent]


class LogAnswer(BaseModel):
    events: list[LoggedEvent]


class JobsAnswer(BaseModel):
    jobs: list[dict[str, Any]]


class PlacingsAnswer(_Open):
    players: list[dict[str, Any]]
    awaiting_playoff: list[str]
    notes: list[str]


class PgnResponse(PlainTextResponse):
    media_type = "application/x-chess-pgn"


IDEMPOTENCY_KEY_PARAMETER: dict[str, Any] = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "description": (
        "A key of the client's choosing, scoped to the token that sends it: the same "
        "request sent again with the same key is answered as the first time, and applied "
        "once; the key sent with another request (another method, path or body) is "
        "refused with 422"
    ),
    "schema": {"type": "string"},
}
"""The ``Idempotency-Key`` header in an OpenAPI description, where a route accepts it."""


