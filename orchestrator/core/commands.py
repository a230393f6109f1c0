"""The commands that change a play-off, and what each decides.

One set of typed commands for every door: they are the payloads of websocket
``cmd`` frames, the body of ``POST /api/playoffs/{id}/commands``, and (with the
match and game taken from the path) the bodies of the older per-verb REST routes,
which :attr:`CommandBase.route` declares. A command decides, from the play-off's
state and a :class:`Context` (the server's time and randomness), the events it
means: ``command.decide(state, ctx) -> list[PlayoffEvent]``. It raises
:class:`~playoff_formats.errors.PlayoffError` when it cannot apply; the events it
gives are then applied to the state before anything is logged, so a command
either logs all of its events or nothing.

Adding a command: its model and ``decide`` here (and in the :data:`Command`
union), and its event in :mod:`orchestrator.core.events` if it needs a new one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any, ClassVar, Literal, NamedTuple, get_args

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    TypeAdapter,
    ValidationError,
    WithJsonSchema,
    field_validator,
    model_serializer,
)
from pydantic_core import PydanticCustomError

from orchestrator.core import schedule
from orchestrator.core.auth import ACTION_WORDS, Action, Role, not_permitted
from orchestrator.core.events import (
    ArmageddonColoursChosen,
    BoardClock,
    BoardOutage,
    ClockAdjusted,
    ClockPaused,
    ClockPressed,
    ClockResumed,
    CoinTossed,
    DeadlineSet,
    EventStreamEvent,
    FlagFell,
    GameResultRecorded,
    GameStarted,
    HallForesightSet,
    LotsDrawn,
    PlayoffEvent,
    Postponed,
    ResultCorrected,
    ResultRecorded,
    Stamp,
    StartMoved,
    TimeControlRestored,
    TimeControlShortened,
    TransitionFired,
    apply_event,
    apply_playoff,
)
from orchestrator.core.refusals import AlreadyPressed, TooEarly
from orchestrator.core.state import EventState, PlayoffState
from orchestrator.core.words import validation_words
from playoff_formats import lots
from playoff_formats.errors import InputError, PlayoffError
from playoff_formats.model import YEARS_1900_2199, Colour, Ref, Result
from playoff_formats.phrase import Phrase, Player, Said
from playoff_formats.playoff import record_result
from playoff_formats.schedule import RestBreach, chief_time_breaches, rest_breaches
from playoff_formats.speech import marked
from playoff_formats.stamps import Charge, OutageTooLong, charge_press
from playoff_formats.timecontrol import TimeControl

__all__ = [
    "AdjustClock",
    "Applied",
    "BoardFlag",
    "BoardStatus",
    "ChooseArmageddonColours",
    "Command",
    "CommandBase",
    "Context",
    "CorrectResult",
    "DrawLots",
    "EboardStatus",
    "EventCommandBase",
    "FallFlag",
    "FireTransition",
    "IssueBoardKey",
    "MapEboard",
    "MoveStart",
    "OutageRefused",
    "PauseClock",
    "Postpone",
    "PressClock",
    "ReadPosition",
    "RecordGameResult",
    "RecordResult",
    "RestoreTimeControl",
    "ResumeClock",
    "Route",
    "ScoreBoard",
    "SetDeadline",
    "ShortenTimeControl",
    "ShowForesightInHall",
    "StartGame",
    "TossCoin",
    "apply_command",
    "apply_event_command",
    "client_commands",
    "parse_command",
    "refusal",
    "refusal_words",
    "refused",
]


@dataclass(frozen=True)
class Context:
    """What a command may know besides the state: the server's time and randomness."""

    now: datetime
    server_ms: int
    new_seed: Callable[[], bytes]
    planned_start: Callable[[PlayoffState, int, int], datetime | None]
    """The start of a game in the schedule as it stands, or None if it has none."""
    role: str | None = None
    """Who sends the command: "chief", "arbiter", or the server's own ("server"...)."""
    board_match: int | None = None
    """A board key's match, when a board key sends it from its clock page."""


class Route(NamedTuple):
    """A per-verb REST route: method and path under ``/api/playoffs/{playoff_id}``.

    Path parameters name fields of the command; the body holds the others.
    """

    method: Literal["POST", "PUT"]
    path: str
    summary: str


EARLIEST = datetime(1900, 1, 1, tzinfo=UTC)
LATEST = datetime(2200, 1, 1, tzinfo=UTC)


