"""The engine: units placed in time, intervals chosen, and a shortened time
control proposed when the deadline is missed.

The policies it applies: docs/rules-notes.md (The schedule planner).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import ParamSpec

from playoff_formats.phrase import Player
from playoff_formats.playoff import Playoff
from playoff_formats.schedule.model import (
    Actuals,
    Break,
    BreakKind,
    Constraints,
    GameActual,
    Plan,
    PlanError,
    PlannedGame,
    Proposal,
    StanzaToPlace,
    UnitId,
    UnitKind,
    UnitStatus,
)
from playoff_formats.schedule.overrides import PinnedStart, Postponement, TimeControlChange
from playoff_formats.schedule.reasons import Notice, NoticeKind, Problem, ProblemKind
from playoff_formats.schedule.units import Unit, playoff_units, stanza_units, winner_key
from playoff_formats.schedule.words import (
    adjective,
    cite,
    instant,
    main_event_bound,
    notice,
    span,
)
from playoff_formats.timecontrol import TimeControl

P = ParamSpec("P")

__all__ = ["SHORTER_TIME_CONTROLS", "plan_playoff", "plan_stanzas", "plan_units"]

SHORTER_TIME_CONTROLS: tuple[TimeControl, ...] = tuple(
    TimeControl.parse(text) for text in ("G/20+5", "G/15+5", "G/10+5", "G/5+3", "G/3+2")
)
"""Candidates for a shortened time control (reg. 5), longest first."""


# --- planning ---------------------------------------------------------------------------


def within_the_calendar(planner: Callable[P, Plan]) -> Callable[P, Plan]:
    """A planner whose arithmetic runs past year 9999 refuses with a :class:`PlanError`.

    A date out of range is an input that cannot be planned, said as such, never a
    bare ``OverflowError`` for the service to tell apart."""

    @functools.wraps(planner)
    def planning(*args: P.args, **kwargs: P.kwargs) -> Plan:
        try:
            return planner(*args, **kwargs)
        except OverflowError as exc:
            raise PlanError(Problem(ProblemKind.BEYOND_THE_CALENDAR)) from exc

    return planning


@within_the_calendar
def plan_playoff(
    playoff: Playoff,
    constraints: Constraints,
    actuals: Actuals | None = None,
    *,
    now: datetime | None = None,
    candidates: Sequence[TimeControl] = SHORTER_TIME_CONTROLS,
) -> Plan:
    """The schedule of a chess play-off, under the planner's policies."""
    actuals = actuals or Actuals()
    units = playoff_units(playoff, constraints, actuals)
    participants = [p.id for p in sorted(playoff.participants, key=lambda p: p.seed)]
    ctx = _context(units, participants, constraints, actuals, now)
    best, _ = _best(units, ctx)
    proposal = None
    if ctx.deadline is not None and best.finish > ctx.deadline:
        proposal = _propose(playoff, constraints, actuals, participants, now, units, candidates)
    return _assemble(best, ctx, proposal)


