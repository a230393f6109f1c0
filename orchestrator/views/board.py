"""The board clock's view: one match's game at its board, as its two halves show it.

Computed here, for one match at one instant; the board's page renders it and, between
frames, runs the running side down from ``server_ms`` (docs/protocol.md, "The board
view"). Its words are in the language in force (the board key's, or the one the tablet
asked for in its hello): the players read them across the board.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from orchestrator.core.state import PlayoffState
from orchestrator.views.context import ViewContext
from orchestrator.views.hall.core import short_names
from orchestrator.views.playoff import ClockView, clock_view
from orchestrator.views.shared import offset_minutes, round_name
from playoff_formats.clock import ClockStatus
from playoff_formats.formats.said import said_name
from playoff_formats.model import Colour
from playoff_formats.playoff import Game, Match
from playoff_formats.speech import spoken, tr
from playoff_formats.stamps import ALLOWANCES
from playoff_formats.timecontrol import Stage

__all__ = ["BoardView", "board_view"]


class BoardPlayer(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    name: str
    short: str


class BoardPlayers(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    white: BoardPlayer
    black: BoardPlayer


class BoardCalled(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    at_ms: int
    by: Literal["board"] = "board"


class BoardAllowance(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    lag_ms: int
    outage_ms: int


class BoardView(BaseModel):
    """What a board clock shows (``{"t": "view", "d": {"view": "board", ...}}``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    view: Literal["board"] = "board"
    seq: int
    server_ms: int
    utc_offset_minutes: int = Field(
        description="The hall's offset from UTC now: the board writes times of day at it "
        "where no zone is named"
    )
    time_zone: str | None = Field(
        description="The event's IANA time zone: the board writes times of day in it"
    )
    match: int
    title: str
    game: int | None
    game_name: str
    status: Literal["waiting", "running", "paused", "called", "over"]
    left: Literal["white", "black"]
    players: BoardPlayers | None
    colours: Literal["known"] | None = Field(description="null while the colours are not known")
    waits: str | None = Field(description="What the board waits for, in words, or null")
    clock: ClockView | None
    increment: str
    increment_ms: int
    increment_from_move: int
    draw_means: str
    called: BoardCalled | None
    result: str | None
    flag: Literal["white", "black"] | None
    allowance: BoardAllowance
    next_move: int | None
    to_move: Literal["white", "black"] | None


VIEW_MODEL = BoardView


def _current_game(state: PlayoffState, match_id: int) -> Game | None:
    """The match's game at the board: the one under way; else the last one started if
    its flag fell (shown at 0 with the flag until the next game starts); else the next
    one due, else the last one started."""
    games = state.chess.games_of(match_id)
    for game in games:
        clock = state.clocks.get((match_id, game.number))
        if clock is not None and clock.status in (ClockStatus.RUNNING, ClockStatus.PAUSED):
            return game
    pending = [g for g in games if g.result is None]
    started = [g for g in games if (match_id, g.number) in state.started_at]
    if started:
        last = state.clocks.get((match_id, started[-1].number))
        if last is not None and last.flagged is not None:
            return started[-1]
    if pending:
        return pending[0]
    return started[-1] if started else (games[-1] if games else None)


def _title(state: PlayoffState, match: Match) -> str:
    """The round and the two players: "Final · Abdusattorov v Sindarov"."""
    shorts = short_names(state.names)
    first, second = (
        shorts.get(p, p) if p else tr("to be decided") for p in match.players
    )
    versus = tr("{first} v {second}", first=first, second=second)
    stage = round_name(state.chess, match, cited=False)
    return tr("{round} · {players}", round=stage, players=versus) if stage else versus


def _seconds(ms: int) -> str:
    """Seconds as the language writes them: "3", "1.5" ("1,5" in German)."""
    whole, rest = divmod(ms, 1000)
    if rest == 0:
        return str(whole)  # as the format writes it: never grouped ("1000", not "1,000")
    if whole >= 1000:  # past what a language's number keeps to the millisecond
        return f"{whole}.{rest:03d}".rstrip("0")
    return spoken().number(ms / 1000)


def _increment_words(stage: Stage | None) -> str:
    """White's increment as the board shows it ("+3 s from move 61"), or "" for none."""
    if stage is None or (stage.increment_ms == 0 and stage.increment_from_move == 1):
        return ""
    seconds = _seconds(stage.increment_ms)
    if stage.increment_from_move == 1:
        return tr("+{seconds} s", seconds=seconds)
    return tr("+{seconds} s from move {move}", seconds=seconds, move=stage.increment_from_move)


def _draw_means(side: str | None) -> str:
    """What a draw means in a game with draw odds, in capitals across the board."""
    if side is None:
        return ""
    # Each message whole: a language may put the colour anywhere in it.
    return tr("DRAW = WHITE WINS") if side == Colour.WHITE else tr("DRAW = BLACK WINS")


def board_view(state: PlayoffState, ctx: ViewContext, match_id: int) -> dict[str, Any]:
    """The board view of match ``match_id``, as a view frame's data."""
    playoff = state.chess
    match = playoff.match(match_id)
    shorts = short_names(state.names)
    title = _title(state, match)
    game = _current_game(state, match_id)
    key = (match_id, game.number) if game is not None else None
    clock = state.clocks.get(key) if key is not None else None
    players = None
    waits: str | None = None
    if game is not None and game.white is not None and game.black is not None:
        players = BoardPlayers(**{
            side: BoardPlayer(id=pid, name=state.names.get(pid, pid), short=shorts.get(pid, pid))
            for side, pid in (("white", game.white), ("black", game.black))
        })
    elif game is not None:
        waits = (
            tr("players to be decided") if None in match.players else tr("colours to be drawn")
        )
    control = state.time_control(match, game) if game is not None else None
    stage0 = control.white[0] if control is not None else None
    increment = _increment_words(stage0)
    rules = match.rules
    decider = rules.decider
    draw_means = ""
    if game is not None and game.kind.decider and decider is not None:
        draw_means = _draw_means(decider.draw_odds_colour)
    called_at = state.called.get(key) if key is not None else None
    status: Literal["waiting", "running", "paused", "called", "over"] = "waiting"
    if game is not None and game.result is not None:
        status = "over"
    elif called_at is not None:
        status = "called"
    elif clock is not None and clock.status is ClockStatus.RUNNING:
        status = "running"
    elif clock is not None and clock.status is ClockStatus.PAUSED:
        status = "paused"
    elif waits is None and game is not None and key not in state.started_at:
        waits = tr("the arbiter to start the game")
    flag = clock.flagged.value if clock is not None and clock.flagged is not None else None
    shown = None
    if clock is not None:
        at_ms = max(ctx.server_ms, clock.since_ms or ctx.server_ms)
        shown = ClockView(**clock_view(key, clock, at_ms)) if key is not None else None
    playing = clock is not None and clock.status in (ClockStatus.RUNNING, ClockStatus.PAUSED)
    to_move = clock.to_move if clock is not None and playing else None
    name = (
        said_name(decider.name) if game is not None and game.kind.decider and decider is not None
        else (tr("Game {number}", number=game.number) if game is not None else "")
    )
    return BoardView(
        seq=state.seq,
        server_ms=ctx.server_ms,
        utc_offset_minutes=offset_minutes(state, ctx.now),
        time_zone=state.time_zone,
        match=match_id,
        title=title,
        game=game.number if game is not None else None,
        game_name=name,
        status=status,
        left=state.board_left.get(match_id, Colour.WHITE).value,
        players=players,
        colours="known" if players is not None else None,
        waits=waits,
        clock=shown,
        increment=increment,
        increment_ms=stage0.increment_ms if stage0 is not None else 0,
        increment_from_move=stage0.increment_from_move if stage0 is not None else 1,
        draw_means=draw_means,
        called=BoardCalled(at_ms=called_at) if called_at is not None else None,
        result=game.result.value if game is not None and game.result is not None else None,
        flag=flag,
        allowance=BoardAllowance(lag_ms=ALLOWANCES.lag_ms, outage_ms=ALLOWANCES.outage_ms),
        next_move=clock.moves_completed(clock.to_move) + 1 if clock is not None and playing
        else None,
        to_move=to_move.value if to_move is not None else None,
    ).model_dump(mode="json")