def _iso_text(value: object) -> object:
    # A number is not a date: pydantic would read 0 as 1970-01-01.
    if isinstance(value, int | float) and not isinstance(value, bool):
        raise ValueError("a date and time is written in ISO 8601, e.g. 2025-06-28T14:30:00Z")
    return value


def _in_range(value: datetime) -> datetime:
    if not EARLIEST <= value < LATEST:
        raise ValueError(f"{value.isoformat()} is out of range: between 1900 and 2200")
    return value


Moment = Annotated[
    AwareDatetime, BeforeValidator(_iso_text), AfterValidator(_in_range),
    WithJsonSchema({"type": "string", "format": "date-time", "pattern": YEARS_1900_2199}),
]
"""An instant in a command: ISO 8601 text with its offset, between 1900 and 2200."""

MAX_REASON = 65_000
"""A reason's characters, at most: with the rest of a command, a body of plain text at
its longest still fits the 64 KiB a request may carry (so that the description allows
no body the service refuses for its size)."""

Reason = Annotated[
    str, Field(min_length=3, max_length=MAX_REASON, description="Why (logged)")
]


class NotPermitted(PlayoffError):
    """A command from a role that may not send it (403: nothing changed)."""



class _Permitted:
    """Who may send a command: its :class:`~orchestrator.core.auth.Action` in the one table
    of permissions, checked wherever it arrives (REST, websocket, console)."""

    action: ClassVar[Action] = Action.COMMAND
    board_words: ClassVar[str | None] = None
    """A board key's refusal, when the table's says less (a marked message)."""
    what: ClassVar[str | None] = None
    """The command in words, for a refusal ("move a game's start", a marked message);
    by default the words of its action."""

    def permission_words(self, state: Any) -> str | Phrase:
        return self.what or ACTION_WORDS[self.action]

    def check_permitted(self, state: Any, ctx: Context) -> None:
        role = ROLES.get(ctx.role or "")
        if role is not None and not role.may(self.action):
            if role is Role.BOARD and self.board_words is not None:
                raise NotPermitted(Phrase((Said(self.board_words),)))
            raise NotPermitted(not_permitted(role, self.permission_words(state)))
        if role is Role.BOARD:
            check_board(getattr(self, "match", None), ctx.board_match)


ROLES = {role.value: role for role in Role}
"""The senders that are tokens' roles; the server's own ("server") is not one."""


def _type_required(schema: dict[str, Any]) -> None:
    # ``type`` has its value as default (the per-verb routes fill it in), but a
    # command sent as such must name it: the description says so.
    required = schema.setdefault("required", [])
    if "type" not in required:
        required.insert(0, "type")


class CommandBase(_Permitted, BaseModel):
    model_config = ConfigDict(
        frozen=True, extra="forbid", allow_inf_nan=False, json_schema_extra=_type_required
    )

    type: str
    route: ClassVar[Route | None] = None
    repeats: ClassVar[bool] = False
    """Sent again and again with nothing new (a board saying what it shows): deciding
    no event is an answer, not a refusal."""

    def decide(self, state: PlayoffState, ctx: Context) -> list[PlayoffEvent]:
        raise NotImplementedError


class _GameCommand(CommandBase):
    match: int = Field(ge=1, le=1000)
    game: int = Field(ge=1, le=1000)


# --------------------------------------------------------------------------- games and clocks


