"""The arbiter console's view of a play-off: what it shows, and what each control does.

Everything the console shows is decided and worded here; the console renders the
view and sends the payloads it offers. It keeps no rules of its own: no command
or event types, no move counter, no turns, no points table, no schedule diffing.
Text meant for people names players, never their ids, and gives times of day as
the hall reads them (``13:29``, at the play-off's ``utc_offset``).

Controls
--------
A :class:`Control` is one button: the exact command payload it sends, its label,
and whether the service accepts that command now (``enabled``), else the
service's own reason (``refusal``). Both come from
:func:`orchestrator.core.commands.refusal`, which runs the service's check without
logging, so a control is offered exactly when its command would be accepted. A
control with ``confirm`` is sent only once the arbiter has confirmed it, after
reading that text.

A :class:`Form` is a command the arbiter completes: the fixed part of the payload
(per :class:`FormAction`), and fields whose options carry the payload fields they
set (the games whose start may move, the matches whose time control may be
shortened...), or whose typed value goes into one payload field. A number typed
in other units is multiplied by the action's ``scale`` (seconds to milliseconds,
negative to take time). Every arbiter's override has a required reason. An
option may carry a :class:`Caution` (what choosing it entails), and a field may be
shown only while other fields hold given values (``shown_when``): the checkbox
that confirms a correction voiding games is shown, and required, exactly for the
results whose correction voids something. A form with a ``role`` is for consoles
of that role only (the service refuses the command from any other).

Policies
--------
- **Results** (:meth:`_Builder.results`). Before a game starts only the forfeit
  results are offered; once it has started, the results over the board too. Each
  is offered only if the service accepts it (a decider game takes no double
  forfeit: it must leave a successful player), and each asks
  for a confirmation that says what it records and what it decides.
- **Rests** (the format's breaks; :meth:`_Builder.start`). A start inside the
  break after the main event, or inside the least interval after a player's
  previous game, is refused: the start is disabled with the rule and the instant
  it ends, and the chief arbiter gets "start anyway", with a required reason that
  is logged. The refusal comes with its ``wait`` (until when, and its words with
  the time left for the console to count down). A start inside the preferred
  interval after a player's previous game is accepted after a confirmation quoting
  the preference.
- **Lots and coin tosses** cannot be undone: each, by the service or recorded
  from a physical draw, is sent only after a confirmation saying what it draws
  (the physical one quoting the player chosen) and what follows from it.
- **Corrections** (:meth:`_Builder.correct_form`). Each game with a result has
  its own correction form, for the results the service would accept there. For
  each, the form says what the correction voids (the games played or under way
  downstream, the winners that change, the champion and the final placings), as
  :meth:`orchestrator.core.commands.CorrectResult.preview` gives it; those need the
  confirmation checkbox, which sends ``confirm: true``.
- **Flag falls** (:meth:`_Builder.flag`). When the server has scored a flag fall
  the match says so ("White's flag fell: 0-1") and quotes FIDE Laws of Chess
  art. 6.9 (the game is drawn if the opponent cannot checkmate by any possible
  series of legal moves), with the correction to ½-½ prefilled, needing only its
  reason, for as long as the flag's result stands and no later game has started.
- **Colours** are not implied before they are known: before the lots (or the
  decider's toss) the players are written "A – B (colours by lot)", or "(colours
  by coin toss)" for a decider whose colours are tossed for, in the schedule as in
  the match (:meth:`_Builder.colour_rule`), even before the decider is due.
- **Formats** are data: stage names, time controls, the decider's name, its draw
  odds and the rules cited all come from the match's format, never from here.

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
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, ValidationError

from orchestrator.core import schedule as rules
from orchestrator.core.access import (
    HALL_KEY_MADE,
    HALL_KEY_TITLE,
    HALL_KEY_WORDS,
    display_key_request,
)
from orchestrator.core.auth import Actor
from orchestrator.core.commands import (
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
    RestoreTimeControl,
    ResumeClock,
    ScoreBoard,
    ShortenTimeControl,
    StartGame,
    TossCoin,
    apply_command,
    refusal,
    refusal_words,
    refused,
)
from orchestrator.core.events import (
    ClockAdjusted,
    DeadlineSet,
    GameStarted,
    Postponed,
    ResultCorrected,
    StartMoved,
    TimeControlShortened,
    VoidedGame,
)
from orchestrator.core.refusals import TooEarly
from orchestrator.core.state import ArbiterChange, Draw, DrawKind, PlayoffState
from orchestrator.views.context import ViewContext
from orchestrator.views.playoff import ClockView, clock_view, decider_view
from playoff_formats.clock import Clock, ClockStatus
from playoff_formats.errors import PlayoffError
from playoff_formats.extra_boards import ExtraBoards
from playoff_formats.formats import MatchFormat
from playoff_formats.lots import CoinFace
from playoff_formats.model import Colour, Result
from playoff_formats.phrase import and_list
from playoff_formats.playoff import (
    DecisionMethod,
    Game,
    GameKind,
    Match,
    MatchDecision,
    MatchStatus,
    Playoff,
    champion,
    final_match,
    match_score,
)
from playoff_formats.regulations import get_regulation
from playoff_formats.schedule import Plan, PlannedGame, RestBreach, UnitKind, UnitStatus
from playoff_formats.schedule.rest import RestKind
from playoff_formats.schedule.words import adjective, instant, span

__all__ = [
    "VIEW_MODEL",
    "ArbiterView",
    "Caution",
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

FIDE_6_9 = (
    "FIDE Laws of Chess art. 6.9: the game is drawn, not lost, if the position is such "
    "that the opponent cannot checkmate the player's king by any possible series of legal "
    "moves. If so, correct the result to ½-½."
)
"""The rule an arbiter checks after a flag fall, before the result stands."""

STATUS_WORDS: dict[str, str] = {
    ClockStatus.NOT_STARTED.value: "not started",
    ClockStatus.RUNNING.value: "running",
    ClockStatus.PAUSED.value: "paused",
    ClockStatus.FLAGGED.value: "flag fell",
    ClockStatus.STOPPED.value: "game over",
}
"""A clock's status in words, for the clock frames that update it between views."""


