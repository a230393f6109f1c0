"""The play-off's games as a broadcast reads them: PGN with every tag a broadcast
platform orders and labels games by, the clocks while a game is played, and the
moves read from e-boards with their clock times.

Written as the PGN standard (Edwards, 1994) and its clock supplement write them:

- each text escaped (standard, section 7: ``\\`` and ``"`` inside a tag value, see
  :func:`~orchestrator.core.pgn.tag_value`);
- ``Round`` is ``{R}.{stage}.{match}.{game}`` where R is the main event's last round
  plus one (section 8.1.1.4: "a sequence of integer round numbers separated by
  periods", most significant first): a broadcast sorts the play-off after the main
  event, then by stage, match and game. ``Board`` numbers the games in play order
  (a broadcast without a ``Board`` tag reads the number after the round's first
  period as the board);
- ``TimeControl`` in the standard's form (section 9.6.1: ``1500+5``; ``60/1500:0+3``
  for an increment from move 61, the 60 moves' period then an increment from
  nothing). A control with unequal times, the Armageddon's, has no form there: it is
  ``?``, each side's is in ``WhiteTimeControl`` and ``BlackTimeControl`` (the same
  grammar), and in words in a comment before the moves; ``Armageddon`` states the
  draw odds;
- while a game is played and no move is known, ``WhiteClock`` and ``BlackClock``
  (``H:MM:SS``, whole seconds, cut, as a clock shows them) and ``ReferenceTime``
  (``W/`` or ``B/``, the side whose clock runs, then the instant those values hold,
  ISO 8601 in UTC to the millisecond), as DGT LiveChess writes them and broadcasts
  read them;
- with moves: each move then ``{[%clk H:MM:SS]}``, the mover's time after it (the
  board's own clock where it sent one, else the service's).

Pure: the state and the event are arguments; the caller gives the feed's version.
"""

from __future__ import annotations

from datetime import UTC, datetime

from orchestrator.core.pgn import DECIDER_TAG, PGN_RESULT, comment_text, tag_value
from orchestrator.core.state import GameKey, PlayoffState
from playoff_formats.model import Colour, Event, IndividualEvent, Player
from playoff_formats.playoff import Game, GameKind, Match
from playoff_formats.timecontrol import Stage, TimeControl

__all__ = ["broadcast_games", "broadcast_pgn", "pgn_clock", "pgn_time_control"]


def pgn_clock(ms: int) -> str:
    """``H:MM:SS``, whole seconds, cut (a clock never shows more than is left)."""
    seconds = max(0, ms) // 1000
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def _side_control(stages: tuple[Stage, ...]) -> str | None:
    """One side's control in the standard's grammar, or None where it has no form
    (a delay, a period ending before the increment starts)."""
    parts: list[str] = []
    for stage in stages:
        if stage.delay_ms:
            return None
        base = stage.base_ms // 1000
        inc = stage.increment_ms // 1000
        if stage.increment_from_move > 1 and inc:
            if stage.moves is not None:
                return None
            # The moves before the increment as a period of their own, then the rest
            # with the increment and nothing added (section 9.6.1's ':' fields).
            parts.append(f"{stage.increment_from_move - 1}/{base}")
            parts.append(f"0+{inc}")
            continue
        text = f"{base}+{inc}" if inc else str(base)
        parts.append(f"{stage.moves}/{text}" if stage.moves is not None else text)
    return ":".join(parts)


def pgn_time_control(control: TimeControl) -> tuple[str, dict[str, str]]:
    """The ``TimeControl`` tag's value, and the tags a control with unequal times adds."""
    white, black = _side_control(control.white), _side_control(control.black)
    if control.symmetric:
        return (white or "?"), {}
    extra = {}
    if white is not None:
        extra["WhiteTimeControl"] = white
    if black is not None:
        extra["BlackTimeControl"] = black
    return "?", extra


def _played(state: PlayoffState, game: Game) -> bool:
    key = (game.match, game.number)
    return game.result is not None or key in state.clocks or key in state.started_at


def broadcast_games(state: PlayoffState) -> list[tuple[Match, Game]]:
    """The games a broadcast shows, in play order: those started or decided, with their
    players known (stage, round, match, game)."""
    playoff = state.chess
    found = []
    for game in playoff.games:
        if game.white is None or game.black is None or not _played(state, game):
            continue
        found.append((playoff.match(game.match), game))
    found.sort(key=lambda mg: (mg[0].stage, mg[0].round, mg[0].id, mg[1].number))
    return found