class StartGame(_GameCommand):
    """Start a game: its clock starts with White to move.

    A start before the rest the format owes the players (its breaks: after the last
    main-event game of any play-off player; the least interval between a player's
    games) is refused, unless the chief arbiter gives
    ``override``, the reason to start it all the same, which is logged and shown.
    A start inside the preferred interval is allowed, with a warning.
    """

    type: Literal["start-clock"] = "start-clock"
    route = Route("POST", "/matches/{match}/games/{game}/start", "A game starts")
    override: Reason | None = Field(
        default=None,
        description="The chief arbiter's reason to start before the rest the regulation owes",
    )

    def decide(self, state: PlayoffState, ctx: Context) -> list[PlayoffEvent]:
        breaches = self.rest_breaches(state, ctx)
        binding = [b.text for b in breaches if b.binding]
        if binding and self.override is None:
            until = max(b.until for b in breaches if b.binding)
            raise TooEarly(self.match, self.game, tuple(binding), until, ctx.now)
        role = ROLES.get(ctx.role or "")
        if binding and role is not None and not role.may(Action.OVERRIDE):
            # An override of the rests: the table's rule, as for any other override.
            raise NotPermitted(not_permitted(role, Said.tr(
                "start a game before the rest the regulation owes the players: {rests}",
                rests="; ".join(binding),
            )))
        return [GameStarted(
            match=self.match, game=self.game, at_ms=ctx.server_ms,
            override=self.override if binding else None,
            overridden=tuple(binding),
            warnings=tuple(b.text for b in breaches if not b.binding),
        )]

    def rest_breaches(self, state: PlayoffState, ctx: Context) -> tuple[RestBreach, ...]:
        """The rests a start now would cut short (see :mod:`playoff_formats.schedule.rest`)."""
        if state.playoff is None:
            return ()
        game = state.playoff.game(self.match, self.game)
        if game is None or (self.match, self.game) in state.started_at:
            return ()
        players = [p for p in (game.white, game.black) if p is not None]
        limits = schedule.constraints(state)
        place = state.playoff.match(self.match).rules.place(self.game)
        if place is not None and place.first and self.game > 1:
            # A new stage (or the decider) owes the players the format's break before it.
            least = max(limits.min_interval, limits.stage_interval or limits.min_interval)
            preferred = max(
                limits.preferred_interval, limits.stage_preferred_interval or least, least
            )
            limits = limits.model_copy(
                update={"min_interval": least, "preferred_interval": preferred}
            )
        return rest_breaches(
            players, ctx.now, limits, schedule.previous_ends(state), schedule.rest_rule(state),
        ) + chief_time_breaches(
            self.match, self.game, ctx.now, state.overrides, state.zone
        )


class PressClock(_GameCommand):
    """``side`` completed a move and pressed the clock.

    ``move`` is the move the side completed; without it, the side's next move.
    Sent by a console, it guards against a double press: a press for a move
    already counted is refused as :class:`~orchestrator.core.refusals.AlreadyPressed`
    (two consoles pressing the same clock at once press it once).
    """

    type: Literal["press"] = "press"
    action: ClassVar[Action] = Action.PRESS
    side: Colour
    move: int | None = Field(default=None, ge=1, le=10_000)
    stamp_ms: int | None = Field(default=None, ge=0, description="A board's instant of it")
    queued: StrictBool = Field(default=False, description="Held by a board through an outage")
    held: int | None = Field(default=None, ge=1, le=10_000, description="Presses a board holds")
    board_clock: BoardClock | None = Field(
        default=None, description="The board's own clock after the press (a DGT clock)"
    )

    @model_serializer(mode="wrap")
    def _unstamped(self, handler: Any) -> Any:  # a console's press reads as before boards
        data = handler(self)
        return {k: v for k, v in data.items() if k not in _BOARD_ONLY or v not in (None, False)}

    def decide(self, state: PlayoffState, ctx: Context) -> list[PlayoffEvent]:
        move = self.move
        clock = state.clocks.get((self.match, self.game))
        if move is None:
            if clock is None:
                raise PlayoffError(Said.tr(
                    "match {match}, game {game} has no running clock: start it first",
                    match=self.match, game=self.game,
                ))
            move = clock.moves_completed(self.side) + 1
        elif clock is not None and move <= clock.moves_completed(self.side):
            raise AlreadyPressed(self.match, self.game, self.side, move)
        charge = Charge(ctx.server_ms, "arrival")
        if clock is not None and clock.running is not None and self.stamp_ms is not None:
            assert clock.since_ms is not None
            try:
                charge = charge_press(
                    self.stamp_ms, turn_started_ms=clock.turn_started_ms or clock.since_ms,
                    since_ms=clock.since_ms, now_ms=ctx.server_ms, queued=self.queued,
                )
            except OutageTooLong as exc:  # the consoles alerted once an outage
                raise OutageRefused(exc, None if (self.match, self.game) in state.outages else
                                    BoardOutage(match=self.match, game=self.game,
                                                since_ms=self.stamp_ms, presses=self.held or 1,
                                                at_ms=ctx.server_ms)) from None
        return [ClockPressed(
            match=self.match, game=self.game, side=self.side, move=move, at_ms=charge.at_ms,
            stamp_ms=self.stamp_ms, charged=charge.charged if self.stamp_ms is not None else None,
            why=charge.why.words() if charge.why is not None else None,
            board_clock=self.board_clock,
        )]


class PauseClock(_GameCommand):
    """Stop the running side's clock (the turn goes on when it resumes)."""

    type: Literal["pause"] = "pause"

    def decide(self, state: PlayoffState, ctx: Context) -> list[PlayoffEvent]:
        return [ClockPaused(match=self.match, game=self.game, at_ms=ctx.server_ms)]


