"""The hall's view as sent: the games on the board, the next game and the pause,
the bracket, the bridge scoreboard and the final placings."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from orchestrator.views.playoff import ClockView

__all__ = [
    "VIEW_MODEL",
    "ArmageddonBanner",
    "BracketMark",
    "BracketMatch",
    "BracketPlayer",
    "BracketRound",
    "BreakInForce",
    "CorrectionNotice",
    "Countdown",
    "FlagNotice",
    "HallMode",
    "HallView",
    "IdleHeadline",
    "LiveGame",
    "NextGame",
    "PauseKind",
    "PlacingRow",
    "PlayerLabel",
    "Scoreboard",
    "ScoreboardBoard",
    "ScoreboardSet",
    "ScoreboardStanza",
    "ScoreboardTeam",
    "StanzaScheduled",
]

HallMode = Literal["waiting", "games", "idle", "champion", "scoreboard"]
PauseKind = Literal["main-event", "interval", "stanza-change"]



class _Shown(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class PlayerLabel(_Shown):
    """A player (or team) as the hall names them. ``id`` is None for a place still
    to be filled ("Winner of Seeds 2 v 3") or a bye; ``seed`` for play-off players."""

    id: str | None
    name: str
    short: str = Field(description="The family name, for tight places (see the rules)")
    seed: int | None = None


class Position(_Shown):
    """A game's position as its e-board gave it, for the hall's diagram: the ranks from
    8 down to 1, each eight characters (``KQRBNP`` White's pieces, ``kqrbnp`` Black's,
    ``.`` an empty square), White at the bottom."""

    ranks: list[str] = Field(min_length=8, max_length=8)
    last_move: list[str] | None = Field(
        description='The last move\'s squares, from and to: ["g1", "f3"]'
    )
    last_move_words: str | None = Field(description='"23. Nxc6", "23… Rxe4"')
    moves: int = Field(description="Half-moves played")


class LiveGame(_Shown):
    """A game whose clock is on the board. ``clock`` is the key into ``clocks``."""

    clock: str = Field(description='"match:game", the key of its clock in the view\'s clocks')
    match: int
    game: int
    title: str = Field(description='"Final · Game 2", "Semi-final 1 · Game 3"')
    tag: str | None = Field(description='"Armageddon": set apart after the title')
    armageddon: bool
    time_control: str | None = Field(
        description="The time control played (None for the Armageddon: the banner gives it)"
    )
    stage: str | None = Field(
        default=None,
        description='"Rapid 25+10": the stage of its match the game belongs to, where the '
        "match is played in several stages",
    )
    white: PlayerLabel
    black: PlayerLabel
    position: Position | None = Field(
        default=None, description="The position, where an e-board gives the moves"
    )


class ArmageddonBanner(_Shown):
    """The decider being played (``on``), or the next one to be played (``next``)."""

    state: Literal["on", "next"]
    name: str = Field(default="Armageddon", description="The decider's name, as its format says")
    match: int
    game: int
    when: str = Field(description='"now playing · Final · game 3" or "next · Final · game 3"')
    white: PlayerLabel | None = Field(description="None until the toss winner has chosen")
    black: PlayerLabel | None
    white_time: str = Field(description="White's time in words: 6′")
    black_time: str
    times: str = Field(description="6′ v 5′")
    increment: str = Field(description="The increment in words (+N s from move M), or no increment")
    draw_rule: str = Field(description="draw = Black wins (the format's draw odds)")
    colours: str | None = Field(
        description="Where the colours stand while unknown: the coin toss, or the lots"
    )


class NextGame(_Shown):
    """The next game (or stanza) to start, and when."""

    match: int
    game: int
    kind: Literal["regular", "armageddon", "sudden-death", "stanza"]
    label: str = Field(description='"Final · Game 1", "Final · Game 3 · Armageddon (if needed)"')
    players: list[PlayerLabel] = Field(description="White then Black once colours are known")
    colours_known: bool
    colours: str | None = Field(
        description='"colours by lot" or "colours by coin toss" while unknown (chess)'
    )
    vs: str = Field(
        description='"Sindarov v Abdusattorov" (White first), "Abdusattorov – Sindarov '
        '(colours by lot)" while unknown'
    )
    tentative: bool = Field(description="Played only if the match is level after two games")
    due_ms: int = Field(description="Its planned start (server ms)")
    at: str = Field(description='Its planned start as the hall\'s time of day: "13:02"')
    estimate: bool = Field(description="The start waits on a game in play: it moves with it")
    when: str = Field(
        description='"13:02", "about 13:05", "starting now", or what a due game waits for'
    )
    due: bool = Field(description="The planned start has come: it should be starting")
    due_text: str | None = Field(
        description='Once due: "starting now" when it can start, else what it waits for '
        '("waiting for the arbiter: colours to be drawn")'
    )
    waits: bool = Field(
        default=False, description="Due, but it cannot start yet: due_text says why"
    )
    note: str | None = Field(
        default=None,
        description='The chief arbiter\'s changes to it: "postponed to 21:44 by the chief '
        'arbiter", "time control shortened to G/15+10 by the chief arbiter"',
    )


class Countdown(_Shown):
    """The one countdown the hall shows: to the next game's planned start."""

    label: str = Field(description="What starts then: the next game's label")
    until_ms: int = Field(description="The instant counted down to (server ms)")
    at: str = Field(description='That instant as the hall\'s time of day: "13:02"')
    due_text: str | None = Field(description='"starting now" once it has come: shown instead')
    waits: bool = Field(
        default=False,
        description="Its time has come but the game cannot start: due_text says what it "
        "waits for (a sentence, not a count)",
    )


