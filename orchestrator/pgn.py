"""The play-off games as PGN: headers and results (the moves are not recorded here)."""

from __future__ import annotations

import io

import chess.pgn

from orchestrator.state import PlayoffState
from playoff_formats.formats import Armageddon
from playoff_formats.model import Result
from playoff_formats.playoff import GameKind
from playoff_formats.timecontrol import TimeControl

_PGN_RESULT = {
    Result.WHITE_WINS: "1-0",
    Result.BLACK_WINS: "0-1",
    Result.DRAW: "1/2-1/2",
    Result.WHITE_WINS_BY_FORFEIT: "1-0",
    Result.BLACK_WINS_BY_FORFEIT: "0-1",
    Result.DOUBLE_FORFEIT: "*",
}


def _pgn_time_control(tc: TimeControl) -> str:
    """PGN's TimeControl tag ("1500+5") where it can say it, else "?"."""
    if not tc.symmetric or len(tc.white) != 1:
        return "?"
    stage = tc.white[0]
    if stage.increment_from_move != 1 or stage.delay_ms:
        return "?"
    seconds = stage.base_ms // 1000
    increment = stage.increment_ms // 1000
    return f"{seconds}+{increment}" if increment else str(seconds)


def playoff_pgn(state: PlayoffState, event_name: str) -> str:
    """Every game that has a result, in match and game order."""
    out = io.StringIO()
    playoff = state.chess
    for game in sorted(playoff.games, key=lambda g: (g.match, g.number)):
        if game.result is None or game.white is None or game.black is None:
            continue
        match = playoff.match(game.match)
        tc = state.time_control(match, game)
        pgn = chess.pgn.Game()
        pgn.headers["Event"] = f"{event_name}, play-off"
        pgn.headers["Site"] = "?"
        started = state.started_at.get((game.match, game.number))
        pgn.headers["Date"] = started.strftime("%Y.%m.%d") if started else "????.??.??"
        pgn.headers["Round"] = f"{match.round}.{match.id}.{game.number}"
        pgn.headers["White"] = state.names.get(game.white, game.white)
        pgn.headers["Black"] = state.names.get(game.black, game.black)
        pgn.headers["Result"] = _PGN_RESULT[game.result]
        if tc is not None:
            pgn.headers["TimeControl"] = _pgn_time_control(tc)
            pgn.headers["PlayoffTimeControl"] = str(tc)
        rules = match.rules
        stage = rules.stage_of(game.number)
        if stage is not None and len(rules.stages) > 1:
            pgn.headers["PlayoffStage"] = stage.name
        decider = rules.decider
        if game.kind is GameKind.ARMAGEDDON and isinstance(decider, Armageddon):
            cite = f" ({decider.draw_rule})" if decider.draw_rule else ""
            pgn.headers[decider.name.replace(" ", "")] = (
                f"A draw means {decider.draw_odds.capitalize()} wins{cite}"
            )
        elif game.kind is GameKind.SUDDEN_DEATH and decider is not None:
            pgn.headers["PlayoffStage"] = decider.name
        if not game.result.played:
            double = game.result is Result.DOUBLE_FORFEIT
            pgn.headers["Termination"] = "double forfeit" if double else "forfeit"
        decision = match.decision
        if decision is not None and game.number == max(
            g.number for g in playoff.games_of(match.id) if g.result is not None
        ):
            pgn.comment = decision.text
        print(pgn, file=out, end="\n\n")
    return out.getvalue()
