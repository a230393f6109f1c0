"""Flag falls and corrections of results.

- **Corrections.** Each game with a result has its own correction form, for the
  results the service would accept there. For each, the form says what the
  correction voids (the games played or under way downstream, the winners that
  change, the champion and the final placings), as
  :meth:`orchestrator.core.commands.CorrectResult.preview` gives it; those need the
  confirmation checkbox, which sends ``confirm: true``.
- **Flag falls.** When the server has scored a flag fall the match says so
  ("White's flag fell: 0-1") and quotes FIDE Laws of Chess art. 6.9 (the game is
  drawn if the opponent cannot checkmate by any possible series of legal moves),
  with the correction to ½-½ prefilled, needing only its reason, for as long as
  the flag's result stands and no later game has started (which flag, and until
  when: :func:`orchestrator.views.shared.flag_fall`, as the hall has it).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pydantic import JsonValue

from orchestrator.core.commands import (
    CorrectResult,
)
from orchestrator.core.events import (
    ResultCorrected,
    VoidedGame,
)
from orchestrator.core.state import PlayoffState
from orchestrator.views.arbiter.core import (
    FIDE_6_9,
    PROBE_REASON,
    RESULT_NAMES,
    Core,
    capital,
    decider_word,
)
from orchestrator.views.arbiter.forms import (
    Caution,
    Form,
    FormAction,
    FormField,
    Option,
    reason_field,
)
from orchestrator.views.arbiter.models import (
    FlagNotice,
)
from orchestrator.views.arbiter.results import consequences
from orchestrator.views.shared import flag_fall
from playoff_formats.model import Colour, Result
from playoff_formats.playoff import (
    Game,
    Match,
    Playoff,
)
from playoff_formats.speech import marked, tr
from playoff_formats.words import (
    result_said,
    result_written,
)

__all__ = [
    "correct_form",
    "correction_form",
    "flag_notice",
    "voided_words",
    "voids_caution",
]


def flag_notice(core: Core, match: Match, games: Sequence[Game]) -> FlagNotice | None:
    """The latest flag fall the server scored in this match, while its result stands
    and nothing has started since (the moment for FIDE art. 6.9)."""
    fall = flag_fall(core.state, core.ctx.now, match.id)
    game = next((g for g in games if fall is not None and g.number == fall.game), None)
    if fall is None or game is None or fall.ended is None:
        return None
    side = fall.side
    loss = Result.BLACK_WINS if side is Colour.WHITE else Result.WHITE_WINS
    if game.result is not loss:
        return None
    flagged = game.white if side is Colour.WHITE else game.black
    opponent = game.black if side is Colour.WHITE else game.white
    written = result_written(loss)
    fell = (marked("White's flag fell: {result}") if side is Colour.WHITE
            else marked("Black's flag fell: {result}"))
    return FlagNotice(
        game=game.number,
        side=side,
        text=tr(fell, result=written),
        detail=tr(
            "{player} ran out of time in {game}; the server scored it {result} for {opponent}.",
            player=core.name(flagged), game=core.game_words(match.id, game.number),
            result=written, opponent=core.name(opponent),
        ),
        rule=tr(FIDE_6_9),
        correct=correction_form(
            core, match, game, (Result.DRAW,), name=f"flag-correct-{match.id}-{game.number}",
            title=tr("Correct to ½-½ (FIDE art. 6.9)"), prefix="flag",
            label=tr("Correct to ½-½: {opponent} could not checkmate",
                     opponent=core.name(opponent)),
        ),
    )


def correct_form(core: Core, match: Match, game: Game) -> Form | None:
    """The correction of a game's result, from its own row (None while it has none)."""
    if game.result is None:
        return None
    others = tuple(r for r in RESULT_NAMES if r is not game.result)
    return correction_form(
        core, match, game, others, name=f"correct-{match.id}-{game.number}",
        title=tr("Correct the result"), prefix="cr", label=tr("Correct"),
    )


