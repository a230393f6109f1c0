"""The games on the board, the decider's banner, and the notices of a flag fall or a
correction, announced until a game starts after them."""

from __future__ import annotations

from orchestrator.core.events import BoardScoreCorrected, ResultCorrected
from orchestrator.core.state import Move
from orchestrator.views.hall.core import (
    LIVE_STATUSES,
    Core,
    versus,
)
from orchestrator.views.hall.models import (
    ArmageddonBanner,
    CorrectionNotice,
    FlagNotice,
    LiveGame,
    Position,
)
from orchestrator.views.playoff import decider_view
from orchestrator.views.shared import flag_fall
from playoff_formats.formats.said import said_name
from playoff_formats.playoff import (
    Game,
    GameKind,
    Match,
    Playoff,
)
from playoff_formats.speech import marked, tr
from playoff_formats.words import (
    clock_minutes,
    ns_score,
    result_announced,
)

__all__ = [
    "banner",
    "correction_notice",
    "decider_banner",
    "draw_rule",
    "flag_notice",
    "live_games",
    "position",
]


def live_games(core: Core, playoff: Playoff) -> list[LiveGame]:
    games = []
    for key, clock in sorted(core.state.clocks.items()):
        if clock.status not in LIVE_STATUSES:
            continue
        game = playoff.game(*key)
        if game is None:
            continue
        match = playoff.match(key[0])
        rules = match.rules
        armageddon = game.kind is GameKind.ARMAGEDDON
        control = None if armageddon else core.state.time_control(match, game)
        decider = rules.decider
        stage = rules.stage_of(game.number)
        games.append(LiveGame(
            clock=f"{key[0]}:{key[1]}",
            match=key[0],
            game=key[1],
            title=core.game_title(key[0], key[1]),
            tag=said_name(decider.name) if game.kind.decider and decider is not None else None,
            armageddon=armageddon,
            time_control=str(control) if control is not None else None,
            stage=said_name(stage.name) if stage is not None and len(rules.stages) > 1 else None,
            white=core.player(game.white),
            black=core.player(game.black),
            position=position(core.state.moves.get(key, ())),
        ))
    return games


def position(moves: tuple[Move, ...]) -> Position | None:
    """The diagram of the position the moves reach (None without moves)."""
    if not moves:
        return None
    import chess

    board = chess.Board()
    for move in moves:
        board.push_uci(move.uci)
    last = board.peek()
    ranks = []
    for rank in range(7, -1, -1):
        row = ""
        for file in range(8):
            piece = board.piece_at(chess.square(file, rank))
            row += piece.symbol() if piece is not None else "."
        ranks.append(row)
    ply = len(moves)
    number = (ply + 1) // 2
    said = f"{number}. {moves[-1].san}" if ply % 2 else f"{number}… {moves[-1].san}"
    return Position(
        ranks=ranks, last_move=[chess.square_name(last.from_square),
                                chess.square_name(last.to_square)],
        last_move_words=said, moves=ply,
    )


def flag_notice(core: Core, playoff: Playoff) -> FlagNotice | None:
    """The flag that fell last, until a game starts after its game ended."""
    fall = flag_fall(core.state, core.ctx.now)
    if fall is None:
        return None
    key, side = (fall.match, fall.game), fall.side.value
    game = playoff.game(*key)
    if game is None or game.white is None or game.black is None:
        return None
    fell = tr("White's flag fell") if side == "white" else tr("Black's flag fell")
    text = fell
    detail = ""
    if game.result is not None:
        text = tr("{flag_fell}: {result}", flag_fell=fell, result=result_announced(game.result))
        white, black = core.short(game.white), core.short(game.black)
        points = (game.result.white_points, game.result.black_points)
        flagged_lost = points[0] < points[1] if side == "white" else points[1] < points[0]
        if points[0] == points[1]:
            detail = tr("{white} and {black} drew", white=white, black=black)
        else:
            winner, loser = (white, black) if points[0] > points[1] else (black, white)
            detail = (tr("{winner} beat {loser} on time", winner=winner, loser=loser)
                      if flagged_lost else tr("{winner} beat {loser}", winner=winner, loser=loser))
    return FlagNotice(
        match=key[0], game=key[1], side="white" if side == "white" else "black",
        title=core.game_title(*key), text=text, detail=detail,
    )


