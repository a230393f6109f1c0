"""The console's view as sent: its matches, extra boards, schedule and records."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from orchestrator.core.state import DrawKind
from orchestrator.views.arbiter.forms import ClockControl, Control, Fill, Form, _View
from orchestrator.views.playoff import ClockView
from orchestrator.views.printable import PrintMenu
from playoff_formats.clock import ClockStatus
from playoff_formats.model import Colour
from playoff_formats.playoff import GameKind, MatchStatus
from playoff_formats.schedule import Moment, UnitKind, UnitStatus
from playoff_formats.schedule.rest import RestKind
from playoff_formats.speech import marked, tr

__all__ = [
    "STATUS_WORDS",
    "TABLE_HEADINGS",
    "VIEW_MODEL",
    "ArbiterView",
    "BoardKeyControl",
    "BoardRow",
    "BoardStatusView",
    "ChampionView",
    "ChangeView",
    "ClockFace",
    "ColoursPanel",
    "DecisionView",
    "DrawView",
    "ExtraBoardsView",
    "FlagNotice",
    "GamePanel",
    "GameRow",
    "HallKey",
    "HallKeyRequest",
    "Lane",
    "LotsPanel",
    "MatchView",
    "Moved",
    "Overrides",
    "PlacingRow",
    "PlanBreak",
    "PlanGame",
    "PlayerView",
    "Proposal",
    "Replan",
    "ReplanItem",
    "RestView",
    "ScheduleView",
    "StanzaView",
    "TossPanel",
]

STATUS_WORDS: dict[str, str] = {
    ClockStatus.NOT_STARTED.value: marked("not started"),
    ClockStatus.RUNNING.value: marked("running"),
    ClockStatus.PAUSED.value: marked("paused"),
    ClockStatus.FLAGGED.value: marked("flag fell"),
    ClockStatus.STOPPED.value: marked("game over"),
}
"""A clock's status in words, for the clock frames that update it between views."""

TABLE_HEADINGS: tuple[str, str] = (marked("Table 1 (NS)"), marked("Table 2 (NS)"))
"""The extra boards' table columns, when no team is named at them."""


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
    until: Moment
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
        default_factory=lambda: (tr(TABLE_HEADINGS[0]), tr(TABLE_HEADINGS[1])),
        description="Each table's column heading: who sits North-South there",
    )


# --------------------------------------------------------------------------- schedule


class Moved(_View):
    """How a planned game moved since the previous view."""

    from_start: Moment
    from_end: Moment
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
    start: Moment
    end: Moment
    fixed: bool
    tentative: bool
    moved: Moved | None


class PlanBreak(_View):
    """A rest in the schedule (after the main event, between games), in its lane."""

    lane: int
    kind: str
    start: Moment
    end: Moment
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
    to: Moment


class Replan(_View):
    """What the last re-plan moved, and after what."""

    text: str = Field(description='e.g. "Re-planned after the start of game 2 of ..."')
    cause: str = Field(description='What moved it: "the start of game 2 of ..."')
    items: tuple[ReplanItem, ...]


class ScheduleView(_View):
    """The schedule as planned now, against the deadline."""

    error: str | None = Field(default=None, description="Why there is no schedule")
    start: Moment | None = None
    finish: Moment | None = None
    deadline: Moment | None = None
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
    at: Moment
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


class BroadcastKey(_View):
    """The chief arbiter's panel that makes a broadcast key: the request to send, and
    the feed's address (the key in its query) that a broadcast platform polls."""

    role: Literal["chief"] = "chief"
    title: str
    words: str
    label: str
    request: HallKeyRequest
    made: str = Field(description="Said above the feed's address, once a key is made")


class BoardStatusView(_View):
    """A board clock as the console follows it."""

    match: int
    title: str
    online: bool
    last_heard_ms: int | None = Field(description="When a frame last came from it (server ms)")
    battery: float | None = Field(description="0 to 1, where its browser tells it")
    charging: bool | None
    clock: ClockView | None = Field(description="Its clock as the board shows it")
    left: Literal["white", "black"]
    called: dict[str, Any] | None = Field(description="The board called the arbiter")
    alert: str | None = Field(description="The call for the arbiter, in words")
    outage: str | None = Field(description="An outage past the allowance, in words")
    status: Literal["waiting", "running", "paused", "called", "over"]


class EboardView(_View):
    """An e-board (DGT) as the console follows it."""

    serial: str
    match: int | None = Field(description="The match it plays (None: on no match yet)")
    title: str | None
    state: str | None = Field(description="LiveChess's word for it: ACTIVE, INACTIVE...")
    battery: str | None = Field(description='As LiveChess gives it: "84%"')
    last_heard_ms: int | None
    heard: bool = Field(description="Its status reported in the last 30 s")
    unread: str | None = Field(description="A position no legal move reaches, in words")
    unread_placement: str | None = Field(description="That position's piece placement")
    clock_gap: str | None = Field(
        description="Its DGT clock more than 2 s from the service's, in words"
    )


class BoardKeyControl(_View):
    """Issue a board key for one match: over the websocket, or with the request."""

    match: int
    title: str
    command: dict[str, Any]
    request: dict[str, Any]


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
        description="The hall's offset from UTC now: the console writes times of day at it "
        "where no zone is named"
    )
    time_zone: str | None = Field(
        default=None,
        description="The event's IANA time zone (Asia/Tashkent): the console writes every "
        "time of day in it; null: at utc_offset_minutes",
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
    broadcast_key: BroadcastKey | None = Field(
        default=None, description="The chief arbiter's: make the broadcast feed's key"
    )
    status_words: dict[str, str] = Field(
        default_factory=lambda: {key: tr(words) for key, words in STATUS_WORDS.items()},
        description="A clock's status (as clock frames give it) in words",
    )
    clocks: dict[str, ClockView] = Field(description='Every clock, by "match:game"')
    boards: tuple[BoardStatusView, ...] = Field(
        default=(), description="Each match with a board key issued: its board clock"
    )
    board_keys: tuple[BoardKeyControl, ...] = Field(
        default=(), description="Issue a board key for a match"
    )
    eboards: tuple[EboardView, ...] = Field(
        default=(), description="The e-boards (DGT) mapped to a match or heard"
    )
    printing: PrintMenu | None = Field(
        default=None, description="The Print menu: the PDFs and their addresses"
    )
    next_change_ms: int | None = Field(
        description="The server instant after which the view changes with the time alone "
        "(a break or rest over, a game due)"
    )


VIEW_MODEL = ArbiterView
"""The model of the view frames' data for the console (for the JSON Schema)."""
