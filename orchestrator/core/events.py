"""The typed events of the log, and the fold that turns them into state.

Every logged event is a frozen model of the discriminated unions
:data:`EventStreamEvent` (a main event's stream) and :data:`PlayoffEvent` (a
play-off's stream). An event applies itself to the state it follows
(``event.apply(state, stamp)``), as a move applies itself to a board; the fold
(:func:`apply_playoff`, :func:`fold_playoff`) is only that, event after event.
An event that is not an allowed transition from the state raises
:class:`~playoff_formats.errors.PlayoffError`, and the command layer applies the
same events before logging them, so the log only ever holds events that fold.

What each kind of event means for the rest of the service is said once, here, as
class attributes: :attr:`PlayoffEventBase.clock_only` (changes a clock and
nothing the schedule depends on), :attr:`PlayoffEventBase.schedule_override`
(an arbiter's change to the schedule, refused when the plan cannot follow) and
:attr:`PlayoffEventBase.arbiter_change` (listed among the changes by arbiters).

The log holds the facts only. Derived data (the clock as it stands after an
event, the Armageddon's terms) goes on the wire, computed from the state
(:mod:`orchestrator.views`). Logs written before events were typed carried such
data inside the event; :func:`parse_playoff_event` drops it on reading.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Annotated, Any, ClassVar, Literal, NamedTuple, TypeVar, get_args

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, PlainSerializer, TypeAdapter

from orchestrator.core.auth import Role, TokenRecord
from orchestrator.core.state import ArbiterChange, Draw, EventState, PlayoffState
from playoff_formats.builders.stanzas import StanzaPlan
from playoff_formats.clock import Clock, ClockStatus, FlagFellError
from playoff_formats.errors import PlayoffError
from playoff_formats.extra_boards import ExtraBoards, TableScore
from playoff_formats.foresight import PendingGame
from playoff_formats.io.json_event import parse_event
from playoff_formats.model import Colour, IndividualEvent, Result
from playoff_formats.model import Game as MainEventGame
from playoff_formats.phrase import Player, phrase
from playoff_formats.playoff import (
    Playoff,
    champion,
    choose_decider_colours,
    correct_result,
    decide_by_lot,
    record_result,
    set_stage_colours,
    start_match,
)
from playoff_formats.schedule import PinnedStart, TimeControlChange
from playoff_formats.schedule.words import instant
from playoff_formats.timecontrol import TimeControl

__all__ = [
    "ARBITER_CHANGE_EVENTS",
    "ArmageddonColoursChosen",
    "BoardScoreCorrected",
    "BoardScored",
    "ClockAdjusted",
    "ClockPaused",
    "ClockPressed",
    "ClockResumed",
    "CoinTossed",
    "DeadlineSet",
    "EventCreated",
    "EventStreamEvent",
    "ExtraBoardsCreated",
    "FlagFell",
    "GameResultRecorded",
    "GameStarted",
    "HallForesightSet",
    "LotsDrawn",
    "PendingGameData",
    "PlayoffCreated",
    "PlayoffEvent",
    "PlayoffLinked",
    "Postponed",
    "ResultCorrected",
    "ResultRecorded",
    "Stamp",
    "StanzaAdvanced",
    "StartMoved",
    "TimeControlRestored",
    "TimeControlShortened",
    "TokenIssued",
    "TransitionFired",
    "VoidedGame",
    "apply_event",
    "apply_playoff",
    "fold_event",
    "fold_playoff",
    "parse_event_stream_event",
    "parse_playoff_event",
]


Instant = Annotated[AwareDatetime, PlainSerializer(lambda t: t.isoformat(), when_used="json")]
"""A timezone-aware instant, logged as ISO 8601 with its offset (``+00:00``)."""


_UTC = timedelta(0)


class Stamp(NamedTuple):
    """Where and when an event was logged: its seq in its stream, the server time,
    and who made it."""

    seq: int
    recorded_at: datetime
    actor: str | None = None


class _Event(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    type: str

    def log_data(self) -> dict[str, Any]:
        """The event's data as logged (everything but its type)."""
        return self.model_dump(mode="json", exclude={"type"})


# --------------------------------------------------------------------------- event streams


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
    """The chief arbiter issued an arbiter token or a display key."""

    type: Literal["token-issued"] = "token-issued"

    def log_data(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude={"type"})

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


_State = TypeVar("_State")
_Logged = TypeVar("_Logged")


def _check_new(state: object | None, what: str) -> None:
    if state is not None:
        raise PlayoffError(f"{what} already exists")


def _check_exists(state: _State | None, event_type: str, what: str) -> _State:
    if state is None:
        raise PlayoffError(f"{event_type} before {what} was created")
    return state


