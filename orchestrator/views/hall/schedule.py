"""The next game and the pause in force, as the hall says them (see the rules in
:mod:`orchestrator.views.hall`)."""

from __future__ import annotations

from datetime import datetime

from orchestrator.views.hall.core import (
    DUE_WITHIN,
    STANZA_DUE,
    Core,
    hall_reason,
    versus,
)
from orchestrator.views.hall.models import (
    BreakInForce,
    NextGame,
)
from playoff_formats.extra_boards import ExtraBoards
from playoff_formats.formats.said import said_name
from playoff_formats.phrase import and_list
from playoff_formats.schedule import (
    Break,
    BreakKind,
    Overrides,
    PlannedGame,
    UnitKind,
    UnitStatus,
)
from playoff_formats.speech import ntr, tr

__all__ = [
    "break_in_force",
    "changed_by_chief",
    "colours_awaited",
    "next_game",
    "overtaken",
    "stanza_change",
]


def next_game(core: Core) -> NextGame | None:
    """The earliest game of the schedule not started yet (schedule order on a tie)."""
    waiting = [
        (g.start, n, g) for n, g in enumerate(core.planned()) if g.status is UnitStatus.PLANNED
    ]
    if not waiting:
        return None
    planned = min(waiting, key=lambda item: (item[0], item[1]))[2]
    due = planned.start - core.ctx.now < DUE_WITHIN
    colours: str | None = None
    waits_for: str | None = None
    if planned.kind is UnitKind.STANZA:
        label = (
            ntr("Stanza {stanza} · {n} board", "Stanza {stanza} · {n} boards", planned.boards,
                stanza=planned.game)
            if planned.boards else tr("Stanza {stanza}", stanza=planned.game)
        )
        players = [core.player(p) for p in planned.players]
        colours_known = False
        vs = versus(p.name for p in players)
        if due:
            # The service learns a stanza has begun from its first score: until then
            # it is due, perhaps already played; never "starting now".
            waits_for = tr(STANZA_DUE)
    else:
        playoff = core.state.chess
        label = core.game_title(planned.match, planned.game)
        rules = playoff.match(planned.match).rules
        armageddon = planned.kind in (UnitKind.ARMAGEDDON, UnitKind.SUDDEN_DEATH)
        stage = rules.stage_of(planned.game)
        if armageddon and rules.decider is not None:
            label = tr("{game} · {decider}", game=label, decider=said_name(rules.decider.name))
        elif stage is not None and len(rules.stages) > 1:
            control = core.state.time_control(playoff.match(planned.match), planned.game)
            label = tr("{game} · {stage} · {time_control}", game=label,
                       stage=said_name(stage.name), time_control=control)
        if planned.tentative:
            label = tr("{game} (if needed)", game=label)
        game = playoff.game(planned.match, planned.game)
        colours_known = game is not None and game.white is not None and game.black is not None
        if game is not None and colours_known:
            players = [core.player(game.white), core.player(game.black)]
            vs = versus(p.short for p in players)
        else:
            players = [core.player(p) for p in planned.players]
            tossed = armageddon and rules.decider is not None and rules.decider.tossed
            colours = tr("colours by coin toss") if tossed else tr("colours by lot")
            vs = tr("{players} ({colours})", players=" – ".join(p.short for p in players),
                    colours=colours)
            if due:
                waits_for = colours_awaited(core, planned.match, tossed)
    estimate = not due and core.estimated(planned)
    at = core.at(planned.start)
    note = changed_by_chief(core, planned) or None
    if due and waits_for is not None:
        # Its time has come but it cannot start yet: say what it waits for, never
        # "starting now".
        return NextGame(
            match=planned.match, game=planned.game, kind=planned.kind.value, label=label,
            players=players, colours_known=colours_known, colours=colours, vs=vs,
            tentative=planned.tentative, due_ms=core.ms(planned.start), at=at,
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
        due_ms=core.ms(planned.start),
        at=at,
        estimate=estimate,
        when=tr("starting now") if due else tr("about {time}", time=at) if estimate else at,
        due=due,
        due_text=tr("starting now") if due else None,
        note=note,
    )


