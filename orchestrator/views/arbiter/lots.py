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
from playoff_formats.formats.said import said_name
from playoff_formats.lots import CoinFace
from playoff_formats.model import Colour
from playoff_formats.playoff import (
    Match,
)
from playoff_formats.speech import marked, tr

__all__ = [
    "colours_panel",
    "lots_panel",
    "player_options",
    "toss_panel",
]


FACE_WORDS: dict[CoinFace, str] = {CoinFace.HEADS: marked("Heads"), CoinFace.TAILS: marked("Tails")}
"""A coin's face, as the arbiter's choice of the call."""

FACE_SAID: dict[str, str] = {CoinFace.HEADS.value: marked("heads"),
                             CoinFace.TAILS.value: marked("tails")}
"""A coin's face as a sentence says it."""


def face_word(face: object) -> str:
    """A face of the coin as a toss's record has it (``heads``), in words."""
    said = FACE_SAID.get(str(face))
    return tr(said) if said is not None else str(face)


def player_options(core: Core, match: Match, field: str) -> tuple[Option, ...]:
    return tuple(
        Option(value=p, label=core.name(p), sets={field: p})
        for p in match.players if p is not None
    )


def lots_panel(core: Core, match: Match, game: int = 1) -> LotsPanel:
    key = f"lots:{match.id}"
    # Game 1's drawing is sent as it always was; a later stage's names its game.
    at: dict[str, Any] = {} if game == 1 else {"game": game}
    what = tr("White in {game}", game=core.game_words(match.id, game))
    final = tr("A drawing of lots cannot be undone: its outcome sets the colours.")
    a, b = (core.name(p) for p in match.players)
    summary = (tr("Lots by the service, match {match}", match=match.id) if game == 1
               else tr("Lots by the service, match {match}, game {game}", match=match.id,
                       game=game))
    service = core.control(
        key, f"lots-service-{match.id}", tr("Draw lots (service, commit-reveal)"), summary,
        DrawLots(match=match.id, method="service", **at), primary=True,
        confirm=tr("Draw lots by the service for {what}: {a} or {b}. {final}", what=what,
                   a=a, b=b, final=final),
    )
    whites = player_options(core, match, "white")
    why = core.refusal(
        DrawLots(match=match.id, method="physical", white=whites[0].value, **at)
    )
    physical = Form(
        id=key, name=f"lots-physical-form-{match.id}", title=tr("Physical draw"),
        fields=(FormField(
            name="white", label=tr("Physical draw: White is"), input="select", options=whites,
            test_id=f"lots-white-{match.id}",
        ),),
        actions=(FormAction(
            name=f"lots-physical-{match.id}", label=tr("Record physical draw"),
            summary=tr("Physical lots, match {match}", match=match.id),
            command={"type": "lots", "match": match.id, "method": "physical", **at},
            confirm=tr("Record the physical draw: {what} is {white}. {final}", what=what,
                       white="{white}", final=final),
        ),),
        enabled=why is None, refusal=why,
    )
    stage = match.rules.stage_of(game)
    if game == 1:
        title = tr("Lots for White in game 1")
    elif stage is not None:
        title = tr("New drawing of colours: White in game {game} ({stage})", game=game,
                   stage=stage.name)
    else:
        title = tr("New drawing of colours: White in game {game}", game=game)
    return LotsPanel(title=title, service=service, physical=physical)