def _fold(
    events: Iterable[tuple[_Logged, Stamp]],
    apply: Callable[[_State | None, _Logged, Stamp], _State],
    missing: str,
) -> _State:
    state: _State | None = None
    for event, stamp in events:
        state = apply(state, event, stamp)
    if state is None:
        raise PlayoffError(missing)
    return state


# --------------------------------------------------------------------------- play-offs


class PlayoffEventBase(_Event):
    """An event of a play-off's stream."""

    clock_only: ClassVar[bool] = False
    """Changes a clock and nothing the schedule depends on."""

    schedule_override: ClassVar[bool] = False
    """An arbiter's change to the schedule: refused when the plan cannot follow it."""

    arbiter_change: ClassVar[bool] = False
    """A change made by hand, listed with its reason for everyone to see (each such
    event, or those :attr:`listed` says are)."""

    @property
    def listed(self) -> bool:
        """This event is listed among the changes by arbiters (:attr:`arbiter_change`,
        or, for an event that is one only sometimes, this one is)."""
        return self.arbiter_change

    def apply(self, state: PlayoffState, stamp: Stamp) -> PlayoffState:
        raise NotImplementedError

    def describe(self, names: Mapping[str, str], utc_offset: timedelta = _UTC) -> str:
        """The event in words, the players by their names (every change an arbiter makes
        by hand says this)."""
        raise NotImplementedError

    def _next(self, state: PlayoffState, stamp: Stamp, **changes: Any) -> PlayoffState:
        """One copy of the state per event: only what the event changes."""
        if self.listed:
            assert isinstance(self, ARBITER_CHANGE_EVENTS)
            entry = ArbiterChange(stamp.seq, stamp.recorded_at, stamp.actor, self)
            changes["changes"] = (*state.changes, entry)
        return replace(state, seq=stamp.seq, updated_at=stamp.recorded_at, **changes)


class GameEvent(PlayoffEventBase):
    """An event about one game (for bridge extra boards: match 1, the stanza)."""

    match: int = Field(ge=1)
    game: int = Field(ge=1)

    @property
    def key(self) -> tuple[int, int]:
        return (self.match, self.game)


class ClockEvent(GameEvent):
    """An event that acts on a game's clock at a server instant (``at_ms``)."""

    at_ms: int = Field(description="Server time of the event, in ms (the clocks' time)")

    def step(self, clock: Clock) -> Clock:
        raise NotImplementedError

    def apply(self, state: PlayoffState, stamp: Stamp) -> PlayoffState:
        clock = state.clocks.get(self.key)
        if clock is None:
            raise PlayoffError(
                f"match {self.match}, game {self.game} has no running clock: start it first"
            )
        return self._next(state, stamp, clocks={**state.clocks, self.key: self.step(clock)})


# --- creation


class PlayoffCreated(PlayoffEventBase):
    """A chess play-off was built from the tiebreaks' seeding."""

    type: Literal["playoff-created"] = "playoff-created"
    id: str
    event_id: str
    regulation: str
    playoff: Playoff
    names: dict[str, str]
    main_event_ended: dict[str, Instant]
    prizes: tuple[str, ...] = ()
    points: tuple[str, ...] = ()
    deadline: Instant | None = None
    not_before: Instant | None = None
    seeding_draw: tuple[dict[str, Any], ...] = Field(
        default=(), description="Lots drawn between players level after every tiebreak"
    )
    utc_offset: timedelta = Field(
        default=timedelta(0), description="The hall's offset from UTC (times of day in words)"
    )

    def create(self, stamp: Stamp) -> PlayoffState:
        return PlayoffState(
            id=self.id,
            event_id=self.event_id,
            seq=stamp.seq,
            regulation=self.regulation,
            playoff=self.playoff,
            names=dict(self.names),
            main_event_ended=dict(self.main_event_ended),
            prizes=self.prizes,
            points=self.points,
            deadline=self.deadline,
            not_before=self.not_before,
            updated_at=stamp.recorded_at,
            utc_offset=self.utc_offset,
        )


class ExtraBoardsCreated(PlayoffEventBase):
    """Extra boards for a tied bridge knock-out match (EBU 143.2.1)."""

    type: Literal["extra-boards-created"] = "extra-boards-created"
    id: str
    event_id: str
    rule: str
    home: str
    away: str
    names: dict[str, str]
    plan: StanzaPlan
    scheduled: int = Field(ge=1)
    not_before: Instant | None = None
    deadline: Instant | None = None
    utc_offset: timedelta = Field(
        default=timedelta(0), description="The hall's offset from UTC (times of day in words)"
    )

    def create(self, stamp: Stamp) -> PlayoffState:
        return PlayoffState(
            id=self.id,
            event_id=self.event_id,
            seq=stamp.seq,
            regulation=self.rule,
            playoff=None,
            names=dict(self.names),
            main_event_ended={},
            not_before=self.not_before,
            deadline=self.deadline,
            extra=ExtraBoards.start(self.home, self.away, self.plan),
            updated_at=stamp.recorded_at,
            utc_offset=self.utc_offset,
        )


