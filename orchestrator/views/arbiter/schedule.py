"""The schedule as the console shows it.

The plan as it stands (games, breaks, the deadline, whether it fits, the proposal
of a shorter time control, warnings) and, when the schedule moved since the
previous view, what moved and after what (``ctx.previous_plan`` and ``ctx.since``).
"""

from __future__ import annotations

from collections.abc import Sequence

from orchestrator.core.events import (
    Postponed,
    ResultCorrected,
    StartMoved,
)
from orchestrator.views.arbiter.core import (
    MOVED,
    Core,
)
from orchestrator.views.arbiter.forms import (
    Fill,
)
from orchestrator.views.arbiter.models import (
    Lane,
    Moved,
    PlanBreak,
    PlanGame,
    Proposal,
    Replan,
    ReplanItem,
    ScheduleView,
)
from orchestrator.views.shared import next_change
from playoff_formats.phrase import and_list
from playoff_formats.schedule import Plan, PlannedGame, UnitKind, UnitStatus
from playoff_formats.schedule.words import adjective, span
from playoff_formats.speech import marked, tr
from playoff_formats.words import (
    signed_minutes,
)

__all__ = [
    "game_title",
    "lane_label",
    "moved_games",
    "next_change_ms",
    "plan_players",
    "proposal_matches",
    "replan_cause",
    "schedule_view",
]


CAUSES: dict[str, str] = {
    "time-control-shortened": marked("the shorter time control"),
    "deadline-set": marked("the new deadline"),
    "flag-fell": marked("a flag fall"),
    "stanza-advanced": marked("the end of a stanza"),
}
"""The changes that move the schedule with no game to name, by their event's type."""


def lane_label(core: Core, planned: PlannedGame) -> str:
    return planned.round_name or tr("Match {match}", match=planned.match)


def game_title(core: Core, planned: PlannedGame) -> str:
    lane = lane_label(core, planned)
    if planned.kind is UnitKind.STANZA:
        return tr("{lane} · stanza {number}", lane=lane, number=planned.game)
    if planned.kind in (UnitKind.ARMAGEDDON, UnitKind.SUDDEN_DEATH):
        decider = core.state.chess.match(planned.match).rules.decider
        return tr("{lane} · game {number} ({decider})", lane=lane, number=planned.game,
                  decider=decider.name if decider is not None else tr("decider"))
    return tr("{lane} · game {number}", lane=lane, number=planned.game)


def plan_players(core: Core, planned: PlannedGame) -> str:
    playoff = core.state.playoff
    if playoff is None:
        return " v ".join(core.name(p) for p in planned.players)
    match = playoff.match(planned.match)
    if None in match.players:
        return " – ".join(core.name(p) for p in planned.players)
    return core.players_text(playoff, match, planned.game)


def schedule_view(core: Core) -> ScheduleView:
    plan = core.ctx.plan
    if plan is None:
        return ScheduleView(error=core.ctx.plan_error or tr("no schedule"))
    moved = moved_games(core, plan)
    lanes: dict[int, str] = {}
    for g in plan.games:
        lanes.setdefault(g.match, lane_label(core, g))
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
            title=game_title(core, g),
            players=plan_players(core, g),
            time_control=g.time_control,
            interval=(tr("after a {length} interval", length=adjective(g.interval))
                      if g.interval else None),
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
            tr("fits") if plan.fits is not False
            else tr("does not fit: over by {span}", span=span(plan.overrun))
        )
    proposal = None
    if plan.fits is False and plan.proposal is not None:
        found = plan.proposal
        fill = None
        if found.found and found.time_control is not None:
            fill = Fill(
                label=tr("Use {time_control}", time_control=found.time_control),
                form="time-control",
                values={"time_control": found.time_control,
                        "match": proposal_matches(core, found.matches)},
            )
        proposal = Proposal(
            text=found.text, time_control=found.time_control, fill=fill
        )
    replan = None
    if moved:
        cause = replan_cause(core, plan)
        replan = Replan(
            text=tr("Re-planned after {cause}", cause=cause), cause=cause,
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


def replan_cause(core: Core, plan: Plan) -> str:
    """What moved the schedule since the previous view, in words: the games that
    started or ended, and the arbiters' changes logged since ("the start of game 2
    of Final (reg. 6)")."""
    said: list[str] = []
    previous = core.ctx.previous_plan
    if previous is not None:
        before = {(g.match, g.game): g.status for g in previous.games}
        for g in plan.games:
            was = before.get((g.match, g.game))
            if was is None or was is g.status:
                continue
            where = core.game_words(g.match, g.game)
            if g.status is UnitStatus.RUNNING:
                said.append(tr("the start of {game}", game=where))
            elif g.status is UnitStatus.PLAYED:
                said.append(tr("the end of {game}", game=where))
    since = [t for t in dict.fromkeys(core.ctx.since)]
    listed: dict[str, object] = {c.event.type: c.event for c in core.state.changes}
    for kind in since:
        event = listed.get(kind)
        if kind == "result-corrected" and isinstance(event, ResultCorrected):
            said.append(tr("the correction of {game}",
                           game=core.game_words(event.match, event.game)))
        elif kind == "postponed" and isinstance(event, Postponed):
            said.append(tr("the postponement of {game}",
                           game=core.game_words(event.match, event.game)))
        elif kind == "start-moved" and isinstance(event, StartMoved):
            said.append(tr("the new start of {game}",
                           game=core.game_words(event.match, event.game)))
        elif kind in CAUSES:
            said.append(tr(CAUSES[kind]))
    return and_list(list(dict.fromkeys(said))) or tr("the time passing")


def proposal_matches(core: Core, matches: Sequence[int]) -> str:
    """The choice of the time-control form that covers the proposal's matches:
    every match not begun, or the one match."""
    if core.state.playoff is None:
        return ""
    not_begun = {
        m.id for m in core.state.chess.matches if not m.bye and not core.state.begun(m.id)
    }
    if len(matches) == 1 and set(matches) != not_begun:
        return str(matches[0])
    return ""


def moved_games(core: Core, plan: Plan) -> dict[tuple[int, int], Moved]:
    """Planned games whose start moved since the previous view (a start or an end
    of play is not a re-plan)."""
    previous = core.ctx.previous_plan
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
                from_start=was.start, from_end=was.end, delta=signed_minutes(delta)
            )
    return moved


def next_change_ms(core: Core) -> int | None:
    """The next instant the view changes with the time alone (see
    :func:`orchestrator.views.shared.next_change`), a rest a start would cut short
    among them, in server ms."""
    change = next_change(core.ctx.plan, core.ctx.now, core.instants)
    return None if change is None else core.ms(change)
