"""The hall display's view of a play-off: everything the hall shows, decided and
worded here, so that the page only renders it.

A hall display is read from ten metres by players, spectators and arbiters; it
holds no rules of its own. What it shows is chosen here, for the instant
``ctx.now``:

- **Mode.** ``scoreboard`` for bridge extra boards; ``champion`` once the final is
  decided; ``games`` while a game has a clock on the board (running, paused, or
  started but not yet running); ``idle`` between games, with the next game in
  large type; ``waiting`` when no game is on and none can be planned (the
  schedule cannot be made, or nothing is left to place).
- **In play.** A game is in play from its start until its result; a stanza of
  extra boards from its first score until every board has both tables' scores.
- **Next game.** The earliest game of the schedule that has not started, the
  first in schedule order among those starting at the same instant. It is *due*
  once its planned start has come, or is less than a second away (the planner
  never plans a game that has not started before ``now``, so a due game stays due
  at ``now`` until it starts).
  Its start is an *estimate* ("about 13:05") while it waits on a game in play:
  it shares a player with one, belongs to the same match, or is to be played by
  the winner of a match with a game in play (the planner expects a running game
  to end with its estimate, or a few minutes after now once past it).
- **The countdown.** One target: the next game's planned start, shown whenever
  there is a next game whose start is not an estimate, and never once the
  play-off is over. Once due, the countdown says "starting now" instead.
- **Pause in force.** None while a game or stanza is in play. Chess: a break of
  the schedule under way at ``now`` (its start has come, its end has not) and not
  overtaken by play: a break is over as soon as one of its players starts a
  game, even before its planned end (the chief arbiter may start early, with a
  reason). When several are in force: the break after the main event first (the
  format's break after the last main-event game of any play-off player), then
  the interval of the players of the next game (the format's least and preferred
  intervals between games, or before a new stage), then the one that ends first. The
  pause is what the hall is told; the countdown still runs to the next game's
  start, which can be later than the pause's end (the organiser's earliest
  start, a moved start, another match's interval). Bridge extra boards: no
  interval is owed between stanzas (EBU 143.2.1 prescribes none: the teams
  change tables, and partners where the plan says so); from the end of a
  complete stanza until the first score of the next, the pause is a *stanza
  change*.
- **Flag fall.** The game whose clock shows a fallen flag and that ended last is
  announced ("White's flag fell: 0-1", and who beat whom) from its flag until a
  game starts after it ended.
- **Colours.** Known for a stage's games once its lots are drawn (the stage's
  games alternate from its first), and for a decider game once the toss winner
  has chosen. Until then the players are listed with a dash, never with "v",
  and "colours by lot" or "colours by coin toss" is said.
- **Stages.** A game of a match played in several stages (a ladder) is shown
  with its stage's name and time control, from the match's format.
- **Armageddon banner.** The decider being played, else the next one to be played
  (a match level after its stages): its name, who has White and Black and their
  times, the increment and the draw odds (all from the match's format), or where
  the coin toss stands.
- **Marks and totals.** A game's points for each player come from the result
  (:attr:`~playoff_formats.model.Result.white_points`); a match's total counts
  the regular games (the decider decides, it scores nothing). The winner of the
  final is the champion (the play-off determines the winner of the tournament);
  the winner of any other match advances.
- **Bridge scores.** A board's scores and IMPs are shown once both tables have
  scored it, never before (a table still to play the board must not see the
  other table's score); a board without a swing shows 0 IMPs. Every set of extra
  boards stays on the board when a tied set is played again (EBU 143.2.1: "the
  procedure shall be repeated"), each with its own IMPs.
- **Words.** People by name, never by id: a player's *short* name is the family
  name (before the comma of "Family, Given"; without a comma, the name without
  trailing initials, "Praggnanandhaa R" → "Praggnanandhaa"), or the full name
  when two players of the play-off would share it. A place still to fill is
  "Winner of" the match's name. Times of day are the hall's (``state.utc_offset``).
  Money has thousands separators, and the currency when the play-off has one.

Instants are server milliseconds (``*_ms``), on the scale of ``ctx.server_ms`` and
of the clocks, so that a page counts down to them with the offset it measured.
``next_change_ms`` is the next instant at which this view would change with the
time alone: the hub recomputes the view then.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from orchestrator.core.events import BoardScoreCorrected, ResultCorrected
from orchestrator.core.state import GameKey, PlayoffState
from orchestrator.views.context import ViewContext
from orchestrator.views.playoff import ClockView, clock_view, decider_view
from playoff_formats.clock import ClockStatus
from playoff_formats.extra_boards import ExtraBoards
from playoff_formats.model import Result
from playoff_formats.phrase import and_list
from playoff_formats.placings import PLACES_NOTE
from playoff_formats.playoff import (
    DecisionMethod,
    Game,
    GameKind,
    Match,
    MatchDecision,
    Playoff,
    champion,
    final_match,
    match_score,
)
from playoff_formats.schedule import (
    Break,
    BreakKind,
    Entrant,
    Overrides,
    Plan,
    PlannedGame,
    UnitKind,
    UnitStatus,
)
from playoff_formats.schedule.words import instant

__all__ = [
    "VIEW_MODEL",
    "ArmageddonBanner",
    "BracketMark",
    "BracketMatch",
    "BracketPlayer",
    "BracketRound",
    "BreakInForce",
    "Countdown",
    "FlagNotice",
    "HallView",
    "IdleHeadline",
    "LiveGame",
    "NextGame",
    "PlacingRow",
    "PlayerLabel",
    "Scoreboard",
    "ScoreboardBoard",
    "ScoreboardSet",
    "ScoreboardStanza",
    "ScoreboardTeam",
    "StanzaScheduled",
    "hall_view",
]

HallMode = Literal["waiting", "games", "idle", "champion", "scoreboard"]
PauseKind = Literal["main-event", "interval", "stanza-change"]

LIVE_STATUSES = frozenset({ClockStatus.NOT_STARTED, ClockStatus.RUNNING, ClockStatus.PAUSED})
"""A clock in one of these is on the board: its game is shown live."""

CLOCK_STATUS_TEXT = {
    ClockStatus.NOT_STARTED.value: "not started",
    ClockStatus.RUNNING.value: "",
    ClockStatus.PAUSED.value: "paused",
    ClockStatus.FLAGGED.value: "flag fallen",
    ClockStatus.STOPPED.value: "game over",
}
"""What a game card says under its clocks, by clock status. It travels in the view
because a pause changes only the clock (its event carries the clock, not a view)."""

STANZA_DUE = "due now: in play once its first score is entered"
"""A due stanza: the service knows it has begun only from its first score."""

DUE_WITHIN = timedelta(seconds=1)
"""A start this close to now is due: the schedule is planned from a reading of the
clock taken a moment after the view's own, so a game planned "now" may lie a few
milliseconds after ``ctx.now``."""

_CITATION = re.compile(r"\s*\((?:[^()]*\s)?(?:reg|regs|art|arts|rule|rules)\.?\s[^)]*\)\s*$")
_INITIAL = re.compile(r"^\w\.?$|^(?:\w\.)+$")
_RESULT_TEXT = {
    Result.WHITE_WINS: "1-0",
    Result.BLACK_WINS: "0-1",
    Result.DRAW: "½-½",
    Result.WHITE_WINS_BY_FORFEIT: "1-0 by forfeit",
    Result.BLACK_WINS_BY_FORFEIT: "0-1 by forfeit",
    Result.DOUBLE_FORFEIT: "double forfeit",
}


class _Shown(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class PlayerLabel(_Shown):
    """A player (or team) as the hall names them. ``id`` is None for a place still
    to be filled ("Winner of Seeds 2 v 3") or a bye; ``seed`` for play-off players."""

    id: str | None
    name: str
    short: str = Field(description="The family name, for tight places (see the rules)")
    seed: int | None = None


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
    utc_offset_minutes: int = Field(description="The hall's offset from UTC: its time of day")
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
"""The model of the hall's view frames (its JSON Schema is the frames' contract)."""


def hall_view(state: PlayoffState, ctx: ViewContext) -> dict[str, Any]:
    """Everything the hall display shows, as of ``ctx.now`` (a :class:`HallView`
    as JSON)."""
    return _Hall(state, ctx).view().model_dump(mode="json")


class _Hall:
    """One view being computed: the state, the instant, and the schedule."""

    def __init__(self, state: PlayoffState, ctx: ViewContext) -> None:
        self.state = state
        self.ctx = ctx
        self.plan: Plan | None = ctx.plan
        self.names = dict(state.names)
        self.shorts = _short_names(state.names)
        self.match_names: dict[int, str] = {}
        if state.playoff is not None:
            playoff = state.playoff
            self.match_names = {m.id: self.match_name(playoff, m) for m in playoff.matches}
            for match_id, name in self.match_names.items():
                # The schedule names a place still to fill by its entrant's label.
                label = Entrant(winner_of=match_id).label
                self.names[label] = self.shorts[label] = f"Winner of {name}"
        self.in_play: set[GameKey] = {
            key for key in state.started_at if key not in state.ended_at
        }

    def ms(self, moment: datetime) -> int:
        """An instant of the schedule on the server-ms scale of the clocks."""
        return self.ctx.server_ms + round((moment - self.ctx.now).total_seconds() * 1000)

    def at(self, moment: datetime) -> str:
        """The hall's time of day of an instant: ``13:02``."""
        return instant(moment, self.state.utc_offset)

    # ------------------------------------------------------------------ the whole

    def view(self) -> HallView:
        state = self.state
        next_game = self.next_game()
        at_ms = self.ctx.server_ms
        clocks = {
            f"{key[0]}:{key[1]}": ClockView.model_validate(clock_view(key, clock, at_ms))
            for key, clock in sorted(state.clocks.items())
        }
        flag = None
        if state.extra is not None:
            extra = state.extra
            kind: Literal["knock-out", "extra-boards"] = "extra-boards"
            title = " v ".join(self.name(t) for t in (extra.home, extra.away))
            subtitle = f"Extra boards · {extra.plan.rule}"
            live: list[LiveGame] = []
            banner = None
            bracket: list[BracketRound] = []
            scoreboard: Scoreboard | None = self.scoreboard(extra)
            stanzas = self.stanzas(extra)
            champion_label = None
            over = extra.winner is not None
            placings: list[PlacingRow] = []
            mode: HallMode = "scoreboard"
            in_force = None if over else self.stanza_change(extra)
        else:
            playoff = state.chess
            kind = "knock-out"
            title = playoff.name
            subtitle = " · ".join(s.name for s in sorted(playoff.stages, key=lambda s: s.id))
            live = self.live_games(playoff)
            winner = champion(playoff)
            over = winner is not None
            banner = None if over else self.decider_banner(playoff)
            bracket = self.bracket(playoff)
            scoreboard = None
            stanzas = []
            champion_label = self.player(winner) if winner is not None else None
            placings = self.placings(winner) if winner is not None else []
            flag = self.flag(playoff)
            if over:
                mode = "champion"
            elif live:
                mode = "games"
            elif next_game is not None:
                mode = "idle"
            else:
                mode = "waiting"
            in_force = None if over else self.break_in_force(next_game)
        if over:
            next_game = None
        countdown = None
        if next_game is not None and not next_game.estimate:
            countdown = Countdown(
                label=next_game.label, until_ms=next_game.due_ms, at=next_game.at,
                due_text=next_game.due_text,
                waits=next_game.waits,
            )
        return HallView(
            seq=state.seq,
            server_ms=self.ctx.server_ms,
            utc_offset_minutes=round(state.utc_offset / timedelta(minutes=1)),
            kind=kind,
            title=title,
            subtitle=subtitle,
            mode=mode,
            live=live,
            armageddon=banner,
            next=next_game,
            countdown=countdown,
            in_force=in_force,
            idle=self.idle(in_force) if mode == "idle" else None,
            flag=flag,
            correction=self.correction(),
            schedule_note=self.schedule_note(next_game, over),
            bracket=bracket,
            scoreboard=scoreboard,
            stanzas=stanzas,
            champion=champion_label,
            placings=placings,
            placings_note=PLACES_NOTE if placings else None,
            clock_status_text=CLOCK_STATUS_TEXT,
            clocks=clocks,
            next_change_ms=None if over else self.next_change_ms(),
        )

    # ------------------------------------------------------------------ names

    def name(self, who: str) -> str:
        """The name of a player or team, "Winner of Final" for a place to fill."""
        return self.names.get(who, who)

    def short(self, who: str) -> str:
        return self.shorts.get(who) or self.name(who)

    def player(self, who: str | None) -> PlayerLabel:
        if who is None:
            return PlayerLabel(id=None, name="", short="")
        seed = None
        known = who in self.state.names
        if self.state.playoff is not None and known:
            try:
                seed = self.state.playoff.seed_of(who)
            except KeyError:
                seed = None
        return PlayerLabel(
            id=who if known else None, name=self.name(who), short=self.short(who), seed=seed
        )

    def round_name(self, playoff: Playoff, match: Match) -> str:
        """The round's name as the hall says it: "Final", "Seeds 2 v 3" (no citation)."""
        for r in playoff.rounds:
            if (r.stage, r.number) == (match.stage, match.round):
                return _CITATION.sub("", r.name)
        return f"Round {match.round}"

    def match_name(self, playoff: Playoff, match: Match) -> str:
        """The round's name for the only match of its round ("Final"), else the round's
        name in the singular and the match's number in it ("Semi-final 2")."""
        name = self.round_name(playoff, match)
        alongside = [m for m in playoff.matches if (m.stage, m.round) == (match.stage, match.round)]
        if len(alongside) <= 1:
            return name
        singular = name[:-1] if name.endswith("s") else name
        return f"{singular} {match.number}"

    def game_title(self, match_id: int, number: int) -> str:
        """ "Final · Game 2": the match and the game."""
        return f"{self.match_names.get(match_id, f'Match {match_id}')} · Game {number}"

    # ------------------------------------------------------------------ games on the board

    def live_games(self, playoff: Playoff) -> list[LiveGame]:
        games = []
        for key, clock in sorted(self.state.clocks.items()):
            if clock.status not in LIVE_STATUSES:
                continue
            game = playoff.game(*key)
            if game is None:
                continue
            match = playoff.match(key[0])
            rules = match.rules
            armageddon = game.kind is GameKind.ARMAGEDDON
            control = None if armageddon else self.state.time_control(match, game)
            decider = rules.decider
            stage = rules.stage_of(game.number)
            games.append(LiveGame(
                clock=f"{key[0]}:{key[1]}",
                match=key[0],
                game=key[1],
                title=self.game_title(key[0], key[1]),
                tag=decider.name if game.kind.decider and decider is not None else None,
                armageddon=armageddon,
                time_control=str(control) if control is not None else None,
                stage=stage.name if stage is not None and len(rules.stages) > 1 else None,
                white=self.player(game.white),
                black=self.player(game.black),
            ))
        return games

    def flag(self, playoff: Playoff) -> FlagNotice | None:
        """The flag that fell last, until a game starts after its game ended."""
        fallen = []
        for key, clock in self.state.clocks.items():
            if clock.status is not ClockStatus.FLAGGED or clock.flagged is None:
                continue
            ended = self.state.ended_at.get(key, self.ctx.now)
            fallen.append((ended, key, clock.flagged.value))
        if not fallen:
            return None
        ended, key, side = max(fallen)
        if any(started > ended for started in self.state.started_at.values()):
            return None
        game = playoff.game(*key)
        if game is None or game.white is None or game.black is None:
            return None
        colour = side.capitalize()
        text = f"{colour}'s flag fell"
        detail = ""
        if game.result is not None:
            text += f": {_RESULT_TEXT[game.result]}"
            white, black = self.short(game.white), self.short(game.black)
            points = (game.result.white_points, game.result.black_points)
            flagged_lost = points[0] < points[1] if side == "white" else points[1] < points[0]
            on_time = " on time" if flagged_lost else ""
            if points[0] > points[1]:
                detail = f"{white} beat {black}{on_time}"
            elif points[1] > points[0]:
                detail = f"{black} beat {white}{on_time}"
            else:
                detail = f"{white} and {black} drew"
        return FlagNotice(
            match=key[0], game=key[1], side="white" if side == "white" else "black",
            title=self.game_title(*key), text=text, detail=detail,
        )

    def correction(self) -> CorrectionNotice | None:
        """The last correction of a result or a score, until a game (for bridge, a
        stanza) starts after it: spectators saw the old result, and the bracket or
        the scoreboard changed under their eyes."""
        corrections = [
            c for c in self.state.changes
            if isinstance(c.event, ResultCorrected | BoardScoreCorrected)
        ]
        if not corrections:
            return None
        last = corrections[-1]
        if any(started > last.recorded_at for started in self.state.started_at.values()):
            return None
        event = last.event
        if isinstance(event, BoardScoreCorrected):
            text = (f"Stanza {event.stanza}, board {event.board}, table {event.table}: the "
                    f"North-South score is {_ns(event.ns_score)} (was {_ns(event.previous)})")
            if event.winner_after is not None:
                text += f"; {self.name(event.winner_after)} win the match"
            items = []
            stanzas = sorted({v.stanza for v in event.voided})
            items += [f"Stanza {n}: no longer played" for n in stanzas]
            if event.winner_before is not None:
                items.append(f"{self.name(event.winner_before)} no longer win the match")
            return CorrectionNotice(title="Score corrected", text=text, items=items)
        assert isinstance(event, ResultCorrected)
        was = f" (was {_RESULT_TEXT[event.previous]})" if event.previous is not None else ""
        text = f"{self.game_title(event.match, event.game)} is {_RESULT_TEXT[event.result]}{was}"
        playoff = self.state.chess
        items = []
        for voided in event.voided:
            fate = ("to be played again" if playoff.game(voided.match, voided.game) is not None
                    else "no longer played")
            items.append(f"{self.game_title(voided.match, voided.game)}: {fate}")
        if event.champion_before is not None:
            items.append(f"{self.short(event.champion_before)} is no longer the champion")
        return CorrectionNotice(title="Result corrected", text=text, items=items)

    def decider_banner(self, playoff: Playoff) -> ArmageddonBanner | None:
        """The decider being played, else the first still to be played."""
        waiting: tuple[Match, Game] | None = None
        for match in playoff.matches:
            if match.decision is not None:
                continue
            for game in playoff.games_of(match.id):
                if game.kind is not GameKind.ARMAGEDDON or game.result is not None:
                    continue
                if (match.id, game.number) in self.state.started_at:
                    return self.banner(match, game, on=True)
                if waiting is None:
                    waiting = (match, game)
        return self.banner(*waiting, on=False) if waiting is not None else None

    def banner(self, match: Match, game: Game, *, on: bool) -> ArmageddonBanner:
        terms = decider_view(self.state, match.id, game.number)
        assert terms is not None  # the game exists and the match has a decider
        white_time, black_time = _minutes(terms["white_ms"]), _minutes(terms["black_ms"])
        known = game.white is not None and game.black is not None
        colours = None
        decider = match.rules.decider
        if not known and decider is not None and decider.drawn:
            colours = "Colours by lot"
        elif not known:
            tosses = self.state.draws_of("coin-toss", match.id)
            won_by = tosses[-1].winner if tosses else None
            colours = (
                f"Coin toss won by {self.short(won_by)}: chooses the colours"
                if won_by is not None
                else "Colours by coin toss; the winner chooses"
            )
        when = "now playing" if on else "next"
        return ArmageddonBanner(
            state="on" if on else "next",
            name=str(terms["name"]),
            match=match.id,
            game=game.number,
            when=f"{when} · {self.match_names[match.id]} · game {game.number}",
            white=self.player(game.white) if known else None,
            black=self.player(game.black) if known else None,
            white_time=white_time,
            black_time=black_time,
            times=f"{white_time} v {black_time}",
            increment=terms["increment"],
            draw_rule=f"draw = {str(terms['draw_means']).capitalize()}",
            colours=colours,
        )

    # ------------------------------------------------------------------ the schedule

    def planned(self) -> Sequence[PlannedGame]:
        return self.plan.games if self.plan is not None else ()

    def estimated(self, planned: PlannedGame) -> bool:
        """The planned start waits on a game in play (see the rules)."""
        busy_players: set[str] = set()
        busy_matches: set[int] = set()
        for g in self.planned():
            if g.status is UnitStatus.RUNNING:
                busy_players.update(g.players)
                busy_matches.add(g.match)
        if not busy_matches:
            return False
        waits_for = {Entrant(winner_of=m).label for m in busy_matches}
        return (
            planned.match in busy_matches
            or bool(busy_players & set(planned.players))
            or bool(waits_for & set(planned.players))
        )

    def next_game(self) -> NextGame | None:
        """The earliest game of the schedule not started yet (schedule order on a tie)."""
        waiting = [
            (g.start, n, g) for n, g in enumerate(self.planned()) if g.status is UnitStatus.PLANNED
        ]
        if not waiting:
            return None
        planned = min(waiting, key=lambda item: (item[0], item[1]))[2]
        due = planned.start - self.ctx.now < DUE_WITHIN
        colours: str | None = None
        waits_for: str | None = None
        if planned.kind is UnitKind.STANZA:
            label = f"Stanza {planned.game}"
            if planned.boards:
                label += f" · {planned.boards} boards"
            players = [self.player(p) for p in planned.players]
            colours_known = False
            vs = " v ".join(p.name for p in players)
            if due:
                # The service learns a stanza has begun from its first score: until then
                # it is due, perhaps already played; never "starting now".
                waits_for = STANZA_DUE
        else:
            playoff = self.state.chess
            label = self.game_title(planned.match, planned.game)
            rules = playoff.match(planned.match).rules
            armageddon = planned.kind in (UnitKind.ARMAGEDDON, UnitKind.SUDDEN_DEATH)
            stage = rules.stage_of(planned.game)
            if armageddon and rules.decider is not None:
                label += f" · {rules.decider.name}"
            elif stage is not None and len(rules.stages) > 1:
                control = self.state.time_control(playoff.match(planned.match), planned.game)
                label += f" · {stage.name} · {control}"
            if planned.tentative:
                label += " (if needed)"
            game = playoff.game(planned.match, planned.game)
            colours_known = game is not None and game.white is not None and game.black is not None
            if game is not None and colours_known:
                players = [self.player(game.white), self.player(game.black)]
                vs = " v ".join(p.short for p in players)
            else:
                players = [self.player(p) for p in planned.players]
                tossed = armageddon and rules.decider is not None and rules.decider.tossed
                colours = "colours by coin toss" if tossed else "colours by lot"
                vs = f"{' – '.join(p.short for p in players)} ({colours})"
                if due:
                    waits_for = self.colours_awaited(planned.match, tossed)
        estimate = not due and self.estimated(planned)
        at = self.at(planned.start)
        note = self.changed_by_chief(planned) or None
        if due and waits_for is not None:
            # Its time has come but it cannot start yet: say what it waits for, never
            # "starting now".
            return NextGame(
                match=planned.match, game=planned.game, kind=planned.kind.value, label=label,
                players=players, colours_known=colours_known, colours=colours, vs=vs,
                tentative=planned.tentative, due_ms=self.ms(planned.start), at=at,
                estimate=False, when=waits_for, due=True, due_text=waits_for, waits=True,
                note=note,
            )
        return NextGame(
            match=planned.match,
            game=planned.game,
            kind=planned.kind.value,
            label=label,
            players=players,
            colours_known=colours_known,
            colours=colours,
            vs=vs,
            tentative=planned.tentative,
            due_ms=self.ms(planned.start),
            at=at,
            estimate=estimate,
            when="starting now" if due else f"about {at}" if estimate else at,
            due=due,
            due_text="starting now" if due else None,
            note=note,
        )

    def changed_by_chief(self, planned: PlannedGame) -> str:
        """What the chief arbiter changed of a game still to play, for spectators: its
        start (with the reason only if the chief arbiter chose to show it) and a
        shortened time control."""
        said = []
        for pin in self.state.overrides.pins:
            if (pin.match, pin.game) == (planned.match, planned.game):
                said.append(pin.words(self.at(pin.start), public=True))
        if planned.kind is not UnitKind.STANZA and self.state.playoff is not None:
            match = self.state.chess.match(planned.match)
            kind = match.kind_of(planned.game)
            now = self.state.time_control(match, planned.game)
            before = Overrides().time_control_for(match, planned.game, kind, None)
            if now is not None and now != before:
                said.append(f"time control shortened to {now} by the chief arbiter")
        return "; ".join(said)

    def colours_awaited(self, match_id: int, tossed: bool) -> str:
        """What a due game without colours waits for, in the hall's words."""
        if not tossed:
            return "waiting for the arbiter: colours to be drawn"
        if self.state.draws_of("coin-toss", match_id):
            return "waiting for the winner of the coin toss to choose colours"
        return "waiting for the arbiter: the coin toss"

    def break_in_force(self, next_game: NextGame | None) -> BreakInForce | None:
        if self.plan is None or self.in_play:
            return None
        now = self.ctx.now
        under_way = [
            b for b in self.plan.breaks
            if b.start <= now < b.end and not self.overtaken(b)
        ]
        if not under_way:
            return None
        next_players: set[str] = set()
        if next_game is not None:
            planned = self.plan.game(next_game.match, next_game.game)
            next_players = set(planned.players)

        def precedence(b: Break) -> tuple[bool, bool, datetime]:
            return (b.kind is not BreakKind.MAIN_EVENT, not next_players & set(b.who), b.end)

        chosen = min(under_way, key=precedence)
        main = chosen.kind is BreakKind.MAIN_EVENT
        return BreakInForce(
            kind="main-event" if main else "interval",
            label="Break after the main event" if main else "Interval",
            reason=_hall_reason(chosen.reason),
            who=and_list(self.short(w) for w in chosen.who),
            start_ms=self.ms(chosen.start),
            end_ms=self.ms(chosen.end),
        )

    def overtaken(self, brk: Break) -> bool:
        """One of the break's players started a game since it began: the break is over.

        The game the break follows ends when the break starts: it does not count,
        even when it lasted no time at all (a result entered at once)."""
        resting = set(brk.who)
        return any(
            g.status is not UnitStatus.PLANNED
            and g.start >= brk.start
            and (g.status is UnitStatus.RUNNING or g.end > brk.start)
            and resting & set(g.players)
            for g in self.planned()
        )

    def stanza_change(self, extra: ExtraBoards) -> BreakInForce | None:
        """From a complete stanza's end to the next stanza's first score."""
        current = extra.current
        if current == 1 or (1, current) in self.state.started_at:
            return None
        ended = self.state.ended_at.get((1, current - 1))
        if ended is None:
            return None
        per_set = len(extra.plan.stanzas)
        boards = extra.stanzas[current - 1]
        changes = extra.plan.partner_changes[(current - 2) % per_set]
        if (current - 1) % per_set == 0:
            head = f"Still tied after stanza {current - 1}: the extra boards are played again"
        else:
            head = f"Stanza {current - 1} complete"
        reason = f"{head}; stanza {current} next, {boards} boards"
        if changes:
            reason += "; partners change"
        return BreakInForce(
            kind="stanza-change",
            label="Stanza change",
            reason=reason,
            who=and_list(self.name(t) for t in (extra.home, extra.away)),
            start_ms=self.ms(ended),
            end_ms=None,
        )

    def idle(self, in_force: BreakInForce | None) -> IdleHeadline:
        return IdleHeadline(
            label=in_force.label if in_force is not None else "Next game",
            note=in_force.reason if in_force is not None else "",
        )

    def schedule_note(self, next_game: NextGame | None, over: bool) -> str | None:
        if over:
            return "The play-off is over."
        if next_game is not None:
            return None
        if self.plan is None:
            reason = self.ctx.plan_error or "it cannot be planned"
            return f"No schedule: {reason}."
        if self.state.extra is not None:
            # The schedule holds the set in play; a tie after it repeats the set.
            return (
                f"If still tied after stanza {self.state.extra.current}, "
                "the extra boards are played again."
            )
        return "No game planned."

    def next_change_ms(self) -> int | None:
        """The next instant after now at which a break starts or ends or a game falls due."""
        now = self.ctx.now
        instants: list[datetime] = []
        for b in self.plan.breaks if self.plan is not None else ():
            instants += [t for t in (b.start, b.end) if t > now]
        instants += [
            g.start for g in self.planned() if g.status is UnitStatus.PLANNED and g.start > now
        ]
        return self.ms(min(instants)) if instants else None

    # ------------------------------------------------------------------ the bracket

    def bracket(self, playoff: Playoff) -> list[BracketRound]:
        stage_order = {s.id: n for n, s in enumerate(sorted(playoff.stages, key=lambda s: s.id))}
        rounds = sorted(playoff.rounds, key=lambda r: (stage_order[r.stage], r.number))
        final = final_match(playoff).id
        shown = []
        for r in rounds:
            matches = sorted(
                (m for m in playoff.matches if (m.stage, m.round) == (r.stage, r.number)),
                key=lambda m: (m.number, m.id),
            )
            if not matches:
                continue
            status: Literal["to play", "playing", "played"] = "to play"
            if all(m.decision is not None for m in matches):
                status = "played"
            elif any(m.started or (m.decision is not None and not m.bye) for m in matches):
                status = "playing"
            shown.append(BracketRound(
                stage=r.stage, number=r.number, name=_CITATION.sub("", r.name), status=status,
                matches=[self.bracket_match(playoff, m, final=m.id == final) for m in matches],
            ))
        return shown

    def bracket_match(self, playoff: Playoff, match: Match, *, final: bool) -> BracketMatch:
        games = playoff.games_of(match.id)
        rows = []
        for slot in match.slots:
            if slot is None:
                rows.append(BracketPlayer(
                    player=PlayerLabel(id=None, name="bye", short="bye"), known=False, bye=True,
                    marks=[], total="", outcome=None,
                ))
                continue
            who = slot.player
            if who is None:
                place = f"Winner of {self.match_names.get(slot.winner_of or 0, 'a match')}"
                rows.append(BracketPlayer(
                    player=PlayerLabel(id=None, name=place, short=place), known=False, bye=False,
                    marks=[], total="", outcome=None,
                ))
                continue
            rows.append(self.bracket_player(match, games, who, final=final))
        return BracketMatch(
            id=match.id,
            name=self.match_names[match.id],
            status=match.status.value,
            bye=match.bye,
            final=final,
            players=rows,
            decision=(
                self.decision_text(match.decision, match) if match.decision is not None else None
            ),
        )

    def bracket_player(
        self, match: Match, games: Sequence[Game], who: str, *, final: bool
    ) -> BracketPlayer:
        marks = []
        total = 0.0
        counted = False
        for game in games:
            armageddon = game.kind.decider
            if game.result is None or who not in (game.white, game.black):
                if not armageddon:  # a regular game to play: an empty box
                    marks.append(BracketMark(
                        game=game.number, text="", armageddon=False, played=False
                    ))
                continue
            points = (
                game.result.white_points if game.white == who else game.result.black_points
            )
            if not armageddon:
                total += points
                counted = True
            marks.append(BracketMark(
                game=game.number, text=_points(points), armageddon=armageddon, played=True
            ))
        outcome: Literal["advances", "out", "champion"] | None = None
        if match.decision is not None:
            won = match.decision.winner == who
            outcome = ("champion" if final else "advances") if won else "out"
        return BracketPlayer(
            player=self.player(who), known=True, bye=False, marks=marks,
            total=_points(total) if counted else "", outcome=outcome,
        )

    def decision_text(self, decision: MatchDecision, match: Match) -> str:
        """ "Sindarov beat Abdusattorov 1½–½": who won, whom, and how."""
        won = self.short(decision.winner)
        lost = self.short(decision.loser) if decision.loser is not None else ""
        if decision.method is DecisionMethod.BYE or not lost:
            return f"{won}: bye"
        decider = match.rules.decider
        name = decider.name if decider is not None else "decider"
        if decision.method is DecisionMethod.ARMAGEDDON_WIN:
            return f"{won} beat {lost} in the {name}"
        if decision.method is DecisionMethod.ARMAGEDDON_DRAW:
            odds = decider.draw_odds_colour if decider is not None else None
            side = (odds or "black").capitalize()
            return f"{name} drawn: {won}, with {side}, beat {lost}"
        if decision.method is DecisionMethod.SUDDEN_DEATH_WIN:
            return f"{won} beat {lost} in {name.lower()}"
        if decision.method is DecisionMethod.LOT:
            return f"{won} beat {lost} on the drawing of lots"
        score = match_score(self.state.chess, match)
        if score is not None:
            # The winner's points first, beside the winner's name.
            points = score.leader_first().points_text()
            return f"{won} beat {lost} {points}"
        return f"{won} beat {lost}"

    # ------------------------------------------------------------------ bridge

    def scoreboard(self, extra: ExtraBoards) -> Scoreboard:
        per_set = len(extra.plan.stanzas)
        current = extra.current
        current_set = (current - 1) // per_set + 1
        decided = extra.winner is not None
        home, away = self.name(extra.home), self.name(extra.away)
        home_imps, away_imps = extra.set_imps(current)
        of_set = f", set {current_set}" if current_set > 1 else ""
        sets = []
        for set_number in range(1, current_set + 1):
            first = (set_number - 1) * per_set + 1
            last = min(set_number * per_set, current)
            stanzas = [
                self.scored_stanza(
                    extra, number, set_number, current=number == current and not decided
                )
                for number in range(first, last + 1)
            ]
            h, a = extra.set_imps(last)
            if set_number < current_set:
                text = f"Set {set_number}: {h}–{a}, still tied: played again"
            elif decided:
                text = f"Set {set_number}: {h}–{a}"
            else:
                text = f"Set {set_number}: {h}–{a} so far"
            sets.append(ScoreboardSet(
                set=set_number, current=set_number == current_set, total=(str(h), str(a)),
                text=text, stanzas=stanzas,
            ))
        in_set = (current - 1) % per_set + 1
        stanza_text = partner_change = winner = None
        if decided:
            assert extra.winner is not None
            winner = f"{self.name(extra.winner)} win the extra boards"
        else:
            stanza_text = f"Stanza {current}"
            if per_set > 1:
                stanza_text += f" ({in_set} of {per_set}{of_set})"
            if extra.plan.partner_changes[in_set - 1]:
                partner_change = "Partners change after this stanza"
                if in_set == per_set:  # the set's last: only if it has to be played again
                    partner_change += " if still tied"
        return Scoreboard(
            home=ScoreboardTeam(id=extra.home, name=home, won=extra.winner == extra.home),
            away=ScoreboardTeam(id=extra.away, name=away, won=extra.winner == extra.away),
            total=(str(home_imps), str(away_imps)),
            caption=f"IMPs{of_set}, running total",
            current_stanza=current,
            current_set=current_set,
            stanza_text=stanza_text,
            partner_change=partner_change,
            winner=winner,
            sets=sets,
            note=extra.plan.note,
        )

    def scored_stanza(
        self, extra: ExtraBoards, number: int, set_number: int, *, current: bool
    ) -> ScoreboardStanza:
        per_set = len(extra.plan.stanzas)
        boards = []
        for board in range(1, extra.stanzas[number - 1] + 1):
            scores = [extra.score_of(number, board, table) for table in (1, 2)]
            imps = extra.board_imps(number, board)
            state: Literal["to play", "playing", "scored"] = (
                "scored" if imps is not None
                else "playing" if any(s is not None for s in scores)
                else "to play"
            )
            shown = imps is not None
            boards.append(ScoreboardBoard(
                stanza=number,
                board=board,
                first_of_stanza=board == 1,
                state=state,
                table_1=_score(scores[0]) if shown else None,
                table_2=_score(scores[1]) if shown else None,
                home_imps=None if imps is None else str(imps) if imps >= 0 else "",
                away_imps=None if imps is None else str(-imps) if imps <= 0 else "",
            ))
        changed = number < extra.current and extra.plan.partner_changes[(number - 1) % per_set]
        return ScoreboardStanza(
            stanza=number,
            set=set_number,
            current=current,
            boards=boards,
            partners_note=f"partners changed after stanza {number}" if changed else None,
        )

    def stanzas(self, extra: ExtraBoards) -> list[StanzaScheduled]:
        """The stanzas of the set in play (the earlier sets are on the scoreboard), with
        when each is played."""
        per_set = len(extra.plan.stanzas)
        planned = [g for g in self.planned() if g.kind is UnitKind.STANZA]
        last = max((g.game for g in planned), default=0)
        first_of_set = (extra.current - 1) // per_set * per_set + 1
        listed = []
        for g in planned:
            if g.game < first_of_set:
                continue
            label = f"Stanza {g.game}" + (f" · {g.boards} boards" if g.boards else "")
            changes = extra.plan.partner_changes[(g.game - 1) % per_set] and g.game < last
            if g.status is UnitStatus.PLAYED:
                when = "played"
            elif g.status is UnitStatus.RUNNING:
                when = "playing"
            elif g.start - self.ctx.now < DUE_WITHIN:
                when = STANZA_DUE
            else:
                when = f"about {self.at(g.start)}" if self.estimated(g) else self.at(g.start)
            listed.append(StanzaScheduled(
                stanza=g.game,
                label=label,
                status=g.status.value,
                when=when,
                start_ms=self.ms(g.start),
                partners_note="then partners change" if changes else None,
            ))
        return listed

    # ------------------------------------------------------------------ the end

    def placings(self, winner: str) -> list[PlacingRow]:
        """The places that carry a prize or tour points, and every play-off player."""
        data = self.ctx.placings or {}
        players = data.get("players") or []
        in_playoff = set(self.state.names)
        currency = str(getattr(self.state, "currency", None) or data.get("currency") or "")
        rows = []
        for p in players:
            place = p.get("place")
            if place is None:
                continue
            money, points = p.get("money"), p.get("points")
            if not (money or points or p.get("id") in in_playoff):
                continue
            who = str(p["id"])
            name = str(p.get("name") or self.name(who))
            rows.append(PlacingRow(
                place=int(place),
                id=who,
                name=name,
                short=self.shorts.get(who) or _family(name),
                prize=_money(money, currency),
                points=_points(float(points)) if points is not None else "",
                champion=p.get("id") == winner,
                basis=str(p.get("basis_short") or ""),
            ))
        return sorted(rows, key=lambda r: r.place)


