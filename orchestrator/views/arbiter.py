"""The arbiter console's view of a play-off: what it shows, and what each control does.

Everything the console shows is decided and worded here; the console renders the
view and sends the payloads it offers. It keeps no rules of its own: no command
or event types, no move counter, no turns, no points table, no schedule diffing.

Controls
--------
A :class:`Control` is one button: the exact command payload it sends, its label,
and whether the service accepts that command now (``enabled``), else the
service's own reason (``refusal``). Both come from
:func:`orchestrator.commands.refusal`, which runs the service's check without
logging, so a control is offered exactly when its command would be accepted.

A :class:`Form` is a command the arbiter completes: the fixed part of the payload
(per :class:`FormAction`), and fields whose options carry the payload fields they
set (the games whose start may move, the matches whose time control may be
shortened...), or whose typed value goes into one payload field. A number typed
in other units is multiplied by the action's ``scale`` (seconds to milliseconds,
negative to take time). Every arbiter's override has a required reason.

Controls that follow a clock
----------------------------
Events that change only a clock (a press, a pause, an adjustment) send no new
view: their event frame carries the clock as it then stands, and the console
replaces the view's clock with it. So a :class:`ClockControl` (a press, pause or
resume) names its clock (``clock``), the values the clock must show for the
command to apply (``requires``: a press is for the side whose time runs, a pause
for a running clock), and the payload fields taken from the clock
(``fill``: the press echoes the clock's ``next_move``, so a double tap is
refused as a move already counted). As computed here, ``requires`` holds on the
view's clock exactly when ``enabled`` is true.

The schedule
------------
The plan as it stands (games, breaks, the deadline, whether it fits, the
proposal of a shorter time control, warnings) and, when the schedule moved since
the previous view, what moved and after what (:class:`Replan`, from
``ctx.previous_plan`` and ``ctx.since``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, JsonValue

from orchestrator.commands import (
    AdjustClock,
    ChooseArmageddonColours,
    Command,
    CommandBase,
    Context,
    CorrectResult,
    DrawLots,
    MoveStart,
    PauseClock,
    PressClock,
    RecordResult,
    ResumeClock,
    ScoreBoard,
    ShortenTimeControl,
    StartGame,
    TossCoin,
    refusal,
)
from orchestrator.events import PlayoffEvent
from orchestrator.state import Draw, DrawKind, PlayoffState
from orchestrator.views.context import ViewContext
from orchestrator.views.playoff import ClockView, armageddon_view, change_view, clock_view
from playoff_formats.clock import Clock, ClockStatus
from playoff_formats.extra_boards import ExtraBoards
from playoff_formats.lots import CoinFace
from playoff_formats.model import Colour, Result
from playoff_formats.playoff import (
    DecisionMethod,
    Game,
    GameKind,
    Match,
    MatchDecision,
    MatchStatus,
    champion,
)
from playoff_formats.schedule import Plan, PlannedGame, UnitKind, UnitStatus
from playoff_formats.schedule.words import adjective, span

__all__ = [
    "VIEW_MODEL",
    "ArbiterView",
    "ClockControl",
    "Control",
    "Form",
    "FormAction",
    "FormField",
    "Option",
    "arbiter_view",
]

MOVED = timedelta(minutes=1)
"""A planned start that moved by less than this since the previous view did not move."""

_PROBE_REASON = "checking what the console may offer"


class _View(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# --------------------------------------------------------------------------- controls


class Control(_View):
    """A button: the command it sends, and whether the service accepts it now."""

    id: str = Field(
        description="One decision: controls sharing an id wait together while one's "
        "command is pending (e.g. every result of one game)"
    )
    name: str = Field(description="What the control is, stable from view to view")
    label: str = Field(
        description="Its text; a name in braces is the payload's field of that name"
    )
    detail: str | None = Field(default=None, description="A second line of text")
    summary: str = Field(
        description="The command in words, for the list of commands sent; a name in "
        "braces is the payload's field of that name"
    )
    command: Command = Field(description="The exact payload to send")
    enabled: bool
    refusal: str | None = Field(default=None, description="Why the service refuses it now")
    primary: bool = False


class ClockControl(Control):
    """A control that acts on a running clock and follows it between views."""

    clock: str = Field(description='The clock it follows: its key in "clocks" ("m:g")')
    requires: dict[str, str] = Field(
        description="The values the clock must show for the command to apply"
    )
    fill: dict[str, str] = Field(
        default_factory=dict,
        description="Payload fields taken from the clock as it stands: field -> clock field",
    )


class Option(_View):
    """A choice in a select or a set of radio buttons."""

    value: str = Field(description="The choice's value in the form")
    label: str
    sets: dict[str, JsonValue] = Field(description="The payload fields this choice sets")
    name: str | None = Field(default=None, description="What the choice is (radio buttons)")
    at: datetime | None = Field(
        default=None, description="An instant to show beside the label, in local time"
    )


class FormField(_View):
    """One input of a form.

    A ``select`` or ``radio`` field sets the payload fields of the chosen option;
    any other puts its value into the payload field ``name`` (a ``datetime`` as
    an ISO 8601 instant; an empty optional field as null).
    """

    name: str
    label: str
    input: Literal["select", "radio", "number", "text", "datetime"]
    options: tuple[Option, ...] = ()
    required: bool = True
    value: str | None = Field(default=None, description="The value shown at first")
    min: int | None = None
    max: int | None = None
    step: int | None = None
    min_length: int | None = None
    max_length: int | None = None
    placeholder: str | None = None
    clear_after: bool = Field(
        default=False, description="Emptied once the command is accepted (reasons, scores)"
    )
    test_id: str


class FormAction(_View):
    """A submit button: the fixed part of the payload, completed by the fields."""

    name: str
    label: str
    summary: str = Field(
        description="The command in words; a name in braces is the payload's field"
    )
    command: dict[str, JsonValue]
    scale: dict[str, int] = Field(
        default_factory=dict,
        description="Number fields sent multiplied by this (seconds typed, ms sent)",
    )
    primary: bool = False


class Form(_View):
    """A command the arbiter completes before sending it."""

    id: str = Field(description="Pending commands of one form make it wait")
    name: str
    title: str
    hint: str | None = None
    fields: tuple[FormField, ...]
    actions: tuple[FormAction, ...]
    enabled: bool
    refusal: str | None = None
    open: bool = Field(default=False, description="Shown open (it needs the arbiter now)")
    clock: str | None = Field(
        default=None,
        description="The clock its command acts on, when that is all it changes: the clock "
        "frame then shows the change, and no new view follows",
    )


class Fill(_View):
    """Fill a form in for the arbiter to complete (a proposal to apply)."""

    label: str
    form: str = Field(description="The form's name")
    values: dict[str, str] = Field(description="Field name -> value to put in it")


# --------------------------------------------------------------------------- matches


class PlayerView(_View):
    """A player (or team): the id the commands use, and the name shown."""

    id: str
    name: str


class GameRow(_View):
    """A game as listed in its match's table."""

    number: int
    kind: GameKind
    label: str
    white: str = Field(description="White's name, or a dash before the colours are set")
    black: str
    result: str = Field(description="The result as written (½-½), empty while none")
    state: Literal["played", "in play", "to play"]