class ResumeClock(_GameCommand):
    """Restart a paused clock."""

    type: Literal["resume"] = "resume"

    board_words: ClassVar[str | None] = marked("only an arbiter resumes the clocks after a call")

    def decide(self, state: PlayoffState, ctx: Context) -> list[PlayoffEvent]:
        return [ClockResumed(match=self.match, game=self.game, at_ms=ctx.server_ms)]


class AdjustClock(_GameCommand):
    """Give (positive ``delta_ms``) or take time from one side, with a reason."""

    type: Literal["adjust"] = "adjust"
    side: Colour
    delta_ms: int = Field(ge=-24 * 3_600_000, le=24 * 3_600_000)
    reason: Reason

    def decide(self, state: PlayoffState, ctx: Context) -> list[PlayoffEvent]:
        return [ClockAdjusted(
            match=self.match, game=self.game, side=self.side, delta_ms=self.delta_ms,
            reason=self.reason, at_ms=ctx.server_ms,
        )]


class RecordResult(_GameCommand):
    """Record a game's result."""

    type: Literal["result"] = "result"
    route = Route("POST", "/matches/{match}/games/{game}/result", "Record a game's result")
    result: Result

    def decide(self, state: PlayoffState, ctx: Context) -> list[PlayoffEvent]:
        # The bracket's own refusals (a locked match, a game not due) come first.
        record_result(state.chess, self.match, self.game, self.result)
        if self.result.played and (self.match, self.game) not in state.started_at:
            # A game never started was never played: before its start, only a forfeit
            # (a player absent, or both) is a result.
            raise PlayoffError(Said.tr(
                "match {match}, game {game} has not started, so it has no played result: "
                "start it first, or record a forfeit (+/-, -/+ or -/-)",
                match=self.match, game=self.game,
            ))
        return [ResultRecorded(
            match=self.match, game=self.game, result=self.result, at_ms=ctx.server_ms
        )]


class CorrectResult(_GameCommand):
    """Correct an earlier result; the bracket re-propagates from it.

    A correction that voids games played or under way, or the play-off's winner,
    is refused until it is sent again with ``confirm``: the refusal says what it
    would void, and the logged event lists it.
    """

    type: Literal["correct"] = "correct"
    route = Route(
        "PUT", "/matches/{match}/games/{game}/result",
        "Correct an earlier result (re-propagates downstream)",
    )
    result: Result
    reason: Reason
    confirm: StrictBool = Field(
        default=False, description="Confirms a correction that voids games or the winner"
    )

    def decide(self, state: PlayoffState, ctx: Context) -> list[PlayoffEvent]:
        corrected = self.preview(state)
        if corrected.voids and not self.confirm:
            raise PlayoffError(Said.tr(
                "this correction voids {voided}: send it again with confirm to go ahead",
                voided=corrected.consequences(state.names),
            ))
        return [corrected]

    def preview(self, state: PlayoffState) -> ResultCorrected:
        """The correction's event, with what it would void."""
        return ResultCorrected.of(state, self.match, self.game, self.result, self.reason)


class FallFlag(_GameCommand):
    """The server's own: the flag timer of a clock fired at ``flag_at_ms``.

    Logged only if the clock is still the one the timer was set for: the side
    whose flag fell loses. (Insufficient material to mate is not known to the
    service: the arbiter corrects such a result.)
    """

    type: Literal["fall-flag"] = "fall-flag"
    flag_at_ms: int

    def decide(self, state: PlayoffState, ctx: Context) -> list[PlayoffEvent]:
        clock = state.clocks.get((self.match, self.game))
        if clock is None or clock.flag_at_ms() != self.flag_at_ms or clock.running is None:
            raise PlayoffError(Said.tr("the clock changed since its flag timer was set"))
        side = clock.running
        result = Result.BLACK_WINS if side is Colour.WHITE else Result.WHITE_WINS
        return [
            FlagFell(match=self.match, game=self.game, side=side, at_ms=self.flag_at_ms),
            ResultRecorded(
                match=self.match, game=self.game, result=result, at_ms=self.flag_at_ms,
                reason=f"{side.value} flag",
            ),
        ]


# --------------------------------------------------------------------------- lots and colours


