"""A play-off's events of its matches and games: its creation, lots and colours, the
games, their clocks and results."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import timedelta, tzinfo
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from orchestrator.core.events.base import (
    _UTC,
    ClockEvent,
    GameEvent,
    Instant,
    PlayoffEventBase,
    Stamp,
    _result_text,
)
from orchestrator.core.state import Draw, PlayoffState
from playoff_formats.builders.stanzas import StanzaPlan
from playoff_formats.clock import Clock, ClockStatus, FlagFellError
from playoff_formats.errors import PlayoffError
from playoff_formats.extra_boards import ExtraBoards
from playoff_formats.model import Colour, Result
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
        default=timedelta(0),
        description="The hall's offset from UTC when created (where no time zone is named, "
        "the one every time of day is said at)",
    )
    time_zone: str | None = Field(
        default=None,
        description="The event's IANA time zone (Asia/Tashkent): every time of day is said "
        "in it; absent from logs written before zones, which keep utc_offset",
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
            time_zone=self.time_zone,
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
        default=timedelta(0),
        description="The hall's offset from UTC when created (where no time zone is named, "
        "the one every time of day is said at)",
    )
    time_zone: str | None = Field(
        default=None,
        description="The event's IANA time zone (Asia/Tashkent): every time of day is said "
        "in it; absent from logs written before zones, which keep utc_offset",
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
            time_zone=self.time_zone,
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

    def describe(self, names: Mapping[str, str], zone: tzinfo = _UTC) -> str:
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


BOARD_CLOCK_ALLOWANCE_MS = 2_000
"""A board's own clock (DGT) and the service's may differ by this much after a press
before the arbiter is shown the difference (docs/policies.md, "DGT e-boards")."""


class BoardClock(BaseModel):
    """A board's own clock's reading (a DGT clock counts whole seconds)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    white_ms: int = Field(ge=0, le=100 * 3_600_000)
    black_ms: int = Field(ge=0, le=100 * 3_600_000)

    def of(self, side: Colour) -> int:
        return self.white_ms if side is Colour.WHITE else self.black_ms


class ClockPressed(ClockEvent):
    """``side`` completed move ``move`` and pressed its clock, charged up to ``at_ms``.

    A board clock's press carries its ``stamp_ms`` (the tablet's instant, in server
    time); ``charged`` says whether the mover was charged up to the stamp or on
    arrival, and ``why`` (words) why not at the stamp. Older logs have none of them.
    """

    type: Literal["clock-pressed"] = "clock-pressed"
    clock_only: ClassVar[bool] = True
    side: Colour
    move: int = Field(ge=1)
    stamp_ms: int | None = None
    charged: Literal["stamp", "arrival"] | None = None
    why: str | None = None
    board_clock: BoardClock | None = Field(
        default=None, description="What the board's own clock (a DGT clock) showed after it"
    )

    def log_data(self) -> dict[str, Any]:
        data = super().log_data()
        if self.charged is None:  # a press without a stamp is logged as before
            for name in ("stamp_ms", "charged", "why"):
                del data[name]
        if self.board_clock is None:
            del data["board_clock"]
        return data

    def step(self, clock: Clock) -> Clock:
        return clock.press(self.side, self.move, self.at_ms)

    def apply(self, state: PlayoffState, stamp: Stamp) -> PlayoffState:
        after = super().apply(state, stamp)
        clock = after.clocks[self.key]
        ours = clock.remaining_ms(self.side, self.at_ms)
        board = self.board_clock.of(self.side) if self.board_clock is not None else None
        times = {**after.times.get(self.key, {}), (self.side, self.move): (
            board if board is not None else ours
        )}
        gaps = {k: v for k, v in after.clock_gaps.items() if k != self.key}
        if board is not None and abs(board - ours) > BOARD_CLOCK_ALLOWANCE_MS:
            gaps[self.key] = (self.side, board - ours)
        return replace(after, times={**after.times, self.key: times}, clock_gaps=gaps)



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
    shown_beyond_its_clock: ClassVar[bool] = True  # it ends a call for the arbiter

    def step(self, clock: Clock) -> Clock:
        return clock.resume(self.at_ms)

    def apply(self, state: PlayoffState, stamp: Stamp) -> PlayoffState:
        after = super().apply(state, stamp)  # a call for the arbiter is over
        return replace(after, called={k: v for k, v in after.called.items() if k != self.key})


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

    def apply(self, state: PlayoffState, stamp: Stamp) -> PlayoffState:
        after = super().apply(state, stamp)  # the arbiter has set the clock after an outage
        return replace(after, outages={k: v for k, v in after.outages.items() if k != self.key})

    def describe(self, names: Mapping[str, str], zone: tzinfo = _UTC) -> str:
        seconds = abs(self.delta_ms) / 1000
        amount = f"{seconds:g} s"
        if self.delta_ms >= 0:
            return f"gave {amount} to {self.side.value}, match {self.match}, game {self.game}"
        return f"took {amount} from {self.side.value}, match {self.match}, game {self.game}"


class FlagFell(ClockEvent):
    """The server saw ``side``'s flag fall at ``at_ms``."""

    type: Literal["flag-fell"] = "flag-fell"
    side: Colour
    board: bool = Field(
        default=False, description="The board's own clock (a DGT clock) showed it"
    )

    def log_data(self) -> dict[str, Any]:
        data = super().log_data()
        if not self.board:  # a flag the service saw is logged as before
            del data["board"]
        return data

    def step(self, clock: Clock) -> Clock:
        left = clock.remaining_ms(self.side, self.at_ms)
        if self.board and left > 0:  # the board's clock is the game's: its time is up
            clock = clock.adjust(self.side, -left, self.at_ms)
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

    def describe(self, names: Mapping[str, str], zone: tzinfo = _UTC) -> str:
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

    def describe(self, names: Mapping[str, str], zone: tzinfo = _UTC) -> str:
        was = f" from {_result_text(self.previous)}" if self.previous is not None else ""
        text = (
            f"result of match {self.match}, game {self.game} corrected{was} to "
            f"{_result_text(self.result)}"
        )
        voided = self.consequences(names)
        return f"{text}; voided: {voided}" if voided else text