# --- lots and colours


class LotsDrawn(PlayoffEventBase):
    """Lots for White in the first game of a stage whose colours are drawn (``game``:
    1, the match's first game, in logs written before stages were data); the
    stage's games alternate from it."""

    type: Literal["lots-drawn"] = "lots-drawn"
    match: int = Field(ge=1)
    white: str
    black: str
    draw: dict[str, Any] = Field(description="The published draw (commit-reveal or physical)")
    game: int = Field(default=1, ge=1, description="The game the drawing is for")

    def apply(self, state: PlayoffState, stamp: Stamp) -> PlayoffState:
        if self.game == 1 and state.begun(self.match):
            raise PlayoffError(
                f"match {self.match} has begun: the colours of game 1 can no longer change"
            )
        if (self.match, self.game) in state.started_at:
            raise PlayoffError(
                f"match {self.match}, game {self.game} has begun: its colours can no longer "
                "change"
            )
        playoff = set_stage_colours(state.chess, self.match, self.game, self.white, self.black)
        draw = Draw(
            stamp.seq, "lots", self.match, self.draw, white=self.white, black=self.black,
            game=self.game,
        )
        return self._next(state, stamp, playoff=playoff, draws=(*state.draws, draw))


class CoinTossed(PlayoffEventBase):
    """The coin toss of a match's decider: its winner chooses the colours of the
    decider game; where the decider is a drawing of lots, its winner advances."""

    type: Literal["coin-tossed"] = "coin-tossed"
    match: int = Field(ge=1)
    winner: str
    draw: dict[str, Any]

    def apply(self, state: PlayoffState, stamp: Stamp) -> PlayoffState:
        match = state.chess.match(self.match)
        if self.winner not in match.players:
            raise PlayoffError(
                phrase(Player(self.winner), f" does not play in match {match.id}")
            )
        rules = match.rules
        draw = Draw(stamp.seq, "coin-toss", match.id, self.draw, winner=self.winner)
        decider = rules.decider
        if decider is not None and decider.by_lot:
            playoff = decide_by_lot(state.chess, match.id, self.winner)
            return self._next(state, stamp, playoff=playoff, draws=(*state.draws, draw))
        name = decider.name if decider is not None else "decider"
        game = state.chess.game(match.id, rules.decider_number)
        if game is None or not game.kind.decider:
            games = "two" if rules.regular_games == 2 else str(rules.regular_games)
            raise PlayoffError(
                f"match {match.id} needs no {name}: it is not level after {games} games"
            )
        if decider is not None and decider.game_kind is not None and not decider.tossed:
            raise PlayoffError(
                f"the colours of the {name} of match {match.id} are drawn by lots, not tossed for"
            )
        if game.white is not None:
            raise PlayoffError(f"the {name} colours of match {match.id} are already chosen")
        return self._next(state, stamp, draws=(*state.draws, draw))


class ArmageddonColoursChosen(PlayoffEventBase):
    """The toss winner's choice of colour for the decider game (the Armageddon)."""

    type: Literal["armageddon-colours-chosen"] = "armageddon-colours-chosen"
    match: int = Field(ge=1)
    white: str
    black: str

    def apply(self, state: PlayoffState, stamp: Stamp) -> PlayoffState:
        if not state.draws_of("coin-toss", self.match):
            decider = state.chess.match(self.match).rules.decider
            rule = decider.colours_citation if decider is not None else ""
            raise PlayoffError(
                f"toss the coin for match {self.match} first: the winner of the toss chooses "
                "the colours" + (f" ({rule})" if rule else "")
            )
        playoff = choose_decider_colours(state.chess, self.match, self.white, self.black)
        return self._next(state, stamp, playoff=playoff)


# --- games and clocks


