"""The pure schedule planner: every game and stanza of a play-off placed in time.

No wall clock and no I/O: every instant is an argument (timezone-aware), so the
same inputs always give the same plan. ``scheduler.py`` wires plans to jobs.

Inputs
------
- :class:`Constraints`: the main-event end of each play-off player, the break
  after the main event (GCT 2015 reg. 5: "at least 30 minutes after the
  conclusion of the last game in the main tournament involving any player in
  the play-off"), the minimum and preferred intervals between a player's games
  (reg. 5: "not less than 5 minutes and if possible at least 10 minutes"), the
  organiser's earliest start and deadline, and the estimates of game and board
  length.
- :class:`Actuals`: what happened and what the arbiter decided: actual starts
  and ends, pinned starts, shortened time controls, postponements.
- What to place: a :class:`~playoff_formats.playoff.Playoff` (:func:`plan_playoff`)
  or bridge stanzas (:func:`plan_stanzas`). Both become :class:`Unit` values (a
  unit of play: id, entrants, duration, dependencies), and one engine places
  units (:func:`plan_units`).

Policies
--------
- **Start of the play-off.** No unit starts before ``T0``: the latest main-event
  end among the *play-off* players (others' games do not matter) plus the
  break, and not before ``not_before``. A player whose main-event end is unknown
  is covered by ``not_before`` (with a warning); without ``not_before`` the plan
  is refused (:class:`PlanError`): the mandatory break could not be checked.
- **Rounds.** Matches of a round run in parallel; a match's games are
  consecutive. As in ``playoff.py`` ("matches of a later round wait until every
  match of the earlier rounds is completed"), a match of a later round starts
  when every match of the earlier rounds has ended *and* each of its players has
  had the interval after their previous game. So the matches of a round start
  together in the plan, and each may start as soon as it is allowed after a
  re-flow (a round is not forced to start in lock-step).
- **Armageddon.** A decider that is not yet known to be needed is planned
  *tentatively* (``tentative=True``) right after game 2, and everything later is
  planned pessimistically, as if it were played: the finish and the deadline
  check are then never optimistic. When a match is decided in two games its
  decider disappears from the plan and everything after moves earlier.
- **Intervals.** Each unit whose players have played before gets a chosen
  interval: the preferred one (10 minutes) when the plan still meets the
  deadline with it (or there is no deadline); else the plan with the minimum
  (5 minutes) everywhere is tried: when that misses the deadline too, every
  interval is 5 minutes (the smallest overrun) and a shortened time control is
  proposed; when it fits, intervals are raised back to 10 minutes one at a time
  in order of play (earliest first), each kept if the deadline still holds: "10
  minutes wherever the deadline allows". Each planned unit says which interval
  it uses and why (``interval``, and the reasons of ``breaks``). Never below the
  minimum, except as actually played.
- **Re-flow.** A game with an actual start is fixed there; with an actual end it
  ends there, and everything after moves (earlier or later). A running game
  without an end is expected at start + estimate; when ``now`` is given and
  that is already past, at ``now + running_late_margin``. With ``now``, nothing
  that has not started is planned before ``now``.
- **Arbiter's decisions.** A pinned start is honoured (``fixed=True``) unless it
  is earlier than a hard bound (the break after the main event, the minimum
  interval, the previous game of the match, the earlier rounds, the organiser's
  earliest start, a postponement, ``now``): then a warning is reported and the
  unit is placed at the earliest legal time. A postponement is a "not before"
  for one game, one match or everything not started. A shortened time control
  applies to the games of the named matches (or all), regular games or the
  deciders, except games that started before it was made.
- **Game length.** ``TimeControl.estimated_duration_ms(moves_estimate)``: both
  sides use all their time over ``moves_estimate`` moves. A stanza lasts
  ``boards x minutes_per_board``.
- **Proposal.** When the plan misses the deadline, the candidates (G/20+5,
  G/15+5, G/10+5, G/5+3, G/3+2 by default) are tried longest first; each is
  tried on the last round that has not begun, then the last two, and so on, and
  only where it is shorter than the time control it replaces. The first that
  meets the deadline (with 5-minute intervals, the plan then raising them to 10
  where it can) is proposed: the longest time limit that fits, changing the
  fewest and latest rounds. Rounds in which a match has begun, and deciders, are
  never changed (reg. 10 fixes the decider). When nothing fits, the proposal
  says so. Bridge stanzas have no time control: the proposal says so too.
- **Results without times.** A game with a result in the play-off but no actual
  times keeps its estimated times (status ``played``, not fixed) and a warning
  says so.
- **Citations.** ``Constraints.rule`` (default ``"reg. 5"``) is cited in the
  reasons; set it to ``""`` (or another rule) for bridge.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any, Self

from pydantic import AwareDatetime, Field, field_validator, model_validator

from playoff_formats.builders.stanzas import StanzaPlan
from playoff_formats.errors import PlayoffError
from playoff_formats.model import Frozen
from playoff_formats.playoff import (
    ARMAGEDDON_NUMBER,
    REGULAR_GAMES,
    GameKind,
    Match,
    Playoff,
    Slot,
)
from playoff_formats.timecontrol import TimeControl

__all__ = [
    "SHORTER_TIME_CONTROLS",
    "Actuals",
    "Break",
    "BreakKind",
    "Constraints",
    "Entrant",
    "GameActual",
    "PinnedStart",
    "Plan",
    "PlanError",
    "PlannedGame",
    "Postponement",
    "Proposal",
    "StanzaToPlace",
    "TimeControlChange",
    "Unit",
    "UnitKind",
    "UnitStatus",
    "plan_playoff",
    "plan_stanzas",
    "plan_units",
    "playoff_units",
    "stanza_units",
    "stanzas_from_plan",
]

UnitId = tuple[int, int]
"""(match id, game or stanza number)."""

SHORTER_TIME_CONTROLS: tuple[TimeControl, ...] = tuple(
    TimeControl.parse(text) for text in ("G/20+5", "G/15+5", "G/10+5", "G/5+3", "G/3+2")
)
"""Candidates for a shortened time control (reg. 5), longest first."""


class PlanError(PlayoffError):
    """Inputs that cannot be planned (HTTP 422): the reason says what to fix."""


# --- inputs ---------------------------------------------------------------------


class Constraints(Frozen):
    """What the regulations and the organiser impose on the schedule."""

    main_event_ended: dict[str, AwareDatetime] = Field(
        default_factory=dict,
        description="Per player (or team) id: the end of their last main-event game",
    )
    break_after_main_event: timedelta = Field(default=timedelta(minutes=30))
    min_interval: timedelta = Field(default=timedelta(minutes=5))
    preferred_interval: timedelta = Field(default=timedelta(minutes=10))
    not_before: AwareDatetime | None = None
    deadline: AwareDatetime | None = None
    moves_estimate: int = Field(default=60, ge=1)
    minutes_per_board: float = Field(default=7.5, gt=0)
    running_late_margin: timedelta = Field(
        default=timedelta(minutes=5),
        description="A running game past its estimate is expected this long after now",
    )
    rule: str = Field(default="reg. 5", description="Cited for the break and the intervals")

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        zero = timedelta(0)
        if self.break_after_main_event < zero or self.running_late_margin < zero:
            raise ValueError("breaks and margins cannot be negative")
        if self.min_interval < zero:
            raise ValueError("the minimum interval cannot be negative")
        if self.preferred_interval < self.min_interval:
            raise ValueError("the preferred interval cannot be shorter than the minimum")
        return self


class GameActual(Frozen):
    """When a game (or stanza) actually started, and ended if it has."""

    match: int = Field(ge=1)
    game: int = Field(ge=1)
    started_at: AwareDatetime
    ended_at: AwareDatetime | None = None

    @model_validator(mode="after")
    def _ordered(self) -> Self:
        if self.ended_at is not None and self.ended_at < self.started_at:
            raise ValueError("a game cannot end before it starts")
        return self


class PinnedStart(Frozen):
    """The chief arbiter moved the start of a game to ``start``."""

    match: int = Field(ge=1)
    game: int = Field(ge=1)
    start: AwareDatetime
    reason: str = ""


class TimeControlChange(Frozen):
    """A shortened time control (reg. 5).

    Applies to the games of ``matches`` (empty: every match), the regular games,
    or the deciders when ``decider`` is true; games that started before
    ``made_at`` keep their time control. Later changes override earlier ones.
    """

    time_control: TimeControl
    matches: tuple[int, ...] = ()
    decider: bool = False
    made_at: AwareDatetime | None = None
    reason: str = ""

    @field_validator("time_control", mode="before")
    @classmethod
    def _parse(cls, value: Any) -> Any:
        return TimeControl.parse(value) if isinstance(value, str) else value


class Postponement(Frozen):
    """Not before ``not_before``: one game, every game of a match (``game`` None),
    or everything not yet started (``match`` None)."""

    not_before: AwareDatetime
    match: int | None = Field(default=None, ge=1)
    game: int | None = Field(default=None, ge=1)
    reason: str = ""

    @model_validator(mode="after")
    def _game_needs_match(self) -> Self:
        if self.game is not None and self.match is None:
            raise ValueError("a postponed game needs its match")
        return self


class Actuals(Frozen):
    """What happened so far, and the arbiter's decisions about the schedule."""

    games: tuple[GameActual, ...] = ()
    pins: tuple[PinnedStart, ...] = ()
    time_controls: tuple[TimeControlChange, ...] = ()
    postponements: tuple[Postponement, ...] = ()

    @model_validator(mode="after")
    def _unique(self) -> Self:
        for what, ids in (
            ("actual times", [(a.match, a.game) for a in self.games]),
            ("pinned starts", [(p.match, p.game) for p in self.pins]),
        ):
            if len(set(ids)) != len(ids):
                raise ValueError(f"a game has two {what}")
        return self