class ClockFace(_View):
    """One side of a game's clock."""

    side: Colour
    side_label: str
    player: str
    start_ms: int | None = Field(description="The time it shows before the game starts")
    press: ClockControl | None = None


class GamePanel(_View):
    """A game to act on now: its clock, its start and its result."""

    match: int
    game: int
    clock: str = Field(description='Its key in "clocks" ("m:g")')
    title: str
    time_control: str
    status: str = Field(description="The clock's status as of the view (a clock frame updates it)")
    faces: tuple[ClockFace, ClockFace]
    start: Control | None = None
    pause: ClockControl | None = None
    resume: ClockControl | None = None
    results: tuple[Control, ...] = Field(description="Only the results the rules allow")
    adjust: Form | None = None


class LotsPanel(_View):
    """Lots for White in game 1 (GCT 2015 regs. 6-9)."""

    title: str
    service: Control
    physical: Form


class TossPanel(_View):
    """The Armageddon coin toss (GCT 2015 reg. 10 c)."""

    title: str
    hint: str
    service: Form
    physical: Form


class ColoursPanel(_View):
    """The toss winner's choice of colours for the Armageddon."""

    title: str
    toss: str = Field(description="How the toss went")
    winner: PlayerView
    hint: str
    choices: tuple[Control, ...]


class DecisionView(_View):
    """Who advances from a match, and why (GCT 2015 regs. 6 and 10), in words."""

    winner: PlayerView
    headline: str
    details: tuple[str, ...]


class MatchView(_View):
    """A match: who plays, how it stands, and what can be done in it now."""

    id: int
    title: str
    round_name: str
    status: MatchStatus
    players: tuple[PlayerView | None, PlayerView | None]
    score: str | None = Field(description="Points over the regular games, first player first")
    score_title: str | None
    time_control: str
    games: tuple[GameRow, ...]
    decision: DecisionView | None
    note: str | None = Field(description="Why nothing can be done yet")
    lots: LotsPanel | None = None
    toss: TossPanel | None = None
    colours: ColoursPanel | None = None
    panels: tuple[GamePanel, ...] = ()


# --------------------------------------------------------------------------- bridge


class BoardRow(_View):
    """A board's North-South scores at both tables, and the home team's IMPs."""

    board: int
    table_1: str
    table_2: str
    imps: str


class StanzaView(_View):
    """A stanza of extra boards, as its table shows it."""

    stanza: int
    caption: str
    boards: tuple[BoardRow, ...]


class ExtraBoardsView(_View):
    """Extra boards (EBU 143.2.1): the scoreboard and the score entry."""

    title: str
    running_total: str
    status: str
    winner: PlayerView | None
    winner_text: str | None
    stanzas: tuple[StanzaView, ...]
    entry: Form | None = Field(description="The stanza and boards open for scores")


# --------------------------------------------------------------------------- schedule


class Moved(_View):
    """How a planned game moved since the previous view."""

    from_start: datetime
    from_end: datetime
    delta: str = Field(description='e.g. "+15 min", "−25 min"')


class PlanGame(_View):
    """A game or stanza in the schedule, as the list and the timeline show it."""

    key: str
    match: int
    game: int
    kind: UnitKind
    status: UnitStatus
    lane: int = Field(description="The match whose lane it is in")
    label: str = Field(description="A short label (G1, A, S2)")
    title: str
    players: str
    time_control: str | None
    interval: str | None
    reason: str
    start: datetime
    end: datetime
    fixed: bool
    tentative: bool
    moved: Moved | None


class PlanBreak(_View):
    """A rest in the schedule (after the main event, between games), in its lane."""

    lane: int
    kind: str
    start: datetime
    end: datetime
    reason: str


class Lane(_View):
    """A row of the timeline: one match's games."""

    match: int
    label: str


class Proposal(_View):
    """A shortened time control that meets the deadline (GCT 2015 reg. 5), or why none."""

    text: str
    time_control: str | None
    fill: Fill | None


class ReplanItem(_View):
    """A planned game the re-plan moved: by how much, and where to."""

    key: str
    label: str
    delta: str
    to: datetime


class Replan(_View):
    """What the last re-plan moved, and after what."""

    text: str = Field(description='e.g. "Re-planned after game started"')
    cause: str
    items: tuple[ReplanItem, ...]


class ScheduleView(_View):
    """The schedule as planned now, against the deadline."""

    error: str | None = Field(default=None, description="Why there is no schedule")
    start: datetime | None = None
    finish: datetime | None = None
    deadline: datetime | None = None
    fits: bool | None = None
    fits_text: str | None = None
    proposal: Proposal | None = None
    warnings: tuple[str, ...] = ()
    lanes: tuple[Lane, ...] = ()
    games: tuple[PlanGame, ...] = ()
    breaks: tuple[PlanBreak, ...] = ()
    replan: Replan | None = None


# --------------------------------------------------------------------------- records


class DrawView(_View):
    """A lot or coin toss, in words, with its published record to check."""

    seq: int
    kind: DrawKind
    match: int
    text: str
    method: Literal["commit-reveal", "physical"]
    conducted_by: str | None
    record: dict[str, Any] = Field(description="The published draw (commitment, seed, outcome)")