class GameStarted(GameEvent):
    """A game starts; with ``at_ms``, White's clock runs from that instant.

    ``override``: the chief arbiter's reason for starting it before the rest the
    regulation owes the players (the format's breaks), and ``overridden`` the rules so
    set aside, in words; ``warnings``: the preferences it does not keep (an
    interval under 10 minutes). An overridden start is listed among the changes
    by arbiters.
    """

    type: Literal["game-started"] = "game-started"
    arbiter_change: ClassVar[bool] = True
    at_ms: int | None = None
    override: str | None = None
    overridden: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()

    @property
    def listed(self) -> bool:
        return self.override is not None

    def describe(self, names: Mapping[str, str], utc_offset: timedelta = _UTC) -> str:
        return (
            f"match {self.match}, game {self.game} started early: "
            + "; ".join(self.overridden)
        )

    def apply(self, state: PlayoffState, stamp: Stamp) -> PlayoffState:
        key = self.key
        game = state.chess.game(*key)
        if game is None:
            raise PlayoffError(f"match {key[0]} has no game {key[1]} to start")
        if game.white is None:
            raise PlayoffError(
                f"match {key[0]}, game {key[1]}: draw the colours before the game starts"
            )
        if key in state.started_at:
            raise PlayoffError(f"match {key[0]}, game {key[1]} has already started")
        if game.result is not None:
            raise PlayoffError(f"match {key[0]}, game {key[1]} is already over")
        previous = state.chess.game(key[0], key[1] - 1) if key[1] > 1 else None
        if previous is not None and previous.result is None:
            raise PlayoffError(
                f"match {key[0]}: game {key[1] - 1} has no result yet, so game {key[1]} "
                "cannot start"
            )
        playoff = state.chess
        if not playoff.match(key[0]).started:
            playoff = start_match(playoff, key[0])
        clocks = state.clocks
        if self.at_ms is not None:
            control = state.time_control(playoff.match(key[0]), game)
            if control is None:
                raise PlayoffError(f"match {key[0]} has no time control for game {key[1]}")
            clocks = {**clocks, key: Clock.new(control).start(self.at_ms)}
        started = {**state.started_at, key: stamp.recorded_at}
        return self._next(state, stamp, playoff=playoff, started_at=started, clocks=clocks)


class ClockPressed(ClockEvent):
    """``side`` completed move ``move`` and pressed its clock."""

    type: Literal["clock-pressed"] = "clock-pressed"
    clock_only: ClassVar[bool] = True
    side: Colour
    move: int = Field(ge=1)

    def step(self, clock: Clock) -> Clock:
        return clock.press(self.side, self.move, self.at_ms)


class ClockPaused(ClockEvent):
    """The arbiter stopped the running side's clock."""

    type: Literal["clock-paused"] = "clock-paused"
    clock_only: ClassVar[bool] = True

    def step(self, clock: Clock) -> Clock:
        return clock.pause(self.at_ms)


class ClockResumed(ClockEvent):
    """The arbiter restarted a paused clock."""

    type: Literal["clock-resumed"] = "clock-resumed"
    clock_only: ClassVar[bool] = True

    def step(self, clock: Clock) -> Clock:
        return clock.resume(self.at_ms)


class ClockAdjusted(ClockEvent):
    """The arbiter gave (positive) or took time from one side, with a reason."""

    type: Literal["clock-adjusted"] = "clock-adjusted"
    clock_only: ClassVar[bool] = True
    arbiter_change: ClassVar[bool] = True
    side: Colour
    delta_ms: int
    reason: str

    def step(self, clock: Clock) -> Clock:
        return clock.adjust(self.side, self.delta_ms, self.at_ms)

    def describe(self, names: Mapping[str, str], utc_offset: timedelta = _UTC) -> str:
        seconds = abs(self.delta_ms) / 1000
        amount = f"{seconds:g} s"
        if self.delta_ms >= 0:
            return f"gave {amount} to {self.side.value}, match {self.match}, game {self.game}"
        return f"took {amount} from {self.side.value}, match {self.match}, game {self.game}"


class FlagFell(ClockEvent):
    """The server saw ``side``'s flag fall at ``at_ms``."""

    type: Literal["flag-fell"] = "flag-fell"
    side: Colour

    def step(self, clock: Clock) -> Clock:
        return clock.flag(self.at_ms)


class ResultRecorded(GameEvent):
    """A game's result; its clock stops (or shows the flag that had fallen)."""

    type: Literal["result-recorded"] = "result-recorded"
    result: Result
    at_ms: int | None = None
    reason: str | None = Field(default=None, description="Why, when the server decided it")

    def apply(self, state: PlayoffState, stamp: Stamp) -> PlayoffState:
        key = self.key
        playoff = record_result(state.chess, key[0], key[1], self.result)
        clocks = state.clocks
        clock = clocks.get(key)
        if clock is not None and clock.status in (ClockStatus.RUNNING, ClockStatus.PAUSED):
            since = clock.since_ms or 0
            at_ms = max(self.at_ms if self.at_ms is not None else since, since)
            try:
                clock = clock.stop(at_ms)
            except FlagFellError:
                clock = clock.flag(at_ms)  # the result came in after the flag had fallen
            clocks = {**clocks, key: clock}
        started = state.started_at
        if key not in started:
            # A result entered without a recorded start: the game is over, its start unknown.
            started = {**started, key: stamp.recorded_at}
        ended = {**state.ended_at, key: stamp.recorded_at}
        return self._next(
            state, stamp, playoff=playoff, started_at=started, ended_at=ended, clocks=clocks
        )


