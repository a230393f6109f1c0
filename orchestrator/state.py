"""The current state of events and play-offs: a pure fold of their logged events.

Two kinds of stream live in the log:

* ``event-{id}``: a main event uploaded by its chief arbiter, with the tokens
  issued for it and the play-offs created from it;
* ``playoff-{id}``: everything that happens in one play-off.

:func:`apply_event` and :func:`apply_playoff` take a state and one logged event
and give the next state; they raise :class:`PlayoffError` when the event is not an
allowed transition. The service uses the same functions to check a command
before it is logged, so the log only ever holds events that fold.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from orchestrator.auth import Role, TokenRecord
from orchestrator.store import StoredEvent
from playoff_formats.builders.stanzas import StanzaPlan
from playoff_formats.clock import Clock, ClockStatus, FlagFellError
from playoff_formats.errors import PlayoffError
from playoff_formats.extra_boards import ExtraBoards
from playoff_formats.io.json_event import parse_event
from playoff_formats.model import Colour, Event, Result
from playoff_formats.playoff import (
    GameKind,
    Playoff,
    choose_armageddon_colours,
    correct_result,
    record_result,
    set_game_one_colours,
    start_match,
)
from playoff_formats.timecontrol import TimeControl

GameKey = tuple[int, int]  # (match id, game number)
Changes = dict[str, Any]  # the fields an event changes in a PlayoffState


CLOCK_ONLY = frozenset({"clock-pressed", "clock-paused", "clock-resumed", "clock-adjusted"})
"""Events that change a clock and nothing the schedule depends on."""


def event_stream(event_id: str) -> str:
    return f"event-{event_id}"


def playoff_stream(playoff_id: str) -> str:
    return f"playoff-{playoff_id}"


# --------------------------------------------------------------------------- events


@dataclass(frozen=True)
class EventState:
    """A main event as uploaded, with its tokens and play-offs."""

    id: str
    seq: int
    event: Event
    tokens: tuple[TokenRecord, ...] = ()
    playoffs: tuple[str, ...] = ()


def apply_event(state: EventState | None, logged: StoredEvent) -> EventState:
    data = logged.data
    if logged.type == "event-created":
        if state is not None:
            raise PlayoffError("the event already exists")
        event = parse_event(data["event_json"], "stored event")
        chief = _token(data["chief"])
        return EventState(id=data["id"], seq=logged.seq, event=event, tokens=(chief,))
    if state is None:
        raise PlayoffError(f"{logged.type} before the event was created")
    if logged.type == "token-issued":
        return replace(state, seq=logged.seq, tokens=(*state.tokens, _token(data)))
    if logged.type == "playoff-linked":
        return replace(state, seq=logged.seq, playoffs=(*state.playoffs, data["playoff_id"]))
    raise PlayoffError(f"unknown event type {logged.type!r}")


def _token(data: dict[str, Any]) -> TokenRecord:
    return TokenRecord(
        token_id=data["token_id"], role=Role(data["role"]), label=data["label"],
        digest=data["digest"],
    )


# --------------------------------------------------------------------------- play-offs


@dataclass(frozen=True)
class Draw:
    """A lot, coin toss or cut as logged: what for, how, and the published hash."""

    seq: int
    kind: str
    match: int | None
    data: dict[str, Any]


@dataclass(frozen=True)
class PlayoffState:
    """One play-off: its bracket and results, and what the schedule needs to know."""

    id: str
    event_id: str
    seq: int
    regulation: str
    playoff: Playoff | None
    names: dict[str, str]
    main_event_ended: dict[str, datetime]
    prizes: tuple[str, ...] = ()
    points: tuple[str, ...] = ()
    deadline: datetime | None = None
    not_before: datetime | None = None
    started_at: dict[GameKey, datetime] = field(default_factory=dict)
    ended_at: dict[GameKey, datetime] = field(default_factory=dict)
    moved_starts: dict[GameKey, datetime] = field(default_factory=dict)
    draws: tuple[Draw, ...] = ()
    fired: frozenset[str] = frozenset()
    clocks: dict[GameKey, Clock] = field(default_factory=dict)
    extra: ExtraBoards | None = None

    @property
    def chess(self) -> Playoff:
        """The chess play-off; refused for a bridge extra-board contest."""
        if self.playoff is None:
            raise PlayoffError("this play-off is bridge extra boards, not chess games")
        return self.playoff

    @property
    def extra_boards(self) -> ExtraBoards:
        if self.extra is None:
            raise PlayoffError("this play-off has no bridge extra boards")
        return self.extra
    changes: tuple[dict[str, Any], ...] = ()
    updated_at: datetime | None = None


def apply_playoff(state: PlayoffState | None, logged: StoredEvent) -> PlayoffState:
    """The state after ``logged``; :class:`PlayoffError` if it is not allowed."""
    data = logged.data
    if logged.type == "playoff-created":
        if state is not None:
            raise PlayoffError("the play-off already exists")
        return PlayoffState(
            id=data["id"],
            event_id=data["event_id"],
            seq=logged.seq,
            regulation=data["regulation"],
            playoff=Playoff.model_validate(data["playoff"]),
            names=dict(data["names"]),
            main_event_ended={
                p: datetime.fromisoformat(t) for p, t in data["main_event_ended"].items()
            },
            prizes=tuple(data.get("prizes", ())),
            points=tuple(data.get("points", ())),
            deadline=_time(data.get("deadline")),
            not_before=_time(data.get("not_before")),
            updated_at=logged.recorded_at,
        )
    if logged.type == "extra-boards-created":
        if state is not None:
            raise PlayoffError("the play-off already exists")
        return PlayoffState(
            id=data["id"],
            event_id=data["event_id"],
            seq=logged.seq,
            regulation=data["rule"],
            playoff=None,
            names=dict(data["names"]),
            main_event_ended={},
            not_before=_time(data.get("not_before")),
            deadline=_time(data.get("deadline")),
            extra=ExtraBoards.start(
                data["home"], data["away"], StanzaPlan.model_validate(data["plan"])
            ),
            updated_at=logged.recorded_at,
        )
    if state is None:
        raise PlayoffError(f"{logged.type} before the play-off was created")
    step = _PLAYOFF_STEPS.get(logged.type)
    if step is None:
        raise PlayoffError(f"unknown play-off event type {logged.type!r}")
    # One copy of the state per event: the step says what changes.
    changes = step(state, data, logged)
    return replace(state, seq=logged.seq, updated_at=logged.recorded_at, **changes)


def _time(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def _key(data: dict[str, Any]) -> GameKey:
    return (int(data["match"]), int(data["game"]))


def _lots_drawn(state: PlayoffState, data: dict[str, Any], logged: StoredEvent) -> Changes:
    if _begun(state, data["match"]):
        raise PlayoffError(
            f"match {data['match']} has begun: the colours of game 1 can no longer change"
        )
    playoff = set_game_one_colours(state.chess, data["match"], data["white"], data["black"])
    draw = Draw(seq=logged.seq, kind="lots", match=data["match"], data=data)
    return Changes( playoff=playoff, draws=(*state.draws, draw))


def _coin_tossed(state: PlayoffState, data: dict[str, Any], logged: StoredEvent) -> Changes:
    match = state.chess.match(data["match"])
    if data["winner"] not in match.players:
        raise PlayoffError(f"{data['winner']} does not play in match {match.id}")
    game = state.chess.game(match.id, 3)
    if game is None:
        raise PlayoffError(
            f"match {match.id} needs no Armageddon: it is not level after two games"
        )
    if game.white is not None:
        raise PlayoffError(f"the Armageddon colours of match {match.id} are already chosen")
    draw = Draw(seq=logged.seq, kind="coin-toss", match=match.id, data=data)
    return Changes( draws=(*state.draws, draw))


def _armageddon_colours(
    state: PlayoffState, data: dict[str, Any], logged: StoredEvent
) -> Changes:
    toss = [d for d in state.draws if d.kind == "coin-toss" and d.match == data["match"]]
    if not toss:
        raise PlayoffError(
            f"toss the coin for match {data['match']} first: the winner of the toss chooses "
            "the colours (GCT 2015 reg. 10 c)"
        )
    playoff = choose_armageddon_colours(
        state.chess, data["match"], data["white"], data["black"]
    )
    return Changes( playoff=playoff)


def _game_started(state: PlayoffState, data: dict[str, Any], logged: StoredEvent) -> Changes:
    key = _key(data)
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
            f"match {key[0]}: game {key[1] - 1} has no result yet, so game {key[1]} cannot start"
        )
    playoff = state.chess
    if not playoff.match(key[0]).started:
        playoff = start_match(playoff, key[0])
    started = {**state.started_at, key: logged.recorded_at}
    clocks = state.clocks
    if "at_ms" in data:
        match = playoff.match(key[0])
        control = match.decider if game.kind is GameKind.ARMAGEDDON else match.time_control
        if control is None:
            raise PlayoffError(f"match {key[0]} has no time control for game {key[1]}")
        clocks = {**clocks, key: Clock.new(control).start(int(data["at_ms"]))}
    return Changes( playoff=playoff, started_at=started, clocks=clocks)


def _result_recorded(
    state: PlayoffState, data: dict[str, Any], logged: StoredEvent
) -> Changes:
    key = _key(data)
    playoff = record_result(state.chess, key[0], key[1], Result(data["result"]))
    clocks = state.clocks
    clock = clocks.get(key)
    if clock is not None and clock.status in (ClockStatus.RUNNING, ClockStatus.PAUSED):
        since = clock.since_ms or 0
        at_ms = max(int(data.get("at_ms", since)), since)
        try:
            clock = clock.stop(at_ms)
        except FlagFellError:
            clock = clock.flag(at_ms)  # the result came in after the flag had fallen
        clocks = {**clocks, key: clock}
    started = state.started_at
    if key not in started:
        # A result entered without a recorded start: the game is over, its start unknown.
        started = {**started, key: logged.recorded_at}
    ended = {**state.ended_at, key: logged.recorded_at}
    return Changes( playoff=playoff, started_at=started, ended_at=ended, clocks=clocks)


def _result_corrected(
    state: PlayoffState, data: dict[str, Any], logged: StoredEvent
) -> Changes:
    key = _key(data)
    playoff = correct_result(state.chess, key[0], key[1], Result(data["result"]))
    # Games voided by the correction lose their times and clocks: they will be played
    # again. A game that keeps its colours is not voided (it may be in progress).
    still = {(g.match, g.number) for g in playoff.games if g.result is not None}
    kept = still | {(g.match, g.number) for g in playoff.games if g.white is not None}
    ended = {k: v for k, v in state.ended_at.items() if k in still}
    started = {k: v for k, v in state.started_at.items() if k in kept or k == key}
    clocks = {k: c for k, c in state.clocks.items() if k in kept or k == key}
    change = {"seq": logged.seq, "type": "result-corrected", **data}
    return Changes(
        playoff=playoff, started_at=started, ended_at=ended, clocks=clocks,
        changes=(*state.changes, change),
    )


def _start_moved(state: PlayoffState, data: dict[str, Any], logged: StoredEvent) -> Changes:
    key = _key(data)
    match = state.chess.match(key[0])
    if key[1] not in (1, 2, 3) or (key[1] == 3 and match.decider is None):
        raise PlayoffError(f"match {key[0]} has no game {key[1]}")
    if match.decision is not None:
        raise PlayoffError(f"match {key[0]} is decided: it has no game left to move")
    if key in state.started_at:
        raise PlayoffError(f"match {key[0]}, game {key[1]} has already started")
    at = datetime.fromisoformat(data["at"])
    change = {"seq": logged.seq, "type": logged.type, **data}
    return Changes(
        moved_starts={**state.moved_starts, key: at},
        changes=(*state.changes, change),
    )


def _time_control_shortened(
    state: PlayoffState, data: dict[str, Any], logged: StoredEvent
) -> Changes:
    new = TimeControl.parse(data["time_control"])
    targets = [data["match"]] if data.get("match") is not None else [
        m.id for m in state.chess.matches if not m.bye and not _begun(state, m.id)
    ]
    matches = list(state.chess.matches)
    for match_id in targets:
        match = state.chess.match(match_id)
        if _begun(state, match_id):
            raise PlayoffError(f"match {match_id} has begun: its time control cannot change")
        old = match.time_control
        if old is not None and new.estimated_duration_ms() > old.estimated_duration_ms():
            raise PlayoffError(
                f"{new} is not shorter than {old}: the chief arbiter may only shorten the "
                "time limits (GCT 2015 reg. 5)"
            )
        matches = [m.model_copy(update={"time_control": new}) if m.id == match_id else m
                   for m in matches]
    if not targets:
        raise PlayoffError("every match has begun: no time control is left to shorten")
    playoff = state.chess.model_copy(update={"matches": tuple(matches)})
    change = {"seq": logged.seq, "type": logged.type, **data}
    return Changes( playoff=playoff, changes=(*state.changes, change))


def _begun(state: PlayoffState, match_id: int) -> bool:
    return any(k[0] == match_id for k in state.started_at)


def _deadline_set(state: PlayoffState, data: dict[str, Any], logged: StoredEvent) -> Changes:
    change = {"seq": logged.seq, "type": logged.type, **data}
    return Changes( deadline=_time(data.get("deadline")), changes=(*state.changes, change)
    )


def _transition_fired(
    state: PlayoffState, data: dict[str, Any], logged: StoredEvent
) -> Changes:
    if data["job"] in state.fired:
        raise PlayoffError(f"{data['job']} has already fired")
    return Changes( fired=state.fired | {data["job"]})


def _clock_step(
    state: PlayoffState, data: dict[str, Any], logged: StoredEvent
) -> Changes:
    """Every clock transition: the pure clock decides whether it is allowed."""
    key = _key(data)
    clock = state.clocks.get(key)
    if clock is None:
        raise PlayoffError(f"match {key[0]}, game {key[1]} has no running clock: start it first")
    at = int(data["at_ms"])
    kind = logged.type
    if kind == "clock-pressed":
        clock = clock.press(Colour(data["side"]), int(data["move"]), at)
    elif kind == "clock-paused":
        clock = clock.pause(at)
    elif kind == "clock-resumed":
        clock = clock.resume(at)
    elif kind == "clock-adjusted":
        clock = clock.adjust(Colour(data["side"]), int(data["delta_ms"]), at)
    elif kind == "flag-fell":
        clock = clock.flag(at)
    changes = state.changes
    if kind == "clock-adjusted":
        changes = (*changes, {"seq": logged.seq, "type": kind, **data})
    return Changes( clocks={**state.clocks, key: clock}, changes=changes)


def _board_scored(state: PlayoffState, data: dict[str, Any], logged: StoredEvent) -> Changes:
    extra = state.extra_boards
    stanza = int(data["stanza"])
    extra = extra.record(stanza, int(data["board"]), data["table"], int(data["ns_score"]))
    key = (1, stanza)
    started = state.started_at if key in state.started_at else {
        **state.started_at, key: logged.recorded_at
    }
    ended = state.ended_at
    if extra.stanza_complete(stanza):
        ended = {**ended, key: logged.recorded_at}
    return Changes( extra=extra, started_at=started, ended_at=ended)


def _stanza_advanced(
    state: PlayoffState, data: dict[str, Any], logged: StoredEvent
) -> Changes:
    return Changes( extra=state.extra_boards.advance())


_PLAYOFF_STEPS = {
    "board-scored": _board_scored,
    "stanza-advanced": _stanza_advanced,
    "clock-pressed": _clock_step,
    "clock-paused": _clock_step,
    "clock-resumed": _clock_step,
    "clock-adjusted": _clock_step,
    "flag-fell": _clock_step,
    "lots-drawn": _lots_drawn,
    "coin-tossed": _coin_tossed,
    "armageddon-colours-chosen": _armageddon_colours,
    "game-started": _game_started,
    "result-recorded": _result_recorded,
    "result-corrected": _result_corrected,
    "start-moved": _start_moved,
    "postponed": _start_moved,
    "time-control-shortened": _time_control_shortened,
    "deadline-set": _deadline_set,
    "transition-fired": _transition_fired,
}


def fold_playoff(events: list[StoredEvent]) -> PlayoffState:
    state: PlayoffState | None = None
    for logged in events:
        state = apply_playoff(state, logged)
    if state is None:
        raise PlayoffError("no such play-off")
    return state


def fold_event(events: list[StoredEvent]) -> EventState:
    state: EventState | None = None
    for logged in events:
        state = apply_event(state, logged)
    if state is None:
        raise PlayoffError("no such event")
    return state