@within_the_calendar
def plan_stanzas(
    stanzas: Sequence[StanzaToPlace],
    constraints: Constraints,
    actuals: Actuals | None = None,
    *,
    now: datetime | None = None,
) -> Plan:
    """The schedule of bridge extra-board stanzas."""
    actuals = actuals or Actuals()
    if actuals.overrides.time_controls:
        raise PlanError(Problem(ProblemKind.BRIDGE_TIME_CONTROL))
    units = stanza_units(stanzas, constraints)
    teams: list[str] = []
    for s in sorted(stanzas, key=lambda s: (s.round, s.match, s.stanza)):
        teams.extend(t for t in s.teams if t not in teams)
    plan = plan_units(units, teams, constraints, actuals, now=now)
    if plan.fits is False:
        text = (
            "bridge stanzas have no time control to shorten: the number of extra boards is "
            f"set by the regulation; the plan ends {span(plan.overrun)} after the deadline"
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
    warnings: tuple[Notice, ...]

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
    warnings: tuple[Notice, ...]

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
        raise PlanError(Problem(ProblemKind.NOTHING_TO_PLACE))
    if now is not None and now.utcoffset() is None:
        raise PlanError(Problem(ProblemKind.NAIVE_NOW))
    _check_units(units)
    ids = {u.id for u in units}
    matches = {u.match for u in units}
    for a in actuals.games:
        if (a.match, a.game) not in ids:
            raise PlanError(
                Problem(ProblemKind.ACTUAL_FOR_UNKNOWN_GAME, match=a.match, game=a.game)
            )
    for p in actuals.overrides.pins:
        if (p.match, p.game) not in ids:
            raise PlanError(Problem(ProblemKind.PIN_FOR_UNKNOWN_GAME, match=p.match, game=p.game))
    for pp in actuals.overrides.postponements:
        if pp.match is not None and pp.match not in matches:
            raise PlanError(Problem(ProblemKind.POSTPONEMENT_FOR_UNKNOWN_MATCH, match=pp.match))
        if pp.match is not None and pp.game is not None and (pp.match, pp.game) not in ids:
            raise PlanError(
                Problem(ProblemKind.POSTPONEMENT_FOR_UNKNOWN_GAME, match=pp.match, game=pp.game)
            )

    warnings: list[Notice] = []
    rule = constraints.rule
    known = {
        p: constraints.main_event_ended[p]
        for p in participants
        if p in constraints.main_event_ended
    }
    unknown = tuple(Player(p) for p in participants if p not in known)
    if unknown and constraints.not_before is None:
        raise PlanError(
            Problem(ProblemKind.MAIN_EVENT_END_UNKNOWN, players=unknown), constraints.names
        )
    if unknown:
        warnings.append(Notice(
            NoticeKind.MAIN_EVENT_END_UNKNOWN, players=unknown, at=constraints.not_before
        ))
    bounds: list[tuple[datetime, str]] = []
    main_break: Break | None = None
    brk = constraints.break_after_main_event
    if known:
        latest = max(known.values())
        last = [Player(p) for p in participants if known.get(p) == latest]
        text = main_event_bound(
            brk, rule, last, latest, constraints.names, constraints.zone
        )
        bounds.append((latest + brk, text))
        main_break = Break(
            who=tuple(participants),
            start=latest,
            end=latest + brk,
            kind=BreakKind.MAIN_EVENT,
            required=brk,
            reason=f"{adjective(brk)} break after the main event{cite(rule)}",
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
        pins={(p.match, p.game): p for p in actuals.overrides.pins},
        postponements=actuals.overrides.postponements,
        now=now,
        warnings=tuple(warnings),
    )


def _check_units(units: Sequence[Unit]) -> None:
    seen: set[UnitId] = set()
    for u in units:
        if u.id in seen:
            raise PlanError(Problem(
                ProblemKind.UNIT_TWICE, match=u.match, game=u.number,
                stanza=u.kind is UnitKind.STANZA,
            ))
        missing = [d for d in u.after if d not in seen]
        if missing:
            raise PlanError(Problem(
                ProblemKind.UNIT_BEFORE_ITS_DEPENDENCY, match=u.match, game=u.number,
                stanza=u.kind is UnitKind.STANZA, after=missing[0],
            ))
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
        seen.add(winner_key(u.match))
    return out


def _best(units: Sequence[Unit], ctx: _Context) -> tuple[_Pass, dict[UnitId, str]]:
    """The interval policy: 10 minutes wherever the deadline allows."""
    c = ctx.constraints
    chosen_units = _interval_units(units, ctx)
    preferred = dict.fromkeys(chosen_units, c.preferred_interval)
    note_pref = f"the preferred interval{cite(c.rule)}"
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
            f"the minimum{cite(c.rule)}, as the play-off ends after the deadline even so",
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
            else f"the minimum{cite(c.rule)}, as {span(c.preferred_interval)} here would end "
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
    when = partial(instant, zone=ctx.constraints.zone)
    c = ctx.constraints
    free: dict[str, tuple[datetime, str]] = {}
    ends: dict[UnitId, datetime] = {}
    placed: list[_Placed] = []
    gaps: list[_Gap] = []
    warnings: list[Notice] = []
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
                # Only a forfeit is recorded without a start (the game was not played).
                reason = (
                    f"played from {when(start)} to {when(end)}" if end > start
                    else f"not played (forfeit), recorded at {when(end)}"
                )
            else:
                status = UnitStatus.RUNNING
                expected = start + u.duration
                if ctx.now is not None and expected < ctx.now:
                    end = ctx.now + c.running_late_margin
                    reason = (
                        f"running since {when(start)}, past its estimated end "
                        f"{when(expected)} ({u.duration_note}): expected "
                        f"{span(c.running_late_margin)} after now"
                    )
                else:
                    end = expected
                    reason = (
                        f"running since {when(start)}: expected to end with {u.duration_note}"
                    )
            for e, (prev_end, _) in prevs:
                gaps.append(
                    _Gap(e.label, prev_end, start, None, f"interval between {plural}, as played")
                )
        else:
            hard: list[tuple[datetime, str]] = [(ctx.earliest, ctx.earliest_text)]
            if u.after:
                hard.append((max(ends[d] for d in u.after), u.after_note))
            least = max(c.min_interval, u.rest or timedelta(0))
            least_note = (
                "the break before a new stage" if least > c.min_interval
                else f"the minimum{cite(c.rule)}"
            )
            for _, (prev_end, prev_text) in prevs:
                hard.append(
                    (
                        prev_end + least,
                        f"the {adjective(least)} interval after {prev_text}: {least_note}",
                    )
                )
            for pp in ctx.postponements:
                if pp.match is None or (pp.match == u.match and pp.game in (None, u.number)):
                    hard.append(
                        (
                            pp.not_before,
                            f"the arbiter's postponement to {when(pp.not_before)}"
                            + (f" ({pp.reason})" if pp.reason else ""),
                        )
                    )
            if ctx.now is not None and not u.has_result:
                hard.append((ctx.now, "the current time (it has not started yet)"))
            legal, legal_text = _latest(hard)
            pin = ctx.pins.get(u.id)
            if pin is not None:
                fixed = True
                if pin.start >= legal:
                    start = pin.start
                    reason = pin.words(when(pin.start))
                else:
                    start = legal
                    reason = (
                        f"{pin.words(when(pin.start))}, moved to the earliest legal time: "
                        f"{legal_text}"
                    )
                    warnings.append(Notice(
                        NoticeKind.PIN_TOO_EARLY, match=u.match, game=u.number,
                        stanza=u.kind is UnitKind.STANZA, asked=pin.start, at=legal,
                        because=legal_text,
                    ))
                for e, (prev_end, _) in prevs:
                    gaps.append(
                        _Gap(
                            e.label,
                            prev_end,
                            start,
                            c.min_interval,
                            f"interval between {plural}: start set by the chief arbiter",
                        )
                    )
            else:
                fixed = False
                soft: list[tuple[datetime, str]] = []
                if prevs:
                    interval = intervals.get(u.id, c.preferred_interval)
                    note = notes.get(u.id, f"the preferred interval{cite(c.rule)}")
                    if u.preferred_rest is not None and u.preferred_rest > interval:
                        interval, note = u.preferred_rest, "the break before a new stage"
                    for _, (prev_end, prev_text) in prevs:
                        soft.append(
                            (
                                prev_end + interval,
                                f"the {adjective(interval)} interval after {prev_text}: {note}",
                            )
                        )
                start, reason = _latest(soft + hard)
                for e, (prev_end, _) in prevs:
                    assert interval is not None
                    text = f"interval between {plural}: {span(interval)}, {note}"
                    if start > prev_end + interval:
                        text += f"; longer, because of {reason}"
                    gaps.append(_Gap(e.label, prev_end, start, interval, text))
            end = start + u.duration
            status = UnitStatus.PLANNED
            if u.has_result:
                status = UnitStatus.PLAYED
                warnings.append(Notice(
                    NoticeKind.RESULT_WITHOUT_TIMES, match=u.match, game=u.number,
                    stanza=u.kind is UnitKind.STANZA,
                ))
        if u.tentative and actual is None:
            when_played = u.tentative_note or "played only if the match is level after two games"
            reason = (
                f"tentative: {when_played} (later games "
                f"are planned as if it is played); {reason}"
            )
        placed.append(_Placed(u, start, end, status, fixed, interval, reason))
        ends[u.id] = end
        for e in u.entrants:
            free[e.key] = (end, u.describe)
        free[winner_key(u.match)] = (end, u.describe)
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
    # A unit that follows another at once (bridge stanzas) has no interval to show.
    breaks = [
        Break(who=tuple(who), start=s, end=e, kind=BreakKind.INTERVAL, required=r, reason=text)
        for (s, e, r, text), who in grouped.items()
        if e > s
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
        warnings=tuple(
            notice(w, ctx.constraints.names, ctx.constraints.zone)
            for w in ctx.warnings + best.warnings
        ),
        time_zone=ctx.constraints.time_zone,
    ).in_zone(ctx.constraints.zone)


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
    when = partial(instant, zone=constraints.zone)
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
            trial = actuals.model_copy(
                update={"overrides": actuals.overrides.with_time_control(change)}
            )
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
                        f"{when(best.finish)}, {span(ctx.deadline - best.finish)} before the "
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
            f"{when(finish)}, {span(finish - deadline)} after the deadline"
        ),
    )


def _latest(bounds: Sequence[tuple[datetime, str]]) -> tuple[datetime, str]:
    """The latest bound; the first listed wins a tie."""
    best = bounds[0]
    for bound in bounds[1:]:
        if bound[0] > best[0]:
            best = bound
    return best