class StanzaToPlace(Frozen):
    """A stanza of extra boards (bridge) to place."""

    match: int = Field(ge=1)
    stanza: int = Field(ge=1)
    boards: int = Field(ge=1)
    teams: tuple[str, str]
    round: int = Field(default=1, ge=1)
    tentative: bool = False


# --- units of play ----------------------------------------------------------------


class UnitKind(StrEnum):
    REGULAR = "regular"
    ARMAGEDDON = "armageddon"
    STANZA = "stanza"


class UnitStatus(StrEnum):
    PLAYED = "played"
    RUNNING = "running"
    PLANNED = "planned"


class Entrant(Frozen):
    """A side of a unit: a known player (or team), or the winner of a match."""

    player: str | None = None
    winner_of: int | None = None

    @model_validator(mode="after")
    def _one(self) -> Self:
        if (self.player is None) == (self.winner_of is None):
            raise ValueError("an entrant is a player or the winner of a match")
        return self

    @property
    def label(self) -> str:
        return self.player if self.player is not None else f"winner of match {self.winner_of}"

    @property
    def key(self) -> str:
        return f"player:{self.player}" if self.player is not None else _winner_key(self.winner_of)


class Unit(Frozen):
    """A unit of play: a game or a stanza, what it needs, and how long it lasts.

    ``after`` lists the units that must have ended before it starts (the
    previous game of the match, or every match of the earlier rounds);
    ``after_note`` says why. The interval applies per entrant, after the
    entrant's previous unit.
    """

    match: int = Field(ge=1)
    number: int = Field(ge=1)
    kind: UnitKind
    round: int = Field(ge=1, description="Position of the round in play order")
    round_name: str = ""
    entrants: tuple[Entrant, Entrant]
    duration: timedelta
    duration_note: str = ""
    time_control: TimeControl | None = None
    boards: int | None = None
    tentative: bool = False
    has_result: bool = False
    after: tuple[UnitId, ...] = ()
    after_note: str = ""

    @property
    def id(self) -> UnitId:
        return (self.match, self.number)

    @property
    def describe(self) -> str:
        what = "stanza" if self.kind is UnitKind.STANZA else "game"
        return f"{what} {self.number} of match {self.match}"