class BreakInForce(_Shown):
    """The pause in force (see the module's rules for which)."""

    kind: PauseKind
    label: str = Field(
        description='"Break after the main event", "Interval" or "Stanza change"'
    )
    reason: str = Field(description="What the pause is, with the rule cited")
    who: str = Field(description="Who rests, in words")
    start_ms: int
    end_ms: int | None = Field(
        description="When the pause owed ends (None for a stanza change); the hall counts "
        "down to the countdown's instant, not to this"
    )


class IdleHeadline(_Shown):
    """What the stage shows in large type between games, above the next game and
    the countdown."""

    label: str = Field(description='"Break after the main event", "Interval" or "Next game"')
    note: str = Field(description="The pause's reason, or nothing")


class FlagNotice(_Shown):
    """A flag that fell, announced until a game starts after it."""

    match: int
    game: int
    side: Literal["white", "black"]
    title: str = Field(description='"Seeds 2 v 3 · Game 1"')
    text: str = Field(description='"White\'s flag fell: 0-1"')
    detail: str = Field(description='"Sindarov beat Abdusattorov on time"')


class CorrectionNotice(_Shown):
    """An arbiter's correction, announced until a game (or a stanza) starts after it."""

    title: str = Field(description='"Result corrected" or "Score corrected"')
    text: str = Field(description="What changed, in a sentence")
    items: list[str] = Field(description="What it voids: games no longer played, a winner")


class BracketMark(_Shown):
    """One game in a player's row: ``text`` is their points ("1", "½", "0"), or
    empty for a regular game still to play."""

    game: int
    text: str
    armageddon: bool
    played: bool


class BracketPlayer(_Shown):
    player: PlayerLabel
    known: bool = Field(description="False for a place still to be filled")
    bye: bool = Field(description="The empty side of a bye")
    marks: list[BracketMark]
    total: str = Field(description="Points over the regular games, once one is played")
    outcome: Literal["advances", "out", "champion"] | None


class BracketMatch(_Shown):
    id: int
    name: str = Field(description='"Seeds 2 v 3", "Semi-final 1", "Final"')
    status: Literal["locked", "waiting", "ready", "running", "completed"]
    bye: bool
    final: bool
    players: list[BracketPlayer]
    decision: str | None = Field(description='"Abdusattorov beat Sindarov 1½–½"')


class BracketRound(_Shown):
    stage: int
    number: int
    name: str
    status: Literal["to play", "playing", "played"] = Field(
        description="played: every match decided; playing: one has begun"
    )
    matches: list[BracketMatch]


class ScoreboardTeam(_Shown):
    id: str
    name: str
    won: bool


class ScoreboardBoard(_Shown):
    """One extra board. Its scores (each table's NS score as written, "+620", "0",
    "-50") and IMPs are given once both tables have scored it, else None."""

    stanza: int
    board: int
    first_of_stanza: bool
    state: Literal["to play", "playing", "scored"] = Field(
        description="playing: scored at one table only (its score is not shown)"
    )
    table_1: str | None
    table_2: str | None
    home_imps: str | None = Field(description='"10", "0" for no swing, "" when the other won')
    away_imps: str | None


