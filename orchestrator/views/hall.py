"""The hall display's view of a play-off: everything the hall shows, decided and
worded here, so that the page only renders it.

A hall display is read from ten metres by players, spectators and arbiters; it
holds no rules of its own. What it shows is chosen here, for the instant
``ctx.now``:

- **Mode.** ``scoreboard`` for bridge extra boards; ``champion`` once the final is
  decided; ``games`` while a game has a clock on the board (running, paused, or
  started but not yet running); ``idle`` between games, with the next game (or
  the break in force) in large type; ``waiting`` when no game is on and none can
  be planned (the schedule cannot be made, or nothing is left to place).
- **Next game.** The earliest game of the schedule that has not started, the
  first in schedule order among those starting at the same instant. It is *due*
  once its planned start has come (the planner never plans a game that has not
  started before ``now``, so a due game stays due at ``now`` until it starts).
- **Break in force.** A break of the schedule under way at ``now`` (its start has
  come, its end has not) and not overtaken by play: a break is over as soon as
  one of its players starts a game, even before its planned end (the arbiter
  may start early). When several are in force: the break after the main event
  first (GCT 2015 reg. 5: at least 30 minutes after the last main-event game of
  any play-off player), then the interval of the players of the next game
  (reg. 5: at least 5, if possible 10, minutes between games), then the one
  that ends first.
- **Idle headline.** Between games the large countdown runs to the next game's
  planned start, whatever break is in force: play resumes then, and a break can
  end before it (the organiser's earliest start is later, or the break in force
  is that of another match's players).
- **Armageddon banner.** The decider being played, else the next one to be played
  (a match level after two games): who has White and Black and their times, the
  increment and the draw odds (GCT 2015 reg. 10 b), or where the coin toss stands
  (reg. 10 c).
- **Marks and totals.** A game's points for each player come from the result
  (:attr:`~playoff_formats.model.Result.white_points`); a match's total counts
  the regular games (the decider decides, it scores nothing).

Instants are server milliseconds (``*_ms``), on the scale of ``ctx.server_ms`` and
of the clocks, so that a page counts down to them with the offset it measured.
``next_change_ms`` is the next instant at which this view would change with the
time alone: the hub recomputes the view then.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from orchestrator.state import PlayoffState
from orchestrator.views.context import ViewContext
from orchestrator.views.playoff import ClockView, armageddon_view, clock_view
from playoff_formats.clock import ClockStatus
from playoff_formats.extra_boards import ExtraBoards
from playoff_formats.playoff import (
    DecisionMethod,
    Game,
    GameKind,
    Match,
    MatchDecision,
    Playoff,
    champion,
)
from playoff_formats.schedule import (
    Break,
    BreakKind,
    Entrant,
    Plan,
    PlannedGame,
    UnitKind,
    UnitStatus,
)

__all__ = [
    "VIEW_MODEL",
    "ArmageddonBanner",
    "BracketMark",
    "BracketMatch",
    "BracketPlayer",
    "BracketRound",
    "BreakInForce",
    "HallView",
    "IdleHeadline",
    "LiveGame",
    "NextGame",
    "PlacingRow",
    "PlayerLabel",
    "Scoreboard",
    "ScoreboardBoard",
    "ScoreboardStanza",
    "ScoreboardTeam",
    "StanzaScheduled",
    "hall_view",
]

HallMode = Literal["waiting", "games", "idle", "champion", "scoreboard"]

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

_CITATION = re.compile(r"\s*\((?:reg\.|regs\.|GCT)[^)]*\)\s*$")


class _Shown(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class PlayerLabel(_Shown):
    """A player (or team) as the hall names them. ``id`` is None for a place still
    to be filled ("Winner of match 1") or a bye; ``seed`` for play-off players."""

    id: str | None
    name: str
    seed: int | None = None


class LiveGame(_Shown):
    """A game whose clock is on the board. ``clock`` is the key into ``clocks``."""

    clock: str = Field(description='"match:game", the key of its clock in the view\'s clocks')
    match: int
    game: int
    title: str = Field(description='"Final · Game 2", "Seeds 2 v 3 · Game 3"')
    tag: str | None = Field(description='"Armageddon": set apart after the title')
    armageddon: bool
    time_control: str | None = Field(
        description="The time control played (None for the Armageddon: the banner gives it)"
    )
    white: PlayerLabel
    black: PlayerLabel


class ArmageddonBanner(_Shown):
    """The decider being played (``on``), or the next one to be played (``next``)."""

    state: Literal["on", "next"]
    match: int
    game: int
    when: str = Field(description='"now playing · Final · game 3" or "next · Final · game 3"')
    white: PlayerLabel | None = Field(description="None until the toss winner has chosen")
    black: PlayerLabel | None
    white_time: str = Field(description="White's time in words: 6′")
    black_time: str
    times: str = Field(description="6′ v 5′")
    increment: str = Field(description="+3 s from move 61, or no increment")
    draw_rule: str = Field(description="draw = Black wins (GCT 2015 reg. 10 b)")
    colours: str | None = Field(
        description="Where the colours stand while unknown: the coin toss (reg. 10 c)"
    )


class NextGame(_Shown):
    """The next game (or stanza) to start, and when."""

    match: int
    game: int
    kind: Literal["regular", "armageddon", "stanza"]
    label: str = Field(description='"Final · Game 1", "Final · Game 3 · Armageddon (if needed)"')
    players: list[PlayerLabel] = Field(description="White then Black once colours are known")
    colours_known: bool
    vs: str = Field(description='"Praggnanandhaa R v Abdusattorov, Nodirbek"')
    tentative: bool = Field(description="Played only if the match is level after two games")
    due_ms: int = Field(description="Its planned start (server ms)")
    due: bool = Field(description="The planned start has come: it should be starting")
    due_text: str | None = Field(description='"starting now" once due')


class BreakInForce(_Shown):
    """The break or interval under way (see the module's rules for which)."""

    kind: Literal["main-event", "interval"]
    label: str = Field(description='"Break after the main event" or "Interval"')
    reason: str = Field(description="What the break is, with the rule cited")
    who: str = Field(description="Who rests, in words")
    start_ms: int
    end_ms: int


class IdleHeadline(_Shown):
    """What the stage shows in large type between games."""

    label: str = Field(description='"Break after the main event", "Interval" or "Next game"')
    what: str = Field(description="The next game and its players (one line each)")
    until_ms: int | None = Field(description="The countdown's target (server ms)")
    due_text: str | None = Field(description='"starting now" once the target has come')
    note: str = Field(description="The break's reason, or nothing")


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
    outcome: Literal["advances", "out"] | None


class BracketMatch(_Shown):
    id: int
    status: Literal["locked", "waiting", "ready", "running", "completed"]
    bye: bool
    players: list[BracketPlayer]
    decision: str | None = Field(description='"Abdusattorov, Nodirbek advances 2–0"')


class BracketRound(_Shown):
    stage: int
    number: int
    name: str
    matches: list[BracketMatch]


class ScoreboardTeam(_Shown):
    id: str
    name: str
    won: bool


class ScoreboardBoard(_Shown):
    """One extra board: each table's NS score as written ("+620", "0", "-50"; None
    while not scored) and the IMPs won by each team (empty when none)."""

    stanza: int
    board: int
    first_of_stanza: bool
    table_1: str | None
    table_2: str | None
    home_imps: str
    away_imps: str


class ScoreboardStanza(_Shown):
    stanza: int
    set: int
    current: bool
    boards: list[ScoreboardBoard]
    partners_note: str | None = Field(
        description='"partners changed after stanza 1" once play went on after it'
    )


class Scoreboard(_Shown):
    """Bridge extra boards (EBU 143.2.1): the current set's boards and its total."""

    home: ScoreboardTeam
    away: ScoreboardTeam
    total: tuple[str, str] = Field(description="IMPs of the current set, home and away")
    caption: str
    current_stanza: int
    stanza_text: str | None = Field(description='"Stanza 2 (2 of 3)" while play goes on')
    partner_change: str | None = Field(description="Partners change after this stanza")
    winner: str | None = Field(description='"North London win the extra boards"')
    stanzas: list[ScoreboardStanza]
    note: str


class StanzaScheduled(_Shown):
    """A stanza in the schedule: played, being played, or when it starts."""

    stanza: int
    label: str = Field(description='"Stanza 3 · 2 boards"')
    status: Literal["planned", "running", "played"]
    when: str | None = Field(description='"played", "playing", or None: show start_ms')
    start_ms: int
    partners_note: str | None = Field(description='"then partners change"')


class PlacingRow(_Shown):
    """A line of the final placings (GCT 2015 reg. 1: prizes; tour points)."""

    place: int
    id: str
    name: str
    prize: str
    points: str
    champion: bool


class HallView(_Shown):
    """What a hall display shows of one play-off, as of ``server_ms``."""

    # "break" is the hall's word, and a Python keyword: the field has another name.
    model_config = ConfigDict(
        frozen=True, extra="forbid", validate_by_name=True, serialize_by_alias=True
    )

    view: Literal["hall"] = "hall"
    seq: int = Field(description="The play-off's seq this view is of")
    server_ms: int = Field(description="When it was computed (server ms)")
    kind: Literal["knock-out", "extra-boards"]
    title: str
    subtitle: str
    mode: HallMode
    live: list[LiveGame] = Field(description="The games on the board, by match and game")
    armageddon: ArmageddonBanner | None
    next: NextGame | None
    in_force: BreakInForce | None = Field(alias="break")
    idle: IdleHeadline | None = Field(description="The stage between games (mode idle)")
    schedule_note: str | None = Field(
        description="Said instead of a next game: over, nothing planned, or why not"
    )
    bracket: list[BracketRound] = Field(description="Rounds in the order they are played")
    scoreboard: Scoreboard | None
    stanzas: list[StanzaScheduled]
    champion: PlayerLabel | None
    placings: list[PlacingRow] = Field(description="Once there is a champion, by place")
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
        # The schedule names a place still to fill by its entrant's label.
        self.names = dict(state.names)
        for match in state.playoff.matches if state.playoff is not None else ():
            self.names[Entrant(winner_of=match.id).label] = f"Winner of match {match.id}"

    def ms(self, moment: datetime) -> int:
        """An instant of the schedule on the server-ms scale of the clocks."""
        return self.ctx.server_ms + round((moment - self.ctx.now).total_seconds() * 1000)

    # ------------------------------------------------------------------ the whole

    def view(self) -> HallView:
        state = self.state
        next_game = self.next_game()
        in_force = self.break_in_force(next_game)
        at_ms = self.ctx.server_ms
        clocks = {
            f"{key[0]}:{key[1]}": ClockView.model_validate(clock_view(key, clock, at_ms))
            for key, clock in sorted(state.clocks.items())
        }
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
        else:
            playoff = state.chess
            kind = "knock-out"
            title = playoff.name
            subtitle = " · ".join(s.name for s in sorted(playoff.stages, key=lambda s: s.id))
            live = self.live_games(playoff)
            winner = champion(playoff)
            over = winner is not None
            banner = None if over else self.armageddon(playoff)
            bracket = self.bracket(playoff)
            scoreboard = None
            stanzas = []
            champion_label = self.player(winner) if winner is not None else None
            placings = self.placings(winner) if winner is not None else []
            if over:
                mode = "champion"
            elif live:
                mode = "games"
            elif next_game is not None:
                mode = "idle"
            else:
                mode = "waiting"
        if over:
            next_game, in_force = None, None
        return HallView(
            seq=state.seq,
            server_ms=self.ctx.server_ms,
            kind=kind,
            title=title,
            subtitle=subtitle,
            mode=mode,
            live=live,
            armageddon=banner,
            next=next_game,
            in_force=in_force,
            idle=self.idle(next_game, in_force) if mode == "idle" else None,
            schedule_note=self.schedule_note(next_game, over),
            bracket=bracket,
            scoreboard=scoreboard,
            stanzas=stanzas,
            champion=champion_label,
            placings=placings,
            clock_status_text=CLOCK_STATUS_TEXT,
            clocks=clocks,
            next_change_ms=None if over else self.next_change_ms(),
        )

    # ------------------------------------------------------------------ names

    def name(self, who: str) -> str:
        """The name of a player or team, "Winner of match 3" for a place to fill."""
        return self.names.get(who, who)

    def player(self, who: str | None) -> PlayerLabel:
        if who is None:
            return PlayerLabel(id=None, name="")
        seed = None
        known = who in self.state.names
        if self.state.playoff is not None and known:
            try:
                seed = self.state.playoff.seed_of(who)
            except KeyError:
                seed = None
        return PlayerLabel(id=who if known else None, name=self.name(who), seed=seed)

    def round_name(self, playoff: Playoff, match: Match) -> str:
        """The round's name as the hall says it: "Final", "Seeds 2 v 3" (no citation)."""
        for r in playoff.rounds:
            if (r.stage, r.number) == (match.stage, match.round):
                return _CITATION.sub("", r.name)
        return f"Round {match.round}"

    def game_title(self, playoff: Playoff, match_id: int, number: int) -> str:
        """ "Final · Game 2": the round and the game."""
        return f"{self.round_name(playoff, playoff.match(match_id))} · Game {number}"

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
            armageddon = game.kind is GameKind.ARMAGEDDON
            control = None if armageddon else self.state.time_control(match, game)
            games.append(LiveGame(
                clock=f"{key[0]}:{key[1]}",
                match=key[0],
                game=key[1],
                title=self.game_title(playoff, key[0], key[1]),
                tag="Armageddon" if armageddon else None,
                armageddon=armageddon,
                time_control=str(control) if control is not None else None,
                white=self.player(game.white),
                black=self.player(game.black),
            ))
        return games

    def armageddon(self, playoff: Playoff) -> ArmageddonBanner | None:
        """The decider being played, else the first still to be played."""
        waiting: tuple[Match, Game] | None = None
        for match in playoff.matches:
            if match.decision is not None:
                continue
            for game in playoff.games_of(match.id):
                if game.kind is not GameKind.ARMAGEDDON or game.result is not None:
                    continue
                if (match.id, game.number) in self.state.started_at:
                    return self.banner(playoff, match, game, on=True)
                if waiting is None:
                    waiting = (match, game)
        return self.banner(playoff, *waiting, on=False) if waiting is not None else None

    def banner(self, playoff: Playoff, match: Match, game: Game, *, on: bool) -> ArmageddonBanner:
        terms = armageddon_view(self.state, match.id)
        assert terms is not None  # the game exists and the match has a decider
        white_time, black_time = _minutes(terms["white_ms"]), _minutes(terms["black_ms"])
        known = game.white is not None and game.black is not None
        colours = None
        if not known:
            tosses = self.state.draws_of("coin-toss", match.id)
            won_by = tosses[-1].winner if tosses else None
            colours = (
                f"Coin toss won by {self.name(won_by)}: chooses the colours"
                if won_by is not None
                else "Colours by coin toss; the winner chooses"
            )
        when = "now playing" if on else "next"
        return ArmageddonBanner(
            state="on" if on else "next",
            match=match.id,
            game=game.number,
            when=f"{when} · {self.round_name(playoff, match)} · game {game.number}",
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

    def next_game(self) -> NextGame | None:
        """The earliest game of the schedule not started yet (schedule order on a tie)."""
        waiting = [
            (g.start, n, g) for n, g in enumerate(self.planned()) if g.status is UnitStatus.PLANNED
        ]
        if not waiting:
            return None
        planned = min(waiting, key=lambda item: (item[0], item[1]))[2]
        due = planned.start <= self.ctx.now
        if planned.kind is UnitKind.STANZA:
            label = f"Stanza {planned.game}"
            if planned.boards:
                label += f" · {planned.boards} boards"
            players = [self.player(p) for p in planned.players]
            colours_known = False
        else:
            playoff = self.state.chess
            label = self.game_title(playoff, planned.match, planned.game)
            if planned.kind is UnitKind.ARMAGEDDON:
                label += " · Armageddon"
            if planned.tentative:
                label += " (if needed)"
            game = playoff.game(planned.match, planned.game)
            colours_known = game is not None and game.white is not None and game.black is not None
            if game is not None and colours_known:
                players = [self.player(game.white), self.player(game.black)]
            else:
                players = [self.player(p) for p in planned.players]
        return NextGame(
            match=planned.match,
            game=planned.game,
            kind=planned.kind.value,
            label=label,
            players=players,
            colours_known=colours_known,
            vs=" v ".join(p.name for p in players),
            tentative=planned.tentative,
            due_ms=self.ms(planned.start),
            due=due,
            due_text="starting now" if due else None,
        )

    def break_in_force(self, next_game: NextGame | None) -> BreakInForce | None:
        if self.plan is None:
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
            kind=chosen.kind.value,
            label="Break after the main event" if main else "Interval",
            reason=_hall_reason(chosen.reason),
            who=_and(self.name(w) for w in chosen.who),
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

    def idle(self, next_game: NextGame | None, in_force: BreakInForce | None) -> IdleHeadline:
        label = in_force.label if in_force is not None else "Next game"
        what, until, due_text = "", in_force.end_ms if in_force is not None else None, None
        if next_game is not None:
            what = f"{next_game.label}\n{next_game.vs}"
            until, due_text = next_game.due_ms, next_game.due_text
        return IdleHeadline(
            label=label, what=what, until_ms=until, due_text=due_text,
            note=in_force.reason if in_force is not None else "",
        )

    def schedule_note(self, next_game: NextGame | None, over: bool) -> str | None:
        if over:
            return "The play-off is over."
        if next_game is not None:
            return None
        if self.plan is None:
            return f"No schedule: {self.ctx.plan_error or 'it cannot be planned'}."
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
        shown = []
        for r in rounds:
            matches = sorted(
                (m for m in playoff.matches if (m.stage, m.round) == (r.stage, r.number)),
                key=lambda m: (m.number, m.id),
            )
            if matches:
                shown.append(BracketRound(
                    stage=r.stage, number=r.number, name=_CITATION.sub("", r.name),
                    matches=[self.bracket_match(playoff, m) for m in matches],
                ))
        return shown

    def bracket_match(self, playoff: Playoff, match: Match) -> BracketMatch:
        games = playoff.games_of(match.id)
        rows = []
        for slot in match.slots:
            if slot is None:
                rows.append(BracketPlayer(
                    player=PlayerLabel(id=None, name="bye"), known=False, bye=True,
                    marks=[], total="", outcome=None,
                ))
                continue
            who = slot.player
            if who is None:
                label = PlayerLabel(id=None, name=f"Winner of match {slot.winner_of}")
                rows.append(BracketPlayer(
                    player=label, known=False, bye=False, marks=[], total="", outcome=None
                ))
                continue
            rows.append(self.bracket_player(match, games, who))
        return BracketMatch(
            id=match.id,
            status=match.status.value,
            bye=match.bye,
            players=rows,
            decision=self.decision_text(match.decision) if match.decision is not None else None,
        )

    def bracket_player(self, match: Match, games: Sequence[Game], who: str) -> BracketPlayer:
        marks = []
        total = 0.0
        counted = False
        for game in games:
            armageddon = game.kind is GameKind.ARMAGEDDON
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
        outcome: Literal["advances", "out"] | None = None
        if match.decision is not None:
            outcome = "advances" if match.decision.winner == who else "out"
        return BracketPlayer(
            player=self.player(who), known=True, bye=False, marks=marks,
            total=_points(total) if counted else "", outcome=outcome,
        )

    def decision_text(self, decision: MatchDecision) -> str:
        who = self.name(decision.winner)
        if decision.method is DecisionMethod.BYE:
            return f"{who}: bye"
        if decision.method is DecisionMethod.ARMAGEDDON_WIN:
            return f"{who} advances: won the Armageddon"
        if decision.method is DecisionMethod.ARMAGEDDON_DRAW:
            return f"{who} advances: Armageddon drawn, Black wins"
        if decision.score is not None:
            return f"{who} advances {_points(decision.score[0])}–{_points(decision.score[1])}"
        return f"{who} advances"

    # ------------------------------------------------------------------ bridge

    def scoreboard(self, extra: ExtraBoards) -> Scoreboard:
        per_set = len(extra.plan.stanzas)
        current = extra.current
        current_set = (current - 1) // per_set + 1
        decided = extra.winner is not None
        home_imps, away_imps = extra.set_imps(current)
        of_set = f", set {current_set}" if current_set > 1 else ""
        stanzas = []
        for number, size in enumerate(extra.stanzas, start=1):
            stanza_set = (number - 1) // per_set + 1
            if stanza_set != current_set:
                continue
            boards = []
            for board in range(1, size + 1):
                imps = extra.board_imps(number, board)
                boards.append(ScoreboardBoard(
                    stanza=number,
                    board=board,
                    first_of_stanza=board == 1,
                    table_1=_score(extra.score_of(number, board, 1)),
                    table_2=_score(extra.score_of(number, board, 2)),
                    home_imps=str(imps) if imps is not None and imps > 0 else "",
                    away_imps=str(-imps) if imps is not None and imps < 0 else "",
                ))
            changed = number < current and extra.plan.partner_changes[(number - 1) % per_set]
            stanzas.append(ScoreboardStanza(
                stanza=number,
                set=stanza_set,
                current=number == current and not decided,
                boards=boards,
                partners_note=f"partners changed after stanza {number}" if changed else None,
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
            home=ScoreboardTeam(
                id=extra.home, name=self.name(extra.home), won=extra.winner == extra.home
            ),
            away=ScoreboardTeam(
                id=extra.away, name=self.name(extra.away), won=extra.winner == extra.away
            ),
            total=(str(home_imps), str(away_imps)),
            caption=f"IMPs{of_set}, running total",
            current_stanza=current,
            stanza_text=stanza_text,
            partner_change=partner_change,
            winner=winner,
            stanzas=stanzas,
            note=extra.plan.note,
        )

    def stanzas(self, extra: ExtraBoards) -> list[StanzaScheduled]:
        """Every stanza the schedule holds, with when it is played."""
        per_set = len(extra.plan.stanzas)
        planned = [g for g in self.planned() if g.kind is UnitKind.STANZA]
        last = max((g.game for g in planned), default=0)
        listed = []
        for g in planned:
            label = f"Stanza {g.game}" + (f" · {g.boards} boards" if g.boards else "")
            changes = extra.plan.partner_changes[(g.game - 1) % per_set] and g.game < last
            listed.append(StanzaScheduled(
                stanza=g.game,
                label=label,
                status=g.status.value,
                when={UnitStatus.PLAYED: "played", UnitStatus.RUNNING: "playing"}.get(g.status),
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
        rows = []
        for p in players:
            place = p.get("place")
            if place is None:
                continue
            money, points = p.get("money"), p.get("points")
            if not (money or points or p.get("id") in in_playoff):
                continue
            rows.append(PlacingRow(
                place=int(place),
                id=str(p["id"]),
                name=str(p.get("name") or self.name(str(p["id"]))),
                prize=_money(money),
                points=_points(float(points)) if points is not None else "",
                champion=p.get("id") == winner,
            ))
        return sorted(rows, key=lambda r: r.place)


# --------------------------------------------------------------------------- words


def _points(value: float) -> str:
    """Game points as the hall writes them: 1, ½, 1½, 0; other fractions to 2 places."""
    whole = int(value)
    rest = value - whole
    if rest == 0:
        return str(whole)
    if rest == 0.5:
        return f"{whole}½" if whole else "½"
    return f"{value:.2f}".rstrip("0")


def _money(value: object) -> str:
    """100,000 or 33,333.33; nothing when not known."""
    if value is None or value == "":
        return ""
    amount = float(str(value))
    return f"{amount:,.0f}" if amount.is_integer() else f"{amount:,.2f}"


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


def _and(names: Iterable[str]) -> str:
    listed = list(names)
    if len(listed) <= 1:
        return "".join(listed)
    return ", ".join(listed[:-1]) + " and " + listed[-1]


def _hall_reason(reason: str) -> str:
    """A break's reason as the hall reads it: what the break is and its rule. The
    schedule explains a longer wait after a semicolon, with player ids and instants
    for the arbiters; the hall's countdown already says when play resumes."""
    first = reason.split("; ", 1)[0]
    return first[:1].upper() + first[1:]


