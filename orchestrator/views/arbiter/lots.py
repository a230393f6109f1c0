"""Lots, coin tosses and the toss winner's choice of colours.

Lots and coin tosses cannot be undone: each, by the service or recorded from a
physical draw, is sent only after a confirmation saying what it draws (the
physical one quoting the player chosen) and what follows from it.
"""

from __future__ import annotations

from typing import Any

from orchestrator.core.commands import (
    ChooseArmageddonColours,
    DrawLots,
    TossCoin,
)
from orchestrator.core.state import Draw
from orchestrator.views.arbiter.core import (
    Core,
)
from orchestrator.views.arbiter.forms import (
    Form,
    FormAction,
    FormField,
    Option,
)
from orchestrator.views.arbiter.models import (
    ColoursPanel,
    LotsPanel,
    TossPanel,
)
from playoff_formats.lots import CoinFace
from playoff_formats.model import Colour
from playoff_formats.playoff import (
    Match,
)

__all__ = [
    "colours_panel",
    "lots_panel",
    "player_options",
    "toss_panel",
]


def player_options(core: Core, match: Match, field: str) -> tuple[Option, ...]:
    return tuple(
        Option(value=p, label=core.name(p), sets={field: p})
        for p in match.players if p is not None
    )


def lots_panel(core: Core, match: Match, game: int = 1) -> LotsPanel:
    key = f"lots:{match.id}"
    # Game 1's drawing is sent as it always was; a later stage's names its game.
    at: dict[str, Any] = {} if game == 1 else {"game": game}
    what = f"White in {core.game_words(match.id, game)}"
    final = "A drawing of lots cannot be undone: its outcome sets the colours."
    a, b = (core.name(p) for p in match.players)
    service = core.control(
        key, f"lots-service-{match.id}", "Draw lots (service, commit-reveal)",
        f"Lots by the service, match {match.id}"
        + ("" if game == 1 else f", game {game}"),
        DrawLots(match=match.id, method="service", **at), primary=True,
        confirm=f"Draw lots by the service for {what}: {a} or {b}. {final}",
    )
    whites = player_options(core, match, "white")
    why = core.refusal(
        DrawLots(match=match.id, method="physical", white=whites[0].value, **at)
    )
    physical = Form(
        id=key, name=f"lots-physical-form-{match.id}", title="Physical draw",
        fields=(FormField(
            name="white", label="Physical draw: White is", input="select", options=whites,
            test_id=f"lots-white-{match.id}",
        ),),
        actions=(FormAction(
            name=f"lots-physical-{match.id}", label="Record physical draw",
            summary=f"Physical lots, match {match.id}",
            command={"type": "lots", "match": match.id, "method": "physical", **at},
            confirm=f"Record the physical draw: {what} is {{white}}. {final}",
        ),),
        enabled=why is None, refusal=why,
    )
    stage = match.rules.stage_of(game)
    title = "Lots for White in game 1" if game == 1 else (
        f"New drawing of colours: White in game {game}"
        + (f" ({stage.name})" if stage is not None else "")
    )
    return LotsPanel(title=title, service=service, physical=physical)