# --- outputs ----------------------------------------------------------------------


class PlannedGame(Frozen):
    """A game or stanza in time. ``fixed``: an actual start, or pinned by the arbiter."""

    match: int
    game: int
    kind: UnitKind
    round: int
    round_name: str = ""
    players: tuple[str, str]
    start: datetime
    end: datetime
    fixed: bool
    tentative: bool = False
    status: UnitStatus
    time_control: str | None = None
    boards: int | None = None
    duration: timedelta
    interval: timedelta | None = Field(
        default=None, description="The interval chosen before it (None: first game, or fixed)"
    )
    reason: str


class BreakKind(StrEnum):
    MAIN_EVENT = "main-event"
    INTERVAL = "interval"


class Break(Frozen):
    """Who rests, from when to when, and why. ``required`` is the rest that applied."""

    who: tuple[str, ...]
    start: datetime
    end: datetime
    kind: BreakKind
    required: timedelta | None = None
    reason: str


class Proposal(Frozen):
    """A shortened time control that meets the deadline, or why there is none."""

    found: bool
    time_control: str | None = None
    rounds: tuple[int, ...] = ()
    matches: tuple[int, ...] = ()
    finish: datetime | None = None
    change: TimeControlChange | None = None
    text: str


class Plan(Frozen):
    """Every unit in time, the breaks, and how the plan stands against the deadline."""

    games: tuple[PlannedGame, ...]
    breaks: tuple[Break, ...]
    break_over: datetime | None = Field(
        default=None,
        description="End of the mandatory break after the main event (None: no end known)",
    )
    earliest_start: datetime = Field(
        description="When the play-off may begin: the break over and not before not_before"
    )
    start: datetime
    finish: datetime
    deadline: datetime | None = None
    fits: bool | None = None
    overrun: timedelta = timedelta(0)
    proposal: Proposal | None = None
    warnings: tuple[str, ...] = ()

    def game(self, match: int, number: int) -> PlannedGame:
        for g in self.games:
            if g.match == match and g.game == number:
                return g
        raise KeyError((match, number))


# --- building units ------------------------------------------------------------------


