"""What the API shows of a play-off (``GET /api/playoffs/{id}``), and the derived
data that travels beside events: a clock as it stands, an Armageddon's terms."""

from __future__ import annotations

from datetime import datetime, tzinfo
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from orchestrator.core.events import ArmageddonColoursChosen, ClockEvent, GameStarted, PlayoffEvent
from orchestrator.core.events import ResultRecorded as _ResultRecorded
from orchestrator.core.state import ArbiterChange, Draw, GameKey, PlayoffState
from playoff_formats.builders.format import bracket_json
from playoff_formats.clock import Clock
from playoff_formats.formats import MatchFormat
from playoff_formats.model import Colour
from playoff_formats.playoff import champion

__all__ = [
    "ClockView",
    "change_view",
    "clock_view",
    "decider_view",
    "draw_view",
    "event_extras",
    "playoff_view",
    "stage_name",
]


def playoff_view(state: PlayoffState, schedule: dict[str, Any] | None = None) -> dict[str, Any]:
    """The whole play-off as JSON: bracket, games, draws, changes and the schedule;
    the play-off's times with the offset of its zone in force at each (``time_zone``
    names it)."""
    # A play-off that names no zone (logged before zones) answers as it always did.
    zone = state.zone if state.time_zone is not None else None
    if state.extra is not None:
        return {
            "id": state.id,
            "kind": "extra-boards",
            "event_id": state.event_id,
            "seq": state.seq,
            "regulation": state.regulation,
            "name": " v ".join(state.names.get(t, t) for t in (state.extra.home, state.extra.away)),
            "names": state.names,
            "extra_boards": state.extra.scoreboard(),
            "schedule": schedule,
            "time_zone": state.time_zone,
            "changes": [change_view(c, state) for c in state.changes],
            "updated_at": _iso(state.updated_at),
        }
    playoff = state.chess
    bracket = bracket_json(playoff)
    by_id = {m["id"]: m for m in bracket["matches"]}
    matches = []
    for match in playoff.matches:
        view = dict(by_id[match.id])
        control = None if match.bye else state.time_control(match, 1)
        view["time_control"] = str(control) if control is not None else None
        view["status"] = match.status.value
        view["players"] = list(match.players)
        view["decision"] = (
            {**match.decision.model_dump(mode="json", exclude={"words"}),
             "text": match.decision.describe(state.names)}
            if match.decision is not None else None
        )
        view["games"] = [
            {
                "number": g.number,
                "kind": g.kind.value,
                "white": g.white,
                "black": g.black,
                "result": g.result.value if g.result is not None else None,
                "started_at": _iso(state.started_at.get((g.match, g.number)), zone),
                "ended_at": _iso(state.ended_at.get((g.match, g.number)), zone),
                "armageddon": (
                    decider_view(state, match.id, g.number) if g.kind.decider else None
                ),
                "stage": stage_name(match.rules, g.number),
            }
            for g in playoff.games_of(match.id)
        ]
        matches.append(view)
    return {
        "id": state.id,
        "kind": "knock-out",
        "event_id": state.event_id,
        "seq": state.seq,
        "regulation": state.regulation,
        "name": playoff.name,
        "names": state.names,
        "format": bracket["format"],
        "participants": bracket["participants"],
        "matches": matches,
        "champion": champion(playoff),
        "deadline": _iso(state.deadline, zone),
        "schedule": schedule,
        "time_zone": state.time_zone,
        "draws": [draw_view(d) for d in state.draws],
        "changes": [change_view(c, state) for c in state.changes],
        "updated_at": _iso(state.updated_at),
    }


def draw_view(draw: Draw) -> dict[str, Any]:
    """A lot or toss: what for, its outcome, and the published record to check."""
    view: dict[str, Any] = {"seq": draw.seq, "kind": draw.kind, "match": draw.match}
    if draw.kind == "lots":
        view.update(white=draw.white, black=draw.black)
    else:
        view.update(winner=draw.winner)
    view["draw"] = draw.record
    return view


def change_view(change: ArbiterChange, state: PlayoffState) -> dict[str, Any]:
    """An arbiter's change as listed: what it was (in words), by whom, and why."""
    event = change.event
    return {
        "seq": change.seq,
        "type": event.type,
        "at": change.recorded_at.isoformat(),
        "actor": change.actor,
        "text": event.describe(state.names, state.zone),
        **event.log_data(),
    }


