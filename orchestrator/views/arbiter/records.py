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
from orchestrator.views.arbiter.clocks import SIDE_WORDS
from orchestrator.views.arbiter.core import (
    Core,
    by_role,
    capital,
)
from orchestrator.views.arbiter.corrections import voided_words
from orchestrator.views.arbiter.lots import face_word
from orchestrator.views.arbiter.models import (
    ChangeView,
    DrawView,
)
from playoff_formats.formats.said import said_name
from playoff_formats.model import Colour
from playoff_formats.speech import marked, tr
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
        text = tr("Lots, {round}: {player} has White in game {game}", round=where,
                  player=core.name(draw.white), game=draw.game)
    else:
        outcome = record.get("outcome")
        how = ""
        if isinstance(outcome, dict) and outcome.get("face"):
            how = tr("{caller} called {call}, the coin showed {face}; ",
                     caller=core.name(str(outcome.get("caller"))),
                     call=face_word(outcome.get("call")), face=face_word(outcome.get("face")))
        decider = core.state.chess.match(draw.match).rules.decider
        name = said_name(decider.name) if decider is not None else tr("Armageddon")
        what = (name if decider is not None and decider.by_lot
                else tr("{decider} coin toss", decider=name))
        text = tr("{what}, {round}: {how}won by {player}", what=what, round=where, how=how,
                  player=core.name(draw.winner))
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
        text = capital(tr("{game} postponed by {minutes} min, to {time}",
                          game=core.game_words(event.match, event.game),
                          minutes=event.minutes, time=core.time(event.at)))
    elif isinstance(event, StartMoved):
        text = tr("Start of {game} moved to {time}",
                  game=core.game_words(event.match, event.game), time=core.time(event.at))
    elif isinstance(event, ClockAdjusted):
        seconds = f"{abs(event.delta_ms) / 1000:g}"
        game = core.state.chess.game(event.match, event.game) if core.state.playoff else None
        side = tr(SIDE_WORDS[event.side])
        if game is not None:
            side = tr("{side} ({player})", side=side, player=core.name(
                game.white if event.side is Colour.WHITE else game.black))
        where = core.game_words(event.match, event.game)
        said = (marked("Gave {seconds} s to {side} in {game}") if event.delta_ms >= 0
                else marked("Took {seconds} s from {side} in {game}"))
        text = tr(said, seconds=seconds, side=side, game=where)
    elif isinstance(event, ResultCorrected):
        written = result_written(event.result)
        text = tr("Result of {game} corrected to {result}",
                  game=core.game_words(event.match, event.game), result=written)
        voided = tuple(voided_words(core, g, core.state.chess) for g in event.voided)
        if event.champion_before is not None:
            voided += (tr("{player} as champion, and the final placings",
                          player=core.name(event.champion_before)),)
    elif isinstance(event, TimeControlShortened):
        which = (core.round_of(event.match) if event.match is not None
                 else tr("every match not begun"))
        text = tr("Time control shortened to {time_control} for {matches}",
                  time_control=event.time_control, matches=which)
    elif isinstance(event, DeadlineSet):
        text = (tr("Deadline cleared") if event.deadline is None
                else tr("Deadline set to {time}", time=core.time(event.deadline)))
    elif isinstance(event, GameStarted):
        set_aside = "; ".join(event.overridden)
        text = capital(tr("{game} started early by the chief arbiter, setting aside: {rests}",
                          game=core.game_words(event.match, event.game), rests=set_aside))
        reason = event.override
    else:
        text = capital(event.describe(core.state.names, core.state.zone))
    return ChangeView(
        seq=change.seq, type=event.type, at=change.recorded_at, actor=change.actor,
        when=core.time(change.recorded_at), by=by_role(change.actor),
        text=text, reason=str(reason) if reason else None, voided=voided,
    )