class VoidedGame(BaseModel):
    """A game a correction voided: played (with the result it had) or under way."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    match: int
    game: int
    white: str | None
    black: str | None
    result: Result | None = Field(description="Its result before; None: it was under way")

    def describe(self, names: Mapping[str, str], utc_offset: timedelta = _UTC) -> str:
        players = " v ".join(names.get(p, p) for p in (self.white, self.black) if p)
        what = f"match {self.match}, game {self.game}"
        if players:
            what += f" ({players})"
        if self.result is None:
            return f"{what}, under way"
        return f"{what}, {_result_text(self.result)}"


class ResultCorrected(GameEvent):
    """An earlier result changed; the bracket re-propagates from it.

    Games voided by the correction (no longer needed, or between other players)
    lose their results, times and clocks: they will be played again. ``voided``
    lists them as they were, and ``champion_before`` the play-off winner the
    correction unseated, if any (the final placings go with it). A game that keeps
    its colours is not voided (it may be in progress).
    """

    type: Literal["result-corrected"] = "result-corrected"
    arbiter_change: ClassVar[bool] = True
    result: Result
    reason: str
    previous: Result | None = Field(default=None, description="The result it corrects")
    voided: tuple[VoidedGame, ...] = ()
    champion_before: str | None = None

    @classmethod
    def of(
        cls, state: PlayoffState, match: int, game: int, result: Result, reason: str
    ) -> ResultCorrected:
        """The correction, with what it voids in ``state``."""
        before = state.chess
        after = correct_result(before, match, game, result)
        still = {(g.match, g.number) for g in after.games if g.result is not None}
        kept = still | {(g.match, g.number) for g in after.games if g.white is not None}
        voided = []
        for old in sorted(before.games, key=lambda g: (g.match, g.number)):
            key = (old.match, old.number)
            if key == (match, game):
                continue
            lost_result = old.result is not None and key not in still
            lost_game = old.result is None and key in state.started_at and key not in kept
            if lost_result or lost_game:
                voided.append(VoidedGame(
                    match=old.match, game=old.number, white=old.white, black=old.black,
                    result=old.result,
                ))
        unseated = champion(before)
        corrected = before.game(match, game)
        return cls(
            match=match, game=game, result=result, reason=reason,
            previous=corrected.result if corrected is not None else None, voided=tuple(voided),
            champion_before=unseated if unseated != champion(after) else None,
        )

    @property
    def voids(self) -> bool:
        """It throws away games played or under way, or the play-off's winner."""
        return bool(self.voided) or self.champion_before is not None

    def consequences(self, names: Mapping[str, str]) -> str:
        """What the correction voids, in words (empty when nothing)."""
        parts = [g.describe(names) for g in self.voided]
        if self.champion_before is not None:
            who = names.get(self.champion_before, self.champion_before)
            parts.append(f"{who} as the play-off winner, and the final placings")
        return "; ".join(parts)

    def apply(self, state: PlayoffState, stamp: Stamp) -> PlayoffState:
        key = self.key
        playoff = correct_result(state.chess, key[0], key[1], self.result)
        still = {(g.match, g.number) for g in playoff.games if g.result is not None}
        kept = still | {(g.match, g.number) for g in playoff.games if g.white is not None}
        ended = {k: v for k, v in state.ended_at.items() if k in still}
        started = {k: v for k, v in state.started_at.items() if k in kept or k == key}
        clocks = {k: c for k, c in state.clocks.items() if k in kept or k == key}
        return self._next(
            state, stamp, playoff=playoff, started_at=started, ended_at=ended, clocks=clocks
        )

    def describe(self, names: Mapping[str, str], utc_offset: timedelta = _UTC) -> str:
        was = f" from {_result_text(self.previous)}" if self.previous is not None else ""
        text = (
            f"result of match {self.match}, game {self.game} corrected{was} to "
            f"{_result_text(self.result)}"
        )
        voided = self.consequences(names)
        return f"{text}; voided: {voided}" if voided else text


# --- the arbiter's changes to the schedule


