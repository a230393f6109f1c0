"""The records the console lists: the lots and tosses drawn, with their published
record to check, and the changes arbiters made by hand, in words."""

from __future__ import annotations

from typing import Literal

from orchestrator.core.events import (
    ClockAdjusted,
    DeadlineSet,
    GameStarted,
    Postponed,
    ResultCorrected,
    StartMoved,
    TimeControlShortened,
)
from orchestrator.core.state import ArbiterChange, Draw
from orchestrator.views.arbiter.core import (
    Core,
    by_role,
    capital,
)
from orchestrator.views.arbiter.corrections import voided_words
from orchestrator.views.arbiter.models import (
    ChangeView,
    DrawView,
)
from playoff_formats.model import Colour
from playoff_formats.words import (
    result_written,
)

__all__ = [
    "change_view",
    "draw_view",
]


def draw_view(core: Core, draw: Draw) -> DrawView:
    record = dict(draw.record)
    where = core.round_of(draw.match)
    if draw.kind == "lots":
        text = f"Lots, {where}: {core.name(draw.white)} has White in game {draw.game}"
    else:
        outcome = record.get("outcome")
        how = ""
        if isinstance(outcome, dict) and outcome.get("face"):
            how = (f"{core.name(str(outcome.get('caller')))} called {outcome.get('call')}, "
                   f"the coin showed {outcome.get('face')}; ")
        decider = core.state.chess.match(draw.match).rules.decider
        name = decider.name if decider is not None else "Armageddon"
        what = name if decider is not None and decider.by_lot else f"{name} coin toss"
        text = f"{what}, {where}: {how}won by {core.name(draw.winner)}"
    method: Literal["commit-reveal", "physical"] = (
        "commit-reveal" if record.get("method") == "commit-reveal" else "physical"
    )
    conducted = record.get("conducted_by")
    return DrawView(
        seq=draw.seq, kind=draw.kind, match=draw.match, text=text, method=method,
        conducted_by=str(conducted) if conducted else None, record=record,
    )


def change_view(core: Core, change: ArbiterChange) -> ChangeView:
    event = change.event
    voided: tuple[str, ...] = ()
    reason: str | None = getattr(event, "reason", None)
    if isinstance(event, Postponed):
        text = (f"{capital(core.game_words(event.match, event.game))} postponed by "
                f"{event.minutes} min, to {core.time(event.at)}")
    elif isinstance(event, StartMoved):
        text = (f"Start of {core.game_words(event.match, event.game)} moved to "
                f"{core.time(event.at)}")
    elif isinstance(event, ClockAdjusted):
        seconds = f"{abs(event.delta_ms) / 1000:g} s"
        game = core.state.chess.game(event.match, event.game) if core.state.playoff else None
        who = ""
        if game is not None:
            who = f" ({core.name(game.white if event.side is Colour.WHITE else game.black)})"
        side = f"{event.side.value.capitalize()}{who}"
        where = core.game_words(event.match, event.game)
        text = (f"Gave {seconds} to {side} in {where}" if event.delta_ms >= 0
                else f"Took {seconds} from {side} in {where}")
    elif isinstance(event, ResultCorrected):
        written = result_written(event.result)
        text = (f"Result of {core.game_words(event.match, event.game)} corrected to "
                f"{written}")
        voided = tuple(voided_words(core, g, core.state.chess) for g in event.voided)
        if event.champion_before is not None:
            voided += (f"{core.name(event.champion_before)} as champion, and the final "
                       "placings",)
    elif isinstance(event, TimeControlShortened):
        which = (core.round_of(event.match) if event.match is not None
                 else "every match not begun")
        text = f"Time control shortened to {event.time_control} for {which}"
    elif isinstance(event, DeadlineSet):
        text = ("Deadline cleared" if event.deadline is None
                else f"Deadline set to {core.time(event.deadline)}")
    elif isinstance(event, GameStarted):
        set_aside = "; ".join(event.overridden)
        text = (f"{capital(core.game_words(event.match, event.game))} started early by "
                f"the chief arbiter, setting aside: {set_aside}")
        reason = event.override
    else:
        text = capital(event.describe(core.state.names, core.state.zone))
    return ChangeView(
        seq=change.seq, type=event.type, at=change.recorded_at, actor=change.actor,
        when=core.time(change.recorded_at), by=by_role(change.actor),
        text=text, reason=str(reason) if reason else None, voided=voided,
    )
