"""The whole of the hall's view: its mode, what is on the stage, and when it changes."""

from __future__ import annotations

from typing import Literal

from orchestrator.views.hall import bracket as brackets
from orchestrator.views.hall import bridge
from orchestrator.views.hall.core import (
    CLOCK_STATUS_TEXT,
    Core,
    versus,
)
from orchestrator.views.hall.games import correction_notice, decider_banner, flag_notice, live_games
from orchestrator.views.hall.models import (
    BracketRound,
    BreakInForce,
    Countdown,
    HallMode,
    HallView,
    IdleHeadline,
    LiveGame,
    NextGame,
    PlacingRow,
    Scoreboard,
)
from orchestrator.views.hall.placings import placing_rows
from orchestrator.views.hall.schedule import break_in_force, stanza_change
from orchestrator.views.hall.schedule import next_game as next_game_view
from orchestrator.views.playoff import ClockView, clock_view
from orchestrator.views.shared import next_change, offset_minutes
from playoff_formats.formats.said import said_name
from playoff_formats.placings import PLACES_NOTE
from playoff_formats.playoff import (
    champion,
)
from playoff_formats.speech import spoken, tr

__all__ = [
    "idle",
    "next_change_ms",
    "schedule_note",
    "whole_view",
]


def whole_view(core: Core) -> HallView:
    state = core.state
    next_game = next_game_view(core)
    at_ms = core.ctx.server_ms
    clocks = {
        f"{key[0]}:{key[1]}": ClockView.model_validate(clock_view(key, clock, at_ms))
        for key, clock in sorted(state.clocks.items())
    }
    flag = None
    if state.extra is not None:
        extra = state.extra
        kind: Literal["knock-out", "extra-boards"] = "extra-boards"
        title = versus(core.name(t) for t in (extra.home, extra.away))
        subtitle = tr("Extra boards · {rule}", rule=extra.plan.rule)
        live: list[LiveGame] = []
        banner = None
        bracket: list[BracketRound] = []
        scoreboard: Scoreboard | None = bridge.scoreboard(core, extra)
        stanzas = bridge.stanzas(core, extra)
        champion_label = None
        over = extra.winner is not None
        placings: list[PlacingRow] = []
        mode: HallMode = "scoreboard"
        in_force = None if over else stanza_change(core, extra)
    else:
        playoff = state.chess
        kind = "knock-out"
        title = said_name(playoff.name)
        subtitle = " · ".join(
            said_name(s.name) for s in sorted(playoff.stages, key=lambda s: s.id)
        )
        live = live_games(core, playoff)
        winner = champion(playoff)
        over = winner is not None
        banner = None if over else decider_banner(core, playoff)
        bracket = brackets.bracket(core, playoff)
        scoreboard = None
        stanzas = []
        champion_label = core.player(winner) if winner is not None else None
        placings = placing_rows(core, winner) if winner is not None else []
        flag = flag_notice(core, playoff)
        if over:
            mode = "champion"
        elif live:
            mode = "games"
        elif next_game is not None:
            mode = "idle"
        else:
            mode = "waiting"
        in_force = None if over else break_in_force(core, next_game)
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
        server_ms=core.ctx.server_ms,
        utc_offset_minutes=offset_minutes(state, core.ctx.now),
        time_zone=state.time_zone,
        kind=kind,
        title=title,
        subtitle=subtitle,
        mode=mode,
        live=live,
        armageddon=banner,
        next=next_game,
        countdown=countdown,
        in_force=in_force,
        idle=idle(core, in_force) if mode == "idle" else None,
        flag=flag,
        correction=correction_notice(core),
        schedule_note=schedule_note(core, next_game, over),
        bracket=bracket,
        scoreboard=scoreboard,
        stanzas=stanzas,
        champion=champion_label,
        placings=placings,
        placings_note=tr(PLACES_NOTE) if placings else None,
        clock_status_text={
            status: tr(text) if text else text for status, text in CLOCK_STATUS_TEXT.items()
        },
        language=spoken().code,
        clocks=clocks,
        next_change_ms=None if over else next_change_ms(core),
    )


def idle(core: Core, in_force: BreakInForce | None) -> IdleHeadline:
    return IdleHeadline(
        label=in_force.label if in_force is not None else tr("Next game"),
        note=in_force.reason if in_force is not None else "",
    )


def schedule_note(core: Core, next_game: NextGame | None, over: bool) -> str | None:
    if over:
        return tr("The play-off is over.")
    if next_game is not None:
        return None
    if core.plan is None:
        reason = core.ctx.plan_error or tr("it cannot be planned")
        return tr("No schedule: {reason}.", reason=reason)
    if core.state.extra is not None:
        # The schedule holds the set in play; a tie after it repeats the set.
        return tr(
            "If still tied after stanza {stanza}, the extra boards are played again.",
            stanza=core.state.extra.current,
        )
    return tr("No game planned.")


def next_change_ms(core: Core) -> int | None:
    """The next instant after now at which the view changes with the time alone (see
    :func:`orchestrator.views.shared.next_change`)."""
    change = next_change(core.plan, core.ctx.now)
    return None if change is None else core.ms(change)