def playoff_units(
    playoff: Playoff, constraints: Constraints, actuals: Actuals | None = None
) -> tuple[Unit, ...]:
    """The units of a play-off, in play order, with their estimated durations.

    A match with unknown participants gets games 1 and 2 and a tentative decider
    with "winner of match N" entrants; a match with known participants gets its
    games, and a tentative decider while it is not decided (unless the decider
    already exists or has actual times). Byes have no units.
    """
    actuals = actuals or Actuals()
    playable = {m.id for m in playoff.matches if not m.bye}
    for change in actuals.time_controls:
        unknown = [m for m in change.matches if m not in playable]
        if unknown:
            raise PlanError(
                f"a time control change names match {unknown[0]}, which is not a played match "
                "of this play-off"
            )
    started = {(a.match, a.game): a.started_at for a in actuals.games}
    stage_rank = {s.id: i for i, s in enumerate(sorted(playoff.stages, key=lambda s: s.id))}
    order = sorted(playoff.matches, key=lambda m: (stage_rank[m.stage], m.round, m.number, m.id))
    round_keys = sorted({(stage_rank[m.stage], m.round) for m in order})
    round_index = {key: i for i, key in enumerate(round_keys, 1)}
    names = {(stage_rank[r.stage], r.number): r.name for r in playoff.rounds}

    units: list[Unit] = []
    last_of_round: dict[int, list[UnitId]] = {}
    for match in order:
        if match.bye:
            continue
        key = (stage_rank[match.stage], match.round)
        r = round_index[key]
        entrants = (_slot_entrant(match.slots[0]), _slot_entrant(match.slots[1]))
        earlier = tuple(uid for rr in sorted(last_of_round) if rr < r for uid in last_of_round[rr])
        games: list[tuple[int, GameKind, bool, bool]] = []
        if None not in match.players:
            for g in playoff.games_of(match.id):
                games.append((g.number, g.kind, False, g.result is not None))
        else:
            games = [(n, GameKind.REGULAR, False, False) for n in range(1, REGULAR_GAMES + 1)]
        numbers = {n for n, _, _, _ in games}
        if (
            match.decision is None
            and match.decider is not None
            and ARMAGEDDON_NUMBER not in numbers
        ):
            tentative = (match.id, ARMAGEDDON_NUMBER) not in started
            games.append((ARMAGEDDON_NUMBER, GameKind.ARMAGEDDON, tentative, False))
        previous: UnitId | None = None
        for number, kind, tentative, has_result in sorted(games):
            tc = _time_control(match, number, kind, actuals.time_controls, started)
            ms = tc.estimated_duration_ms(constraints.moves_estimate)
            duration = timedelta(milliseconds=ms)
            if previous is None:
                after, note = (
                    earlier,
                    (
                        "the end of every match of the earlier rounds (a round begins when the "
                        "earlier rounds are completed)"
                        if earlier
                        else ""
                    ),
                )
            else:
                after, note = (previous,), f"the end of game {previous[1]} of match {match.id}"
            units.append(
                Unit(
                    match=match.id,
                    number=number,
                    kind=UnitKind.ARMAGEDDON if kind is GameKind.ARMAGEDDON else UnitKind.REGULAR,
                    round=r,
                    round_name=names.get(key, ""),
                    entrants=entrants,
                    duration=duration,
                    duration_note=(f"{tc}, {constraints.moves_estimate} moves: {_span(duration)}"),
                    time_control=tc,
                    tentative=tentative,
                    has_result=has_result,
                    after=after,
                    after_note=note,
                )
            )
            previous = (match.id, number)
        if previous is not None:
            last_of_round.setdefault(r, []).append(previous)
    return tuple(units)


def stanza_units(stanzas: Sequence[StanzaToPlace], constraints: Constraints) -> tuple[Unit, ...]:
    """The units of bridge stanzas: ``boards x minutes_per_board`` each, the
    stanzas of a match one after the other, rounds in ascending order."""
    if not stanzas:
        raise PlanError("there is no stanza to place")
    ids = [(s.match, s.stanza) for s in stanzas]
    if len(set(ids)) != len(ids):
        raise PlanError("a stanza of a match is listed twice")
    per_match: dict[int, StanzaToPlace] = {}
    for s in stanzas:
        first = per_match.setdefault(s.match, s)
        if set(first.teams) != set(s.teams) or s.teams[0] == s.teams[1]:
            raise PlanError(f"the stanzas of match {s.match} must be played by the same two teams")
        if first.round != s.round:
            raise PlanError(f"the stanzas of match {s.match} must be in the same round")
    order = sorted(stanzas, key=lambda s: (s.round, s.match, s.stanza))
    units: list[Unit] = []
    last_of_round: dict[int, dict[int, UnitId]] = {}
    previous: dict[int, UnitId] = {}
    for s in order:
        earlier = tuple(
            uid
            for rr in sorted(last_of_round)
            if rr < s.round
            for uid in last_of_round[rr].values()
        )
        ms = round(s.boards * constraints.minutes_per_board * 60_000)
        duration = timedelta(milliseconds=ms)
        before = previous.get(s.match)
        if before is None:
            after = earlier
            note = "the end of every match of the earlier rounds" if earlier else ""
        else:
            after, note = (before,), f"the end of stanza {before[1]} of match {s.match}"
        units.append(
            Unit(
                match=s.match,
                number=s.stanza,
                kind=UnitKind.STANZA,
                round=s.round,
                entrants=(Entrant(player=s.teams[0]), Entrant(player=s.teams[1])),
                duration=duration,
                duration_note=(
                    f"{s.boards} boards x {_number(constraints.minutes_per_board)} min: "
                    f"{_span(duration)}"
                ),
                boards=s.boards,
                tentative=s.tentative,
                after=after,
                after_note=note,
            )
        )
        previous[s.match] = (s.match, s.stanza)
        last_of_round.setdefault(s.round, {})[s.match] = (s.match, s.stanza)
    return tuple(units)


def stanzas_from_plan(
    match: int,
    teams: tuple[str, str],
    plan: StanzaPlan,
    *,
    sets: int = 1,
    round: int = 1,
    first_stanza: int = 1,
) -> tuple[StanzaToPlace, ...]:
    """The stanzas of ``sets`` sets of extra boards; every set after the first
    is tentative (it is played only if the teams are still tied)."""
    if sets < 1:
        raise PlanError("at least one set of extra boards")
    out: list[StanzaToPlace] = []
    number = first_stanza
    for index in range(sets):
        for boards in plan.stanzas:
            out.append(
                StanzaToPlace(
                    match=match,
                    stanza=number,
                    boards=boards,
                    teams=teams,
                    round=round,
                    tentative=index > 0,
                )
            )
            number += 1
    return tuple(out)


# --- planning ---------------------------------------------------------------------------