def toss_panel(core: Core, match: Match) -> TossPanel:
    key = f"toss:{match.id}"
    decider = match.rules.decider
    final = (
        tr("A coin toss cannot be undone: its winner advances.")
        if decider is not None and decider.by_lot
        else tr("A coin toss cannot be undone: its winner chooses the colours.")
    )
    what = core.round_name(match)
    callers = player_options(core, match, "caller")
    calls = tuple(
        Option(value=face.value, label=tr(FACE_WORDS[face]), sets={"call": face.value},
               name=f"toss-call-{face.value}-{match.id}")
        for face in CoinFace
    )
    why = core.refusal(TossCoin(
        match=match.id, method="service", caller=callers[0].value, call=CoinFace.HEADS
    ))
    service = Form(
        id=key, name=f"toss-form-{match.id}", title=tr("Toss by the service"),
        fields=(
            FormField(name="caller", label=tr("Who calls"), input="select", options=callers,
                      test_id=f"toss-caller-{match.id}"),
            FormField(name="call", label=tr("The call"), input="radio", options=calls,
                      value=CoinFace.HEADS.value, test_id=f"toss-call-{match.id}"),
        ),
        actions=(FormAction(
            name=f"toss-{match.id}", label=tr("Toss the coin (service, commit-reveal)"),
            summary=tr("Coin toss by the service, match {match}", match=match.id),
            command={"type": "coin-toss", "match": match.id, "method": "service"},
            primary=True,
            confirm=tr("Toss the coin by the service for {round}: {caller} calls {call}. "
                       "{final}", round=what, caller="{caller}", call="{call}", final=final),
        ),),
        enabled=why is None, refusal=why,
    )
    winners = player_options(core, match, "winner")
    why = core.refusal(TossCoin(match=match.id, method="physical", winner=winners[0].value))
    physical = Form(
        id=key, name=f"toss-physical-form-{match.id}", title=tr("Physical toss"),
        fields=(FormField(
            name="winner", label=tr("Physical toss: won by"), input="select", options=winners,
            test_id=f"toss-physical-winner-{match.id}",
        ),),
        actions=(FormAction(
            name=f"toss-physical-{match.id}", label=tr("Record physical toss"),
            summary=tr("Physical coin toss, match {match}", match=match.id),
            command={"type": "coin-toss", "match": match.id, "method": "physical"},
            confirm=tr("Record the physical toss for {round}: won by {winner}. {final}",
                       round=what, winner="{winner}", final=final),
        ),),
        enabled=why is None, refusal=why,
    )
    if decider is not None and decider.by_lot:
        title = said_name(decider.name)
        hint = (tr("The winner of the drawing advances ({rule}).", rule=decider.rule)
                if decider.rule else tr("The winner of the drawing advances."))
    else:
        name = said_name(decider.name) if decider is not None else tr("Decider")
        rule = decider.colours_citation if decider is not None else ""
        title = tr("{decider} coin toss", decider=name)
        hint = (tr("The winner of the toss chooses the colour ({rule}).", rule=rule)
                if rule else tr("The winner of the toss chooses the colour."))
    return TossPanel(title=title, hint=hint, service=service, physical=physical)


def colours_panel(core: Core, match: Match, toss: Draw) -> ColoursPanel:
    winner = toss.winner or ""
    loser = next((p for p in match.players if p is not None and p != winner), "")
    outcome = toss.record.get("outcome")
    if isinstance(outcome, dict) and outcome.get("face"):
        how = tr("{caller} called {call}; the coin showed {face}.",
                 caller=core.name(str(outcome.get("caller"))), call=face_word(outcome.get("call")),
                 face=face_word(outcome.get("face")))
    else:
        how = tr("Physical toss.")
    key = f"colours:{match.id}"
    control = match.decider
    decider = match.rules.decider
    name = said_name(decider.name) if decider is not None else tr("Decider")
    odds = decider.draw_odds_colour if decider is not None else None
    chooser = core.name(winner)
    if odds is not None:
        more_time = (
            control is not None
            and control.initial_ms(Colour.WHITE) > control.initial_ms(Colour.BLACK)
        )
        black_note = tr(" (draw odds)") if odds == "black" else ""
        white_note = tr(" (draw odds)") if odds == "white" else (
            tr(" (more time)") if more_time else "")
        if odds == "white":
            said = marked("{control}; a draw means White wins.")
        elif more_time:
            said = marked("White has more time ({control}); a draw means Black wins.")
        else:
            said = marked("{control}; a draw means Black wins.")
        hint = tr(said, control=control)
    else:
        hint = tr("{control}; a drawn game is followed by another, colours reversed.",
                  control=control)
        black_note = white_note = ""
    return ColoursPanel(
        title=tr("{decider} colours", decider=name),
        toss=how,
        winner=core.player(winner),
        hint=hint,
        choices=(
            core.control(
                key, f"colours-winner-black-{match.id}",
                tr("{player} takes Black{note}", player=chooser, note=black_note),
                tr("{decider} colours, match {match}: {player} Black", decider=name,
                   match=match.id, player=chooser),
                ChooseArmageddonColours(match=match.id, white=loser, black=winner),
                primary=True,
            ),
            core.control(
                key, f"colours-winner-white-{match.id}",
                tr("{player} takes White{note}", player=chooser, note=white_note),
                tr("{decider} colours, match {match}: {player} White", decider=name,
                   match=match.id, player=chooser),
                ChooseArmageddonColours(match=match.id, white=winner, black=loser),
            ),
        ),
    )