class StartMoved(GameEvent):
    """The chief arbiter moved a game's start."""

    type: Literal["start-moved"] = "start-moved"
    schedule_override: ClassVar[bool] = True
    arbiter_change: ClassVar[bool] = True
    at: Instant
    reason: str
    public_reason: bool = Field(
        default=False, description="The chief arbiter chose to show the reason in the hall"
    )

    def apply(self, state: PlayoffState, stamp: Stamp) -> PlayoffState:
        key = self.key
        match = state.chess.match(key[0])
        if match.bye or match.rules.place(key[1]) is None:
            raise PlayoffError(f"match {key[0]} has no game {key[1]}")
        if match.decision is not None:
            raise PlayoffError(f"match {key[0]} is decided: it has no game left to move")
        if key in state.started_at:
            raise PlayoffError(f"match {key[0]}, game {key[1]} has already started")
        pin = PinnedStart(
            match=key[0], game=key[1], start=self.at, reason=self.reason,
            postponed=isinstance(self, Postponed), public_reason=self.public_reason,
        )
        return self._next(state, stamp, overrides=state.overrides.with_pin(pin))

    def describe(self, names: Mapping[str, str], utc_offset: timedelta = _UTC) -> str:
        return (
            f"start of match {self.match}, game {self.game} moved to "
            f"{_clock_time(self.at, utc_offset)}"
        )


class Postponed(StartMoved):
    """The chief arbiter postponed a game by ``minutes``: its start is now ``at``."""

    type: Literal["postponed"] = "postponed"  # type: ignore[assignment]
    minutes: int = Field(gt=0)

    def describe(self, names: Mapping[str, str], utc_offset: timedelta = _UTC) -> str:
        return (
            f"match {self.match}, game {self.game} postponed {self.minutes} min "
            f"(to {_clock_time(self.at, utc_offset)})"
        )


class TimeControlShortened(PlayoffEventBase):
    """The chief arbiter shortened the time limits (as the format allows): of one match,
    or of every match not yet begun (``match`` None)."""

    type: Literal["time-control-shortened"] = "time-control-shortened"
    schedule_override: ClassVar[bool] = True
    arbiter_change: ClassVar[bool] = True
    match: int | None = Field(default=None, ge=1)
    time_control: str
    reason: str

    def apply(self, state: PlayoffState, stamp: Stamp) -> PlayoffState:
        new = TimeControl.parse(self.time_control)
        playoff = state.chess
        if self.match is not None:
            targets = [self.match]
        else:
            targets = [m.id for m in playoff.matches if not m.bye and not state.begun(m.id)]
        for match_id in targets:
            match = playoff.match(match_id)
            if state.begun(match_id):
                raise PlayoffError(f"match {match_id} has begun: its time control cannot change")
            old = state.time_control(match, 1)
            if old is not None and new.estimated_duration_ms() > old.estimated_duration_ms():
                rule = state.format.shortening_rule
                raise PlayoffError(
                    f"{new} is not shorter than {old}: the chief arbiter may only shorten the "
                    "time limits" + (f" ({rule})" if rule else "")
                )
        if not targets:
            raise PlayoffError("every match has begun: no time control is left to shorten")
        change = TimeControlChange(
            time_control=new, matches=tuple(targets), made_at=stamp.recorded_at,
            reason=self.reason,
        )
        return self._next(state, stamp, overrides=state.overrides.with_time_control(change))

    def describe(self, names: Mapping[str, str], utc_offset: timedelta = _UTC) -> str:
        which = f"match {self.match}" if self.match is not None else "every match not begun"
        return f"time control shortened to {self.time_control} ({which})"


class TimeControlRestored(PlayoffEventBase):
    """The chief arbiter undid a shortening: the regulation's time control again, for
    one match or for every match not begun whose control was shortened."""

    type: Literal["time-control-restored"] = "time-control-restored"
    schedule_override: ClassVar[bool] = True
    arbiter_change: ClassVar[bool] = True
    match: int | None = Field(default=None, ge=1)
    reason: str

    def apply(self, state: PlayoffState, stamp: Stamp) -> PlayoffState:
        playoff = state.chess
        matches = [playoff.match(self.match)] if self.match is not None else [
            m for m in playoff.matches if not m.bye and not state.begun(m.id)
        ]
        overrides = state.overrides
        restored = []
        for match in matches:
            if state.begun(match.id):
                raise PlayoffError(f"match {match.id} has begun: its time control cannot change")
            now = state.time_control(match, 1)
            if match.time_control is None or now == match.time_control:
                continue
            overrides = overrides.with_time_control(TimeControlChange(
                time_control=match.time_control, matches=(match.id,),
                made_at=stamp.recorded_at, reason=self.reason,
            ))
            restored.append(match.id)
        if not restored:
            raise PlayoffError("no time control not yet begun was shortened: nothing to restore")
        return self._next(state, stamp, overrides=overrides)

    def describe(self, names: Mapping[str, str], utc_offset: timedelta = _UTC) -> str:
        which = f"match {self.match}" if self.match is not None else "every match not begun"
        return f"the regulation's time control restored ({which})"