class ScoreboardStanza(_Shown):
    stanza: int
    set: int
    current: bool
    boards: list[ScoreboardBoard]
    partners_note: str | None = Field(
        description='"partners changed after stanza 1" once play went on after it'
    )


class ScoreboardSet(_Shown):
    """A set of extra boards (EBU 143.2.1: repeated while tied), with its IMPs."""

    set: int
    current: bool
    total: tuple[str, str] = Field(description="IMPs of the set, home and away")
    text: str = Field(description='"Set 1: 12–12, still tied: played again"')
    stanzas: list[ScoreboardStanza]


class Scoreboard(_Shown):
    """Bridge extra boards (EBU 143.2.1): every set, the current one's total."""

    home: ScoreboardTeam
    away: ScoreboardTeam
    total: tuple[str, str] = Field(description="IMPs of the current set, home and away")
    caption: str
    current_stanza: int
    current_set: int
    stanza_text: str | None = Field(description='"Stanza 2 (2 of 3)" while play goes on')
    partner_change: str | None = Field(description="Partners change after this stanza")
    winner: str | None = Field(description='"North London win the extra boards"')
    sets: list[ScoreboardSet] = Field(description="Every set played or in play, in order")
    note: str


class StanzaScheduled(_Shown):
    """A stanza in the schedule: played, being played, or when it starts."""

    stanza: int
    label: str = Field(description='"Stanza 3 · 2 boards"')
    status: Literal["planned", "running", "played"]
    when: str = Field(description='"played", "playing", "starting now", "13:40", "about 13:40"')
    start_ms: int
    partners_note: str | None = Field(description='"then partners change"')


class PlacingRow(_Shown):
    """A line of the final placings (prizes; tour points)."""

    place: int
    id: str
    name: str
    short: str
    prize: str = Field(description='"100,000", with the currency when the play-off has one')
    points: str
    champion: bool
    basis: str = Field(
        default="", description='Where the place comes from: "play-off", "tiebreaks"'
    )


class HallView(_Shown):
    """What a hall display shows of one play-off, as of ``server_ms``."""

    # "break" is the hall's word, and a Python keyword: the field has another name.
    model_config = ConfigDict(
        frozen=True, extra="forbid", validate_by_name=True, serialize_by_alias=True
    )

    view: Literal["hall"] = "hall"
    seq: int = Field(description="The play-off's seq this view is of")
    server_ms: int = Field(description="When it was computed (server ms)")
    utc_offset_minutes: int = Field(
        description="The hall's offset from UTC now: its time of day where no zone is named"
    )
    time_zone: str | None = Field(
        default=None,
        description="The event's IANA time zone (Asia/Tashkent): a page writes every time "
        "of day in it; null: at utc_offset_minutes",
    )
    language: str = Field(
        default="en",
        description="The language the view is worded in (en, es, fr, de, ru, en-XA): the "
        "page writes its own few words and its numbers and dates in it",
    )
    kind: Literal["knock-out", "extra-boards"]
    title: str
    subtitle: str
    mode: HallMode
    live: list[LiveGame] = Field(description="The games on the board, by match and game")
    armageddon: ArmageddonBanner | None
    next: NextGame | None
    countdown: Countdown | None = Field(description="The one countdown (see the rules)")
    in_force: BreakInForce | None = Field(alias="break")
    idle: IdleHeadline | None = Field(description="The stage between games (mode idle)")
    flag: FlagNotice | None
    correction: CorrectionNotice | None = Field(
        description="The last correction, until a game starts after it"
    )
    schedule_note: str | None = Field(
        description="Said instead of a next game: over, nothing planned, or why not"
    )
    bracket: list[BracketRound] = Field(description="Rounds in the order they are played")
    scoreboard: Scoreboard | None
    stanzas: list[StanzaScheduled] = Field(
        description="Bridge: the stanzas of the set in play, with when each is played"
    )
    champion: PlayerLabel | None
    placings: list[PlacingRow] = Field(description="Once there is a champion, by place")
    placings_note: str | None = Field(
        default=None, description="Where the places come from, said once beside them"
    )
    clock_status_text: dict[str, str] = Field(
        description="What a game card says under its clocks, by the clock's status"
    )
    clocks: dict[str, ClockView] = Field(
        description='Every clock of the play-off, by "m:g"; event frames replace them'
    )
    next_change_ms: int | None = Field(
        description="The next instant at which this view changes with the time alone"
    )


VIEW_MODEL = HallView