# --------------------------------------------------------------------------- words


def _short_names(names: dict[str, str]) -> dict[str, str]:
    """Each player's short name (see the rules); the full name where two would share one."""
    shorts = {who: _family(name) for who, name in names.items()}
    taken: dict[str, int] = {}
    for short in shorts.values():
        taken[short] = taken.get(short, 0) + 1
    return {
        who: short if taken[short] == 1 else names[who] for who, short in shorts.items()
    }


def _family(name: str) -> str:
    """ "Abdusattorov, Nodirbek" → "Abdusattorov"; "Praggnanandhaa R" → "Praggnanandhaa"."""
    if "," in name:
        family = name.split(",", 1)[0].strip()
        return family or name
    words = name.split()
    while len(words) > 1 and _INITIAL.match(words[-1]):
        words.pop()
    return " ".join(words) or name


def _ns(score: int) -> str:
    """A North-South score as the slip writes it: ``+620``, ``-50``, ``0``."""
    return f"{score:+d}" if score else "0"


def _points(value: float) -> str:
    """Game points as the hall writes them: 1, ½, 1½, 0; other fractions to 2 places."""
    whole = int(value)
    rest = value - whole
    if rest == 0:
        return str(whole)
    if rest == 0.5:
        return f"{whole}½" if whole else "½"
    return f"{value:.2f}".rstrip("0")


def _money(value: object, currency: str = "") -> str:
    """100,000 or 33,333.33, after the currency when there is one ("USD 100,000",
    "$100,000"); nothing when not known."""
    if value is None or value == "":
        return ""
    amount = float(str(value))
    figure = f"{amount:,.0f}" if amount.is_integer() else f"{amount:,.2f}"
    if not currency:
        return figure
    return f"{currency} {figure}" if currency.isalpha() else f"{currency}{figure}"


def _minutes(ms: int) -> str:
    """A clock's initial time: 6′, 1′30″."""
    seconds = round(ms / 1000)
    minutes, rest = divmod(seconds, 60)
    return f"{minutes}′{rest:02d}″" if rest else f"{minutes}′"


def _score(ns: int | None) -> str | None:
    """A bridge score as the slip shows it: +620, 0, -50."""
    if ns is None:
        return None
    return f"+{ns}" if ns > 0 else str(ns)


def _hall_reason(reason: str) -> str:
    """A break's reason as the hall reads it: what the break is and its rule. The
    schedule explains a longer wait after a semicolon, with the players and instants
    for the arbiters; the hall's countdown already says when play resumes."""
    first = reason.split("; ", 1)[0]
    return first[:1].upper() + first[1:]