class _View(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# --------------------------------------------------------------------------- controls


class Wait(_View):
    """A refusal that ends at a known instant, for the console to count down to."""

    until_ms: int = Field(description="When the refusal ends, in server ms")
    text: str = Field(
        description="The refusal, with {left} where the time left goes (the console "
        "writes it as a countdown, 4:59)"
    )


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
    confirm: str | None = Field(
        default=None,
        description="Sent only once the arbiter confirms it, after reading this (what it "
        "records and decides, or the preference it does not keep)",
    )
    wait: Wait | None = Field(
        default=None,
        description="A refusal that holds until an instant (a rest): the refusal in words "
        "with the time left counting down",
    )


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


class Caution(_View):
    """What choosing an option entails, for the arbiter to read before sending."""

    text: str
    items: tuple[str, ...] = ()


class Option(_View):
    """A choice in a select or a set of radio buttons."""

    value: str = Field(description="The choice's value in the form")
    label: str
    sets: dict[str, JsonValue] = Field(description="The payload fields this choice sets")
    name: str | None = Field(default=None, description="What the choice is (radio buttons)")
    at: datetime | None = Field(
        default=None, description="An instant to show beside the label, in the hall's time"
    )
    caution: Caution | None = Field(
        default=None, description="Shown while this choice is made: what it entails"
    )


class FormField(_View):
    """One input of a form.

    A ``select`` or ``radio`` field sets the payload fields of the chosen option;
    a ``checkbox`` puts true (checked) or false into the payload field ``name``;
    any other puts its value into the payload field ``name`` (a ``datetime`` as
    an ISO 8601 instant; an empty optional field as null).
    """

    name: str
    label: str
    input: Literal["select", "radio", "number", "text", "datetime", "checkbox"]
    options: tuple[Option, ...] = ()
    required: bool = True
    value: str | None = Field(default=None, description="The value shown at first")
    min: int | None = None
    max: int | None = None
    step: int | None = None
    min_length: int | None = None
    max_length: int | None = None
    placeholder: str | None = Field(
        default=None,
        description="A hint in an empty field; for a select, a first entry that is no "
        "choice, so that the arbiter has to choose",
    )
    clear_after: bool = Field(
        default=False, description="Emptied once the command is accepted (reasons, scores)"
    )
    shown_when: dict[str, tuple[str, ...]] = Field(
        default_factory=dict,
        description="Shown (and then required, if required) only while each named field "
        "has one of these values; hidden, it is sent as false or left out",
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
    confirm: str | None = Field(
        default=None,
        description="Sent only once the arbiter confirms it, after reading this (what "
        "cannot be undone); a field's name in braces is what was chosen or typed in it, "
        "as the form shows it",
    )


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
    role: Literal["chief"] | None = Field(
        default=None,
        description="Shown only to consoles of this role (the welcome frame's): the service "
        "refuses the command from any other",
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
    """A game as listed in its match, with the correction of its result."""

    number: int
    kind: GameKind
    label: str
    white: str = Field(description="White's name, or a dash before the colours are set")
    black: str
    players: str = Field(
        description='"White – Black", or "A – B (colours by lot)" before the colours are known'
    )
    result: str = Field(description="The result as written (½-½), empty while none")
    result_text: str | None = Field(
        default=None, description='The result in words ("Sindarov, Javokhir beat ...")'
    )
    state: Literal["played", "in play", "to play"]
    correct: Form | None = Field(
        default=None, description="Correct this game's result (it has one)"
    )


class ClockFace(_View):
    """One side of a game's clock."""

    side: Colour
    side_label: str
    player: str
    start_ms: int | None = Field(description="The time it shows before the game starts")
    press: ClockControl | None = None


class RestView(_View):
    """A rest the regulation owes the players that a start now would cut short."""

    kind: RestKind
    binding: bool = Field(
        description="A rule (only the chief arbiter may set it aside), not a preference"
    )
    text: str = Field(description="The rule in words, citing the regulation")
    until: datetime
    until_text: str = Field(description='When it ends, as the hall reads it ("12:30")')
    until_ms: int = Field(description="When it ends, in server ms (for a countdown)")


class GamePanel(_View):
    """A game to act on now: its clock, its start and its result."""

    match: int
    game: int
    clock: str = Field(description='Its key in "clocks" ("m:g")')
    title: str
    time_control: str
    status: str = Field(description="The clock's status as of the view (a clock frame updates it)")
    since: str | None = Field(
        default=None, description='When it started, as the hall reads it ("13:29")'
    )
    faces: tuple[ClockFace, ClockFace]
    start: Control | None = None
    rests: tuple[RestView, ...] = Field(
        default=(), description="The rests a start now would cut short (the format's breaks)"
    )
    start_anyway: Form | None = Field(
        default=None,
        description="The chief arbiter's start before a rest is over, with its reason",
    )
    pause: ClockControl | None = None
    resume: ClockControl | None = None
    results: tuple[Control, ...] = Field(description="Only the results that make sense now")
    adjust: Form | None = None


class LotsPanel(_View):
    """Lots for White in the first game of a stage whose colours are drawn."""

    title: str
    service: Control
    physical: Form


class TossPanel(_View):
    """The coin toss of a decider: its winner chooses the colours (or advances)."""

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
    """Who advances from a match (the champion, from the final), and why, in words."""

    winner: PlayerView
    final: bool = Field(description="The final: its winner is the champion")
    headline: str
    details: tuple[str, ...]


class FlagNotice(_View):
    """A flag fell and the server scored it: the arbiter checks FIDE art. 6.9."""

    game: int
    side: Colour = Field(description="The side whose flag fell")
    text: str = Field(description="\"White's flag fell: 0-1\"")
    detail: str
    rule: str = Field(description="FIDE Laws of Chess art. 6.9, in words")
    correct: Form | None = Field(description="The correction to ½-½, needing only its reason")


class MatchView(_View):
    """A match: who plays, how it stands, and what can be done in it now."""

    id: int
    title: str
    round_name: str
    status: MatchStatus
    players: tuple[PlayerView | None, PlayerView | None]
    score: str | None = Field(
        description='Points over the regular games, each beside its player, the one ahead '
        'first: "Praggnanandhaa R 1½–½ Sindarov, Javokhir"'
    )
    score_title: str | None
    time_control: str
    games: tuple[GameRow, ...]
    decision: DecisionView | None
    note: str | None = Field(description="Why nothing can be done yet")
    flag: FlagNotice | None = None
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
    imps: str = Field(description='Signed; "0" for a board with no swing, empty while unscored')


class StanzaView(_View):
    """A stanza of extra boards, as its table shows it."""

    stanza: int
    set: int = Field(description="The set it belongs to (a tied set is played again)")
    caption: str
    boards: tuple[BoardRow, ...]


class ExtraBoardsView(_View):
    """Extra boards (EBU 143.2.1): the scoreboard and the score entry."""

    title: str
    running_total: str
    running_total_label: str = Field(description='What the total counts ("IMPs, set 2")')
    status: str
    winner: PlayerView | None
    winner_text: str | None
    stanzas: tuple[StanzaView, ...] = Field(description="Every stanza played, earlier sets too")
    entry: Form | None = Field(description="The stanza and boards open for scores")
    correct: Form | None = Field(
        default=None,
        description="The chief arbiter's correction of a score entered, with its reason",
    )
    tables: tuple[str, str] = Field(
        default=("Table 1 (NS)", "Table 2 (NS)"),
        description="Each table's column heading: who sits North-South there",
    )


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
    """A shortened time control that meets the deadline, or why none."""

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

    text: str = Field(description='e.g. "Re-planned after the start of game 2 of ..."')
    cause: str = Field(description='What moved it: "the start of game 2 of ..."')
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
    when: str = Field(description='The time of day, as the hall reads it ("13:29")')
    by: str = Field(description='"chief arbiter", "arbiter"')
    text: str
    reason: str | None
    voided: tuple[str, ...] = Field(
        default=(), description="What a correction voided (games, winners, placings), in words"
    )


class PlacingRow(_View):
    """A player's final place, prize money and tour points, as written."""

    place: str
    player: str
    score: str
    money: str = Field(description='With thousands separators: "100,000"')
    points: str
    basis: str = Field(
        default="", description="Where the place comes from: the play-off, or the tiebreaks"
    )


class ChampionView(_View):
    """The winner of the play-off."""

    id: str
    name: str
    text: str


class Overrides(_View):
    """The chief arbiter's changes to the schedule, each with a required reason.

    (A result is corrected from the game's own row: see :attr:`GameRow.correct`.)
    """

    move_start: Form | None
    postpone: Form | None
    time_control: Form | None
    restore_time_control: Form | None
    deadline: Form


class HallKeyRequest(_View):
    method: Literal["POST"]
    path: str
    body: dict[str, str]


class HallKey(_View):
    """The chief arbiter's panel that makes a display key for this play-off's hall
    screens: the request to send, and the address to open with the key it returns."""

    role: Literal["chief"] = "chief"
    title: str
    words: str
    label: str
    request: HallKeyRequest
    made: str = Field(description="Said above the address, once a key is made")
    page: str = Field(description="The hall display's address, the new key to follow it")


class ArbiterView(_View):
    """Everything the arbiter console shows and allows, as of ``server_ms``."""

    view: Literal["arbiter"] = "arbiter"
    seq: int
    server_ms: int
    kind: Literal["knock-out", "extra-boards"]
    title: str
    subtitle: str
    over: bool = Field(description="The play-off is decided: no clock runs any more")
    utc_offset_minutes: int = Field(
        description="The hall's offset from UTC: the console writes times of day at it"
    )
    champion: ChampionView | None
    matches: tuple[MatchView, ...]
    extra_boards: ExtraBoardsView | None
    schedule: ScheduleView
    draws: tuple[DrawView, ...]
    changes: tuple[ChangeView, ...]
    overrides: Overrides
    placings: tuple[PlacingRow, ...] | None
    hall_key: HallKey = Field(description="The chief arbiter's: make a hall screen's key")
    status_words: dict[str, str] = Field(
        default_factory=lambda: dict(STATUS_WORDS),
        description="A clock's status (as clock frames give it) in words",
    )
    clocks: dict[str, ClockView] = Field(description='Every clock, by "match:game"')
    next_change_ms: int | None = Field(
        description="The server instant after which the view changes with the time alone "
        "(a break or rest over, a game due)"
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


def _ns(score: int) -> str:
    """A North-South score as the slip writes it: ``+620``, ``-50``, ``0``."""
    return f"{score:+d}" if score else "0"


def _points(points: float) -> str:
    """``1½``, ``½``, ``2``."""
    whole = int(points)
    if points - whole == 0.5:
        return f"{whole}½" if whole else "½"
    return str(whole)


def _money(value: object) -> str:
    """``100,000`` or ``33,333.33``; nothing when there is none."""
    if value is None or value == "":
        return ""
    try:
        amount = float(str(value))
    except ValueError:
        return str(value)
    return f"{amount:,.0f}" if amount.is_integer() else f"{amount:,.2f}"


def _signed_minutes(delta: timedelta) -> str:
    """``+15 min``, ``−1 h 5 min``: how far a start moved."""
    minutes = round(delta.total_seconds() / 60)
    sign = "−" if minutes < 0 else "+"
    hours, rest = divmod(abs(minutes), 60)
    if not hours:
        return f"{sign}{rest} min"
    return f"{sign}{hours} h {rest} min" if rest else f"{sign}{hours} h"


def _who(actor: str | None) -> str:
    """Who made a change, by role (tokens are not people)."""
    role = Actor.parse(actor).role if actor else ""
    return {"chief": "chief arbiter", "arbiter": "arbiter"}.get(role, "the service")


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


# --------------------------------------------------------------------------- the builder


class _Builder:
    """One view of one state: the state, the time, and the check of every command."""

    def __init__(self, state: PlayoffState, ctx: ViewContext) -> None:
        self.state = state
        self.ctx = ctx
        self.check: Context = ctx.command_context()
        self.chief: Context = replace(self.check, role="chief")
        self.instants: list[datetime] = []
        """Instants at which the view changes with the time alone, found while building."""

    # ------------------------------------------------------------------ words

    def name(self, player: str | None) -> str:
        if player is None:
            return "?"
        return self.state.names.get(player, player)

    def player(self, player: str) -> PlayerView:
        return PlayerView(id=player, name=self.name(player))

    def time(self, moment: datetime | None) -> str:
        """A time of day as the hall reads it."""
        return instant(moment, self.state.utc_offset)

    def ms(self, moment: datetime) -> int:
        """An instant in server ms, on the clocks' scale."""
        return self.ctx.server_ms + int((moment - self.ctx.now).total_seconds() * 1000)

    def round_of(self, match_id: int) -> str:
        playoff = self.state.playoff
        if playoff is None:
            return f"match {match_id}"
        return self.round_name(playoff.match(match_id))

    def game_words(self, match_id: int, number: int) -> str:
        """``game 2 of Final (reg. 6)``, ``the Armageddon of Final (reg. 6)``;
        ``stanza 2`` for bridge."""
        if self.state.playoff is None:
            return f"stanza {number}"
        match = self.state.chess.match(match_id)
        rules = match.rules
        if match.kind_of(number) is GameKind.ARMAGEDDON and rules.decider is not None:
            return f"the {rules.decider.name} of {self.round_of(match_id)}"
        return f"game {number} of {self.round_of(match_id)}"

    def players_text(self, playoff: Playoff, match: Match, number: int) -> str:
        """White – Black once the colours of game ``number`` are known; before, the
        players and how their colours will be settled."""
        game = playoff.game(match.id, number)
        if game is not None and game.white is not None and game.black is not None:
            return f"{self.name(game.white)} – {self.name(game.black)}"
        a, b = match.players
        if a is None or b is None:
            return " – ".join(self.name(p) if p else "to be decided" for p in (a, b))
        return f"{self.name(a)} – {self.name(b)} ({self.colour_rule(match, number)})"

    def colour_rule(self, match: Match, number: int) -> str:
        """How the colours of game ``number`` are settled while they are unknown, in the
        one wording the match panel and the schedule both use: a decider not yet
        played (nor even due) is tossed for as the one under way is."""
        if match.kind_of(number).decider and _tossed(match.rules):
            return "colours by coin toss"
        return "colours by lot"

    def outcome_words(self, game: Game, result: Result, *, past: bool) -> str:
        """A result in the players' names: "X beat Y", "X and Y drew"."""
        white, black = self.name(game.white), self.name(game.black)
        beat, drew, won = ("beat", "drew", "won") if past else ("beats", "draw", "wins")
        if result is Result.WHITE_WINS:
            return f"{white} (White) {beat} {black}"
        if result is Result.BLACK_WINS:
            return f"{black} (Black) {beat} {white}"
        if result is Result.DRAW:
            return f"{white} and {black} {drew}"
        if result is Result.WHITE_WINS_BY_FORFEIT:
            return f"{white} {won} by forfeit: {black} did not play"
        if result is Result.BLACK_WINS_BY_FORFEIT:
            return f"{black} {won} by forfeit: {white} did not play"
        return f"neither {white} nor {black} played: double forfeit"

    # ------------------------------------------------------------------ checks

    def refusal(self, command: CommandBase, ctx: Context | None = None) -> str | None:
        return refusal(self.state, command, ctx or self.check)

    def after(self, command: CommandBase) -> PlayoffState | None:
        """The state after ``command``, or None when the service would refuse it."""
        try:
            applied = apply_command(self.state, command, self.check)
        except (PlayoffError, ValidationError):
            return None
        return applied[-1].after if applied else self.state

    def control(
        self, id: str, name: str, label: str, summary: str, command: Command, *,
        detail: str | None = None, primary: bool = False, confirm: str | None = None,
    ) -> Control:
        exc = refused(self.state, command, self.check)
        why = refusal_words(exc, self.state.names) if exc is not None else None
        wait = None
        if isinstance(exc, TooEarly):
            self.instants.append(exc.until)
            wait = Wait(until_ms=self.ms(exc.until), text=exc.sentence("{left}"))
        return Control(
            id=id, name=name, label=label, detail=detail, summary=summary, command=command,
            enabled=why is None, refusal=why, primary=primary,
            confirm=confirm if why is None else None, wait=wait,
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
            over = extra.winner is not None
        else:
            title = state.chess.name
            kind = "knock-out"
            subtitle = f"play-off · {self.regulation_title()}"
            matches = tuple(self.match(m) for m in state.chess.matches if not m.bye)
            extra_view = None
            crowned = champion(state.chess)
            draws = tuple(self.draw(d) for d in state.draws)
            over = crowned is not None
        return ArbiterView(
            seq=state.seq,
            server_ms=ctx.server_ms,
            kind=kind,
            title=title,
            subtitle=subtitle,
            over=over,
            utc_offset_minutes=round(state.utc_offset.total_seconds() / 60),
            champion=(
                None if crowned is None else ChampionView(
                    id=crowned, name=self.name(crowned), text=f"Champion: {self.name(crowned)}"
                )
            ),
            matches=matches,
            extra_boards=extra_view,
            schedule=self.schedule(),
            draws=draws,
            changes=tuple(self.change(c) for c in state.changes),
            overrides=self.overrides(),
            placings=self.placings(),
            hall_key=HallKey(
                title=HALL_KEY_TITLE, words=HALL_KEY_WORDS, label="Make a display key",
                request=HallKeyRequest.model_validate(display_key_request(state.event_id)),
                made=HALL_KEY_MADE, page=f"/display/{state.id}#key=",
            ),
            clocks={
                f"{key[0]}:{key[1]}": ClockView.model_validate(
                    clock_view(key, clock, ctx.server_ms)
                )
                for key, clock in sorted(state.clocks.items())
            },
            next_change_ms=self.next_change_ms(),
        )

    def regulation_title(self) -> str:
        try:
            title = getattr(get_regulation(self.state.regulation), "title", None)
        except PlayoffError:
            title = None
        return str(title) if title else self.state.regulation

    # ------------------------------------------------------------------ matches

    def round_name(self, match: Match) -> str:
        for r in self.state.chess.rounds:
            if (r.stage, r.number) == (match.stage, match.round):
                return r.name
        return f"Match {match.id}"

    def match(self, match: Match) -> MatchView:
        state = self.state
        playoff = state.chess
        a, b = match.players
        known = a is not None and b is not None
        round_name = self.round_name(match)
        games = playoff.games_of(match.id)
        versus = self.players_text(playoff, match, 1) if known else "players not known yet"
        score = match_score(playoff, match)
        control = state.time_control(match, 1)
        time_control = f"Time control {control}" if control is not None else ""
        rules = match.rules
        for number, stage in list(rules.stage_starts())[1:]:
            later = state.time_control(match, number)
            time_control += f" · {stage.name} {later}"
        if match.decider is not None and rules.decider is not None:
            time_control += f" · {rules.decider.name} {match.decider}"
        elif rules.decider is not None and rules.decider.by_lot:
            time_control += f" · {rules.decider.name}"
        view = MatchView(
            id=match.id,
            title=f"{round_name} · {versus}",
            round_name=round_name,
            status=match.status,
            players=(
                self.player(a) if a is not None else None,
                self.player(b) if b is not None else None,
            ),
            score=score.leader_first().text(state.names) if score is not None else None,
            score_title="Points over the regular games" if score is not None else None,
            time_control=time_control,
            games=tuple(self.game_row(match, g) for g in games),
            decision=self.decision(match) if match.decision is not None else None,
            note=None if known else "Waiting for the earlier match: its winner plays here.",
            flag=self.flag(match, games),
        )
        if not known or match.decision is not None:
            return view
        return view.model_copy(update=self.next_steps(match, games))

    def game_row(self, match: Match, game: Game) -> GameRow:
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
            label=_game_label(match.rules, game),
            white=self.name(game.white) if game.white is not None else "—",
            black=self.name(game.black) if game.black is not None else "—",
            players=self.players_text(self.state.chess, match, game.number),
            result=RESULT_WORDS[game.result][0] if game.result is not None else "",
            result_text=(
                self.outcome_words(game, game.result, past=True)
                if game.result is not None else None
            ),
            state=where,
            correct=self.correct_form(match, game),
        )

    def is_final(self, match: Match) -> bool:
        return final_match(self.state.chess).id == match.id

    def decision(self, match: Match) -> DecisionView:
        decision = match.decision
        assert decision is not None
        final = self.is_final(match)
        who = self.name(decision.winner)
        return DecisionView(
            winner=self.player(decision.winner),
            final=final,
            headline=f"{who} is the champion" if final else f"{who} advances",
            details=self.decision_details(match, decision, final),
        )

    def decision_details(
        self, match: Match, decision: MatchDecision, final: bool
    ) -> tuple[str, ...]:
        """How the match was decided, as its format words it, in the players' names."""
        winner, loser = self.name(decision.winner), self.name(decision.loser)
        if decision.method is DecisionMethod.BYE:
            return (f"{winner} has a bye in this round.",)
        rules = match.rules
        regular = [
            g for g in self.state.chess.games_of(match.id) if g.kind is GameKind.REGULAR
        ]
        won, lost = decision.score or (0.0, 0.0)
        if decision.method is DecisionMethod.REGULAR_GAMES:
            return (f"{winner} beat {loser} {_points(won)}-{_points(lost)} over "
                    f"{_over(rules, len(regular))}.",)
        level = f"Level {_points(won)}-{_points(lost)} after {_count(len(regular))} games"
        decider = rules.decider
        name = decider.name if decider is not None else "decider"
        if decision.method is DecisionMethod.LOT:
            return (f"{level}; {winner} won the drawing of lots.",)
        played = [
            g for g in self.state.chess.games_of(match.id)
            if g.kind.decider and g.result is not None
        ]
        last = played[-1] if played else None
        if decision.method is DecisionMethod.ARMAGEDDON_DRAW:
            goes = "wins the final" if final else "advances"
            odds = decider.draw_odds_colour if decider is not None else None
            side = odds.capitalize() if odds is not None else "Black"
            rule = decider.draw_citation if decider is not None else ""
            return (
                f"{side} ({winner}) {goes}: a drawn {name} counts as a win for {side}"
                + (f" ({rule})" if rule else "") + ".",
                f"{level}; the {name} game was drawn.",
            )
        colour = "White" if last is not None and last.white == decision.winner else "Black"
        result = decision.armageddon
        if result is None:
            how = ""
        elif not result.played:
            how = " by forfeit"
        else:
            how = f" ({RESULT_WORDS[result][0]})"
        if decision.method is DecisionMethod.SUDDEN_DEATH_WIN and last is not None:
            return (f"{level}; {winner} won {name.lower()} game {last.number} with "
                    f"{colour}{how}.",)
        return (f"{level}; {winner} won the {name} game with {colour}{how}.",)

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
        rules = match.rules
        if not todo and rules.decider is not None and rules.decider.by_lot:
            steps["toss"] = self.toss(match)
        for game in todo:
            if game.white is None and game.kind.decider and _tossed(rules):
                tosses = self.state.draws_of("coin-toss", match.id)
                if tosses:
                    steps["colours"] = self.colours(match, tosses[-1])
                else:
                    steps["toss"] = self.toss(match)
            elif game.white is None:
                steps["lots"] = self.lots(match, game.number)
            else:
                panels.append(self.game_panel(match, game))
        steps["panels"] = tuple(panels)
        return steps

    # ------------------------------------------------------------------ lots, toss, colours

    def player_options(self, match: Match, field: str) -> tuple[Option, ...]:
        return tuple(
            Option(value=p, label=self.name(p), sets={field: p})
            for p in match.players if p is not None
        )

    def lots(self, match: Match, game: int = 1) -> LotsPanel:
        key = f"lots:{match.id}"
        # Game 1's drawing is sent as it always was; a later stage's names its game.
        at: dict[str, Any] = {} if game == 1 else {"game": game}
        what = f"White in {self.game_words(match.id, game)}"
        final = "A drawing of lots cannot be undone: its outcome sets the colours."
        a, b = (self.name(p) for p in match.players)
        service = self.control(
            key, f"lots-service-{match.id}", "Draw lots (service, commit-reveal)",
            f"Lots by the service, match {match.id}"
            + ("" if game == 1 else f", game {game}"),
            DrawLots(match=match.id, method="service", **at), primary=True,
            confirm=f"Draw lots by the service for {what}: {a} or {b}. {final}",
        )
        whites = self.player_options(match, "white")
        why = self.refusal(
            DrawLots(match=match.id, method="physical", white=whites[0].value, **at)
        )
        physical = Form(
            id=key, name=f"lots-physical-form-{match.id}", title="Physical draw",
            fields=(FormField(
                name="white", label="Physical draw: White is", input="select", options=whites,
                test_id=f"lots-white-{match.id}",
            ),),
            actions=(FormAction(
                name=f"lots-physical-{match.id}", label="Record physical draw",
                summary=f"Physical lots, match {match.id}",
                command={"type": "lots", "match": match.id, "method": "physical", **at},
                confirm=f"Record the physical draw: {what} is {{white}}. {final}",
            ),),
            enabled=why is None, refusal=why,
        )
        stage = match.rules.stage_of(game)
        title = "Lots for White in game 1" if game == 1 else (
            f"New drawing of colours: White in game {game}"
            + (f" ({stage.name})" if stage is not None else "")
        )
        return LotsPanel(title=title, service=service, physical=physical)

    def toss(self, match: Match) -> TossPanel:
        key = f"toss:{match.id}"
        decider = match.rules.decider
        final = "A coin toss cannot be undone: " + (
            "its winner advances." if decider is not None and decider.by_lot
            else "its winner chooses the colours."
        )
        what = self.round_name(match)
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
                confirm=f"Toss the coin by the service for {what}: {{caller}} calls {{call}}. "
                        f"{final}",
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
                confirm=f"Record the physical toss for {what}: won by {{winner}}. {final}",
            ),),
            enabled=why is None, refusal=why,
        )
        if decider is not None and decider.by_lot:
            title = decider.name
            hint = "The winner of the drawing advances" + (
                f" ({decider.rule})." if decider.rule else "."
            )
        else:
            name = decider.name if decider is not None else "Decider"
            rule = decider.colours_citation if decider is not None else ""
            title = f"{name} coin toss"
            hint = "The winner of the toss chooses the colour" + (
                f" ({rule})." if rule else "."
            )
        return TossPanel(title=title, hint=hint, service=service, physical=physical)

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
        control = match.decider
        decider = match.rules.decider
        name = decider.name if decider is not None else "Decider"
        odds = decider.draw_odds_colour if decider is not None else None
        if odds is not None:
            black_note = " (draw odds)" if odds == "black" else ""
            white_note = " (draw odds)" if odds == "white" else ""
            if control is not None and control.initial_ms(Colour.WHITE) > control.initial_ms(
                Colour.BLACK
            ):
                white_note = white_note or " (more time)"
            hint = (
                f"White has more time ({control}); a draw means {odds.capitalize()} wins."
                if white_note == " (more time)" else f"{control}; a draw means "
                f"{odds.capitalize()} wins."
            )
        else:
            hint = f"{control}; a drawn game is followed by another, colours reversed."
            black_note = white_note = ""
        return ColoursPanel(
            title=f"{name} colours",
            toss=how,
            winner=self.player(winner),
            hint=hint,
            choices=(
                self.control(
                    key, f"colours-winner-black-{match.id}",
                    f"{self.name(winner)} takes Black{black_note}",
                    f"{name} colours, match {match.id}: {self.name(winner)} Black",
                    ChooseArmageddonColours(match=match.id, white=loser, black=winner),
                    primary=True,
                ),
                self.control(
                    key, f"colours-winner-white-{match.id}",
                    f"{self.name(winner)} takes White{white_note}",
                    f"{name} colours, match {match.id}: {self.name(winner)} White",
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
        if game.kind.decider:
            terms = decider_view(state, match.id, game.number)
            time_control = (
                f"{terms['time_control']}; {_draw_words(terms['draw_means'])}"
                if terms is not None else ""
            )
            title = f"Game {game.number} · {_game_label(match.rules, game)}"
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
        ident = {"match": match.id, "game": game.number}
        where = f"match {match.id}, game {game.number}"
        start: Control | None = None
        rests: tuple[RestView, ...] = ()
        anyway: Form | None = None
        if not started:
            start, rests, anyway = self.start(match, game, clock_key, where)
        return GamePanel(
            match=match.id,
            game=game.number,
            clock=clock_key,
            title=title,
            time_control=time_control,
            status=STATUS_WORDS[clock.status.value] if clock else (
                "in play" if started else "not started"
            ),
            since=self.time(state.started_at[key]) if started else None,
            faces=(faces[0], faces[1]),
            start=start,
            rests=rests,
            start_anyway=anyway,
            pause=self.clock_control(
                clock_key, "pause", "Pause", f"Pause {where}", PauseClock(**ident),
                {"status": "running"},
            ) if live else None,
            resume=self.clock_control(
                clock_key, "resume", "Resume", f"Resume {where}", ResumeClock(**ident),
                {"status": "paused"},
                primary=True,
            ) if live else None,
            results=self.results(match, game, started),
            adjust=self.adjust(match, game) if live else None,
        )

    def rest(self, breach: RestBreach, players: Sequence[str | None]) -> RestView:
        """A rest in words, citing the format's rule, with who rests and until when."""
        state = self.state
        limits = rules.constraints(state)
        rule = rules.rest_rule(state)
        cite = f" ({rule})" if rule else ""
        until = self.time(breach.until)
        if breach.kind is RestKind.MAIN_EVENT:
            text = (
                f"The play-off starts at least {span(limits.break_after_main_event)} after the "
                f"last main-event game of any play-off player{cite}: not before {until}."
            )
        else:
            ends = rules.previous_ends(state)
            rested = [p for p in players if p is not None and p in ends]
            latest = max((ends[p] for p in rested), default=None)
            who = [self.name(p) for p in rested if ends[p] == latest]
            needed = (
                limits.min_interval if breach.kind is RestKind.MINIMUM_INTERVAL
                else limits.preferred_interval
            )
            what = (
                "Not less than" if breach.kind is RestKind.MINIMUM_INTERVAL
                else "If possible at least"
            )
            ended = (
                f": {and_list(who)} finished {'their' if len(who) > 1 else 'a'} previous game at "
                f"{self.time(latest)}" if latest is not None else ""
            )
            text = (
                f"{what} {span(needed)} between a player's games{cite}{ended}; "
                f"rested at {until}."
            )
        self.instants.append(breach.until)
        return RestView(
            kind=breach.kind, binding=breach.binding, text=text, until=breach.until,
            until_text=until, until_ms=self.ms(breach.until),
        )

    def start(
        self, match: Match, game: Game, clock_key: str, where: str
    ) -> tuple[Control, tuple[RestView, ...], Form | None]:
        """The start, the rests it would cut short (the format's breaks), and the chief
        arbiter's start all the same when one of them is a rule."""
        ident = {"match": match.id, "game": game.number}
        command = StartGame(**ident)
        breaches = command.rest_breaches(self.state, self.check)
        rests = tuple(self.rest(b, (game.white, game.black)) for b in breaches)
        binding = [r for r in rests if r.binding]
        preferred = [r for r in rests if not r.binding]
        confirm = None
        if preferred and not binding:
            confirm = (
                f"Start {self.game_words(match.id, game.number)} now, before the interval "
                "the regulation prefers? " + " ".join(r.text for r in preferred)
            )
        start = self.control(
            f"clock:{clock_key}", "start", "Start clock", f"Start {where}", command,
            primary=True, confirm=confirm,
        )
        anyway = None
        if binding:
            why = self.refusal(StartGame(**ident, override=_PROBE_REASON), self.chief)
            anyway = Form(
                id=f"clock:{clock_key}", name="start-anyway", title="Start anyway",
                hint="Only the chief arbiter may set the rest aside; the reason is logged "
                     "and shown among the changes.",
                fields=(FormField(
                    name="override", label="Reason for starting early (required)",
                    input="text", min_length=3, max_length=300, clear_after=True,
                    placeholder="e.g. both players agree and are at the board",
                    test_id="override-reason",
                ),),
                actions=(FormAction(
                    name="start-anyway-submit", label="Start anyway",
                    summary=f"Start {where} early: {{override}}",
                    command={"type": "start-clock", **ident},
                ),),
                enabled=why is None, refusal=why, role="chief",
            )
        return start, rests, anyway

    def results(self, match: Match, game: Game, started: bool) -> tuple[Control, ...]:
        """The results that make sense now: before the start only the forfeits, then
        also the results over the board; each one the service accepts, confirmed."""
        clock_key = f"{match.id}:{game.number}"
        offered = []
        for result, (written, words, name) in RESULT_WORDS.items():
            if result.played and not started:
                continue
            command = RecordResult(match=match.id, game=game.number, result=result)
            after = self.after(command)
            if after is None:
                continue
            confirm = (
                f"Record {written} ({words}) in {self.game_words(match.id, game.number)}: "
                f"{self.outcome_words(game, result, past=False)}."
            )
            then = self.consequences(after)
            if then:
                confirm += " " + " ".join(_capital(t) + "." for t in then)
            offered.append(Control(
                id=f"result:{clock_key}", name=name, label=written, detail=words,
                summary=f"Result {written}, match {match.id}, game {game.number}",
                command=command, enabled=True, confirm=confirm,
            ))
        return tuple(offered)

    def consequences(self, after: PlayoffState) -> list[str]:
        """How the matches' outcomes differ in ``after``: winners decided, changed or
        undone, and deciders needed."""
        before, now = self.state.chess, after.chess
        said = []
        final = final_match(now).id
        for match in now.matches:
            if match.bye:
                continue
            was = before.match(match.id).decision
            old = was.winner if was is not None else None
            new = match.decision.winner if match.decision is not None else None
            round_name = self.round_name(match)
            wins = "is the champion" if match.id == final else f"wins {round_name}"
            if old != new:
                if new is not None and old is not None:
                    said.append(f"{self.name(new)} {wins} instead of {self.name(old)}")
                elif new is not None:
                    said.append(f"{self.name(new)} {wins}")
                elif old is not None:
                    said.append(f"{round_name} is undecided again: {self.name(old)} no longer "
                                f"{'the champion' if match.id == final else 'advances'}")
            rules = match.rules if not match.bye else None
            if rules is None or rules.decider is None:
                continue
            number = rules.decider_number
            armageddon = now.game(match.id, number)
            if (
                armageddon is not None and armageddon.kind.decider
                and armageddon.result is None and match.decision is None
                and before.game(match.id, number) is None
            ):
                name, rule = rules.decider.name, rules.decider.rule
                said.append(
                    f"{round_name} is level after {_count(rules.regular_games)} games: "
                    f"{'an' if name[:1].lower() in 'aeio' else 'a'} {name} decides it"
                    + (f" ({rule})" if rule else "")
                )
        return said

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

    # ------------------------------------------------------------------ flags and corrections

    def flag(self, match: Match, games: Sequence[Game]) -> FlagNotice | None:
        """The latest flag fall the server scored in this match, while its result stands
        and nothing has started since (the moment for FIDE art. 6.9)."""
        state = self.state
        for game in reversed(games):
            key = (match.id, game.number)
            clock = state.clocks.get(key)
            if clock is None or clock.status is not ClockStatus.FLAGGED or clock.flagged is None:
                continue
            side = clock.flagged
            loss = Result.BLACK_WINS if side is Colour.WHITE else Result.WHITE_WINS
            ended = state.ended_at.get(key)
            if game.result is not loss or ended is None:
                return None
            if any(start > ended for start in state.started_at.values()):
                return None
            flagged = game.white if side is Colour.WHITE else game.black
            opponent = game.black if side is Colour.WHITE else game.white
            said = side.value.capitalize()
            written = RESULT_WORDS[loss][0]
            return FlagNotice(
                game=game.number,
                side=side,
                text=f"{said}'s flag fell: {written}",
                detail=(
                    f"{self.name(flagged)} ran out of time in "
                    f"{self.game_words(match.id, game.number)}; the server scored it {written} "
                    f"for {self.name(opponent)}."
                ),
                rule=FIDE_6_9,
                correct=self.correction(
                    match, game, (Result.DRAW,), name=f"flag-correct-{match.id}-{game.number}",
                    title="Correct to ½-½ (FIDE art. 6.9)", prefix="flag",
                    label=f"Correct to ½-½: {self.name(opponent)} could not checkmate",
                ),
            )
        return None

    def correct_form(self, match: Match, game: Game) -> Form | None:
        """The correction of a game's result, from its own row (None while it has none)."""
        if game.result is None:
            return None
        others = tuple(r for r in RESULT_WORDS if r is not game.result)
        return self.correction(
            match, game, others, name=f"correct-{match.id}-{game.number}",
            title="Correct the result", prefix="cr", label="Correct",
        )

    def correction(
        self, match: Match, game: Game, results: Iterable[Result], *, name: str, title: str,
        prefix: str, label: str,
    ) -> Form | None:
        """A correction form for ``results`` (those the service accepts here): each with
        what it voids; those need the confirmation, sent as ``confirm``."""
        ident = {"match": match.id, "game": game.number}
        options = []
        voiding = []
        for result in results:
            probe = CorrectResult(**ident, result=result, reason=_PROBE_REASON, confirm=True)
            after = self.after(probe)
            if after is None:
                continue
            corrected = probe.preview(self.state)
            caution = self.voids(corrected, after)
            written, words, _ = RESULT_WORDS[result]
            if corrected.voids:
                voiding.append(result.value)
            options.append(Option(
                value=result.value, label=f"{written} {words}", sets={"result": result.value},
                caution=caution,
            ))
        if not options:
            return None
        now = RESULT_WORDS[game.result][0] if game.result is not None else ""
        where = self.game_words(match.id, game.number)
        fields: list[FormField] = []
        command: dict[str, JsonValue] = {"type": "correct", **ident}
        if len(options) == 1:
            command.update(options[0].sets)
            hint = f"Now {now}."
            caution = options[0].caution
            if caution is not None:
                hint += f" {caution.text} " + "; ".join(caution.items) + "."
        else:
            fields.append(FormField(
                name="result", label="Correct result", input="select", options=tuple(options),
                placeholder="Choose the correct result", test_id=f"{prefix}-result",
            ))
            hint = f"Now {now}. What the correction voids is listed with each result."
        fields.append(_reason(f"{prefix}-reason"))
        if voiding:
            fields.append(FormField(
                name="confirm", label="I confirm: void what is listed above",
                input="checkbox", test_id=f"{prefix}-confirm",
                shown_when={"result": tuple(voiding)} if len(options) > 1 else {},
            ))
        return Form(
            id=f"result:{match.id}:{game.number}", name=name, title=title,
            hint=hint.strip(),
            fields=tuple(fields),
            actions=(FormAction(
                name=f"{prefix}-submit", label=label,
                summary=f"Correct {where} to {{result}}",
                command=command, primary=True,
            ),),
            enabled=True,
        )

    def voids(self, corrected: ResultCorrected, after: PlayoffState) -> Caution | None:
        """What a correction throws away, in words: games played or under way, the
        winners that change, the champion and the final placings; or, when it voids
        nothing, the winners it changes."""
        items = [self.voided(g, after.chess) for g in corrected.voided]
        items += [_capital(t) for t in self.consequences(after)]
        if corrected.champion_before is not None:
            items.append(
                f"{self.name(corrected.champion_before)} as champion, and the final placings"
            )
        if not items:
            return None
        text = "This correction voids:" if corrected.voids else "This correction changes:"
        return Caution(text=text, items=tuple(items))

    def voided(self, game: VoidedGame, after: Playoff) -> str:
        """A game a correction voids: where, who, how it stood, and whether it is
        played again (it is still in the bracket ``after`` the correction, between
        other players) or no longer played at all."""
        where = f"{self.round_of(game.match)}, " + (
            _decider_word(self.state.chess.match(game.match), game.game)
        )
        players = " – ".join(self.name(p) for p in (game.white, game.black) if p)
        fate = ("to be played again" if after.game(game.match, game.game) is not None
                else "no longer played")
        if game.result is None:
            return f"{where}: {players}, under way, {fate}"
        return f"{where}: {players} {RESULT_WORDS[game.result][0]}, {fate}"

    # ------------------------------------------------------------------ bridge

    def extra_boards(self, extra: ExtraBoards) -> ExtraBoardsView:
        board = extra.scoreboard()
        per_set = len(extra.plan.stanzas)
        current_set = (extra.current - 1) // per_set + 1
        stanzas = []
        for s in board["stanzas"]:
            caption = f"Stanza {s['stanza']} (set {s['set']}) · IMPs {s['imps'][0]}–{s['imps'][1]}"
            if s["set"] < current_set:
                caption += " · set tied: played again"
            if s["partners_change_after"]:
                caption += " · partners change after it"
            stanzas.append(StanzaView(
                stanza=s["stanza"], set=s["set"], caption=caption,
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
        in_play = f"Stanza {extra.current} in play"
        if current_set > 1:
            in_play += f" (set {current_set}: the earlier sets were tied)"
        return ExtraBoardsView(
            title=f"{self.name(extra.home)} v {self.name(extra.away)}",
            running_total=f"{home}–{away}",
            running_total_label=f"IMPs, set {current_set}" if current_set > 1 else "IMPs",
            status=(f"{self.name(winner)} win the match" if winner is not None
                    else f"{in_play}."),
            winner=self.player(winner) if winner is not None else None,
            winner_text=f"{self.name(winner)} win the match" if winner is not None else None,
            stanzas=tuple(stanzas),
            entry=None if winner is not None else self.board_entry(extra),
            correct=self.board_correction(extra),
            tables=(self.seats(extra, 1), self.seats(extra, 2)),
        )

    def seats(self, extra: ExtraBoards, table: int) -> str:
        """Who sits North-South at a table: the home team at table 1, the away team at
        table 2 (the NS score entered is theirs)."""
        team = extra.home if table == 1 else extra.away
        return f"Table {table}: {self.name(team)} North-South"

    def board_correction(self, extra: ExtraBoards) -> Form | None:
        """The chief arbiter's correction of a score entered (any stanza, any table);
        what the correction voids is said before it is sent, and needs confirming."""
        entered = sorted(extra.scores, key=lambda s: (s.stanza, s.board, s.table))
        if not entered:
            return None
        options = tuple(
            Option(
                value=f"{s.stanza}:{s.board}:{s.table}",
                label=(f"Stanza {s.stanza}, board {s.board}, table {s.table} "
                       f"({self.name(extra.home if s.table == 1 else extra.away)} NS): "
                       f"{_ns(s.ns_score)}"),
                sets={"stanza": s.stanza, "board": s.board, "table": s.table},
            )
            for s in entered
        )
        return Form(
            id="board-score-correct", name="board-correct-form", title="Correct a score",
            hint=("The contest follows the corrected score from its first stanza: scores of "
                  "stanzas no longer played, or the winner, are voided only when you confirm."),
            fields=(
                FormField(name="entry", label="Score", input="select", options=options,
                          placeholder="Choose the score to correct", test_id="bc-entry"),
                FormField(name="ns_score", label="Corrected North-South score",
                          input="number", step=10, min=-10_000, max=10_000, clear_after=True,
                          test_id="bc-ns"),
                _reason("bc-reason"),
                FormField(name="confirm", label="I confirm: void what the correction voids",
                          input="checkbox", required=False, test_id="bc-confirm"),
            ),
            actions=(FormAction(
                name="bc-submit", label="Correct",
                summary="Stanza {stanza}, board {board}, table {table}: NS {ns_score}",
                command={"type": "board-score-correct"}, primary=True,
            ),),
            enabled=True, role="chief",
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
                        Option(value=str(t), label=self.seats(extra, t), sets={"table": t},
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
        if planned.kind in (UnitKind.ARMAGEDDON, UnitKind.SUDDEN_DEATH):
            decider = self.state.chess.match(planned.match).rules.decider
            what += f" ({decider.name if decider is not None else 'decider'})"
        return f"{self.lane_label(planned)} · {what}"

    def plan_players(self, planned: PlannedGame) -> str:
        playoff = self.state.playoff
        if playoff is None:
            return " v ".join(self.name(p) for p in planned.players)
        match = playoff.match(planned.match)
        if None in match.players:
            return " – ".join(self.name(p) for p in planned.players)
        return self.players_text(playoff, match, planned.game)

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
                players=self.plan_players(g),
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
            proposal = Proposal(
                text=found.text, time_control=found.time_control, fill=fill
            )
        replan = None
        if moved:
            cause = self.cause(plan)
            replan = Replan(
                text=f"Re-planned after {cause}", cause=cause,
                items=tuple(
                    ReplanItem(key=g.key, label=g.title, delta=g.moved.delta, to=g.start)
                    for g in games if g.moved is not None
                ),
            )
        return ScheduleView(
            start=plan.start, finish=plan.finish, deadline=plan.deadline, fits=plan.fits,
            fits_text=fits_text, proposal=proposal,
            warnings=tuple(w for w in plan.warnings),
            lanes=tuple(Lane(match=m, label=label) for m, label in lanes.items()),
            games=games, breaks=breaks, replan=replan,
        )

    def cause(self, plan: Plan) -> str:
        """What moved the schedule since the previous view, in words: the games that
        started or ended, and the arbiters' changes logged since ("the start of game 2
        of Final (reg. 6)")."""
        said: list[str] = []
        previous = self.ctx.previous_plan
        if previous is not None:
            before = {(g.match, g.game): g.status for g in previous.games}
            for g in plan.games:
                was = before.get((g.match, g.game))
                if was is None or was is g.status:
                    continue
                where = self.game_words(g.match, g.game)
                if g.status is UnitStatus.RUNNING:
                    said.append(f"the start of {where}")
                elif g.status is UnitStatus.PLAYED:
                    said.append(f"the end of {where}")
        since = [t for t in dict.fromkeys(self.ctx.since)]
        listed: dict[str, object] = {c.event.type: c.event for c in self.state.changes}
        for kind in since:
            event = listed.get(kind)
            if kind == "result-corrected" and isinstance(event, ResultCorrected):
                said.append(f"the correction of {self.game_words(event.match, event.game)}")
            elif kind == "postponed" and isinstance(event, Postponed):
                said.append(f"the postponement of {self.game_words(event.match, event.game)}")
            elif kind == "start-moved" and isinstance(event, StartMoved):
                said.append(f"the new start of {self.game_words(event.match, event.game)}")
            elif kind == "time-control-shortened":
                said.append("the shorter time control")
            elif kind == "deadline-set":
                said.append("the new deadline")
            elif kind == "flag-fell":
                said.append("a flag fall")
            elif kind == "stanza-advanced":
                said.append("the end of a stanza")
        return and_list(list(dict.fromkeys(said))) or "the time passing"

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
        """The next instant of the plan (a game due, a break over) or of a rest a start
        would cut short, in server ms."""
        plan = self.ctx.plan
        now = self.ctx.now
        instants = list(self.instants)
        if plan is not None:
            instants += [g.start for g in plan.games if g.status is UnitStatus.PLANNED]
            instants += [b.end for b in plan.breaks]
            if plan.break_over is not None:
                instants.append(plan.break_over)
        later = [t for t in instants if t > now]
        if not later:
            return None
        return self.ms(min(later))

    # ------------------------------------------------------------------ records

    def draw(self, draw: Draw) -> DrawView:
        record = dict(draw.record)
        where = self.round_of(draw.match)
        if draw.kind == "lots":
            text = f"Lots, {where}: {self.name(draw.white)} has White in game {draw.game}"
        else:
            outcome = record.get("outcome")
            how = ""
            if isinstance(outcome, dict) and outcome.get("face"):
                how = (f"{self.name(str(outcome.get('caller')))} called {outcome.get('call')}, "
                       f"the coin showed {outcome.get('face')}; ")
            decider = self.state.chess.match(draw.match).rules.decider
            name = decider.name if decider is not None else "Armageddon"
            what = name if decider is not None and decider.by_lot else f"{name} coin toss"
            text = f"{what}, {where}: {how}won by {self.name(draw.winner)}"
        method: Literal["commit-reveal", "physical"] = (
            "commit-reveal" if record.get("method") == "commit-reveal" else "physical"
        )
        conducted = record.get("conducted_by")
        return DrawView(
            seq=draw.seq, kind=draw.kind, match=draw.match, text=text, method=method,
            conducted_by=str(conducted) if conducted else None, record=record,
        )

    def change(self, change: ArbiterChange) -> ChangeView:
        event = change.event
        voided: tuple[str, ...] = ()
        reason: str | None = getattr(event, "reason", None)
        if isinstance(event, Postponed):
            text = (f"{_capital(self.game_words(event.match, event.game))} postponed by "
                    f"{event.minutes} min, to {self.time(event.at)}")
        elif isinstance(event, StartMoved):
            text = (f"Start of {self.game_words(event.match, event.game)} moved to "
                    f"{self.time(event.at)}")
        elif isinstance(event, ClockAdjusted):
            seconds = f"{abs(event.delta_ms) / 1000:g} s"
            game = self.state.chess.game(event.match, event.game) if self.state.playoff else None
            who = ""
            if game is not None:
                who = f" ({self.name(game.white if event.side is Colour.WHITE else game.black)})"
            side = f"{event.side.value.capitalize()}{who}"
            where = self.game_words(event.match, event.game)
            text = (f"Gave {seconds} to {side} in {where}" if event.delta_ms >= 0
                    else f"Took {seconds} from {side} in {where}")
        elif isinstance(event, ResultCorrected):
            written = RESULT_WORDS[event.result][0]
            text = (f"Result of {self.game_words(event.match, event.game)} corrected to "
                    f"{written}")
            voided = tuple(self.voided(g, self.state.chess) for g in event.voided)
            if event.champion_before is not None:
                voided += (f"{self.name(event.champion_before)} as champion, and the final "
                           "placings",)
        elif isinstance(event, TimeControlShortened):
            which = (self.round_of(event.match) if event.match is not None
                     else "every match not begun")
            text = f"Time control shortened to {event.time_control} for {which}"
        elif isinstance(event, DeadlineSet):
            text = ("Deadline cleared" if event.deadline is None
                    else f"Deadline set to {self.time(event.deadline)}")
        elif isinstance(event, GameStarted):
            set_aside = "; ".join(event.overridden)
            text = (f"{_capital(self.game_words(event.match, event.game))} started early by "
                    f"the chief arbiter, setting aside: {set_aside}")
            reason = event.override
        else:
            text = _capital(event.describe(self.state.names, self.state.utc_offset))
        return ChangeView(
            seq=change.seq, type=event.type, at=change.recorded_at, actor=change.actor,
            when=self.time(change.recorded_at), by=_who(change.actor),
            text=text, reason=str(reason) if reason else None, voided=voided,
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
                score=text(p.get("score")), money=_money(p.get("money")),
                points=text(p.get("points")), basis=str(p.get("basis_text") or ""),
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
            restore_time_control=self.restore_time_control_form(),
            deadline=self.deadline(),
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
                FormField(name="public_reason", label="Show the reason in the hall",
                          input="checkbox", required=False, test_id="ms-public"),
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
                FormField(name="public_reason", label="Show the reason in the hall",
                          input="checkbox", required=False, test_id="pp-public"),
            ),
            actions=(FormAction(name="pp-submit", label="Postpone",
                                summary="Postpone match {match}, game {game} by {minutes} min",
                                command={"type": "postpone"}),),
            enabled=True,
        )

    def time_control_form(self) -> Form | None:
        """The time limits of matches not begun may be shortened (as the format allows)."""
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
            hint=(f"{state.format.shortening_rule}: " if state.format.shortening_rule else "")
            + "only shorter, and only for matches not begun.",
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
            enabled=True, open=plan is not None and plan.fits is False, role="chief",
        )

    def restore_time_control_form(self) -> Form | None:
        """A shortening undone: the regulation's time control again (chief arbiter)."""
        state = self.state
        if state.playoff is None:
            return None
        options = []
        for match in state.chess.matches:
            probe = RestoreTimeControl(match=match.id, reason=_PROBE_REASON)
            if match.bye or self.refusal(probe) is not None:
                continue
            options.append(Option(
                value=str(match.id),
                label=f"{self.round_name(match)}: back to {match.time_control}",
                sets={"match": match.id},
            ))
        if not options:
            return None  # nothing shortened that has not begun
        every = Option(value="", label="Every match shortened and not begun", sets={"match": None})
        return Form(
            id="restore-time-control", name="restore-time-control",
            title="Restore the time control",
            hint="The regulation's time control again, for matches not begun.",
            fields=(
                FormField(name="match", label="Which matches", input="select",
                          options=(every, *options), test_id="tcr-match"),
                _reason("tcr-reason"),
            ),
            actions=(FormAction(name="tcr-submit", label="Restore",
                                summary="Restore the regulation's time control",
                                command={"type": "restore-time-control"}),),
            enabled=True, role="chief",
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


def _reason(test_id: str, placeholder: str | None = None) -> FormField:
    """The reason every arbiter's override needs (logged with the change)."""
    return FormField(
        name="reason", label="Reason (required)", input="text", min_length=3, max_length=300,
        placeholder=placeholder, clear_after=True, test_id=test_id,
    )


def _tossed(rules: MatchFormat) -> bool:
    """The decider game's colours are chosen by the winner of a coin toss."""
    decider = rules.decider
    return decider is not None and decider.tossed


def _game_label(rules: MatchFormat, game: Game) -> str:
    """"Armageddon" for a decider game; a stage's name where the match has several."""
    if game.kind.decider:
        return rules.decider.name if rules.decider is not None else "Decider"
    stage = rules.stage_of(game.number)
    return stage.name if stage is not None and len(rules.stages) > 1 else ""


def _decider_word(match: Match, number: int) -> str:
    rules = match.rules
    if match.kind_of(number) is GameKind.ARMAGEDDON and rules.decider is not None:
        return rules.decider.name
    return f"game {number}"


def _draw_words(draw_means: str) -> str:
    if draw_means == "replay":
        return "a draw means another game"
    return f"a draw means {draw_means.split()[0].capitalize()} wins"


_COUNTS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


def _count(n: int) -> str:
    return _COUNTS.get(n, str(n))


def _over(rules: MatchFormat, played: int) -> str:
    if len(rules.stages) == 1:
        return f"the {_count(played)} regular games"
    names = [s.name for first, s in rules.stage_starts() if first <= played]
    return f"{_count(played)} games ({', '.join(names)})"