def correction_form(
    core: Core, match: Match, game: Game, results: Iterable[Result], *, name: str, title: str,
    prefix: str, label: str,
) -> Form | None:
    """A correction form for ``results`` (those the service accepts here): each with
    what it voids; those need the confirmation, sent as ``confirm``."""
    ident = {"match": match.id, "game": game.number}
    options = []
    voiding = []
    for result in results:
        probe = CorrectResult(**ident, result=result, reason=PROBE_REASON, confirm=True)
        after = core.after(probe)
        if after is None:
            continue
        corrected = probe.preview(core.state)
        caution = voids_caution(core, corrected, after)
        written, words = result_written(result), result_said(result)
        if corrected.voids:
            voiding.append(result.value)
        options.append(Option(
            value=result.value, label=tr("{result} {words}", result=written, words=words),
            sets={"result": result.value},
            caution=caution,
        ))
    if not options:
        return None
    now = result_written(game.result) if game.result is not None else ""
    where = core.game_words(match.id, game.number)
    fields: list[FormField] = []
    command: dict[str, JsonValue] = {"type": "correct", **ident}
    if len(options) == 1:
        command.update(options[0].sets)
        hint = tr("Now {result}.", result=now)
        caution = options[0].caution
        if caution is not None:
            hint += " " + tr("{caution} {items}.", caution=caution.text,
                             items="; ".join(caution.items))
    else:
        fields.append(FormField(
            name="result", label=tr("Correct result"), input="select", options=tuple(options),
            placeholder=tr("Choose the correct result"), test_id=f"{prefix}-result",
        ))
        hint = tr("Now {result}. What the correction voids is listed with each result.",
                  result=now)
    fields.append(reason_field(f"{prefix}-reason"))
    if voiding:
        fields.append(FormField(
            name="confirm", label=tr("I confirm: void what is listed above"),
            input="checkbox", test_id=f"{prefix}-confirm",
            shown_when={"result": tuple(voiding)} if len(options) > 1 else {},
        ))
    return Form(
        id=f"result:{match.id}:{game.number}", name=name, title=title,
        hint=hint.strip(),
        fields=tuple(fields),
        actions=(FormAction(
            name=f"{prefix}-submit", label=label,
            summary=tr("Correct {game} to {result}", game=where, result="{result}"),
            command=command, primary=True,
        ),),
        enabled=True,
    )


def voids_caution(core: Core, corrected: ResultCorrected, after: PlayoffState) -> Caution | None:
    """What a correction throws away, in words: games played or under way, the
    winners that change, the champion and the final placings; or, when it voids
    nothing, the winners it changes."""
    items = [voided_words(core, g, after.chess) for g in corrected.voided]
    items += [capital(t) for t in consequences(core, after)]
    if corrected.champion_before is not None:
        items.append(tr("{player} as champion, and the final placings",
                        player=core.name(corrected.champion_before)))
    if not items:
        return None
    text = tr("This correction voids:") if corrected.voids else tr("This correction changes:")
    return Caution(text=text, items=tuple(items))


def voided_words(core: Core, game: VoidedGame, after: Playoff) -> str:
    """A game a correction voids: where, who, how it stood, and whether it is
    played again (it is still in the bracket ``after`` the correction, between
    other players) or no longer played at all."""
    where = tr("{round}, {game}", round=core.round_of(game.match),
               game=decider_word(core.state.chess.match(game.match), game.game))
    players = " – ".join(core.name(p) for p in (game.white, game.black) if p)
    again = after.game(game.match, game.game) is not None
    if game.result is None:
        said = (marked("{game}: {players}, under way, to be played again") if again
                else marked("{game}: {players}, under way, no longer played"))
        return tr(said, game=where, players=players)
    said = (marked("{game}: {players} {result}, to be played again") if again
            else marked("{game}: {players} {result}, no longer played"))
    return tr(said, game=where, players=players, result=result_written(game.result))
