"""The results a game's panel offers, and what each would decide.

Before a game starts only the forfeit results are offered; once it has started,
the results over the board too. Each is offered only if the service accepts it (a
decider game takes no double forfeit: it must leave a successful player), and each
asks for a confirmation that says what it records and what it decides.
"""

from __future__ import annotations

from orchestrator.core.commands import (
    RecordResult,
)
from orchestrator.core.state import PlayoffState
from orchestrator.views.arbiter.core import (
    RESULT_NAMES,
    Core,
    capital,
)
from orchestrator.views.arbiter.forms import (
    Control,
)
from playoff_formats.formats.said import said_name
from playoff_formats.playoff import (
    Game,
    Match,
    final_match,
)
from playoff_formats.speech import marked, tr
from playoff_formats.words import (
    count,
    result_said,
    result_written,
)

__all__ = [
    "DECIDES",
    "FINAL_WORDS",
    "ROUND_WORDS",
    "consequences",
    "result_controls",
]


ROUND_WORDS: dict[str, str] = {
    "instead": marked("{player} wins {round} instead of {other}"),
    "wins": marked("{player} wins {round}"),
    "undone": marked("{round} is undecided again: {player} no longer advances"),
}
"""A match's winner changed, decided or undone by a result."""

FINAL_WORDS: dict[str, str] = {
    "instead": marked("{player} is the champion instead of {other}"),
    "wins": marked("{player} is the champion"),
    "undone": marked("{round} is undecided again: {player} no longer the champion"),
}
"""The final's winner changed, decided or undone by a result."""

DECIDES: dict[tuple[bool, bool], str] = {
    (False, False): marked("{round} is level after {count} games: a {decider} decides it"),
    (False, True): marked(
        "{round} is level after {count} games: a {decider} decides it ({rule})"),
    (True, False): marked("{round} is level after {count} games: an {decider} decides it"),
    (True, True): marked(
        "{round} is level after {count} games: an {decider} decides it ({rule})"),
}
"""A match level after its regular games: (the decider's name takes "an", a rule
cited) -> its words."""


def result_controls(core: Core, match: Match, game: Game, started: bool) -> tuple[Control, ...]:
    """The results that make sense now: before the start only the forfeits, then
    also the results over the board; each one the service accepts, confirmed."""
    clock_key = f"{match.id}:{game.number}"
    offered = []
    for result, name in RESULT_NAMES.items():
        written, words = result_written(result), result_said(result)
        if result.played and not started:
            continue
        command = RecordResult(match=match.id, game=game.number, result=result)
        after = core.after(command)
        if after is None:
            continue
        confirm = tr(
            "Record {result} ({words}) in {game}: {outcome}.", result=written, words=words,
            game=core.game_words(match.id, game.number),
            outcome=core.outcome_words(game, result, past=False),
        )
        then = consequences(core, after)
        if then:
            confirm += " " + " ".join(capital(t) + "." for t in then)
        offered.append(Control(
            id=f"result:{clock_key}", name=name, label=written, detail=words,
            summary=tr("Result {result}, match {match}, game {game}", result=written,
                       match=match.id, game=game.number),
            command=command, enabled=True, confirm=confirm,
        ))
    return tuple(offered)


def consequences(core: Core, after: PlayoffState) -> list[str]:
    """How the matches' outcomes differ in ``after``: winners decided, changed or
    undone, and deciders needed."""
    before, now = core.state.chess, after.chess
    said = []
    final = final_match(now).id
    for match in now.matches:
        if match.bye:
            continue
        was = before.match(match.id).decision
        old = was.winner if was is not None else None
        new = match.decision.winner if match.decision is not None else None
        round_name = core.round_name(match)
        words = FINAL_WORDS if match.id == final else ROUND_WORDS
        if old != new:
            if new is not None and old is not None:
                said.append(tr(words["instead"], player=core.name(new), round=round_name,
                               other=core.name(old)))
            elif new is not None:
                said.append(tr(words["wins"], player=core.name(new), round=round_name))
            elif old is not None:
                said.append(tr(words["undone"], player=core.name(old), round=round_name))
        rules = match.rules if not match.bye else None
        if rules is None or rules.decider is None:
            continue
        number = rules.decider_number
        armageddon = now.game(match.id, number)
        if (
            armageddon is not None and armageddon.kind.decider
            and armageddon.result is None and match.decision is None
            and before.game(match.id, number) is None
        ):
            name, rule = rules.decider.name, rules.decider.rule
            # English's article follows the decider's name; other languages say it
            # their own way from the name alone.
            said.append(tr(
                DECIDES[(name[:1].lower() in "aeio", bool(rule))],
                round=round_name, count=count(rules.regular_games),
                decider=said_name(name), rule=rule,
            ))
    return said