def correction_notice(core: Core) -> CorrectionNotice | None:
    """The last correction of a result or a score, until a game (for bridge, a
    stanza) starts after it: spectators saw the old result, and the bracket or
    the scoreboard changed under their eyes."""
    corrections = [
        c for c in core.state.changes
        if isinstance(c.event, ResultCorrected | BoardScoreCorrected)
    ]
    if not corrections:
        return None
    last = corrections[-1]
    if any(started > last.recorded_at for started in core.state.started_at.values()):
        return None
    event = last.event
    if isinstance(event, BoardScoreCorrected):
        text = tr(
            "Stanza {stanza}, board {board}, table {table}: the North-South score is "
            "{score} (was {previous})", stanza=event.stanza, board=event.board,
            table=event.table, score=ns_score(event.ns_score), previous=ns_score(event.previous),
        )
        if event.winner_after is not None:
            text = tr("{correction}; {team} win the match", correction=text,
                      team=core.name(event.winner_after))
        items = []
        stanzas = sorted({v.stanza for v in event.voided})
        items += [tr("Stanza {stanza}: no longer played", stanza=n) for n in stanzas]
        if event.winner_before is not None:
            items.append(tr("{team} no longer win the match", team=core.name(event.winner_before)))
        return CorrectionNotice(title=tr("Score corrected"), text=text, items=items)
    assert isinstance(event, ResultCorrected)
    title = core.game_title(event.match, event.game)
    if event.previous is not None:
        text = tr("{game} is {result} (was {previous})", game=title,
                  result=result_announced(event.result),
                  previous=result_announced(event.previous))
    else:
        text = tr("{game} is {result}", game=title, result=result_announced(event.result))
    playoff = core.state.chess
    items = []
    for voided in event.voided:
        game = core.game_title(voided.match, voided.game)
        items.append(
            tr("{game}: to be played again", game=game)
            if playoff.game(voided.match, voided.game) is not None
            else tr("{game}: no longer played", game=game)
        )
    if event.champion_before is not None:
        items.append(tr("{player} is no longer the champion",
                        player=core.short(event.champion_before)))
    return CorrectionNotice(title=tr("Result corrected"), text=text, items=items)


def decider_banner(core: Core, playoff: Playoff) -> ArmageddonBanner | None:
    """The decider being played, else the first still to be played."""
    waiting: tuple[Match, Game] | None = None
    for match in playoff.matches:
        if match.decision is not None:
            continue
        for game in playoff.games_of(match.id):
            if game.kind is not GameKind.ARMAGEDDON or game.result is not None:
                continue
            if (match.id, game.number) in core.state.started_at:
                return banner(core, match, game, on=True)
            if waiting is None:
                waiting = (match, game)
    return banner(core, *waiting, on=False) if waiting is not None else None


def banner(core: Core, match: Match, game: Game, *, on: bool) -> ArmageddonBanner:
    terms = decider_view(core.state, match.id, game.number)
    assert terms is not None  # the game exists and the match has a decider
    white_time, black_time = clock_minutes(terms["white_ms"]), clock_minutes(terms["black_ms"])
    known = game.white is not None and game.black is not None
    colours = None
    decider = match.rules.decider
    if not known and decider is not None and decider.drawn:
        colours = tr("Colours by lot")
    elif not known:
        tosses = core.state.draws_of("coin-toss", match.id)
        won_by = tosses[-1].winner if tosses else None
        colours = (
            tr("Coin toss won by {player}: chooses the colours", player=core.short(won_by))
            if won_by is not None
            else tr("Colours by coin toss; the winner chooses")
        )
    match_name = core.match_names[match.id]
    when = (
        tr("now playing · {match} · game {number}", match=match_name, number=game.number)
        if on else tr("next · {match} · game {number}", match=match_name, number=game.number)
    )
    return ArmageddonBanner(
        state="on" if on else "next",
        name=said_name(str(terms["name"])),
        match=match.id,
        game=game.number,
        when=when,
        white=core.player(game.white) if known else None,
        black=core.player(game.black) if known else None,
        white_time=white_time,
        black_time=black_time,
        times=versus((white_time, black_time)),
        increment=terms["increment"],
        draw_rule=draw_rule(str(terms["draw_means"])),
        colours=colours,
    )


_DRAW_RULES = {
    "black wins": marked("draw = Black wins"),
    "white wins": marked("draw = White wins"),
    "replay": marked("draw = Replay"),
}


def draw_rule(draw_means: str) -> str:
    """A decider's draw odds as the hall says them: "draw = Black wins"."""
    known = _DRAW_RULES.get(draw_means)
    return tr(known) if known is not None else f"draw = {draw_means.capitalize()}"