class DeadlineSet(PlayoffEventBase):
    """The organiser's deadline, set or cleared (None)."""

    type: Literal["deadline-set"] = "deadline-set"
    schedule_override: ClassVar[bool] = True
    arbiter_change: ClassVar[bool] = True
    deadline: Instant | None
    reason: str

    def apply(self, state: PlayoffState, stamp: Stamp) -> PlayoffState:
        return self._next(state, stamp, deadline=self.deadline)

    def describe(self, names: Mapping[str, str], utc_offset: timedelta = _UTC) -> str:
        if self.deadline is None:
            return "deadline cleared"
        return f"deadline set to {_clock_time(self.deadline, utc_offset)}"


class TransitionFired(PlayoffEventBase):
    """A timed transition of the schedule fired (players called, game due, break over)."""

    type: Literal["transition-fired"] = "transition-fired"
    job: str
    kind: Literal["players-called", "game-due", "break-over"]
    at: Instant
    match: int | None = None
    game: int | None = None

    def apply(self, state: PlayoffState, stamp: Stamp) -> PlayoffState:
        if self.job in state.fired:
            raise PlayoffError(f"{self.job} has already fired")
        return self._next(state, stamp, fired=state.fired | {self.job})


# --- bridge extra boards


class BoardScored(PlayoffEventBase):
    """A bridge extra board's North-South score at one table (EBU 143.2.1)."""

    type: Literal["board-scored"] = "board-scored"
    stanza: int = Field(ge=1)
    board: int = Field(ge=1)
    table: Literal[1, 2]
    ns_score: int

    def apply(self, state: PlayoffState, stamp: Stamp) -> PlayoffState:
        extra = state.extra_boards.record(self.stanza, self.board, self.table, self.ns_score)
        key = (1, self.stanza)
        started = state.started_at
        if key not in started:
            started = {**started, key: stamp.recorded_at}
        ended = state.ended_at
        if extra.stanza_complete(self.stanza):
            ended = {**ended, key: stamp.recorded_at}
        return self._next(state, stamp, extra=extra, started_at=started, ended_at=ended)


class StanzaAdvanced(PlayoffEventBase):
    """A stanza is complete: the match is decided, or the next stanza opens."""

    type: Literal["stanza-advanced"] = "stanza-advanced"
    decided: bool
    winner: Literal["home", "away"] | None = None
    next_stanza: int | None = None
    next_boards: int | None = None
    repeats_set: bool = False
    change_partners: bool = False
    reason: str
    stanza: int = Field(ge=1)
    imps: tuple[int, int]
    winner_team: str | None = None

    @classmethod
    def after(cls, extra: ExtraBoards) -> StanzaAdvanced | None:
        """What follows ``extra`` when its current stanza is complete; else None."""
        outcome = extra.outcome()
        if outcome is None:
            return None
        winner_team = None
        if outcome.decided:
            winner_team = extra.home if outcome.winner == "home" else extra.away
        return cls(
            **outcome.model_dump(), stanza=extra.current,
            imps=extra.set_imps(extra.current), winner_team=winner_team,
        )

    def apply(self, state: PlayoffState, stamp: Stamp) -> PlayoffState:
        return self._next(state, stamp, extra=state.extra_boards.advance())