def plan_playoff(
    playoff: Playoff,
    constraints: Constraints,
    actuals: Actuals | None = None,
    *,
    now: datetime | None = None,
    candidates: Sequence[TimeControl] = SHORTER_TIME_CONTROLS,
) -> Plan:
    """The schedule of a chess play-off (see the module docstring for the policies)."""
    actuals = actuals or Actuals()
    units = playoff_units(playoff, constraints, actuals)
    participants = [p.id for p in sorted(playoff.participants, key=lambda p: p.seed)]
    ctx = _context(units, participants, constraints, actuals, now)
    best, _ = _best(units, ctx)
    proposal = None
    if ctx.deadline is not None and best.finish > ctx.deadline:
        proposal = _propose(playoff, constraints, actuals, participants, now, units, candidates)
    return _assemble(best, ctx, proposal)


def plan_stanzas(
    stanzas: Sequence[StanzaToPlace],
    constraints: Constraints,
    actuals: Actuals | None = None,
    *,
    now: datetime | None = None,
) -> Plan:
    """The schedule of bridge extra-board stanzas."""
    actuals = actuals or Actuals()
    if actuals.time_controls:
        raise PlanError("bridge stanzas have no time control to change")
    units = stanza_units(stanzas, constraints)
    teams: list[str] = []
    for s in sorted(stanzas, key=lambda s: (s.round, s.match, s.stanza)):
        teams.extend(t for t in s.teams if t not in teams)
    plan = plan_units(units, teams, constraints, actuals, now=now)
    if plan.fits is False:
        text = (
            "bridge stanzas have no time control to shorten: the number of extra boards is "
            f"set by the regulation; the plan ends {_span(plan.overrun)} after the deadline"
        )
        plan = plan.model_copy(update={"proposal": Proposal(found=False, text=text)})
    return plan


def plan_units(
    units: Sequence[Unit],
    participants: Sequence[str],
    constraints: Constraints,
    actuals: Actuals | None = None,
    *,
    now: datetime | None = None,
) -> Plan:
    """Place units in play order (the generic engine; no proposal)."""
    actuals = actuals or Actuals()
    ctx = _context(units, participants, constraints, actuals, now)
    best, _ = _best(tuple(units), ctx)
    return _assemble(best, ctx, None)


# --- the engine --------------------------------------------------------------------------


@dataclass(frozen=True)
class _Context:
    constraints: Constraints
    participants: tuple[str, ...]
    earliest: datetime
    earliest_text: str
    main_break: Break | None
    actual: Mapping[UnitId, GameActual]
    pins: Mapping[UnitId, PinnedStart]
    postponements: tuple[Postponement, ...]
    now: datetime | None
    warnings: tuple[str, ...]

    @property
    def deadline(self) -> datetime | None:
        return self.constraints.deadline


@dataclass(frozen=True)
class _Placed:
    unit: Unit
    start: datetime
    end: datetime
    status: UnitStatus
    fixed: bool
    interval: timedelta | None
    reason: str


@dataclass(frozen=True)
class _Gap:
    who: str
    start: datetime
    end: datetime
    required: timedelta | None
    reason: str


@dataclass(frozen=True)
class _Pass:
    placed: tuple[_Placed, ...]
    gaps: tuple[_Gap, ...]
    warnings: tuple[str, ...]

    @property
    def finish(self) -> datetime:
        return max(p.end for p in self.placed)


def _context(
    units: Sequence[Unit],
    participants: Sequence[str],
    constraints: Constraints,
    actuals: Actuals,
    now: datetime | None,
) -> _Context:
    if not units:
        raise PlanError("there is nothing to place")
    if now is not None and now.utcoffset() is None:
        raise PlanError("now must be timezone-aware")
    _check_units(units)
    ids = {u.id for u in units}
    matches = {u.match for u in units}
    for a in actuals.games:
        if (a.match, a.game) not in ids:
            raise PlanError(
                f"actual times are given for game {a.game} of match {a.match}, "
                "which the plan does not have"
            )
    for p in actuals.pins:
        if (p.match, p.game) not in ids:
            raise PlanError(
                f"a start is pinned for game {p.game} of match {p.match}, "
                "which the plan does not have"
            )
    for pp in actuals.postponements:
        if pp.match is not None and pp.match not in matches:
            raise PlanError(f"a postponement names match {pp.match}, which the plan does not have")
        if pp.match is not None and pp.game is not None and (pp.match, pp.game) not in ids:
            raise PlanError(
                f"a postponement names game {pp.game} of match {pp.match}, "
                "which the plan does not have"
            )

    warnings: list[str] = []
    rule = constraints.rule
    known = {
        p: constraints.main_event_ended[p]
        for p in participants
        if p in constraints.main_event_ended
    }
    unknown = [p for p in participants if p not in known]
    if unknown and constraints.not_before is None:
        raise PlanError(
            f"the end of the last main-event game of {', '.join(unknown)} is unknown: give it, "
            "or an earliest start (not_before), so that the break after the main event can "
            "be kept"
        )
    if unknown:
        warnings.append(
            f"the end of the last main-event game of {', '.join(unknown)} is unknown: the "
            f"play-off starts no earlier than the organiser's earliest start, "
            f"{_at(constraints.not_before)}"
        )
    bounds: list[tuple[datetime, str]] = []
    main_break: Break | None = None
    brk = constraints.break_after_main_event
    if known:
        latest = max(known.values())
        last = [p for p in participants if known.get(p) == latest]
        text = (
            f"the {_adjective(brk)} break after the main event{_cite(rule)}: the last "
            f"main-event game of a play-off player ({', '.join(last)}) ended at {_at(latest)}"
        )
        bounds.append((latest + brk, text))
        main_break = Break(
            who=tuple(participants),
            start=latest,
            end=latest + brk,
            kind=BreakKind.MAIN_EVENT,
            required=brk,
            reason=f"{_adjective(brk)} break after the main event{_cite(rule)}",
        )
    if constraints.not_before is not None:
        bounds.append((constraints.not_before, "the organiser's earliest start"))
    earliest, earliest_text = _latest(bounds)
    return _Context(
        constraints=constraints,
        participants=tuple(participants),
        earliest=earliest,
        earliest_text=earliest_text,
        main_break=main_break,
        actual={(a.match, a.game): a for a in actuals.games},
        pins={(p.match, p.game): p for p in actuals.pins},
        postponements=actuals.postponements,
        now=now,
        warnings=tuple(warnings),
    )