def _players(event: Event) -> dict[str, Player]:
    return {p.id: p for p in event.players} if isinstance(event, IndividualEvent) else {}


def _main_rounds(event: Event) -> int:
    if isinstance(event, IndividualEvent):
        return event.rounds
    return max((m.round for m in event.matches), default=0)


def _reference(ms: int) -> str:
    moment = datetime.fromtimestamp(ms / 1000, UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def _tags(
    state: PlayoffState, event: Event, match: Match, game: Game, board: int,
) -> list[tuple[str, str]]:
    assert game.white is not None and game.black is not None
    key: GameKey = (match.id, game.number)
    players = _players(event)
    started = state.started_at.get(key)
    tags = [
        ("Event", tag_value(f"{event.name}, play-off")),
        ("Site", "?"),
        ("Date", started.astimezone(state.zone).strftime("%Y.%m.%d") if started else "????.??.??"),
        ("Round", f"{_main_rounds(event) + 1}.{match.stage}.{match.id}.{game.number}"),
        ("White", tag_value(state.names.get(game.white, game.white))),
        ("Black", tag_value(state.names.get(game.black, game.black))),
        ("Result", PGN_RESULT[game.result] if game.result is not None else "*"),
        ("Board", str(board)),
    ]
    for colour, pid in (("White", game.white), ("Black", game.black)):
        player = players.get(pid)
        if player is None:
            continue
        if player.fide_id:
            tags.append((f"{colour}FideId", tag_value(player.fide_id)))
        if player.rating:
            tags.append((f"{colour}Elo", str(player.rating)))
        if player.title:
            tags.append((f"{colour}Title", tag_value(player.title)))
    control = state.time_control(match, game)
    if control is not None:
        value, extra = pgn_time_control(control)
        tags.append(("TimeControl", value))
        tags.extend(extra.items())
    decider = match.rules.decider
    odds = decider.draw_odds_colour if decider is not None else None
    if game.kind is GameKind.ARMAGEDDON and decider is not None and odds is not None:
        cite = f" ({decider.draw_citation})" if decider.draw_citation else ""
        tags.append((DECIDER_TAG, tag_value(f"A draw means {odds.capitalize()} wins{cite}")))
    stage = match.rules.stage_of(game.number)
    if stage is not None and len(match.rules.stages) > 1:
        tags.append(("PlayoffStage", tag_value(stage.name)))
    clock = state.clocks.get(key)
    if clock is not None and clock.running is not None and not state.moves.get(key):
        at = clock.since_ms or 0
        tags.append(("WhiteClock", pgn_clock(clock.remaining_ms(Colour.WHITE, at))))
        tags.append(("BlackClock", pgn_clock(clock.remaining_ms(Colour.BLACK, at))))
        side = "W" if clock.running is Colour.WHITE else "B"
        tags.append(("ReferenceTime", f"{side}/{_reference(at)}"))
    return tags


def _movetext(state: PlayoffState, match: Match, game: Game) -> str:
    key: GameKey = (match.id, game.number)
    parts: list[str] = []
    control = state.time_control(match, game)
    if control is not None and not control.symmetric:
        parts.append("{" + comment_text(f"Time control: {control}") + "}")
    times = state.times.get(key, {})
    for ply, move in enumerate(state.moves.get(key, ()), start=1):
        number, side = (ply + 1) // 2, Colour.WHITE if ply % 2 else Colour.BLACK
        if side is Colour.WHITE:
            parts.append(f"{number}.")
        elif parts and parts[-1].endswith("}"):  # after a comment, say whose move
            parts.append(f"{number}...")
        parts.append(move.san)
        left = times.get((side, number))
        if left is not None:
            parts.append("{[%clk " + pgn_clock(left) + "]}")
    parts.append(PGN_RESULT[game.result] if game.result is not None else "*")
    return _wrapped(parts)


def _wrapped(tokens: list[str], width: int = 79) -> str:
    """Tokens on lines of at most ``width`` characters (standard, section 8.2.2.2)."""
    lines: list[str] = []
    line = ""
    for token in tokens:
        if line and len(line) + 1 + len(token) > width:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    lines.append(line)
    return "\n".join(lines)


def broadcast_pgn(state: PlayoffState, event: Event) -> str:
    """Every game a broadcast shows, in play order, a blank line between games."""
    games = []
    for board, (match, game) in enumerate(broadcast_games(state), start=1):
        tags = "\n".join(f'[{name} "{value}"]' for name, value in _tags(
            state, event, match, game, board
        ))
        games.append(f"{tags}\n\n{_movetext(state, match, game)}\n")
    return "\n".join(games)