class ChangeView(_View):
    """A change an arbiter made by hand, in words, with its reason."""

    seq: int
    type: str
    at: datetime
    actor: str | None
    text: str
    reason: str | None


class PlacingRow(_View):
    """A player's final place, prize money and tour points, as written."""

    place: str
    player: str
    score: str
    money: str
    points: str


class ChampionView(_View):
    """The winner of the play-off."""

    id: str
    name: str
    text: str


class Overrides(_View):
    """The arbiter's overrides, each with a required reason."""

    move_start: Form | None
    postpone: Form | None
    time_control: Form | None
    deadline: Form
    correct: Form | None


class ArbiterView(_View):
    """Everything the arbiter console shows and allows, as of ``server_ms``."""

    view: Literal["arbiter"] = "arbiter"
    seq: int
    server_ms: int
    kind: Literal["knock-out", "extra-boards"]
    title: str
    subtitle: str
    champion: ChampionView | None
    matches: tuple[MatchView, ...]
    extra_boards: ExtraBoardsView | None
    schedule: ScheduleView
    draws: tuple[DrawView, ...]
    changes: tuple[ChangeView, ...]
    overrides: Overrides
    placings: tuple[PlacingRow, ...] | None
    clocks: dict[str, ClockView] = Field(description='Every clock, by "match:game"')
    next_change_ms: int | None = Field(
        description="The server instant after which the view changes with the time alone"
    )


VIEW_MODEL = ArbiterView
"""The model of the view frames' data for the console (for the JSON Schema)."""


def arbiter_view(state: PlayoffState, ctx: ViewContext) -> dict[str, Any]:
    """Everything the arbiter console shows and allows, as of ``ctx.now``."""
    return _Builder(state, ctx).view().model_dump(mode="json")


# --------------------------------------------------------------------------- words

RESULT_WORDS: dict[Result, tuple[str, str, str]] = {
    Result.WHITE_WINS: ("1-0", "White wins", "result-1-0"),
    Result.DRAW: ("½-½", "Draw", "result-draw"),
    Result.BLACK_WINS: ("0-1", "Black wins", "result-0-1"),
    Result.WHITE_WINS_BY_FORFEIT: ("+/−", "White wins by forfeit", "result-white-forfeit"),
    Result.BLACK_WINS_BY_FORFEIT: ("−/+", "Black wins by forfeit", "result-black-forfeit"),
    Result.DOUBLE_FORFEIT: ("−/−", "Double forfeit", "result-double-forfeit"),
}
"""How a result is written, said, and named on the page."""


def _points(points: float) -> str:
    """``1½``, ``½``, ``2``."""
    whole = int(points)
    if points - whole == 0.5:
        return f"{whole}½" if whole else "½"
    return str(whole)


def _signed_minutes(delta: timedelta) -> str:
    """``+15 min``, ``−1 h 5 min``: how far a start moved."""
    minutes = round(delta.total_seconds() / 60)
    sign = "−" if minutes < 0 else "+"
    hours, rest = divmod(abs(minutes), 60)
    if not hours:
        return f"{sign}{rest} min"
    return f"{sign}{hours} h {rest} min" if rest else f"{sign}{hours} h"


def _event_words(types: Iterable[str]) -> str:
    """The events that moved the schedule, as words ("game started, result recorded")."""
    moving = [t for t in dict.fromkeys(types) if t not in _QUIET_EVENTS]
    return ", ".join(t.replace("-", " ") for t in moving) or "the time passing"


def _quiet_events() -> frozenset[str]:
    """Event types that cannot move the schedule: clock-only ones and timed transitions."""
    union = get_args(PlayoffEvent)[0]
    quiet = set()
    for cls in get_args(union):
        if cls.clock_only:
            quiet.add(cls.model_fields["type"].default)
    quiet.add("transition-fired")
    return frozenset(quiet)


_QUIET_EVENTS = _quiet_events()


# --------------------------------------------------------------------------- the builder