def _check_units(units: Sequence[Unit]) -> None:
    seen: set[UnitId] = set()
    for u in units:
        if u.id in seen:
            raise PlanError(f"{u.describe} appears twice")
        missing = [d for d in u.after if d not in seen]
        if missing:
            raise PlanError(
                f"{u.describe} depends on game {missing[0][1]} of match {missing[0][0]}, "
                "which is not placed before it"
            )
        seen.add(u.id)


def _interval_units(units: Sequence[Unit], ctx: _Context) -> list[UnitId]:
    """Units whose start is set by a chosen interval: not fixed, and with an
    entrant who has played before in the play-off."""
    seen: set[str] = set()
    out: list[UnitId] = []
    for u in units:
        if (
            u.id not in ctx.actual
            and u.id not in ctx.pins
            and any(e.key in seen for e in u.entrants)
        ):
            out.append(u.id)
        seen.update(e.key for e in u.entrants)
        seen.add(_winner_key(u.match))
    return out


def _best(units: Sequence[Unit], ctx: _Context) -> tuple[_Pass, dict[UnitId, str]]:
    """The interval policy: 10 minutes wherever the deadline allows."""
    c = ctx.constraints
    chosen_units = _interval_units(units, ctx)
    preferred = dict.fromkeys(chosen_units, c.preferred_interval)
    note_pref = f"the preferred interval{_cite(c.rule)}"
    notes = dict.fromkeys(chosen_units, note_pref)
    first = _run(units, ctx, preferred, notes)
    deadline = ctx.deadline
    if deadline is None or first.finish <= deadline or c.preferred_interval == c.min_interval:
        return first, notes
    minimum = dict.fromkeys(chosen_units, c.min_interval)
    tight = _run(units, ctx, minimum, notes)
    if tight.finish > deadline:
        notes = dict.fromkeys(
            chosen_units,
            f"the minimum{_cite(c.rule)}, as the play-off ends after the deadline even so",
        )
        return _run(units, ctx, minimum, notes), notes
    start_of = {p.unit.id: (p.start, i) for i, p in enumerate(tight.placed)}
    chosen = dict(minimum)
    for uid in sorted(chosen_units, key=lambda u: start_of[u]):
        trial = {**chosen, uid: c.preferred_interval}
        if _run(units, ctx, trial, notes).finish <= deadline:
            chosen = trial
    notes = {
        uid: (
            f"{note_pref}, and the deadline still holds"
            if chosen[uid] == c.preferred_interval
            else f"the minimum{_cite(c.rule)}, as {_span(c.preferred_interval)} here would end "
            "the play-off after the deadline"
        )
        for uid in chosen_units
    }
    return _run(units, ctx, chosen, notes), notes