class DrawLots(CommandBase):
    """Lots for White in the first game of a stage whose colours are drawn (game 1,
    or a later stage's new drawing): drawn by the service with commit and reveal, or
    drawn by hand and entered (``physical``, with ``white``)."""

    type: Literal["lots"] = "lots"
    route = Route("POST", "/matches/{match}/lots", "Lots for White in game 1")
    match: int = Field(ge=1, le=1000)
    game: int | None = Field(
        default=None, ge=1, le=1000,
        description="The game drawn for: the first game of a stage whose colours are drawn "
        "(default: the latest such game the match has reached, game 1 at first)",
    )
    method: Literal["service", "physical"] = "service"
    white: str | None = Field(
        default=None, max_length=64, description="Physical draw: who got White"
    )
    conducted_by: str | None = Field(default=None, max_length=100)

    def drawn_game(self, state: PlayoffState) -> int:
        """The game this drawing is for."""
        if self.game is not None:
            return self.game
        match = state.chess.match(self.match)
        if match.bye:
            return 1
        rules = match.rules
        opens = {first for first, stage in rules.stage_starts() if stage.colours.drawn}
        decider = rules.decider
        if decider is not None and decider.drawn:
            opens.add(rules.decider_number)
        reached = [g.number for g in state.chess.games_of(match.id) if g.number in opens]
        return max(reached, default=1)

    def decide(self, state: PlayoffState, ctx: Context) -> list[PlayoffEvent]:
        match = state.chess.match(self.match)
        a, b = match.players
        if a is None or b is None:
            raise PlayoffError(Said.tr(
                "match {match}: both players must be known before the lots", match=self.match
            ))
        game = self.drawn_game(state)
        if self.method == "physical":
            if self.white is None or self.white not in match.players:
                raise PlayoffError(Said.tr(
                    "say who drew White: one of {player}, {other}", player=Player(a),
                    other=Player(b),
                ))
            black = b if self.white == a else a
            record = _physical("game-one-colours", {"white": self.white, "black": black},
                               self.conducted_by)
            return [LotsDrawn(
                match=self.match, white=self.white, black=black, draw=record, game=game
            )]
        purpose = f"play-off {state.id}, match {self.match}: White in game {game}"
        seed = ctx.new_seed()
        kind = lots.DrawKind.GAME_ONE_COLOURS
        announced = lots.announce(kind, purpose, (a, b), lots.commit(seed))
        revealed = lots.reveal(announced, seed)
        assert isinstance(revealed.outcome, lots.Colours)
        return [LotsDrawn(
            match=self.match, white=revealed.outcome.white, black=revealed.outcome.black,
            draw=revealed.model_dump(mode="json"), game=game,
        )]


class TossCoin(CommandBase):
    """The coin toss of a match's decider (its winner chooses the colours of the
    decider game; where the decider is a drawing of lots, its winner advances): by the
    service (``caller`` calls ``call``), or tossed by hand and entered (``physical``,
    with ``winner``)."""

    type: Literal["coin-toss"] = "coin-toss"
    route = Route(
        "POST", "/matches/{match}/coin-toss",
        "The Armageddon coin toss; its winner chooses the colours",
    )
    match: int = Field(ge=1, le=1000)
    method: Literal["service", "physical"] = "service"
    caller: str | None = Field(default=None, max_length=64, description="Who calls the coin")
    call: lots.CoinFace | None = None
    winner: str | None = Field(
        default=None, max_length=64, description="Physical toss: who won it"
    )
    conducted_by: str | None = Field(default=None, max_length=100)

    def decide(self, state: PlayoffState, ctx: Context) -> list[PlayoffEvent]:
        match = state.chess.match(self.match)
        # One toss per decider: tossed again, the coin could be tossed until it fell the
        # way someone wanted. (A correction that voids the decider voids its toss.)
        corrected = max(
            (c.seq for c in state.changes if isinstance(c.event, ResultCorrected)), default=0
        )
        tossed = [d for d in state.draws_of("coin-toss", self.match) if d.seq > corrected]
        if tossed and tossed[-1].winner is not None:
            raise PlayoffError(Said.tr(
                "the coin was already tossed for match {match}: {winner} won the toss",
                match=self.match, winner=Player(tossed[-1].winner),
            ))
        if self.method == "physical":
            if self.winner is None:
                raise PlayoffError(Said.tr("a physical toss needs its winner"))
            record = _physical("coin-toss", {"winner": self.winner}, self.conducted_by)
            return [CoinTossed(match=self.match, winner=self.winner, draw=record)]
        if self.caller is None or self.call is None:
            raise PlayoffError(Said.tr("say who calls the coin and the call (heads or tails)"))
        if None in match.players:
            raise PlayoffError(Said.tr(
                "match {match}: both players must be known before the toss", match=self.match
            ))
        if self.caller not in match.players:
            raise PlayoffError(Said.tr(
                "{player} does not play in match {match}", player=Player(self.caller),
                match=self.match,
            ))
        opponent = next(p for p in match.players if p != self.caller)
        assert opponent is not None
        decider = match.rules.decider if not match.bye else None
        name = decider.name if decider is not None else "decider"
        purpose = f"play-off {state.id}, match {self.match}: {name} coin toss"
        seed = ctx.new_seed()
        announced = lots.announce(
            lots.DrawKind.COIN_TOSS, purpose, (self.caller, opponent), lots.commit(seed)
        )
        revealed = lots.reveal(announced, seed, call=self.call)
        assert isinstance(revealed.outcome, lots.CoinToss)
        return [CoinTossed(
            match=self.match, winner=revealed.outcome.winner,
            draw=revealed.model_dump(mode="json"),
        )]


