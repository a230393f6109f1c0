"""The play-off games as PGN: headers, results, and the moves an e-board gave.

Every text that people wrote (names, the event's name, an organiser's stage and
decider names and rules) is written as the PGN standard allows, so that no text can
change the record it is in:

- in a tag value, ``\\`` and ``"`` are escaped with a backslash (PGN standard
  8.1.1), and a control character (which the standard does not allow in a string,
  and which could end the tag's line) becomes a space;
- a tag's name is never free text: it is the service's own (``Armageddon`` for any
  Armageddon decider, whatever its organiser called it);
- in a comment, braces become parentheses (a ``}`` would end the comment) and
  control characters spaces.

python-chess writes the tags as it is given them and reads them back without
undoing the escapes; the values given it are escaped here.
"""

from __future__ import annotations

import io

import chess.pgn

from orchestrator.core.state import GameKey, PlayoffState
from playoff_formats.model import Colour, Result, is_control
from playoff_formats.playoff import GameKind
from playoff_formats.timecontrol import TimeControl

PGN_RESULT = {
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


def tag_value(text: str) -> str:
    """``text`` as a PGN tag value is written between its quotes (standard 8.1.1)."""
    plain = "".join(" " if is_control(c) else c for c in text)
    return plain.replace("\\", "\\\\").replace('"', '\\"')


def comment_text(text: str) -> str:
    """``text`` as it can stand inside ``{...}``: no brace, no control character."""
    plain = "".join(" " if is_control(c) else c for c in text)
    return plain.replace("{", "(").replace("}", ")")


DECIDER_TAG = "Armageddon"
"""The tag that states an Armageddon's draw odds, whatever the decider is called."""


def _moves(pgn: chess.pgn.Game, state: PlayoffState, key: GameKey) -> None:
    """The moves read from the game's e-board, each with ``[%clk]``: the mover's time
    after it, whole seconds (the board's own clock where it sent one)."""
    times = state.times.get(key, {})
    node: chess.pgn.GameNode = pgn
    for ply, move in enumerate(state.moves.get(key, ()), start=1):
        node = node.add_variation(chess.Move.from_uci(move.uci))
        side = Colour.WHITE if ply % 2 else Colour.BLACK
        left = times.get((side, (ply + 1) // 2))
        if left is not None:
            node.set_clock(left // 1000)


def playoff_pgn(state: PlayoffState, event_name: str) -> str:
    """Every game that has a result, in match and game order, with its moves where an
    e-board gave them."""
    out = io.StringIO()
    playoff = state.chess
    for game in sorted(playoff.games, key=lambda g: (g.match, g.number)):
        if game.result is None or game.white is None or game.black is None:
            continue
        match = playoff.match(game.match)
        tc = state.time_control(match, game)
        pgn = chess.pgn.Game()
        tags = pgn.headers
        tags["Event"] = tag_value(f"{event_name}, play-off")
        tags["Site"] = "?"
        started = state.started_at.get((game.match, game.number))
        # PGN's date is the local one: the hall's, in the play-off's zone.
        day = started.astimezone(state.zone) if started else None
        tags["Date"] = day.strftime("%Y.%m.%d") if day else "????.??.??"
        tags["Round"] = f"{match.round}.{match.id}.{game.number}"
        tags["White"] = tag_value(state.names.get(game.white, game.white))
        tags["Black"] = tag_value(state.names.get(game.black, game.black))
        tags["Result"] = PGN_RESULT[game.result]
        if tc is not None:
            tags["TimeControl"] = _pgn_time_control(tc)
            tags["PlayoffTimeControl"] = tag_value(str(tc))
        rules = match.rules
        stage = rules.stage_of(game.number)
        if stage is not None and len(rules.stages) > 1:
            tags["PlayoffStage"] = tag_value(stage.name)
        decider = rules.decider
        odds = decider.draw_odds_colour if decider is not None else None
        if game.kind is GameKind.ARMAGEDDON and decider is not None and odds is not None:
            cite = f" ({decider.draw_citation})" if decider.draw_citation else ""
            tags[DECIDER_TAG] = tag_value(f"A draw means {odds.capitalize()} wins{cite}")
        elif game.kind is GameKind.SUDDEN_DEATH and decider is not None:
            tags["PlayoffStage"] = tag_value(decider.name)
        if not game.result.played:
            double = game.result is Result.DOUBLE_FORFEIT
            tags["Termination"] = "double forfeit" if double else "forfeit"
        decision = match.decision
        if decision is not None and game.number == max(
            g.number for g in playoff.games_of(match.id) if g.result is not None
        ):
            pgn.comment = comment_text(decision.describe(state.names))
        _moves(pgn, state, (game.match, game.number))
        print(pgn, file=out, end="\n\n")
    return out.getvalue()