def _run(
    units: Sequence[Unit],
    ctx: _Context,
    intervals: Mapping[UnitId, timedelta],
    notes: Mapping[UnitId, str],
) -> _Pass:
    c = ctx.constraints
    free: dict[str, tuple[datetime, str]] = {}
    ends: dict[UnitId, datetime] = {}
    placed: list[_Placed] = []
    gaps: list[_Gap] = []
    warnings: list[str] = []
    for u in units:
        prevs = [(e, free[e.key]) for e in u.entrants if e.key in free]
        plural = "stanzas" if u.kind is UnitKind.STANZA else "games"
        actual = ctx.actual.get(u.id)
        interval: timedelta | None = None
        if actual is not None:
            start = actual.started_at
            fixed = True
            if actual.ended_at is not None:
                end, status = actual.ended_at, UnitStatus.PLAYED
                reason = f"played from {_at(start)} to {_at(end)}"
            else:
                status = UnitStatus.RUNNING
                expected = start + u.duration
                if ctx.now is not None and expected < ctx.now:
                    end = ctx.now + c.running_late_margin
                    reason = (
                        f"running since {_at(start)}, past its estimated end {_at(expected)} "
                        f"({u.duration_note}): expected {_span(c.running_late_margin)} after now"
                    )
                else:
                    end = expected
                    reason = f"running since {_at(start)}: expected to end with {u.duration_note}"
            for e, (prev_end, _) in prevs:
                gaps.append(
                    _Gap(e.label, prev_end, start, None, f"interval between {plural}, as played")
                )
        else:
            hard: list[tuple[datetime, str]] = [(ctx.earliest, ctx.earliest_text)]
            if u.after:
                hard.append((max(ends[d] for d in u.after), u.after_note))
            for _, (prev_end, prev_text) in prevs:
                hard.append(
                    (
                        prev_end + c.min_interval,
                        f"the {_adjective(c.min_interval)} interval after {prev_text}: "
                        f"the minimum{_cite(c.rule)}",
                    )
                )
            for pp in ctx.postponements:
                if pp.match is None or (pp.match == u.match and pp.game in (None, u.number)):
                    hard.append(
                        (
                            pp.not_before,
                            f"the arbiter's postponement to {_at(pp.not_before)}"
                            + (f" ({pp.reason})" if pp.reason else ""),
                        )
                    )
            if ctx.now is not None and not u.has_result:
                hard.append((ctx.now, "the current time (it has not started yet)"))
            legal, legal_text = _latest(hard)
            pin = ctx.pins.get(u.id)
            if pin is not None:
                fixed = True
                why = f" ({pin.reason})" if pin.reason else ""
                if pin.start >= legal:
                    start = pin.start
                    reason = f"start pinned by the arbiter{why}"
                else:
                    start = legal
                    reason = (
                        f"pinned by the arbiter at {_at(pin.start)}{why}, moved to the earliest "
                        f"legal time: {legal_text}"
                    )
                    warnings.append(
                        f"the arbiter's start {_at(pin.start)} for {u.describe} is earlier "
                        f"than allowed by {legal_text}; it is planned at {_at(legal)}, the "
                        "earliest legal time"
                    )
                for e, (prev_end, _) in prevs:
                    gaps.append(
                        _Gap(
                            e.label,
                            prev_end,
                            start,
                            c.min_interval,
                            f"interval between {plural}: start pinned by the arbiter",
                        )
                    )
            else:
                fixed = False
                soft: list[tuple[datetime, str]] = []
                if prevs:
                    interval = intervals.get(u.id, c.preferred_interval)
                    note = notes.get(u.id, f"the preferred interval{_cite(c.rule)}")
                    for _, (prev_end, prev_text) in prevs:
                        soft.append(
                            (
                                prev_end + interval,
                                f"the {_adjective(interval)} interval after {prev_text}: {note}",
                            )
                        )
                start, reason = _latest(soft + hard)
                for e, (prev_end, _) in prevs:
                    assert interval is not None
                    text = f"interval between {plural}: {_span(interval)}, {note}"
                    if start > prev_end + interval:
                        text += f"; longer, because of {reason}"
                    gaps.append(_Gap(e.label, prev_end, start, interval, text))
            end = start + u.duration
            status = UnitStatus.PLANNED
            if u.has_result:
                status = UnitStatus.PLAYED
                warnings.append(
                    f"{u.describe} has a result but no recorded times: its times are estimated"
                )
        if u.tentative and actual is None:
            reason = (
                "tentative: played only if the match is level after two games (later games "
                f"are planned as if it is played); {reason}"
            )
        placed.append(_Placed(u, start, end, status, fixed, interval, reason))
        ends[u.id] = end
        for e in u.entrants:
            free[e.key] = (end, u.describe)
        free[_winner_key(u.match)] = (end, u.describe)
    return _Pass(tuple(placed), tuple(gaps), tuple(warnings))


def _assemble(best: _Pass, ctx: _Context, proposal: Proposal | None) -> Plan:
    games = tuple(
        PlannedGame(
            match=p.unit.match,
            game=p.unit.number,
            kind=p.unit.kind,
            round=p.unit.round,
            round_name=p.unit.round_name,
            players=(p.unit.entrants[0].label, p.unit.entrants[1].label),
            start=p.start,
            end=p.end,
            fixed=p.fixed,
            tentative=p.unit.tentative and p.unit.id not in ctx.actual,
            status=p.status,
            time_control=str(p.unit.time_control) if p.unit.time_control is not None else None,
            boards=p.unit.boards,
            duration=p.unit.duration,
            interval=p.interval,
            reason=p.reason,
        )
        for p in best.placed
    )
    grouped: dict[tuple[datetime, datetime, timedelta | None, str], list[str]] = {}
    for gap in best.gaps:
        who = grouped.setdefault((gap.start, gap.end, gap.required, gap.reason), [])
        if gap.who not in who:
            who.append(gap.who)
    breaks = [
        Break(who=tuple(who), start=s, end=e, kind=BreakKind.INTERVAL, required=r, reason=text)
        for (s, e, r, text), who in grouped.items()
    ]
    if ctx.main_break is not None:
        breaks.insert(0, ctx.main_break)
    breaks.sort(key=lambda b: (b.start, b.end, b.kind != BreakKind.MAIN_EVENT, b.who))
    finish = best.finish
    deadline = ctx.deadline
    fits = None if deadline is None else finish <= deadline
    overrun = max(finish - deadline, timedelta(0)) if deadline is not None else timedelta(0)
    return Plan(
        games=games,
        breaks=tuple(breaks),
        break_over=ctx.main_break.end if ctx.main_break is not None else None,
        earliest_start=ctx.earliest,
        start=min(g.start for g in games),
        finish=finish,
        deadline=deadline,
        fits=fits,
        overrun=overrun,
        proposal=proposal,
        warnings=ctx.warnings + best.warnings,
    )


# --- the proposal -----------------------------------------------------------------------