def toss_panel(core: Core, match: Match) -> TossPanel:
    key = f"toss:{match.id}"
    decider = match.rules.decider
    final = "A coin toss cannot be undone: " + (
        "its winner advances." if decider is not None and decider.by_lot
        else "its winner chooses the colours."
    )
    what = core.round_name(match)
    callers = player_options(core, match, "caller")
    calls = tuple(
        Option(value=face.value, label=face.value.capitalize(), sets={"call": face.value},
               name=f"toss-call-{face.value}-{match.id}")
        for face in CoinFace
    )
    why = core.refusal(TossCoin(
        match=match.id, method="service", caller=callers[0].value, call=CoinFace.HEADS
    ))
    service = Form(
        id=key, name=f"toss-form-{match.id}", title="Toss by the service",
        fields=(
            FormField(name="caller", label="Who calls", input="select", options=callers,
                      test_id=f"toss-caller-{match.id}"),
            FormField(name="call", label="The call", input="radio", options=calls,
                      value=CoinFace.HEADS.value, test_id=f"toss-call-{match.id}"),
        ),
        actions=(FormAction(
            name=f"toss-{match.id}", label="Toss the coin (service, commit-reveal)",
            summary=f"Coin toss by the service, match {match.id}",
            command={"type": "coin-toss", "match": match.id, "method": "service"},
            primary=True,
            confirm=f"Toss the coin by the service for {what}: {{caller}} calls {{call}}. "
                    f"{final}",
        ),),
        enabled=why is None, refusal=why,
    )
    winners = player_options(core, match, "winner")
    why = core.refusal(TossCoin(match=match.id, method="physical", winner=winners[0].value))
    physical = Form(
        id=key, name=f"toss-physical-form-{match.id}", title="Physical toss",
        fields=(FormField(
            name="winner", label="Physical toss: won by", input="select", options=winners,
            test_id=f"toss-physical-winner-{match.id}",
        ),),
        actions=(FormAction(
            name=f"toss-physical-{match.id}", label="Record physical toss",
            summary=f"Physical coin toss, match {match.id}",
            command={"type": "coin-toss", "match": match.id, "method": "physical"},
            confirm=f"Record the physical toss for {what}: won by {{winner}}. {final}",
        ),),
        enabled=why is None, refusal=why,
    )
    if decider is not None and decider.by_lot:
        title = decider.name
        hint = "The winner of the drawing advances" + (
            f" ({decider.rule})." if decider.rule else "."
        )
    else:
        name = decider.name if decider is not None else "Decider"
        rule = decider.colours_citation if decider is not None else ""
        title = f"{name} coin toss"
        hint = "The winner of the toss chooses the colour" + (
            f" ({rule})." if rule else "."
        )
    return TossPanel(title=title, hint=hint, service=service, physical=physical)


def colours_panel(core: Core, match: Match, toss: Draw) -> ColoursPanel:
    winner = toss.winner or ""
    loser = next((p for p in match.players if p is not None and p != winner), "")
    outcome = toss.record.get("outcome")
    if isinstance(outcome, dict) and outcome.get("face"):
        how = (f"{core.name(str(outcome.get('caller')))} called {outcome.get('call')}; "
               f"the coin showed {outcome.get('face')}.")
    else:
        how = "Physical toss."
    key = f"colours:{match.id}"
    control = match.decider
    decider = match.rules.decider
    name = decider.name if decider is not None else "Decider"
    odds = decider.draw_odds_colour if decider is not None else None
    if odds is not None:
        black_note = " (draw odds)" if odds == "black" else ""
        white_note = " (draw odds)" if odds == "white" else ""
        if control is not None and control.initial_ms(Colour.WHITE) > control.initial_ms(
            Colour.BLACK
        ):
            white_note = white_note or " (more time)"
        hint = (
            f"White has more time ({control}); a draw means {odds.capitalize()} wins."
            if white_note == " (more time)" else f"{control}; a draw means "
            f"{odds.capitalize()} wins."
        )
    else:
        hint = f"{control}; a drawn game is followed by another, colours reversed."
        black_note = white_note = ""
    return ColoursPanel(
        title=f"{name} colours",
        toss=how,
        winner=core.player(winner),
        hint=hint,
        choices=(
            core.control(
                key, f"colours-winner-black-{match.id}",
                f"{core.name(winner)} takes Black{black_note}",
                f"{name} colours, match {match.id}: {core.name(winner)} Black",
                ChooseArmageddonColours(match=match.id, white=loser, black=winner),
                primary=True,
            ),
            core.control(
                key, f"colours-winner-white-{match.id}",
                f"{core.name(winner)} takes White{white_note}",
                f"{name} colours, match {match.id}: {core.name(winner)} White",
                ChooseArmageddonColours(match=match.id, white=winner, black=loser),
            ),
        ),
    )