def _iso(value: datetime | None, zone: tzinfo | None = None) -> str | None:
    """An instant as ISO 8601, with the zone's offset in force at that instant (with
    no zone, as it was logged)."""
    if value is None:
        return None
    return (value if zone is None else value.astimezone(zone)).isoformat()


class MovesView(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    white: int
    black: int


class ClockView(BaseModel):
    """A clock as screens get it (the shape :func:`clock_view` gives)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    match: int
    game: int
    white_ms: int = Field(description="White's remaining time at server_ms")
    black_ms: int = Field(description="Black's remaining time at server_ms")
    running: Literal["white", "black"] | None = Field(
        description="The side whose time runs; null: none runs (a display shows none running)"
    )
    status: Literal["not-started", "running", "paused", "stopped", "flagged"]
    server_ms: int = Field(description="The server instant the times are given at")
    to_move: Literal["white", "black"]
    moves: MovesView = Field(description="Moves each side has completed")
    next_move: int = Field(description="The move the side to move presses after")
    flag_at_ms: int | None = Field(description="When the running side's flag falls")


def clock_view(key: GameKey, clock: Clock, at_ms: int) -> dict[str, Any]:
    """A clock as screens get it: remaining ms per side at ``server_ms``, who runs,
    and the moves completed (the side to move presses after move ``next_move``)."""
    snap = clock.snapshot(at_ms)
    return {
        "match": key[0],
        "game": key[1],
        "white_ms": snap["white_ms"],
        "black_ms": snap["black_ms"],
        "running": snap["running"],
        "status": snap["status"],
        "server_ms": at_ms,
        "to_move": clock.to_move.value,
        "moves": {"white": clock.white_moves, "black": clock.black_moves},
        "next_move": clock.moves_completed(clock.to_move) + 1,
        "flag_at_ms": clock.flag_at_ms(),
    }


def stage_name(rules: MatchFormat, number: int) -> str | None:
    """The name of the stage (or the decider) game ``number`` belongs to."""
    stage = rules.stage_of(number)
    if stage is not None:
        return stage.name
    return rules.decider.name if rules.decider is not None else None


def decider_view(
    state: PlayoffState, match_id: int, number: int | None = None
) -> dict[str, Any] | None:
    """The terms of a match's decider game (``number``, else its first): who has
    White, the times, the increment, and the draw odds (``draw_means``: who wins a
    drawn game; ``"replay"`` when a drawn game is followed by another)."""
    match = state.chess.match(match_id)
    rules = match.rules
    decider = rules.decider
    game = state.chess.game(match_id, number if number is not None else rules.decider_number)
    if game is None or not game.kind.decider or decider is None or decider.control is None:
        return None
    control = state.time_control(match, game) or decider.control
    draw_means = decider.draw_means
    return {
        "white": game.white,
        "black": game.black,
        "white_ms": control.initial_ms(Colour.WHITE),
        "black_ms": control.initial_ms(Colour.BLACK),
        "time_control": str(control),
        "increment": control.increment_words(),
        "draw_means": draw_means,
        "name": decider.name,
        "game": game.number,
        "rule": decider.rule,
    }


def event_extras(event: PlayoffEvent, after: PlayoffState) -> dict[str, Any]:
    """What travels beside an event on the wire, from the state just after it: the
    clock as it stands (events that act on a clock) and the Armageddon's terms."""
    extras: dict[str, Any] = {}
    if isinstance(event, ClockEvent | GameStarted | _ResultRecorded):
        clock = after.clocks.get(event.key)
        at_ms = event.at_ms
        if clock is not None and at_ms is not None:
            extras["clock"] = clock_view(event.key, clock, at_ms)
    if isinstance(event, ArmageddonColoursChosen) or (
        isinstance(event, GameStarted)
        and after.playoff is not None
        and after.chess.match(event.match).kind_of(event.game).decider
    ):
        number = event.game if isinstance(event, GameStarted) else None
        terms = decider_view(after, event.match, number)
        if terms is not None:
            extras["armageddon"] = terms
    return extras