class ChooseArmageddonColours(CommandBase):
    """The toss winner's choice of colour for the Armageddon."""

    type: Literal["armageddon-colours"] = "armageddon-colours"
    route = Route(
        "POST", "/matches/{match}/armageddon-colours",
        "The toss winner's choice of colour for the Armageddon",
    )
    match: int = Field(ge=1, le=1000)
    white: str = Field(max_length=64)
    black: str = Field(max_length=64)

    def decide(self, state: PlayoffState, ctx: Context) -> list[PlayoffEvent]:
        return [ArmageddonColoursChosen(match=self.match, white=self.white, black=self.black)]


# --------------------------------------------------------------------------- the schedule


class MoveStart(_GameCommand):
    """Arbiter override: move a game's start to ``at``."""

    type: Literal["move-start"] = "move-start"
    action: ClassVar[Action] = Action.OVERRIDE
    what: ClassVar[str | None] = marked("move a game's start")
    route = Route(
        "POST", "/matches/{match}/games/{game}/move-start", "Arbiter override: move a game's start"
    )
    at: Moment
    reason: Reason
    public_reason: StrictBool = Field(
        default=False, description="Show the reason in the hall, beside the new start"
    )

    def decide(self, state: PlayoffState, ctx: Context) -> list[PlayoffEvent]:
        return [StartMoved(match=self.match, game=self.game, at=self.at, reason=self.reason,
                           public_reason=self.public_reason)]


class Postpone(_GameCommand):
    """Arbiter override: postpone a game by ``minutes`` from its planned start."""

    type: Literal["postpone"] = "postpone"
    action: ClassVar[Action] = Action.OVERRIDE
    what: ClassVar[str | None] = marked("postpone a game")
    route = Route(
        "POST", "/matches/{match}/games/{game}/postpone", "Arbiter override: postpone a game"
    )
    minutes: int = Field(gt=0, le=24 * 60)
    reason: Reason
    public_reason: StrictBool = Field(
        default=False, description="Show the reason in the hall, beside the new start"
    )

    def decide(self, state: PlayoffState, ctx: Context) -> list[PlayoffEvent]:
        planned = ctx.planned_start(state, self.match, self.game)
        if planned is None:
            raise PlayoffError(Said.tr(
                "match {match}, game {game} is not in the schedule", match=self.match,
                game=self.game,
            ))
        return [Postponed(
            match=self.match, game=self.game, at=planned + timedelta(minutes=self.minutes),
            minutes=self.minutes, reason=self.reason, public_reason=self.public_reason,
        )]


class ShortenTimeControl(CommandBase):
    """Arbiter override: shorten the time control (as the format allows) of one match,
    or of every match not yet begun."""

    type: Literal["time-control"] = "time-control"
    action: ClassVar[Action] = Action.OVERRIDE
    what: ClassVar[str | None] = marked("shorten the time limits")
    route = Route(
        "POST", "/time-control", "Arbiter override: shorten the time control"
    )
    time_control: str = Field(description='e.g. "G/15+5"', min_length=1, max_length=200)
    match: int | None = Field(default=None, ge=1, description="One match, or every match not begun")
    reason: Reason

    @field_validator("time_control")
    @classmethod
    def _notation(cls, value: str) -> str:
        try:
            control = TimeControl.parse(value)
        except InputError as exc:
            raise PydanticCustomError(
                "time_control", "{reason}",
                {"reason": exc.reason, "line": exc.line, "column": exc.column},
            ) from None
        if min(control.initial_ms(side) for side in Colour) <= 0:
            raise PydanticCustomError(
                "time_control", "{reason}",
                {"reason": f"{value} gives a side no time on its clock: a time control "
                           "must give each side time to play"},
            )
        return value

    def permission_words(self, state: Any) -> str | Phrase:
        rule = state.format.shortening_rule if isinstance(state, PlayoffState) else None
        if not rule:
            return marked("shorten the time limits")
        return Said.tr("shorten the time limits ({rule})", rule=rule)

    def decide(self, state: PlayoffState, ctx: Context) -> list[PlayoffEvent]:
        return [TimeControlShortened(
            match=self.match, time_control=self.time_control, reason=self.reason
        )]


