"""The events of a main event's stream (``event-{id}``): the event, its results, its
play-offs and its tokens."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from orchestrator.core.auth import Role, TokenRecord
from orchestrator.core.events.base import (
    Instant,
    Stamp,
    _check_exists,
    _check_new,
    _Event,
    _fold,
)
from orchestrator.core.state import EventState
from playoff_formats.errors import PlayoffError
from playoff_formats.foresight import PendingGame
from playoff_formats.io.json_event import parse_event
from playoff_formats.model import Game as MainEventGame
from playoff_formats.model import IndividualEvent, Result


class TokenData(BaseModel):
    """A token as logged: its id, role, label and hash; never the token itself."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    token_id: str
    role: Role
    label: str
    digest: str

    def record(self) -> TokenRecord:
        return TokenRecord(
            token_id=self.token_id, role=self.role, label=self.label, digest=self.digest
        )


class PendingGameData(BaseModel):
    """A paired game of the main event with no result yet, as logged."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    round: int = Field(ge=1)
    white: str
    black: str

    def game(self) -> PendingGame:
        return PendingGame(self.round, self.white, self.black)


class EventCreated(_Event):
    """A main event was uploaded; its chief arbiter's token was issued.

    ``event_json`` holds the finished games; ``pending`` the games paired but not
    yet finished (logs written before pending games were accepted have none)."""

    type: Literal["event-created"] = "event-created"
    id: str
    event_json: str = Field(description="The event in the JSON event format")
    chief: TokenData
    pending: tuple[PendingGameData, ...] = ()

    def log_data(self) -> dict[str, Any]:
        data = self.model_dump(mode="json", exclude={"type"})
        if not self.pending:
            # An event uploaded finished is logged as before pending games existed.
            del data["pending"]
        return data

    def create(self, stamp: Stamp) -> EventState:
        # Logged once accepted: never refused again on reading (a rule may have changed).
        event = parse_event(self.event_json, "stored event", check_regulation=False)
        return EventState(
            id=self.id, seq=stamp.seq, event=event, tokens=(self.chief.record(),),
            pending=tuple(p.game() for p in self.pending),
        )


class GameResultRecorded(_Event):
    """The result of a pending game of the main event arrived.

    The game joins the event's finished games; the standings, and any play-off,
    are computed on them once no game is pending."""

    type: Literal["game-result-recorded"] = "game-result-recorded"
    round: int = Field(ge=1)
    white: str
    black: str
    result: Result
    ended_at: Instant

    def apply(self, state: EventState, stamp: Stamp) -> EventState:
        game = PendingGame(self.round, self.white, self.black)
        if game not in state.pending:
            raise PlayoffError(_not_pending(state, game))
        if not isinstance(state.event, IndividualEvent):
            raise PlayoffError("only the games of an individual event can be pending")
        played = MainEventGame(
            round=self.round, white=self.white, black=self.black, result=self.result,
            ended_at=self.ended_at,
        )
        event = state.event.model_copy(update={"games": [*state.event.games, played]})
        return replace(
            state, seq=stamp.seq, event=event,
            pending=tuple(p for p in state.pending if p != game),
        )


def _not_pending(state: EventState, game: PendingGame) -> str:
    event = state.event
    names = {p.id: p.name for p in event.players} if isinstance(event, IndividualEvent) else {}

    def who(pid: str) -> str:
        return f"{names[pid]} ({pid})" if pid in names else repr(pid)

    finished = next(
        (g for g in event.games if isinstance(g, MainEventGame) and g.round == game.round
         and {g.white, g.black} == {game.white, game.black}),
        None,
    ) if isinstance(event, IndividualEvent) else None
    what = f"round {game.round}, {who(game.white)} against {who(game.black)}"
    if finished is not None:
        return f"{what} is not pending: its result {finished.result.value} is already recorded"
    if not state.pending:
        return f"{what} is not a pending game: every game of the event has its result"
    if PendingGame(game.round, game.black, game.white) in state.pending:
        return f"{what} is not pending as given: in that game {who(game.black)} has White"
    listed = "; ".join(
        f"round {p.round}: {who(p.white)} - {who(p.black)}" for p in state.pending[:8]
    )
    return f"{what} is not a pending game of the event; pending: {listed}"


class HallForesightSet(_Event):
    """The chief arbiter switched the play-off watch line on the hall display on or off."""

    type: Literal["hall-foresight-set"] = "hall-foresight-set"
    on: bool

    def apply(self, state: EventState, stamp: Stamp) -> EventState:
        if state.hall_foresight == self.on:
            raise PlayoffError(
                "the play-off watch is already " + ("shown" if self.on else "hidden")
                + " in the hall"
            )
        return replace(state, seq=stamp.seq, hall_foresight=self.on)


class TokenIssued(TokenData):
    """The chief arbiter issued an arbiter token or a display key, or an arbiter a
    board key (with its ``playoff`` and ``match``; older logs have neither)."""

    type: Literal["token-issued"] = "token-issued"
    playoff: str | None = None
    match: int | None = Field(default=None, ge=1)
    language: str | None = Field(default=None, max_length=35)

    def log_data(self) -> dict[str, Any]:
        # A key of the whole event is logged as before board keys existed.
        return self.model_dump(mode="json", exclude={"type"}, exclude_none=True)

    def record(self) -> TokenRecord:
        return TokenRecord(
            token_id=self.token_id, role=self.role, label=self.label, digest=self.digest,
            playoff=self.playoff, match=self.match, language=self.language,
        )

    def apply(self, state: EventState, stamp: Stamp) -> EventState:
        return replace(state, seq=stamp.seq, tokens=(*state.tokens, self.record()))


class PlayoffLinked(_Event):
    """A play-off (or extra boards) was created from the event."""

    type: Literal["playoff-linked"] = "playoff-linked"
    playoff_id: str

    def apply(self, state: EventState, stamp: Stamp) -> EventState:
        return replace(state, seq=stamp.seq, playoffs=(*state.playoffs, self.playoff_id))


EventStreamEvent = Annotated[
    EventCreated | TokenIssued | PlayoffLinked | GameResultRecorded | HallForesightSet,
    Field(discriminator="type"),
]
_EVENT_STREAM: TypeAdapter[EventStreamEvent] = TypeAdapter(EventStreamEvent)


def parse_event_stream_event(type_: str, data: Mapping[str, Any]) -> EventStreamEvent:
    return _EVENT_STREAM.validate_python({**data, "type": type_})


def apply_event(state: EventState | None, event: EventStreamEvent, stamp: Stamp) -> EventState:
    """The event's state after ``event``; :class:`PlayoffError` if it is not allowed."""
    if isinstance(event, EventCreated):
        _check_new(state, "the event")
        return event.create(stamp)
    return event.apply(_check_exists(state, event.type, "the event"), stamp)


def fold_event(events: Iterable[tuple[EventStreamEvent, Stamp]]) -> EventState:
    return _fold(events, apply_event, "no such event")


