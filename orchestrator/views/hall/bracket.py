"""The bracket: rounds in the order they are played, each player's marks and
total, and how each match was decided."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from orchestrator.views.hall.core import (
    Core,
)
from orchestrator.views.hall.models import (
    BracketMark,
    BracketMatch,
    BracketPlayer,
    BracketRound,
    PlayerLabel,
)
from orchestrator.views.shared import uncited
from playoff_formats.formats.said import said_name
from playoff_formats.playoff import (
    DecisionMethod,
    Game,
    Match,
    MatchDecision,
    Playoff,
    final_match,
    match_score,
)
from playoff_formats.speech import tr
from playoff_formats.words import (
    points,
)

__all__ = [
    "bracket",
    "bracket_match",
    "bracket_player",
    "decision_text",
]


def bracket(core: Core, playoff: Playoff) -> list[BracketRound]:
    stage_order = {s.id: n for n, s in enumerate(sorted(playoff.stages, key=lambda s: s.id))}
    rounds = sorted(playoff.rounds, key=lambda r: (stage_order[r.stage], r.number))
    final = final_match(playoff).id
    shown = []
    for r in rounds:
        matches = sorted(
            (m for m in playoff.matches if (m.stage, m.round) == (r.stage, r.number)),
            key=lambda m: (m.number, m.id),
        )
        if not matches:
            continue
        status: Literal["to play", "playing", "played"] = "to play"
        if all(m.decision is not None for m in matches):
            status = "played"
        elif any(m.started or (m.decision is not None and not m.bye) for m in matches):
            status = "playing"
        shown.append(BracketRound(
            stage=r.stage, number=r.number, name=said_name(uncited(r.name)), status=status,
            matches=[bracket_match(core, playoff, m, final=m.id == final) for m in matches],
        ))
    return shown


def bracket_match(core: Core, playoff: Playoff, match: Match, *, final: bool) -> BracketMatch:
    games = playoff.games_of(match.id)
    rows = []
    for slot in match.slots:
        if slot is None:
            rows.append(BracketPlayer(
                player=PlayerLabel(id=None, name=tr("bye"), short=tr("bye")), known=False,
                bye=True,
                marks=[], total="", outcome=None,
            ))
            continue
        who = slot.player
        if who is None:
            of = core.match_names.get(slot.winner_of or 0)
            place = tr("Winner of {match}", match=of) if of else tr("Winner of a match")
            rows.append(BracketPlayer(
                player=PlayerLabel(id=None, name=place, short=place), known=False, bye=False,
                marks=[], total="", outcome=None,
            ))
            continue
        rows.append(bracket_player(core, match, games, who, final=final))
    return BracketMatch(
        id=match.id,
        name=core.match_names[match.id],
        status=match.status.value,
        bye=match.bye,
        final=final,
        players=rows,
        decision=(
            decision_text(core, match.decision, match) if match.decision is not None else None
        ),
    )


def bracket_player(
    core: Core, match: Match, games: Sequence[Game], who: str, *, final: bool
) -> BracketPlayer:
    marks = []
    total = 0.0
    counted = False
    for game in games:
        armageddon = game.kind.decider
        if game.result is None or who not in (game.white, game.black):
            if not armageddon:  # a regular game to play: an empty box
                marks.append(BracketMark(
                    game=game.number, text="", armageddon=False, played=False
                ))
            continue
        scored = (
            game.result.white_points if game.white == who else game.result.black_points
        )
        if not armageddon:
            total += scored
            counted = True
        marks.append(BracketMark(
            game=game.number, text=points(scored), armageddon=armageddon, played=True
        ))
    outcome: Literal["advances", "out", "champion"] | None = None
    if match.decision is not None:
        won = match.decision.winner == who
        outcome = ("champion" if final else "advances") if won else "out"
    return BracketPlayer(
        player=core.player(who), known=True, bye=False, marks=marks,
        total=points(total) if counted else "", outcome=outcome,
    )


def decision_text(core: Core, decision: MatchDecision, match: Match) -> str:
    """ "Sindarov beat Abdusattorov 1½–½": who won, whom, and how."""
    won = core.short(decision.winner)
    lost = core.short(decision.loser) if decision.loser is not None else ""
    if decision.method is DecisionMethod.BYE or not lost:
        return tr("{player}: bye", player=won)
    decider = match.rules.decider
    name = said_name(decider.name) if decider is not None else tr("decider")
    if decision.method is DecisionMethod.ARMAGEDDON_WIN:
        return tr("{winner} beat {loser} in the {decider}", winner=won, loser=lost, decider=name)
    if decision.method is DecisionMethod.ARMAGEDDON_DRAW:
        odds = decider.draw_odds_colour if decider is not None else None
        if odds == "white":
            return tr("{decider} drawn: {winner}, with White, beat {loser}", decider=name,
                      winner=won, loser=lost)
        return tr("{decider} drawn: {winner}, with Black, beat {loser}", decider=name,
                  winner=won, loser=lost)
    if decision.method is DecisionMethod.SUDDEN_DEATH_WIN:
        return tr("{winner} beat {loser} in {decider_lower}", winner=won, loser=lost,
                  decider_lower=name.lower())
    if decision.method is DecisionMethod.LOT:
        return tr("{winner} beat {loser} on the drawing of lots", winner=won, loser=lost)
    score = match_score(core.state.chess, match)
    if score is not None:
        # The winner's points first, beside the winner's name.
        # A word joiner each side of the dash: the score never breaks across lines.
        said = score.leader_first().points_text("\u2060–\u2060")
        return tr("{winner} beat {loser} {score}", winner=won, loser=lost, score=said)
    return tr("{winner} beat {loser}", winner=won, loser=lost)
