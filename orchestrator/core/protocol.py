"""The websocket protocol's frames, typed both ways (docs/protocol.md).

:data:`ClientFrame` is what a client may send (``hello``, ``cmd``, ``ping``,
``pong``); :data:`ServerFrame` what the server sends. The hub encodes its frames
by hand for speed (one encoding per event for every display); these models are
the contract they follow, checked by the tests, and the source of the JSON Schema
that ``playoff schema --frames`` prints.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from orchestrator.core.commands import Command
from orchestrator.core.events import EventStreamEvent, PlayoffEvent
from orchestrator.core.refusals import RefusalKind
from orchestrator.views.playoff import ClockView

__all__ = [
    "Ack",
    "ClientFrame",
    "Cmd",
    "ErrorCode",
    "ErrorFrame",
    "EventFrame",
    "Hello",
    "HelloData",
    "Ping",
    "Pong",
    "ServerFrame",
    "Snapshot",
    "ViewFrame",
    "Welcome",
    "events_schema",
    "frames_schema",
]


class _Frame(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# --------------------------------------------------------------------------- client to server


class HelloData(_Frame):
    token: str = Field(description="An arbiter token or a display key (never in the URL)")
    last_seq: int | None = Field(
        default=None, ge=0, description="The last seq the client saw, to resume from"
    )
    client: str = Field(default="", max_length=100, description="A name for the server's logs")
    instance: str | None = Field(
        default=None, max_length=64,
        description="The client's own random id, the same in each of its hellos: a "
        "reconnection replaces the connection the server still holds for it (one it "
        "has not yet seen die), which the limits of connections would otherwise count",
    )
    view: Literal["hall", "arbiter", "none"] | None = Field(
        default=None,
        description="The view to receive as view frames (default: the role's: a display "
        "gets the hall's, an arbiter the console's; a display cannot have the console's)",
    )
    language: str | None = Field(
        default=None, max_length=35,
        description="The language to word the views in (es, fr, de, ru, en, en-XA), in "
        "place of the key's own (a hall screen's ?lang=); one the service does not speak "
        "is taken as the key's",
    )
    screen: Literal["hall"] | None = Field(
        default=None,
        description="A hall screen, whose address everyone in the hall can read, says so: "
        "it takes a display key only, and a token that can send commands is refused (4403)",
    )


class Hello(_Frame):
    """The first frame, within 5 seconds of connecting."""

    t: Literal["hello"]
    d: HelloData


class Cmd(_Frame):
    """A command; answered by ``ack`` once its events are durable, or ``error``."""

    t: Literal["cmd"]
    id: str = Field(min_length=1, max_length=64, description="Chosen by the client, echoed")
    d: Command


class Ping(_Frame):
    t: Literal["ping"]
    seq: int | None = None
    d: dict[str, int] | None = Field(default=None, description='{"server_ms": ...} from the server')


class Pong(_Frame):
    t: Literal["pong"]
    seq: int | None = None
    d: dict[str, int] | None = None


ClientFrame = Annotated[Hello | Cmd | Ping | Pong, Field(discriminator="t")]


# --------------------------------------------------------------------------- server to client


class WelcomeData(_Frame):
    role: Literal["chief", "arbiter", "display"]
    server_ms: int
    language: str = Field(
        default="en", description="The language the views of this connection are worded in"
    )
    words: dict[str, str] | None = Field(
        default=None,
        description="The words the page writes itself (its labels), in that language, by "
        "their English; null in English",
    )
    heartbeat_ms: int
    max_frame_bytes: int


class Welcome(_Frame):
    t: Literal["welcome"]
    seq: int
    d: WelcomeData


class EventOnWire(_Frame):
    """A logged event as clients get it, with what is derived from it beside it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: str = Field(description="The event's type (see playoff schema --events)")
    data: dict[str, Any] = Field(description="The event's fields, as logged")
    at: str = Field(description="When it was logged (server time, ISO 8601)")
    actor: str | None
    clock: ClockView | None = Field(
        default=None, description="The clock as it stands after the event (clock events)"
    )
    armageddon: dict[str, Any] | None = Field(
        default=None, description="The Armageddon's terms (its colours chosen, its start)"
    )


class EventFrame(_Frame):
    t: Literal["event"]
    seq: int
    d: EventOnWire


class SnapshotData(_Frame):
    state: dict[str, Any] = Field(description="What GET /api/playoffs/{id} gives")
    clocks: list[ClockView]


class Snapshot(_Frame):
    t: Literal["snapshot"]
    seq: int
    d: SnapshotData


class ViewFrame(_Frame):
    """What a screen shows, computed once per seq on the server: the hall's or the
    console's view (``d.view``)."""

    t: Literal["view"]
    seq: int
    d: dict[str, Any]


class AckData(_Frame):
    seqs: list[int]


class Ack(_Frame):
    t: Literal["ack"]
    id: str
    seq: int
    d: AckData


ErrorCode = Literal[
    "bad-frame", "bad-command", "read-only", "forbidden", "conflict", "rate-limited",
    "too-large", "unavailable",
]


class ErrorData(_Frame):
    code: ErrorCode
    reason: str
    retry_after_s: int | None = None
    """With ``unavailable``: when to send the command again (with the same id)."""
    kind: RefusalKind | None = None
    """With ``conflict``: a refusal a screen tells apart (:mod:`orchestrator.core.refusals`)."""


class ErrorFrame(_Frame):
    t: Literal["error"]
    id: str | None = None
    seq: int
    d: ErrorData


ServerFrame = Annotated[
    Welcome | EventFrame | Snapshot | ViewFrame | Ack | ErrorFrame | Ping | Pong,
    Field(discriminator="t"),
]

_CLIENT: TypeAdapter[ClientFrame] = TypeAdapter(ClientFrame)
_SERVER: TypeAdapter[ServerFrame] = TypeAdapter(ServerFrame)


def frames_schema(views: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """The JSON Schema of the frames both ways, with the views' own schemas."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Play-off websocket protocol v1",
        "client_to_server": _CLIENT.json_schema(),
        "server_to_client": _SERVER.json_schema(),
        "views": views or {},
    }


def events_schema() -> dict[str, Any]:
    """The JSON Schema of the logged events: a main event's stream and a play-off's."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Play-off event log v1",
        "event_stream": TypeAdapter(EventStreamEvent).json_schema(),
        "playoff_stream": TypeAdapter(PlayoffEvent).json_schema(),
    }


def parse_server_frame(text: str) -> ServerFrame:
    """A server frame checked against the contract (for tests and clients)."""
    return _SERVER.validate_json(text)