def _propose(
    playoff: Playoff,
    constraints: Constraints,
    actuals: Actuals,
    participants: Sequence[str],
    now: datetime | None,
    units: Sequence[Unit],
    candidates: Sequence[TimeControl],
) -> Proposal:
    moves = constraints.moves_estimate
    timed = {(a.match, a.game) for a in actuals.games}
    begun_rounds = {
        u.round for u in units if u.id in timed or u.has_result or playoff.match(u.match).started
    }
    rounds = sorted({u.round for u in units} - begun_rounds)
    if not rounds:
        return Proposal(
            found=False,
            text="every round has begun: no time control is left to shorten (reg. 5 allows "
            "shortening only what is still to be played)",
        )
    names = {u.round: u.round_name or f"round {u.round}" for u in units}
    current = {
        u.match: u.time_control.estimated_duration_ms(moves)
        for u in units
        if u.kind is UnitKind.REGULAR and u.time_control is not None
    }
    ordered = sorted(
        enumerate(candidates), key=lambda item: (-item[1].estimated_duration_ms(moves), item[0])
    )
    tried: tuple[TimeControl, tuple[int, ...], datetime] | None = None
    for _, tc in ordered:
        length = tc.estimated_duration_ms(moves)
        for k in range(1, len(rounds) + 1):
            scope = tuple(rounds[-k:])
            matches = tuple(sorted({u.match for u in units if u.round in scope}))
            if any(current.get(m, 0) <= length for m in matches):
                continue
            change = TimeControlChange(
                time_control=tc,
                matches=matches,
                reason=f"shortened to meet the deadline ({constraints.rule})",
            )
            trial = actuals.model_copy(update={"time_controls": (*actuals.time_controls, change)})
            trial_units = playoff_units(playoff, constraints, trial)
            ctx = _context(trial_units, participants, constraints, trial, now)
            best, _ = _best(trial_units, ctx)
            assert ctx.deadline is not None
            if best.finish <= ctx.deadline:
                where = ", ".join(names[r] for r in scope)
                return Proposal(
                    found=True,
                    time_control=str(tc),
                    rounds=scope,
                    matches=matches,
                    finish=best.finish,
                    change=change,
                    text=(
                        f"shorten the time control to {tc} in {where} (matches "
                        f"{', '.join(str(m) for m in matches)}): the play-off would end at "
                        f"{_at(best.finish)}, {_span(ctx.deadline - best.finish)} before the "
                        f"deadline ({constraints.rule} lets the chief arbiter and the organiser "
                        "shorten the time limits)"
                    ),
                )
            tried = (tc, scope, best.finish)
    if tried is None:
        return Proposal(
            found=False,
            text="no candidate time control is shorter than the ones already set",
        )
    tc, scope, finish = tried
    deadline = constraints.deadline
    assert deadline is not None
    where = ", ".join(names[r] for r in scope)
    return Proposal(
        found=False,
        finish=finish,
        text=(
            f"no shortened time control meets the deadline: even {tc} in {where} ends at "
            f"{_at(finish)}, {_span(finish - deadline)} after the deadline"
        ),
    )


# --- helpers -----------------------------------------------------------------------------


def _winner_key(match: int | None) -> str:
    return f"winner:{match}"


def _slot_entrant(slot: Slot | None) -> Entrant:
    assert slot is not None
    if slot.player is not None:
        return Entrant(player=slot.player)
    return Entrant(winner_of=slot.winner_of)


def _time_control(
    match: Match,
    number: int,
    kind: GameKind,
    changes: Iterable[TimeControlChange],
    started: Mapping[UnitId, datetime],
) -> TimeControl:
    decider = kind is GameKind.ARMAGEDDON
    tc = match.decider if decider else match.time_control
    assert tc is not None
    began = started.get((match.id, number))
    for change in changes:
        if change.matches and match.id not in change.matches:
            continue
        if change.decider != decider:
            continue
        if change.made_at is not None and began is not None and began < change.made_at:
            continue
        tc = change.time_control
    return tc


def _latest(bounds: Sequence[tuple[datetime, str]]) -> tuple[datetime, str]:
    """The latest bound; the first listed wins a tie."""
    best = bounds[0]
    for bound in bounds[1:]:
        if bound[0] > best[0]:
            best = bound
    return best


def _cite(rule: str) -> str:
    return f" ({rule})" if rule else ""


def _at(moment: datetime | None) -> str:
    if moment is None:
        return "unknown"
    if moment.microsecond:
        return moment.isoformat(timespec="milliseconds")
    if moment.second:
        return moment.isoformat(timespec="seconds")
    return moment.isoformat(timespec="minutes")


def _span(span: timedelta) -> str:
    """``10 minutes``, ``1 minute``, ``7 min 30 s``, ``1 h 5 min``."""
    total = round(span.total_seconds())
    sign = "-" if total < 0 else ""
    total = abs(total)
    hours, rest = divmod(total, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours == 0 and seconds == 0:
        return f"{sign}{minutes} minute{'s' if minutes != 1 else ''}"
    parts = []
    if hours:
        parts.append(f"{hours} h")
    if minutes:
        parts.append(f"{minutes} min")
    if seconds:
        parts.append(f"{seconds} s")
    return sign + " ".join(parts)


def _adjective(span: timedelta) -> str:
    """``30-minute`` for whole minutes, else the span."""
    total = round(span.total_seconds())
    if total % 60 == 0:
        return f"{total // 60}-minute"
    return _span(span)


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)