class RestoreTimeControl(CommandBase):
    """Undo a shortening: the regulation's time control again for one match, or for
    every match not begun that was shortened. The chief arbiter's, with a reason."""

    type: Literal["restore-time-control"] = "restore-time-control"
    action: ClassVar[Action] = Action.OVERRIDE
    what: ClassVar[str | None] = marked("restore the time limits")
    route = Route(
        "POST", "/time-control/restore",
        "Arbiter override: the regulation's time control again (undoes a shortening)",
    )
    match: int | None = Field(default=None, ge=1, description="One match, or every one shortened")
    reason: Reason

    def decide(self, state: PlayoffState, ctx: Context) -> list[PlayoffEvent]:
        return [TimeControlRestored(match=self.match, reason=self.reason)]


class SetDeadline(CommandBase):
    """Set or clear (null) the organiser's deadline."""

    type: Literal["deadline"] = "deadline"
    action: ClassVar[Action] = Action.OVERRIDE
    what: ClassVar[str | None] = marked("set the organiser's deadline")
    route = Route("POST", "/deadline", "Set or clear the organiser's deadline")
    deadline: Moment | None
    reason: Reason

    def decide(self, state: PlayoffState, ctx: Context) -> list[PlayoffEvent]:
        return [DeadlineSet(deadline=self.deadline, reason=self.reason)]


class FireTransition(CommandBase):
    """The server's own: a timed transition of the schedule is due (its job id is
    the command id, so it fires once)."""

    type: Literal["fire-transition"] = "fire-transition"
    job: str = Field(max_length=200)
    kind: Literal["players-called", "game-due", "break-over"]
    at: Moment
    match: int | None = None
    game: int | None = None

    def decide(self, state: PlayoffState, ctx: Context) -> list[PlayoffEvent]:
        return [TransitionFired(
            job=self.job, kind=self.kind, at=self.at, match=self.match, game=self.game
        )]


from orchestrator.core.boardcommands import (  # noqa: E402 (built on the bases above)
    BoardStatus,
    CallArbiter,
    GivePenalty,
    IssueBoardKey,
    OutageRefused,
    SetBoardSides,
    check_board,
)
from orchestrator.core.bridgecommands import (  # noqa: E402 (built on the bases above)
    CorrectBoardScore,
    ScoreBoard,
)
from orchestrator.core.eboardcommands import (  # noqa: E402 (built on the bases above)
    BoardFlag,
    EboardStatus,
    MapEboard,
    ReadPosition,
)

_BOARD_ONLY = frozenset({"stamp_ms", "queued", "held", "board_clock"})
Command = Annotated[
    StartGame
    | PressClock
    | PauseClock
    | ResumeClock
    | AdjustClock
    | RecordResult
    | CorrectResult
    | DrawLots
    | TossCoin
    | ChooseArmageddonColours
    | MoveStart
    | Postpone
    | ShortenTimeControl
    | RestoreTimeControl
    | SetDeadline
    | ScoreBoard
    | CorrectBoardScore
    | CallArbiter
    | SetBoardSides
    | GivePenalty
    | ReadPosition
    | BoardFlag
    | MapEboard,
    Field(discriminator="type"),
]
"""Every command an arbiter may send (the server's own, flags and timed
transitions, are not among them)."""

_COMMAND: TypeAdapter[Command] = TypeAdapter(Command)


class Applied(NamedTuple):
    """One event of a command, applied: its stamp, and the state just after it."""

    event: PlayoffEvent
    stamp: Stamp
    after: PlayoffState


