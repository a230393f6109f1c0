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
from playoff_formats.playoff import (
    Game,
    Match,
    final_match,
)
from playoff_formats.words import (
    count,
    result_said,
    result_written,
)

__all__ = [
    "consequences",
    "result_controls",
]


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
        confirm = (
            f"Record {written} ({words}) in {core.game_words(match.id, game.number)}: "
            f"{core.outcome_words(game, result, past=False)}."
        )
        then = consequences(core, after)
        if then:
            confirm += " " + " ".join(capital(t) + "." for t in then)
        offered.append(Control(
            id=f"result:{clock_key}", name=name, label=written, detail=words,
            summary=f"Result {written}, match {match.id}, game {game.number}",
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
        wins = "is the champion" if match.id == final else f"wins {round_name}"
        if old != new:
            if new is not None and old is not None:
                said.append(f"{core.name(new)} {wins} instead of {core.name(old)}")
            elif new is not None:
                said.append(f"{core.name(new)} {wins}")
            elif old is not None:
                said.append(f"{round_name} is undecided again: {core.name(old)} no longer "
                            f"{'the champion' if match.id == final else 'advances'}")
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
            said.append(
                f"{round_name} is level after {count(rules.regular_games)} games: "
                f"{'an' if name[:1].lower() in 'aeio' else 'a'} {name} decides it"
                + (f" ({rule})" if rule else "")
            )
    return said
