"""A match: who plays, how it stands, its games, how it was decided, and what can
be done in it now.

- **Colours** are not implied before they are known: before the lots (or the
  decider's toss) the players are written "A – B (colours by lot)", or "(colours
  by coin toss)" for a decider whose colours are tossed for, in the schedule as in
  the match, even before the decider is due.
- **Formats** are data: stage names, time controls, the decider's name, its draw
  odds and the rules cited all come from the match's format, never from here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from orchestrator.views.arbiter.clocks import game_panel
from orchestrator.views.arbiter.core import (
    Core,
    game_label,
    games_over,
    tossed,
)
from orchestrator.views.arbiter.corrections import correct_form, flag_notice
from orchestrator.views.arbiter.lots import colours_panel, lots_panel, toss_panel
from orchestrator.views.arbiter.models import (
    DecisionView,
    GamePanel,
    GameRow,
    MatchView,
)
from playoff_formats.playoff import (
    DecisionMethod,
    Game,
    GameKind,
    Match,
    MatchDecision,
    match_score,
)
from playoff_formats.speech import marked, ntr, tr
from playoff_formats.words import (
    count,
    points,
    result_written,
)

__all__ = [
    "DRAW_ODDS",
    "decision_details",
    "decision_view",
    "game_row",
    "match_view",
    "next_steps",
]


DRAW_ODDS: dict[tuple[bool, bool, bool], str] = {
    (False, False, False): marked(
        "Black ({winner}) advances: a drawn {decider} counts as a win for Black."),
    (False, False, True): marked(
        "Black ({winner}) advances: a drawn {decider} counts as a win for Black ({rule})."),
    (False, True, False): marked(
        "Black ({winner}) wins the final: a drawn {decider} counts as a win for Black."),
    (False, True, True): marked(
        "Black ({winner}) wins the final: a drawn {decider} counts as a win for Black "
        "({rule})."),
    (True, False, False): marked(
        "White ({winner}) advances: a drawn {decider} counts as a win for White."),
    (True, False, True): marked(
        "White ({winner}) advances: a drawn {decider} counts as a win for White ({rule})."),
    (True, True, False): marked(
        "White ({winner}) wins the final: a drawn {decider} counts as a win for White."),
    (True, True, True): marked(
        "White ({winner}) wins the final: a drawn {decider} counts as a win for White "
        "({rule})."),
}
"""A decider drawn: (the draw odds are White's, the final, a rule cited) -> its words."""


def match_view(core: Core, match: Match) -> MatchView:
    state = core.state
    playoff = state.chess
    a, b = match.players
    known = a is not None and b is not None
    round_name = core.round_name(match)
    games = playoff.games_of(match.id)
    versus = core.players_text(playoff, match, 1) if known else tr("players not known yet")
    score = match_score(playoff, match)
    control = state.time_control(match, 1)
    time_control = tr("Time control {control}", control=control) if control is not None else ""
    rules = match.rules
    for number, stage in list(rules.stage_starts())[1:]:
        later = state.time_control(match, number)
        time_control += f" · {stage.name} {later}"
    if match.decider is not None and rules.decider is not None:
        time_control += f" · {rules.decider.name} {match.decider}"
    elif rules.decider is not None and rules.decider.by_lot:
        time_control += f" · {rules.decider.name}"
    view = MatchView(
        id=match.id,
        title=tr("{round} · {players}", round=round_name, players=versus),
        round_name=round_name,
        status=match.status,
        players=(
            core.player(a) if a is not None else None,
            core.player(b) if b is not None else None,
        ),
        score=score.leader_first().text(state.names) if score is not None else None,
        score_title=tr("Points over the regular games") if score is not None else None,
        time_control=time_control,
        games=tuple(game_row(core, match, g) for g in games),
        decision=decision_view(core, match) if match.decision is not None else None,
        note=None if known else tr("Waiting for the earlier match: its winner plays here."),
        flag=flag_notice(core, match, games),
    )
    if not known or match.decision is not None:
        return view
    return view.model_copy(update=next_steps(core, match, games))


def game_row(core: Core, match: Match, game: Game) -> GameRow:
    key = (game.match, game.number)
    if game.result is not None:
        where: Literal["played", "in play", "to play"] = "played"
    elif key in core.state.started_at:
        where = "in play"
    else:
        where = "to play"
    return GameRow(
        number=game.number,
        kind=game.kind,
        label=game_label(match.rules, game),
        white=core.name(game.white) if game.white is not None else "—",
        black=core.name(game.black) if game.black is not None else "—",
        players=core.players_text(core.state.chess, match, game.number),
        result=result_written(game.result) if game.result is not None else "",
        result_text=(
            core.outcome_words(game, game.result, past=True)
            if game.result is not None else None
        ),
        state=where,
        correct=correct_form(core, match, game),
    )


def decision_view(core: Core, match: Match) -> DecisionView:
    decision = match.decision
    assert decision is not None
    final = core.is_final(match)
    who = core.name(decision.winner)
    return DecisionView(
        winner=core.player(decision.winner),
        final=final,
        headline=(tr("{player} is the champion", player=who) if final
                  else tr("{player} advances", player=who)),
        details=decision_details(core, match, decision, final),
    )


def decision_details(
    core: Core, match: Match, decision: MatchDecision, final: bool
) -> tuple[str, ...]:
    """How the match was decided, as its format words it, in the players' names."""
    winner, loser = core.name(decision.winner), core.name(decision.loser)
    if decision.method is DecisionMethod.BYE:
        return (tr("{winner} has a bye in this round.", winner=winner),)
    rules = match.rules
    regular = [
        g for g in core.state.chess.games_of(match.id) if g.kind is GameKind.REGULAR
    ]
    won, lost = decision.score or (0.0, 0.0)
    if decision.method is DecisionMethod.REGULAR_GAMES:
        return (tr("{winner} beat {loser} {won}-{lost} over {games}.", winner=winner,
                   loser=loser, won=points(won), lost=points(lost),
                   games=games_over(rules, len(regular))),)
    level = ntr("Level {won}-{lost} after {count} games", "Level {won}-{lost} after {count} games",
                len(regular), won=points(won), lost=points(lost), count=count(len(regular)))
    decider = rules.decider
    name = decider.name if decider is not None else tr("decider")
    if decision.method is DecisionMethod.LOT:
        return (tr("{level}; {winner} won the drawing of lots.", level=level, winner=winner),)
    played = [
        g for g in core.state.chess.games_of(match.id)
        if g.kind.decider and g.result is not None
    ]
    last = played[-1] if played else None
    if decision.method is DecisionMethod.ARMAGEDDON_DRAW:
        odds = decider.draw_odds_colour if decider is not None else None
        white = odds == "white"
        rule = decider.draw_citation if decider is not None else ""
        said = DRAW_ODDS[(white, final, bool(rule))]
        return (
            tr(said, winner=winner, decider=name, rule=rule),
            tr("{level}; the {decider} game was drawn.", level=level, decider=name),
        )
    white = last is not None and last.white == decision.winner
    result = decision.armageddon
    if result is None:
        how = ""
    elif not result.played:
        how = tr(" by forfeit")
    else:
        how = tr(" ({result})", result=result_written(result))
    if decision.method is DecisionMethod.SUDDEN_DEATH_WIN and last is not None:
        said = (marked("{level}; {winner} won {decider} game {number} with White{how}.")
                if white else
                marked("{level}; {winner} won {decider} game {number} with Black{how}."))
        return (tr(said, level=level, winner=winner, decider=name.lower(), number=last.number,
                   how=how),)
    said = (marked("{level}; {winner} won the {decider} game with White{how}.") if white
            else marked("{level}; {winner} won the {decider} game with Black{how}."))
    return (tr(said, level=level, winner=winner, decider=name, how=how),)


def next_steps(core: Core, match: Match, games: Sequence[Game]) -> dict[str, Any]:
    """What can be done in an undecided match now: lots, the toss, the colours, or
    the games in play (else the next game to play)."""
    first = next((g for g in games if g.number == 1), None)
    if first is None:
        return {}
    if first.white is None:
        return {"lots": lots_panel(core, match)}
    started = core.state.started_at
    in_play = [g for g in games if g.result is None and (g.match, g.number) in started]
    todo = in_play or [g for g in games if g.result is None][:1]
    steps: dict[str, Any] = {}
    panels: list[GamePanel] = []
    rules = match.rules
    if not todo and rules.decider is not None and rules.decider.by_lot:
        steps["toss"] = toss_panel(core, match)
    for game in todo:
        if game.white is None and game.kind.decider and tossed(rules):
            tosses = core.state.draws_of("coin-toss", match.id)
            if tosses:
                steps["colours"] = colours_panel(core, match, tosses[-1])
            else:
                steps["toss"] = toss_panel(core, match)
        elif game.white is None:
            steps["lots"] = lots_panel(core, match, game.number)
        else:
            panels.append(game_panel(core, match, game))
    steps["panels"] = tuple(panels)
    return steps