class BoardScoreCorrected(PlayoffEventBase):
    """The chief arbiter corrected a bridge extra board's score at one table.

    The contest follows the corrected score from its first stanza: ``voided`` lists
    the scores of stanzas no longer played, ``winner_before`` the team the
    correction unseated, ``winner_after`` the team it made the winner.
    """

    type: Literal["board-score-corrected"] = "board-score-corrected"
    arbiter_change: ClassVar[bool] = True
    stanza: int = Field(ge=1)
    board: int = Field(ge=1)
    table: Literal[1, 2]
    ns_score: int
    previous: int
    reason: str
    voided: tuple[TableScore, ...] = ()
    winner_before: str | None = None
    winner_after: str | None = None

    @classmethod
    def of(
        cls, state: PlayoffState, stanza: int, board: int, table: Literal[1, 2],
        ns_score: int, reason: str,
    ) -> BoardScoreCorrected:
        before = state.extra_boards
        previous = before.score_of(stanza, board, table)
        after, voided = before.correct(stanza, board, table, ns_score)
        return cls(
            stanza=stanza, board=board, table=table, ns_score=ns_score,
            previous=previous if previous is not None else 0, reason=reason, voided=voided,
            winner_before=before.winner if before.winner != after.winner else None,
            winner_after=after.winner if before.winner != after.winner else None,
        )

    @property
    def voids(self) -> bool:
        """It throws away scores entered, or the match's winner."""
        return bool(self.voided) or self.winner_before is not None

    def consequences(self, names: Mapping[str, str]) -> str:
        """What the correction voids, in words (empty when nothing)."""
        parts = []
        stanzas = sorted({s.stanza for s in self.voided})
        if stanzas:
            which = " and ".join(str(n) for n in stanzas)
            plural = "s" if len(stanzas) > 1 else ""
            parts.append(f"the scores of stanza{plural} {which}, no longer played")
        if self.winner_before is not None:
            who = names.get(self.winner_before, self.winner_before)
            parts.append(f"{who} as the winner of the match")
        return "; ".join(parts)

    def apply(self, state: PlayoffState, stamp: Stamp) -> PlayoffState:
        extra, _ = state.extra_boards.correct(self.stanza, self.board, self.table, self.ns_score)
        opened = set(range(1, extra.current + 1))
        started = {k: v for k, v in state.started_at.items() if k[1] in opened}
        ended = {
            k: v for k, v in state.ended_at.items()
            if k[1] in opened and extra.stanza_complete(k[1])
        }
        return self._next(state, stamp, extra=extra, started_at=started, ended_at=ended)

    def describe(self, names: Mapping[str, str], utc_offset: timedelta = _UTC) -> str:
        text = (
            f"score of stanza {self.stanza}, board {self.board}, table {self.table} corrected "
            f"from NS {_ns(self.previous)} to NS {_ns(self.ns_score)}"
        )
        if self.winner_after is not None:
            text += f": {names.get(self.winner_after, self.winner_after)} win the match"
        voided = self.consequences(names)
        return f"{text}; voided: {voided}" if voided else text


PlayoffEvent = Annotated[
    PlayoffCreated
    | ExtraBoardsCreated
    | LotsDrawn
    | CoinTossed
    | ArmageddonColoursChosen
    | GameStarted
    | ClockPressed
    | ClockPaused
    | ClockResumed
    | ClockAdjusted
    | FlagFell
    | ResultRecorded
    | ResultCorrected
    | StartMoved
    | Postponed
    | TimeControlShortened
    | TimeControlRestored
    | DeadlineSet
    | TransitionFired
    | BoardScored
    | StanzaAdvanced
    | BoardScoreCorrected,
    Field(discriminator="type"),
]
_PLAYOFF: TypeAdapter[PlayoffEvent] = TypeAdapter(PlayoffEvent)

_DERIVED_BEFORE_TYPING = frozenset({"clock", "armageddon", "at_ms"})
"""Keys that logs written before events were typed carried beside the facts: the
clock after the event and the Armageddon's terms (derived), and the server instant
on events that do not act on a clock."""


def parse_playoff_event(type_: str, data: Mapping[str, Any]) -> PlayoffEvent:
    """The typed event of a logged (type, data); derived data of older logs dropped."""
    if _DERIVED_BEFORE_TYPING.intersection(data):
        fields = _FIELDS.get(type_, frozenset())
        data = {k: v for k, v in data.items() if k in fields or k not in _DERIVED_BEFORE_TYPING}
    return _PLAYOFF.validate_python({**data, "type": type_})


_FIELDS: dict[str, frozenset[str]] = {
    cls.model_fields["type"].default: frozenset(cls.model_fields)
    for cls in get_args(get_args(PlayoffEvent)[0])
}
"""The fields of each play-off event type (every type of :data:`PlayoffEvent`)."""

ARBITER_CHANGE_EVENTS: tuple[type[PlayoffEventBase], ...] = tuple(
    cls for cls in get_args(get_args(PlayoffEvent)[0]) if cls.arbiter_change
)
"""The events an arbiter makes by hand with a reason: those whose class says so
(:attr:`~PlayoffEventBase.arbiter_change`)."""


def apply_playoff(
    state: PlayoffState | None, event: PlayoffEvent, stamp: Stamp
) -> PlayoffState:
    """The state after ``event``; :class:`PlayoffError` if it is not allowed."""
    if isinstance(event, PlayoffCreated | ExtraBoardsCreated):
        _check_new(state, "the play-off")
        return event.create(stamp)
    return event.apply(_check_exists(state, event.type, "the play-off"), stamp)


def fold_playoff(events: Iterable[tuple[PlayoffEvent, Stamp]]) -> PlayoffState:
    return _fold(events, apply_playoff, "no such play-off")


def _ns(score: int) -> str:
    """A North-South score as the slip writes it: ``+620``, ``-50``, ``0``."""
    return f"{score:+d}" if score else "0"


def _result_text(result: Result) -> str:
    return "½-½" if result is Result.DRAW else result.value


def _clock_time(moment: datetime, utc_offset: timedelta) -> str:
    return instant(moment, utc_offset)
