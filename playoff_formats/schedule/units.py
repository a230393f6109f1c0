"""Units of play: the games of a play-off or the stanzas of extra boards, each
with its entrants, its estimated length and what it must wait for."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Self

from pydantic import Field, model_validator

from playoff_formats.builders.stanzas import StanzaPlan
from playoff_formats.formats.model import MatchFormat
from playoff_formats.model import Frozen
from playoff_formats.playoff import GameKind, Match, Playoff, Slot
from playoff_formats.schedule.model import (
    Actuals,
    Constraints,
    PlanError,
    StanzaToPlace,
    UnitId,
    UnitKind,
)
from playoff_formats.schedule.reasons import Problem, ProblemKind
from playoff_formats.schedule.words import plain_number, span, unit
from playoff_formats.timecontrol import TimeControl

__all__ = [
    "Entrant",
    "Unit",
    "playoff_units",
    "stanza_units",
    "stanzas_from_plan",
    "winner_key",
]


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
        return f"player:{self.player}" if self.player is not None else winner_key(self.winner_of)


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
    tentative_note: str = Field(
        default="", description="When a tentative unit is played: 'if the match is level...'"
    )
    has_result: bool = False
    after: tuple[UnitId, ...] = ()
    after_note: str = ""
    stage_name: str = Field(default="", description="The stage of the match it belongs to")
    rest: timedelta | None = Field(
        default=None, description="The least interval before it when it opens a new stage"
    )
    preferred_rest: timedelta | None = Field(
        default=None, description="The interval kept where possible before a new stage"
    )

    @property
    def id(self) -> UnitId:
        return (self.match, self.number)

    @property
    def describe(self) -> str:
        return unit(self.match, self.number, stanza=self.kind is UnitKind.STANZA)


def playoff_units(
    playoff: Playoff, constraints: Constraints, actuals: Actuals | None = None
) -> tuple[Unit, ...]:
    """The units of a play-off, in play order, with their estimated durations.

    A match with unknown participants gets its first stage's games, and the
    games of its later stages and its first decider game as tentative, with
    "winner of match N" entrants; a match with known participants gets its
    games, and tentative ones for the stages and the decider still to come while
    it is not decided (a decider game that already exists or has actual times is
    not tentative). Byes have no units.
    """
    actuals = actuals or Actuals()
    playable = {m.id for m in playoff.matches if not m.bye}
    overrides = actuals.overrides
    for change in overrides.time_controls:
        unknown = [m for m in change.matches if m not in playable]
        if unknown:
            raise PlanError(Problem(ProblemKind.CHANGE_FOR_UNKNOWN_MATCH, match=unknown[0]))
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
        games = _match_games(playoff, match, started)
        previous: UnitId | None = None
        for number, kind, tentative, has_result in sorted(games):
            tc = overrides.time_control_for(match, number, kind, started.get((match.id, number)))
            ms = tc.estimated_duration_ms(constraints.moves_estimate)
            rules = match.rules
            place = rules.place(number)
            opens_stage = place is not None and place.first and number > 1
            stage = rules.stage_of(number)
            stage_name = stage.name if stage is not None else (
                rules.decider.name if rules.decider is not None else ""
            )
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
                    kind=UnitKind(kind.value),
                    round=r,
                    round_name=names.get(key, ""),
                    entrants=entrants,
                    duration=duration,
                    duration_note=(f"{tc}, {constraints.moves_estimate} moves: {span(duration)}"),
                    time_control=tc,
                    tentative=tentative,
                    tentative_note=_tentative_note(rules, number) if tentative else "",
                    has_result=has_result,
                    after=after,
                    after_note=note,
                    stage_name=stage_name,
                    rest=constraints.stage_interval if opens_stage else None,
                    preferred_rest=(
                        constraints.stage_preferred_interval if opens_stage else None
                    ),
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
        raise PlanError(Problem(ProblemKind.NO_STANZA))
    ids = [(s.match, s.stanza) for s in stanzas]
    if len(set(ids)) != len(ids):
        raise PlanError(Problem(ProblemKind.STANZA_TWICE))
    per_match: dict[int, StanzaToPlace] = {}
    for s in stanzas:
        first = per_match.setdefault(s.match, s)
        if set(first.teams) != set(s.teams) or s.teams[0] == s.teams[1]:
            raise PlanError(Problem(ProblemKind.STANZA_TEAMS, match=s.match))
        if first.round != s.round:
            raise PlanError(Problem(ProblemKind.STANZA_ROUND, match=s.match))
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
                    f"{s.boards} boards x {plain_number(constraints.minutes_per_board)} min: "
                    f"{span(duration)}"
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
        raise PlanError(Problem(ProblemKind.NO_SET))
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


def winner_key(match: int | None) -> str:
    """The key under which the winner of ``match`` rests between units."""
    return f"winner:{match}"


def _match_games(
    playoff: Playoff, match: Match, started: Mapping[UnitId, object]
) -> list[tuple[int, GameKind, bool, bool]]:
    """(number, kind, tentative, has a result) of every game the match has or may
    still need: what exists, then the rest of its stages and its first decider game."""
    rules = match.rules
    games: list[tuple[int, GameKind, bool, bool]] = []
    if None not in match.players:
        for g in playoff.games_of(match.id):
            games.append((g.number, g.kind, False, g.result is not None))
    else:
        first = rules.stages[0]
        games = [(n, GameKind.REGULAR, False, False) for n in range(1, first.games + 1)]
    if match.decision is not None:
        return games
    numbers = {n for n, _, _, _ in games}
    for n in range(1, rules.regular_games + 1):
        if n not in numbers:
            games.append((n, GameKind.REGULAR, (match.id, n) not in started, False))
    decider = rules.decider
    number = rules.decider_number
    kind = decider.game_kind if decider is not None else None
    if kind is not None and not any(k.decider for _, k, _, _ in games):
        games.append((number, kind, (match.id, number) not in started, False))
    return games


def _tentative_note(rules: MatchFormat, number: int) -> str:
    if len(rules.stages) == 1 and rules.stages[0].games == 2:
        return ""
    return f"played only if the match is level after game {number - 1}"


def _slot_entrant(slot: Slot | None) -> Entrant:
    assert slot is not None
    if slot.player is not None:
        return Entrant(player=slot.player)
    return Entrant(winner_of=slot.winner_of)