class _Builder:
    """One view of one state: the state, the time, and the check of every command."""

    def __init__(self, state: PlayoffState, ctx: ViewContext) -> None:
        self.state = state
        self.ctx = ctx
        self.check: Context = ctx.command_context()

    def name(self, player: str | None) -> str:
        if player is None:
            return "?"
        return self.state.names.get(player, player)

    def player(self, player: str) -> PlayerView:
        return PlayerView(id=player, name=self.name(player))

    def refusal(self, command: CommandBase) -> str | None:
        return refusal(self.state, command, self.check)

    def control(
        self, id: str, name: str, label: str, summary: str, command: Command, *,
        detail: str | None = None, primary: bool = False,
    ) -> Control:
        why = self.refusal(command)
        return Control(
            id=id, name=name, label=label, detail=detail, summary=summary, command=command,
            enabled=why is None, refusal=why, primary=primary,
        )

    # ------------------------------------------------------------------ the whole view

    def view(self) -> ArbiterView:
        state, ctx = self.state, self.ctx
        extra = state.extra
        if extra is not None:
            title = " v ".join(self.name(t) for t in (extra.home, extra.away))
            kind: Literal["knock-out", "extra-boards"] = "extra-boards"
            subtitle = f"extra boards · {state.regulation}"
            matches: tuple[MatchView, ...] = ()
            extra_view: ExtraBoardsView | None = self.extra_boards(extra)
            crowned = None
            draws: tuple[DrawView, ...] = ()
        else:
            title = state.chess.name
            kind = "knock-out"
            subtitle = f"play-off · {state.regulation}"
            matches = tuple(self.match(m) for m in state.chess.matches if not m.bye)
            extra_view = None
            crowned = champion(state.chess)
            draws = tuple(self.draw(d) for d in state.draws)
        return ArbiterView(
            seq=state.seq,
            server_ms=ctx.server_ms,
            kind=kind,
            title=title,
            subtitle=subtitle,
            champion=(
                None if crowned is None else ChampionView(
                    id=crowned, name=self.name(crowned), text=f"Champion: {self.name(crowned)}"
                )
            ),
            matches=matches,
            extra_boards=extra_view,
            schedule=self.schedule(),
            draws=draws,
            changes=tuple(self.change(c) for c in (change_view(c) for c in state.changes)),
            overrides=self.overrides(),
            placings=self.placings(),
            clocks={
                f"{key[0]}:{key[1]}": ClockView.model_validate(
                    clock_view(key, clock, ctx.server_ms)
                )
                for key, clock in sorted(state.clocks.items())
            },
            next_change_ms=self.next_change_ms(),
        )

    # ------------------------------------------------------------------ matches

    def round_name(self, match: Match) -> str:
        for r in self.state.chess.rounds:
            if (r.stage, r.number) == (match.stage, match.round):
                return r.name
        return f"Match {match.id}"

    def match(self, match: Match) -> MatchView:
        state = self.state
        a, b = match.players
        known = a is not None and b is not None
        round_name = self.round_name(match)
        versus = f"{self.name(a)} v {self.name(b)}" if known else "players not known yet"
        control = state.time_control(match, 1)
        time_control = f"Time control {control}" if control is not None else ""
        if match.decider is not None:
            time_control += f" · Armageddon {match.decider}"
        games = state.chess.games_of(match.id)
        view = MatchView(
            id=match.id,
            title=f"{round_name} · {versus}",
            round_name=round_name,
            status=match.status,
            players=(
                self.player(a) if a is not None else None,
                self.player(b) if b is not None else None,
            ),
            score=self.score(games, a, b) if a is not None and b is not None else None,
            score_title=f"{self.name(a)} – {self.name(b)}" if known else None,
            time_control=time_control,
            games=tuple(self.game_row(g) for g in games),
            decision=self.decision(match) if match.decision is not None else None,
            note=None if known else "Waiting for the earlier match: its winner plays here.",
        )
        if not known or match.decision is not None:
            return view
        return view.model_copy(update=self.next_steps(match, games))

    def score(self, games: Sequence[Game], a: str, b: str) -> str:
        totals = {a: 0.0, b: 0.0}
        for g in games:
            if g.kind is not GameKind.REGULAR or g.result is None:
                continue
            if g.white in totals:
                totals[g.white] += g.result.white_points
            if g.black in totals:
                totals[g.black] += g.result.black_points
        return f"{_points(totals[a])}–{_points(totals[b])}"

    def game_row(self, game: Game) -> GameRow:
        key = (game.match, game.number)
        if game.result is not None:
            where: Literal["played", "in play", "to play"] = "played"
        elif key in self.state.started_at:
            where = "in play"
        else:
            where = "to play"
        return GameRow(
            number=game.number,
            kind=game.kind,
            label="Armageddon" if game.kind is GameKind.ARMAGEDDON else "",
            white=self.name(game.white) if game.white is not None else "—",
            black=self.name(game.black) if game.black is not None else "—",
            result=RESULT_WORDS[game.result][0] if game.result is not None else "",
            state=where,
        )

    def decision(self, match: Match) -> DecisionView:
        decision = match.decision
        assert decision is not None
        return DecisionView(
            winner=self.player(decision.winner),
            headline=f"{self.name(decision.winner)} advances",
            details=self.decision_details(match, decision),
        )

    def decision_details(self, match: Match, decision: MatchDecision) -> tuple[str, ...]:
        """GCT 2015 regs. 6 and 10, in the players' names."""
        winner, loser = self.name(decision.winner), self.name(decision.loser)
        if decision.method is DecisionMethod.BYE:
            return (f"{winner} has a bye in this round.",)
        won, lost = decision.score or (0.0, 0.0)
        if decision.method is DecisionMethod.REGULAR_GAMES:
            return (f"{winner} beat {loser} {_points(won)}-{_points(lost)} over the two "
                    "regular games.",)
        level = f"Level {_points(won)}-{_points(lost)} after two games"
        decider = next(
            (g for g in self.state.chess.games_of(match.id) if g.kind is GameKind.ARMAGEDDON),
            None,
        )
        if decision.method is DecisionMethod.ARMAGEDDON_DRAW:
            return (
                f"Black ({winner}) advances: a drawn Armageddon counts as a win for Black "
                "(GCT 2015 reg. 10 b).",
                f"{level}; the Armageddon game was drawn.",
            )
        colour = "White" if decider is not None and decider.white == decision.winner else "Black"
        result = decision.armageddon
        if result is None:
            how = ""
        elif not result.played:
            how = " by forfeit"
        else:
            how = f" ({RESULT_WORDS[result][0]})"
        return (f"{level}; {winner} won the Armageddon game with {colour}{how}.",)

    def next_steps(self, match: Match, games: Sequence[Game]) -> dict[str, Any]:
        """What can be done in an undecided match now: lots, the toss, the colours, or
        the games in play (else the next game to play)."""
        first = next((g for g in games if g.number == 1), None)
        if first is None:
            return {}
        if first.white is None:
            return {"lots": self.lots(match)}
        started = self.state.started_at
        in_play = [g for g in games if g.result is None and (g.match, g.number) in started]
        todo = in_play or [g for g in games if g.result is None][:1]
        steps: dict[str, Any] = {}
        panels: list[GamePanel] = []
        for game in todo:
            if game.white is None and game.kind is GameKind.ARMAGEDDON:
                tosses = self.state.draws_of("coin-toss", match.id)
                if tosses:
                    steps["colours"] = self.colours(match, tosses[-1])
                else:
                    steps["toss"] = self.toss(match)
            elif game.white is not None:
                panels.append(self.game_panel(match, game))
        steps["panels"] = tuple(panels)
        return steps

    # ------------------------------------------------------------------ lots, toss, colours

    def player_options(self, match: Match, field: str) -> tuple[Option, ...]:
        return tuple(
            Option(value=p, label=self.name(p), sets={field: p})
            for p in match.players if p is not None
        )

    def lots(self, match: Match) -> LotsPanel:
        key = f"lots:{match.id}"
        service = self.control(
            key, f"lots-service-{match.id}", "Draw lots (service, commit-reveal)",
            f"Lots by the service, match {match.id}",
            DrawLots(match=match.id, method="service"), primary=True,
        )
        whites = self.player_options(match, "white")
        why = self.refusal(DrawLots(match=match.id, method="physical", white=whites[0].value))
        physical = Form(
            id=key, name=f"lots-physical-form-{match.id}", title="Physical draw",
            fields=(FormField(
                name="white", label="Physical draw: White is", input="select", options=whites,
                test_id=f"lots-white-{match.id}",
            ),),
            actions=(FormAction(
                name=f"lots-physical-{match.id}", label="Record physical draw",
                summary=f"Physical lots, match {match.id}",
                command={"type": "lots", "match": match.id, "method": "physical"},
            ),),
            enabled=why is None, refusal=why,
        )
        return LotsPanel(title="Lots for White in game 1", service=service, physical=physical)

    def toss(self, match: Match) -> TossPanel:
        key = f"toss:{match.id}"
        callers = self.player_options(match, "caller")
        calls = tuple(
            Option(value=face.value, label=face.value.capitalize(), sets={"call": face.value},
                   name=f"toss-call-{face.value}-{match.id}")
            for face in CoinFace
        )
        why = self.refusal(TossCoin(
            match=match.id, method="service", caller=callers[0].value, call=CoinFace.HEADS
        ))
        service = Form(
            id=key, name=f"toss-form-{match.id}", title="Toss by the service",
            fields=(
                FormField(name="caller", label="Who calls", input="select", options=callers,
                          test_id=f"toss-caller-{match.id}"),
                FormField(name="call", label="The call", input="radio", options=calls,
                          value=CoinFace.HEADS.value, test_id=f"toss-call-{match.id}"),
            ),
            actions=(FormAction(
                name=f"toss-{match.id}", label="Toss the coin (service, commit-reveal)",
                summary=f"Coin toss by the service, match {match.id}",
                command={"type": "coin-toss", "match": match.id, "method": "service"},
                primary=True,
            ),),
            enabled=why is None, refusal=why,
        )
        winners = self.player_options(match, "winner")
        why = self.refusal(TossCoin(match=match.id, method="physical", winner=winners[0].value))
        physical = Form(
            id=key, name=f"toss-physical-form-{match.id}", title="Physical toss",
            fields=(FormField(
                name="winner", label="Physical toss: won by", input="select", options=winners,
                test_id=f"toss-physical-winner-{match.id}",
            ),),
            actions=(FormAction(
                name=f"toss-physical-{match.id}", label="Record physical toss",
                summary=f"Physical coin toss, match {match.id}",
                command={"type": "coin-toss", "match": match.id, "method": "physical"},
            ),),
            enabled=why is None, refusal=why,
        )
        return TossPanel(
            title="Armageddon coin toss",
            hint="The winner of the toss chooses the colour (GCT 2015 reg. 10 c).",
            service=service, physical=physical,
        )

    def colours(self, match: Match, toss: Draw) -> ColoursPanel:
        winner = toss.winner or ""
        loser = next((p for p in match.players if p is not None and p != winner), "")
        outcome = toss.record.get("outcome")
        if isinstance(outcome, dict) and outcome.get("face"):
            how = (f"{self.name(str(outcome.get('caller')))} called {outcome.get('call')}; "
                   f"the coin showed {outcome.get('face')}.")
        else:
            how = "Physical toss."
        key = f"colours:{match.id}"
        decider = match.decider
        return ColoursPanel(
            title="Armageddon colours",
            toss=how,
            winner=self.player(winner),
            hint=f"White has more time ({decider}); a draw means Black wins.",
            choices=(
                self.control(
                    key, f"colours-winner-black-{match.id}",
                    f"{self.name(winner)} takes Black (draw odds)",
                    f"Armageddon colours, match {match.id}: {self.name(winner)} Black",
                    ChooseArmageddonColours(match=match.id, white=loser, black=winner),
                    primary=True,
                ),
                self.control(
                    key, f"colours-winner-white-{match.id}",
                    f"{self.name(winner)} takes White (more time)",
                    f"Armageddon colours, match {match.id}: {self.name(winner)} White",
                    ChooseArmageddonColours(match=match.id, white=winner, black=loser),
                ),
            ),
        )

    # ------------------------------------------------------------------ a game's clock

    def game_panel(self, match: Match, game: Game) -> GamePanel:
        state = self.state
        key = (match.id, game.number)
        clock_key = f"{key[0]}:{key[1]}"
        clock = state.clocks.get(key)
        started = key in state.started_at
        control = state.time_control(match, game)
        if game.kind is GameKind.ARMAGEDDON:
            terms = armageddon_view(state, match.id)
            time_control = (
                f"{terms['time_control']}; a draw means Black wins" if terms is not None else ""
            )
            title = f"Game {game.number} · Armageddon"
        else:
            time_control = str(control) if control is not None else ""
            title = f"Game {game.number}"
        live = clock is not None and clock.status in (ClockStatus.RUNNING, ClockStatus.PAUSED)
        faces = tuple(
            ClockFace(
                side=side,
                side_label=side.value.capitalize(),
                player=self.name(game.white if side is Colour.WHITE else game.black),
                start_ms=control.initial_ms(side) if control is not None else None,
                press=self.press(clock_key, game, side, clock) if live and clock else None,
            )
            for side in (Colour.WHITE, Colour.BLACK)
        )
        results = []
        for result, (written, words, name) in RESULT_WORDS.items():
            command = RecordResult(match=match.id, game=game.number, result=result)
            if self.refusal(command) is None:
                results.append(Control(
                    id=f"result:{clock_key}", name=name, label=written, detail=words,
                    summary=f"Result {written}, match {match.id}, game {game.number}",
                    command=command, enabled=True,
                ))
        ident = {"match": match.id, "game": game.number}
        where = f"match {match.id}, game {game.number}"
        return GamePanel(
            match=match.id,
            game=game.number,
            clock=clock_key,
            title=title,
            time_control=time_control,
            status=clock.status.value.replace("-", " ") if clock else (
                "in play" if started else "not started"
            ),
            faces=(faces[0], faces[1]),
            start=None if started else self.control(
                f"clock:{clock_key}", "start", "Start clock", f"Start {where}",
                StartGame(**ident), primary=True,
            ),
            pause=self.clock_control(
                clock_key, "pause", "Pause", f"Pause {where}", PauseClock(**ident),
                {"status": "running"},
            ) if live else None,
            resume=self.clock_control(
                clock_key, "resume", "Resume", f"Resume {where}", ResumeClock(**ident),
                {"status": "paused"},
                primary=True,
            ) if live else None,
            results=tuple(results),
            adjust=self.adjust(match, game) if live else None,
        )

    def clock_control(
        self, clock_key: str, name: str, label: str, summary: str, command: Command,
        requires: dict[str, str], *, primary: bool = False, id: str | None = None,
        fill: dict[str, str] | None = None,
    ) -> ClockControl:
        why = self.refusal(command)
        return ClockControl(
            id=id or f"clock:{clock_key}", name=name, label=label, summary=summary,
            command=command,
            enabled=why is None, refusal=why, primary=primary, clock=clock_key,
            requires=requires, fill=fill or {},
        )

    def press(self, clock_key: str, game: Game, side: Colour, clock: Clock) -> ClockControl:
        """The press for ``side`` after its next move: offered while its time runs."""
        move = clock.moves_completed(side) + 1
        said = side.value.capitalize()
        return self.clock_control(
            clock_key, f"press-{side.value}", f"{said} pressed the clock",
            f"{said} pressed after move {{move}} (match {game.match}, game {game.number})",
            PressClock(match=game.match, game=game.number, side=side, move=move),
            {"running": side.value}, id=f"press:{clock_key}", fill={"move": "next_move"},
        )

    def adjust(self, match: Match, game: Game) -> Form:
        key = f"{match.id}:{game.number}"
        why = self.refusal(AdjustClock(
            match=match.id, game=game.number, side=Colour.WHITE, delta_ms=1000,
            reason=_PROBE_REASON,
        ))
        command: dict[str, JsonValue] = {"type": "adjust", "match": match.id, "game": game.number}
        sides = tuple(
            Option(
                value=side.value,
                label=f"{side.value.capitalize()} · "
                      f"{self.name(game.white if side is Colour.WHITE else game.black)}",
                sets={"side": side.value},
            )
            for side in (Colour.WHITE, Colour.BLACK)
        )
        return Form(
            id=f"adjust:{key}", name="adjust", title="Give or take time",
            fields=(
                FormField(name="side", label="Side", input="select", options=sides,
                          test_id="adjust-side"),
                FormField(name="delta_ms", label="Seconds", input="number", value="60", min=1,
                          max=36_000, step=1, test_id="adjust-seconds"),
                _reason("adjust-reason", "e.g. illegal move: 2 minutes to the opponent"),
            ),
            actions=(
                FormAction(name="adjust-give", label="Give time", command=command,
                           summary=f"Give time to {{side}}, match {match.id}, game {game.number}",
                           scale={"delta_ms": 1000}),
                FormAction(name="adjust-take", label="Take time", command=command,
                           summary=f"Take time from {{side}}, match {match.id}, "
                                   f"game {game.number}",
                           scale={"delta_ms": -1000}),
            ),
            enabled=why is None, refusal=why, clock=key,
        )

    # ------------------------------------------------------------------ bridge

    def extra_boards(self, extra: ExtraBoards) -> ExtraBoardsView:
        board = extra.scoreboard()
        stanzas = []
        for s in board["stanzas"]:
            caption = f"Stanza {s['stanza']} (set {s['set']}) · IMPs {s['imps'][0]}–{s['imps'][1]}"
            if s["partners_change_after"]:
                caption += " · partners change after it"
            stanzas.append(StanzaView(
                stanza=s["stanza"], caption=caption,
                boards=tuple(
                    BoardRow(
                        board=b["board"],
                        table_1="—" if b["table_1"] is None else str(b["table_1"]),
                        table_2="—" if b["table_2"] is None else str(b["table_2"]),
                        imps="" if b["imps"] is None else str(b["imps"]),
                    )
                    for b in s["boards"]
                ),
            ))
        home, away = board["running_total"]
        winner = extra.winner
        return ExtraBoardsView(
            title=f"{self.name(extra.home)} v {self.name(extra.away)}",
            running_total=f"{home}–{away}",
            status=(f"{self.name(winner)} win the match" if winner is not None
                    else f"Stanza {extra.current} in play."),
            winner=self.player(winner) if winner is not None else None,
            winner_text=f"{self.name(winner)} win the match" if winner is not None else None,
            stanzas=tuple(stanzas),
            entry=None if winner is not None else self.board_entry(extra),
        )

    def board_entry(self, extra: ExtraBoards) -> Form:
        stanza = extra.current
        tables: tuple[Literal[1, 2], ...] = (1, 2)
        open_boards = [
            (b, [t for t in tables if extra.score_of(stanza, b, t) is None])
            for b in range(1, extra.stanzas[stanza - 1] + 1)
        ]
        open_boards = [(b, free) for b, free in open_boards if free]
        why = None if open_boards else f"every board of stanza {stanza} has its scores"
        if open_boards:
            b, free = open_boards[0]
            why = self.refusal(ScoreBoard(stanza=stanza, board=b, table=free[0], ns_score=0))
        return Form(
            id="board-score", name="board-form", title=f"Enter a score · stanza {stanza}",
            fields=(
                FormField(
                    name="board", label="Board", input="select", test_id="board-board",
                    options=tuple(
                        Option(value=str(b), label=str(b), sets={"board": b})
                        for b, _ in open_boards
                    ),
                ),
                FormField(
                    name="table", label="Table", input="radio", test_id="board-table",
                    value="1",
                    options=tuple(
                        Option(value=str(t), label=str(t), sets={"table": t},
                               name=f"board-table-{t}")
                        for t in tables
                    ),
                ),
                FormField(name="ns_score", label="North-South score", input="number",
                          step=10, min=-10_000, max=10_000, clear_after=True,
                          test_id="board-ns"),
            ),
            actions=(FormAction(
                name="board-submit", label="Record score",
                summary="Stanza {stanza}, board {board}, table {table}: NS {ns_score}",
                command={"type": "board-score", "stanza": stanza}, primary=True,
            ),),
            enabled=why is None, refusal=why,
        )

    # ------------------------------------------------------------------ the schedule

    def lane_label(self, planned: PlannedGame) -> str:
        return planned.round_name or f"Match {planned.match}"

    def game_title(self, planned: PlannedGame) -> str:
        if planned.kind is UnitKind.STANZA:
            return f"{self.lane_label(planned)} · stanza {planned.game}"
        what = f"game {planned.game}"
        if planned.kind is UnitKind.ARMAGEDDON:
            what += " (Armageddon)"
        return f"{self.lane_label(planned)} · {what}"

    def schedule(self) -> ScheduleView:
        plan = self.ctx.plan
        if plan is None:
            return ScheduleView(error=self.ctx.plan_error or "no schedule")
        moved = self.moved(plan)
        lanes: dict[int, str] = {}
        for g in plan.games:
            lanes.setdefault(g.match, self.lane_label(g))
        games = tuple(
            PlanGame(
                key=f"{g.match}:{g.game}",
                match=g.match,
                game=g.game,
                kind=g.kind,
                status=g.status,
                lane=g.match,
                label=(f"S{g.game}" if g.kind is UnitKind.STANZA
                       else "A" if g.kind is UnitKind.ARMAGEDDON else f"G{g.game}"),
                title=self.game_title(g),
                players=" v ".join(self.name(p) for p in g.players),
                time_control=g.time_control,
                interval=f"after a {adjective(g.interval)} interval" if g.interval else None,
                reason=g.reason,
                start=g.start,
                end=g.end,
                fixed=g.fixed,
                tentative=g.tentative,
                moved=moved.get((g.match, g.game)),
            )
            for g in plan.games
        )
        breaks = tuple(
            PlanBreak(
                lane=next(
                    (g.match for g in plan.games if set(g.players) & set(b.who)),
                    next(iter(lanes), 1),
                ),
                kind=b.kind.value, start=b.start, end=b.end, reason=b.reason,
            )
            for b in plan.breaks
        )
        fits_text = None
        if plan.deadline is not None:
            fits_text = (
                "fits" if plan.fits is not False
                else f"does not fit: over by {span(plan.overrun)}"
            )
        proposal = None
        if plan.fits is False and plan.proposal is not None:
            found = plan.proposal
            fill = None
            if found.found and found.time_control is not None:
                fill = Fill(
                    label=f"Use {found.time_control}", form="time-control",
                    values={"time_control": found.time_control,
                            "match": self.proposal_matches(found.matches)},
                )
            proposal = Proposal(text=found.text, time_control=found.time_control, fill=fill)
        replan = None
        if moved:
            cause = _event_words(self.ctx.since)
            replan = Replan(
                text=f"Re-planned after {cause}", cause=cause,
                items=tuple(
                    ReplanItem(key=g.key, label=g.title, delta=g.moved.delta, to=g.start)
                    for g in games if g.moved is not None
                ),
            )
        return ScheduleView(
            start=plan.start, finish=plan.finish, deadline=plan.deadline, fits=plan.fits,
            fits_text=fits_text, proposal=proposal, warnings=plan.warnings,
            lanes=tuple(Lane(match=m, label=label) for m, label in lanes.items()),
            games=games, breaks=breaks, replan=replan,
        )

    def proposal_matches(self, matches: Sequence[int]) -> str:
        """The choice of the time-control form that covers the proposal's matches:
        every match not begun, or the one match."""
        if self.state.playoff is None:
            return ""
        not_begun = {
            m.id for m in self.state.chess.matches if not m.bye and not self.state.begun(m.id)
        }
        if len(matches) == 1 and set(matches) != not_begun:
            return str(matches[0])
        return ""

    def moved(self, plan: Plan) -> dict[tuple[int, int], Moved]:
        """Planned games whose start moved since the previous view (a start or an end
        of play is not a re-plan)."""
        previous = self.ctx.previous_plan
        if previous is None:
            return {}
        before = {(g.match, g.game): g for g in previous.games}
        moved = {}
        for g in plan.games:
            was = before.get((g.match, g.game))
            if was is None or g.status is not UnitStatus.PLANNED:
                continue
            delta = g.start - was.start
            if abs(delta) >= MOVED:
                moved[(g.match, g.game)] = Moved(
                    from_start=was.start, from_end=was.end, delta=_signed_minutes(delta)
                )
        return moved

    def next_change_ms(self) -> int | None:
        """The next instant of the plan (a game due, a break over), in server ms."""
        plan = self.ctx.plan
        if plan is None:
            return None
        now = self.ctx.now
        instants = [g.start for g in plan.games if g.status is UnitStatus.PLANNED]
        instants += [b.end for b in plan.breaks]
        if plan.break_over is not None:
            instants.append(plan.break_over)
        later = [t for t in instants if t > now]
        if not later:
            return None
        return self.ctx.server_ms + int((min(later) - now).total_seconds() * 1000)

    # ------------------------------------------------------------------ records

    def draw(self, draw: Draw) -> DrawView:
        record = dict(draw.record)
        if draw.kind == "lots":
            text = f"Lots, match {draw.match}: {self.name(draw.white)} has White in game 1"
        else:
            outcome = record.get("outcome")
            how = ""
            if isinstance(outcome, dict) and outcome.get("face"):
                how = (f"{self.name(str(outcome.get('caller')))} called {outcome.get('call')}, "
                       f"the coin showed {outcome.get('face')}; ")
            text = f"Coin toss, match {draw.match}: {how}won by {self.name(draw.winner)}"
        method: Literal["commit-reveal", "physical"] = (
            "commit-reveal" if record.get("method") == "commit-reveal" else "physical"
        )
        conducted = record.get("conducted_by")
        return DrawView(
            seq=draw.seq, kind=draw.kind, match=draw.match, text=text, method=method,
            conducted_by=str(conducted) if conducted else None, record=record,
        )

    def change(self, change: dict[str, Any]) -> ChangeView:
        reason = change.get("reason")
        return ChangeView(
            seq=change["seq"], type=change["type"], at=change["at"], actor=change["actor"],
            text=change["text"], reason=str(reason) if reason else None,
        )

    def placings(self) -> tuple[PlacingRow, ...] | None:
        placings = self.ctx.placings
        if placings is None or self.state.playoff is None or champion(self.state.chess) is None:
            return None

        def text(value: object) -> str:
            if value is None:
                return ""
            if isinstance(value, float) and value.is_integer():
                return str(int(value))
            return str(value)

        return tuple(
            PlacingRow(
                place=text(p.get("place")), player=str(p.get("name") or self.name(p.get("id"))),
                score=text(p.get("score")), money=text(p.get("money")),
                points=text(p.get("points")),
            )
            for p in placings.get("players", [])
        )

    # ------------------------------------------------------------------ overrides

    def overrides(self) -> Overrides:
        movable = self.movable_games()
        return Overrides(
            move_start=self.move_start(movable) if movable else None,
            postpone=self.postpone(movable) if movable else None,
            time_control=self.time_control_form(),
            deadline=self.deadline(),
            correct=self.correct(),
        )

    def movable_games(self) -> tuple[Option, ...]:
        """The planned games whose start the arbiter may move or postpone."""
        plan = self.ctx.plan
        if plan is None:
            return ()
        options = []
        for g in plan.games:
            if g.status is not UnitStatus.PLANNED:
                continue
            probe = MoveStart(match=g.match, game=g.game, at=g.start, reason=_PROBE_REASON)
            if self.refusal(probe) is None:
                options.append(Option(
                    value=f"{g.match}:{g.game}", label=self.game_title(g),
                    sets={"match": g.match, "game": g.game}, at=g.start,
                ))
        return tuple(options)

    def move_start(self, games: tuple[Option, ...]) -> Form:
        return Form(
            id="move-start", name="move-start", title="Move a start",
            fields=(
                FormField(name="game", label="Game", input="select", options=games,
                          test_id="ms-game"),
                FormField(name="at", label="New start", input="datetime", test_id="ms-at"),
                _reason("ms-reason"),
            ),
            actions=(FormAction(name="ms-submit", label="Move the start",
                                summary="Move the start of match {match}, game {game}",
                                command={"type": "move-start"}),),
            enabled=True,
        )

    def postpone(self, games: tuple[Option, ...]) -> Form:
        return Form(
            id="postpone", name="postpone", title="Postpone a game",
            fields=(
                FormField(name="game", label="Game", input="select", options=games,
                          test_id="pp-game"),
                FormField(name="minutes", label="By minutes", input="number", value="15",
                          min=1, max=24 * 60, step=1, test_id="pp-minutes"),
                _reason("pp-reason"),
            ),
            actions=(FormAction(name="pp-submit", label="Postpone",
                                summary="Postpone match {match}, game {game} by {minutes} min",
                                command={"type": "postpone"}),),
            enabled=True,
        )

    def time_control_form(self) -> Form | None:
        """GCT 2015 reg. 5: the time limits of matches not begun may be shortened."""
        state = self.state
        if state.playoff is None:
            return None
        options = []
        for match in state.chess.matches:
            control = None if match.bye else state.time_control(match, 1)
            if control is None:
                continue
            probe = ShortenTimeControl(
                time_control=str(control), match=match.id, reason=_PROBE_REASON
            )
            if self.refusal(probe) is None:
                options.append(Option(
                    value=str(match.id),
                    label=f"{self.round_name(match)} (match {match.id}, now {control})",
                    sets={"match": match.id},
                ))
        if not options:
            return None  # every match has begun: no time control is left to shorten
        every = Option(value="", label="Every match not begun", sets={"match": None})
        plan = self.ctx.plan
        return Form(
            id="time-control", name="time-control", title="Shorten the time control",
            hint="GCT 2015 reg. 5: only shorter, and only for matches not begun.",
            fields=(
                FormField(name="time_control", label="New time control", input="text",
                          placeholder="e.g. G/15+5", max_length=200, clear_after=True,
                          test_id="tc-value"),
                FormField(name="match", label="Which matches", input="select",
                          options=(every, *options), test_id="tc-match"),
                _reason("tc-reason"),
            ),
            actions=(FormAction(name="tc-submit", label="Shorten",
                                summary="Shorten the time control to {time_control}",
                                command={"type": "time-control"}),),
            enabled=True, open=plan is not None and plan.fits is False,
        )

    def deadline(self) -> Form:
        return Form(
            id="deadline", name="deadline", title="Deadline",
            fields=(
                FormField(name="deadline", label="Deadline (empty: none)", input="datetime",
                          required=False, test_id="dl-at"),
                _reason("dl-reason"),
            ),
            actions=(FormAction(name="dl-submit", label="Set the deadline",
                                summary="Set the deadline", command={"type": "deadline"}),),
            enabled=True,
        )

    def correct(self) -> Form | None:
        state = self.state
        if state.playoff is None:
            return None
        played = []
        for match in state.chess.matches:
            for g in state.chess.games_of(match.id):
                if g.result is None:
                    continue
                probe = CorrectResult(
                    match=g.match, game=g.number, result=g.result, reason=_PROBE_REASON
                )
                if self.refusal(probe) is None:
                    played.append(Option(
                        value=f"{g.match}:{g.number}",
                        label=f"{self.round_name(match)} · game {g.number} "
                              f"(now {RESULT_WORDS[g.result][0]})",
                        sets={"match": g.match, "game": g.number},
                    ))
        if not played:
            return None
        results = tuple(
            Option(value=r.value, label=f"{written} {words}", sets={"result": r.value})
            for r, (written, words, _) in RESULT_WORDS.items()
        )
        return Form(
            id="correct", name="correct", title="Correct a result",
            hint="Later games the correction voids are played again.",
            fields=(
                FormField(name="game", label="Game", input="select", options=tuple(played),
                          test_id="cr-game"),
                FormField(name="result", label="Correct result", input="select",
                          options=results, test_id="cr-result"),
                _reason("cr-reason"),
            ),
            actions=(FormAction(name="cr-submit", label="Correct",
                                summary="Correct match {match}, game {game} to {result}",
                                command={"type": "correct"}),),
            enabled=True,
        )


def _reason(test_id: str, placeholder: str | None = None) -> FormField:
    """The reason every arbiter's override needs (logged with the change)."""
    return FormField(
        name="reason", label="Reason (required)", input="text", min_length=3, max_length=300,
        placeholder=placeholder, clear_after=True, test_id=test_id,
    )