def changed_by_chief(core: Core, planned: PlannedGame) -> str:
    """What the chief arbiter changed of a game still to play, for spectators: its
    start (with the reason only if the chief arbiter chose to show it) and a
    shortened time control."""
    said = []
    for pin in core.state.overrides.pins:
        if (pin.match, pin.game) == (planned.match, planned.game):
            said.append(pin.words(core.at(pin.start), public=True))
    if planned.kind is not UnitKind.STANZA and core.state.playoff is not None:
        match = core.state.chess.match(planned.match)
        kind = match.kind_of(planned.game)
        now = core.state.time_control(match, planned.game)
        before = Overrides().time_control_for(match, planned.game, kind, None)
        if now is not None and now != before:
            said.append(tr("time control shortened to {time_control} by the chief arbiter",
                           time_control=now))
    return "; ".join(said)


def colours_awaited(core: Core, match_id: int, tossed: bool) -> str:
    """What a due game without colours waits for, in the hall's words."""
    if not tossed:
        return tr("waiting for the arbiter: colours to be drawn")
    if core.state.draws_of("coin-toss", match_id):
        return tr("waiting for the winner of the coin toss to choose colours")
    return tr("waiting for the arbiter: the coin toss")


def break_in_force(core: Core, next_game: NextGame | None) -> BreakInForce | None:
    if core.plan is None or core.in_play:
        return None
    now = core.ctx.now
    under_way = [
        b for b in core.plan.breaks
        if b.start <= now < b.end and not overtaken(core, b)
    ]
    if not under_way:
        return None
    next_players: set[str] = set()
    if next_game is not None:
        planned = core.plan.game(next_game.match, next_game.game)
        next_players = set(planned.players)

    def precedence(b: Break) -> tuple[bool, bool, datetime]:
        return (b.kind is not BreakKind.MAIN_EVENT, not next_players & set(b.who), b.end)

    chosen = min(under_way, key=precedence)
    main = chosen.kind is BreakKind.MAIN_EVENT
    return BreakInForce(
        kind="main-event" if main else "interval",
        label=tr("Break after the main event") if main else tr("Interval"),
        reason=hall_reason(chosen),
        who=and_list(core.short(w) for w in chosen.who),
        start_ms=core.ms(chosen.start),
        end_ms=core.ms(chosen.end),
    )


def overtaken(core: Core, brk: Break) -> bool:
    """One of the break's players started a game since it began: the break is over.

    The game the break follows ends when the break starts: it does not count,
    even when it lasted no time at all (a result entered at once)."""
    resting = set(brk.who)
    return any(
        g.status is not UnitStatus.PLANNED
        and g.start >= brk.start
        and (g.status is UnitStatus.RUNNING or g.end > brk.start)
        and resting & set(g.players)
        for g in core.planned()
    )


def stanza_change(core: Core, extra: ExtraBoards) -> BreakInForce | None:
    """From a complete stanza's end to the next stanza's first score."""
    current = extra.current
    if current == 1 or (1, current) in core.state.started_at:
        return None
    ended = core.state.ended_at.get((1, current - 1))
    if ended is None:
        return None
    per_set = len(extra.plan.stanzas)
    boards = extra.stanzas[current - 1]
    changes = extra.plan.partner_changes[(current - 2) % per_set]
    if (current - 1) % per_set == 0:
        head = tr("Still tied after stanza {stanza}: the extra boards are played again",
                  stanza=current - 1)
    else:
        head = tr("Stanza {stanza} complete", stanza=current - 1)
    reason = ntr("{before}; stanza {stanza} next, {n} board",
                 "{before}; stanza {stanza} next, {n} boards", boards, before=head,
                 stanza=current)
    if changes:
        reason = tr("{before}; partners change", before=reason)
    return BreakInForce(
        kind="stanza-change",
        label=tr("Stanza change"),
        reason=reason,
        who=and_list(core.name(t) for t in (extra.home, extra.away)),
        start_ms=core.ms(ended),
        end_ms=None,
    )