def apply_command(
    state: PlayoffState, command: CommandBase, ctx: Context, actor: str | None = None
) -> list[Applied]:
    """``command``'s events, each applied to the state it follows (nothing logged).

    The last one's ``after`` is the state after the command (the state itself for
    a command that decides no event). :class:`~playoff_formats.errors.PlayoffError`
    (or a :class:`pydantic.ValidationError` for an event out of range) when it is
    refused.
    """
    command.check_permitted(state, ctx)
    after = state
    applied: list[Applied] = []
    for seq, event in enumerate(command.decide(state, ctx), start=state.seq + 1):
        stamp = Stamp(seq, ctx.now, actor)
        after = apply_playoff(after, event, stamp)
        applied.append(Applied(event, stamp, after))
    return applied


def refused(
    state: PlayoffState, command: CommandBase, ctx: Context
) -> PlayoffError | ValidationError | None:
    """The refusal ``command`` would meet now, as raised, or None when it would be
    accepted: the service's own check, run without logging."""
    try:
        apply_command(state, command, ctx)
    except (PlayoffError, ValidationError) as exc:
        return exc
    return None


def refusal_words(
    exc: PlayoffError | ValidationError, names: Mapping[str, str] | None = None
) -> str:
    """A refusal's reason, as the service answers it (the players by ``names``)."""
    if isinstance(exc, ValidationError):
        return validation_words(exc, tagged=True)
    return exc.words(names or {})


def refusal(state: PlayoffState, command: CommandBase, ctx: Context) -> str | None:
    """Why ``command`` would be refused now, or None when it would be accepted.

    What a console may offer: the service's own check, run without logging.
    """
    exc = refused(state, command, ctx)
    return None if exc is None else refusal_words(exc, state.names)


def parse_command(payload: object) -> Command:
    """The command of a payload; :class:`pydantic.ValidationError` naming the field."""
    return _COMMAND.validate_python(payload)


def client_commands() -> tuple[type[CommandBase], ...]:
    """The command classes of :data:`Command`, in the order of the union."""
    classes: tuple[type[CommandBase], ...] = get_args(get_args(Command)[0])
    return classes


# --------------------------------------------------------------------------- the main event


class EventCommandBase(_Permitted, BaseModel):
    """A command on an uploaded main event (its stream, not a play-off's)."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    type: str

    def decide(self, state: EventState, ctx: Context) -> list[EventStreamEvent]:
        raise NotImplementedError


class RecordGameResult(EventCommandBase):
    """The result of a pending game of the main event (one paired with ``"*"``).

    ``ended_at`` is when the game ended (the break before a play-off runs from the
    last game of its players); without it, the moment the result is recorded.
    """

    type: Literal["record-game-result"] = "record-game-result"
    round: int = Field(ge=1, le=1000)
    white: Ref
    black: Ref
    result: Result
    ended_at: Moment | None = None

    def decide(self, state: EventState, ctx: Context) -> list[EventStreamEvent]:
        if self.ended_at is not None and self.ended_at > ctx.now:
            raise PlayoffError(Said.tr(
                "ended_at {ended_at} is in the future: a game is recorded once it has ended",
                ended_at=self.ended_at.isoformat(),
            ))
        return [GameResultRecorded(
            round=self.round, white=self.white, black=self.black, result=self.result,
            ended_at=self.ended_at or ctx.now,
        )]


class ShowForesightInHall(EventCommandBase):
    """The chief arbiter shows (or hides) the play-off watch line on the hall display."""

    type: Literal["show-foresight-in-hall"] = "show-foresight-in-hall"
    action: ClassVar[Action] = Action.OVERRIDE
    what: ClassVar[str | None] = marked("show the play-off watch in the hall")
    on: StrictBool

    def decide(self, state: EventState, ctx: Context) -> list[EventStreamEvent]:
        return [HallForesightSet(on=self.on)]


def apply_event_command(
    state: EventState, command: EventCommandBase, ctx: Context, actor: str | None = None
) -> tuple[list[EventStreamEvent], EventState]:
    """``command``'s events and the event's state after them (nothing logged);
    :class:`~playoff_formats.errors.PlayoffError` when it is refused."""
    command.check_permitted(state, ctx)
    events = command.decide(state, ctx)
    after = state
    for seq, event in enumerate(events, start=state.seq + 1):
        after = apply_event(after, event, Stamp(seq, ctx.now, actor))
    return events, after




def _physical(kind: str, outcome: dict[str, Any], conducted_by: str | None) -> dict[str, Any]:
    """The record of a draw made by hand and entered by the arbiter."""
    return {
        "method": "physical", "kind": kind, "conducted_by": conducted_by or "chief arbiter",
        **outcome,
    }
