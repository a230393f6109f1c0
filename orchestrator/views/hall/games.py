"""The games on the board, the decider's banner, and the notices of a flag fall or a
correction, announced until a game starts after them."""

from __future__ import annotations

from orchestrator.core.events import BoardScoreCorrected, ResultCorrected
from orchestrator.core.state import Move
from orchestrator.views.hall.core import (
    LIVE_STATUSES,
    Core,
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
from playoff_formats.playoff import (
    Game,
    GameKind,
    Match,
    Playoff,
)
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
            tag=decider.name if game.kind.decider and decider is not None else None,
            armageddon=armageddon,
            time_control=str(control) if control is not None else None,
            stage=stage.name if stage is not None and len(rules.stages) > 1 else None,
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
    colour = side.capitalize()
    text = f"{colour}'s flag fell"
    detail = ""
    if game.result is not None:
        text += f": {result_announced(game.result)}"
        white, black = core.short(game.white), core.short(game.black)
        points = (game.result.white_points, game.result.black_points)
        flagged_lost = points[0] < points[1] if side == "white" else points[1] < points[0]
        on_time = " on time" if flagged_lost else ""
        if points[0] > points[1]:
            detail = f"{white} beat {black}{on_time}"
        elif points[1] > points[0]:
            detail = f"{black} beat {white}{on_time}"
        else:
            detail = f"{white} and {black} drew"
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
        text = (f"Stanza {event.stanza}, board {event.board}, table {event.table}: the "
                f"North-South score is {ns_score(event.ns_score)} (was {ns_score(event.previous)})")
        if event.winner_after is not None:
            text += f"; {core.name(event.winner_after)} win the match"
        items = []
        stanzas = sorted({v.stanza for v in event.voided})
        items += [f"Stanza {n}: no longer played" for n in stanzas]
        if event.winner_before is not None:
            items.append(f"{core.name(event.winner_before)} no longer win the match")
        return CorrectionNotice(title="Score corrected", text=text, items=items)
    assert isinstance(event, ResultCorrected)
    was = f" (was {result_announced(event.previous)})" if event.previous is not None else ""
    text = f"{core.game_title(event.match, event.game)} is {result_announced(event.result)}{was}"
    playoff = core.state.chess
    items = []
    for voided in event.voided:
        fate = ("to be played again" if playoff.game(voided.match, voided.game) is not None
                else "no longer played")
        items.append(f"{core.game_title(voided.match, voided.game)}: {fate}")
    if event.champion_before is not None:
        items.append(f"{core.short(event.champion_before)} is no longer the champion")
    return CorrectionNotice(title="Result corrected", text=text, items=items)


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
        colours = "Colours by lot"
    elif not known:
        tosses = core.state.draws_of("coin-toss", match.id)
        won_by = tosses[-1].winner if tosses else None
        colours = (
            f"Coin toss won by {core.short(won_by)}: chooses the colours"
            if won_by is not None
            else "Colours by coin toss; the winner chooses"
        )
    when = "now playing" if on else "next"
    return ArmageddonBanner(
        state="on" if on else "next",
        name=str(terms["name"]),
        match=match.id,
        game=game.number,
        when=f"{when} · {core.match_names[match.id]} · game {game.number}",
        white=core.player(game.white) if known else None,
        black=core.player(game.black) if known else None,
        white_time=white_time,
        black_time=black_time,
        times=f"{white_time} v {black_time}",
        increment=terms["increment"],
        draw_rule=draw_rule(str(terms["draw_means"])),
        colours=colours,
    )


def draw_rule(draw_means: str) -> str:
    """A decider's draw odds as the hall says them: "draw = Black wins"."""
    return f"draw = {draw_means.capitalize()}"
