"""The LiveChess client (``clients/python/livechess.py``) against the stand-in, and the
stand-in's replay of a real game, frame by frame."""

from __future__ import annotations

import json

import chess
import chess.pgn
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from clients.python.livechess import DgtClock, LiveChess, LiveChessError
from orchestrator.core.timesource import ManualTime
from tests.support import DATA
from tests.support.livechess import START, Clock, livechess_stand_in

GAME = DATA / "fedoseev-bharath-world-rapid-2023.pgn"


async def test_the_boards_listed_and_one_followed() -> None:
    time = ManualTime()
    async with livechess_stand_in(time.server_ms) as stand_in:
        stand_in.board("23946", battery="84%", clock=Clock(900, 900))
        stand_in.board("7425", state=None, battery=None, source=None)
        async with LiveChess(stand_in.url, received_ms=lambda: 7) as live:
            boards = {b.serial: b for b in await live.eboards()}
            assert boards["23946"].state == "ACTIVE"
            assert boards["23946"].battery == "84%"
            assert boards["23946"].placement == START
            assert boards["23946"].clock == DgtClock(900, 900, None, time.server_ms())
            assert boards["7425"].state is None  # not activated
            assert boards["7425"].source is None

            await live.subscribe("23946")
            first = await live.next_update()  # what the board shows, on subscribing
            assert first.placement_changed and first.clock_changed
            assert first.received_ms == 7
            time.advance(1500)
            await stand_in.play("23946", "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR")
            lifted = await live.next_update()
            assert lifted.placement_changed and not lifted.clock_changed
            assert lifted.board.placement == "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR"
            assert lifted.board.clock == DgtClock(900, 900, None, time.server_ms() - 1500)
            assert lifted.board.time_ms == time.server_ms()
            await stand_in.play("23946", Clock(900, 900, True))
            started = await anext(live.updates())  # the feed as an iterator
            assert not started.placement_changed
            assert started.board.placement == lifted.board.placement  # kept
            assert started.board.clock == DgtClock(900, 900, True, time.server_ms())
            assert live.pending_update() is None

    # Only what changed travels: the frames as LiveChess sends them.
    lift = stand_in.feed[1]
    assert lift == {"response": "feed", "id": 1, "param": {
        "serialnr": "23946", "flipped": False,
        "board": "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR"}, "time": time.server_ms()}
    assert stand_in.calls[1] == {"id": 2, "call": "subscribe", "param": {
        "feed": "eboardevent", "id": 1, "param": {"serialnr": "23946"}}}


async def test_refusals_in_livechess_words() -> None:
    async with livechess_stand_in() as stand_in:
        stand_in.board("23946")
        async with LiveChess(stand_in.url) as live:
            with pytest.raises(LiveChessError, match="LiveChess refused: Unknown eboard: 1"):
                await live.subscribe("1")
            with pytest.raises(LiveChessError, match="Unknown call: sources"):
                await live.call("sources")
            feed = await live.subscribe("23946")
            await live.unsubscribe(feed)
            with pytest.raises(LiveChessError, match="Unknown feed"):
                await live.unsubscribe(feed)
        async with connect(stand_in.url) as raw:
            await raw.send("not json")
            assert json.loads(await raw.recv())["response"] == "error"
        with pytest.raises(InvalidStatus):
            async with connect(stand_in.url.replace("/api/v1.0", "/api/v2")):
                pass
    with pytest.raises(LiveChessError, match="cannot reach LiveChess"):
        async with LiveChess(stand_in.url):
            pass


async def test_a_game_replayed_as_hands_and_a_clock_make_it() -> None:
    time = ManualTime()
    async with livechess_stand_in(time.server_ms) as stand_in:
        stand_in.board("23946")
        async with LiveChess(stand_in.url) as live:
            await live.subscribe("23946")
            began = time.server_ms()
            game = await stand_in.replay("23946", GAME, time)
    frames = [f["param"] for f in stand_in.feed]
    source = list(game.mainline())
    assert len(source) == 160
    # The first frame on subscribing, the clock set, the clock started; the presses.
    presses = [f["clock"] for f in frames if "clock" in f][3:]
    assert len(presses) == 160
    for ply, (node, press) in enumerate(zip(source, presses, strict=True), start=1):
        mover = "white" if ply % 2 else "black"
        assert press[mover] == int(node.clock() or 0), ply
        assert press["run"] is (mover == "black")  # the other side's clock runs
    assert presses[0] == {"white": 919, "black": 900, "run": False, "time": presses[0]["time"]}
    # 1. d4: the pawn lifted, put down, the clock pressed; nothing else.
    first = frames[3:6]
    assert first[0] == {"serialnr": "23946", "flipped": False,
                        "board": "rnbqkbnr/pppppppp/8/8/8/8/PPP1PPPP/RNBQKBNR"}
    assert first[1]["board"] == "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR"
    assert set(first[2]) == {"serialnr", "flipped", "clock"}
    # 17. Bxe4: two lifts (the bishop, the knight), then the bishop on e4.
    board = chess.Board()
    for node in source[:32]:
        board.push(node.move)
    assert board.san(source[32].move) == "Bxe4"
    boards = [f["board"] for f in frames if "board" in f]
    at = boards.index(board.board_fen())
    lifts = boards[at + 1:at + 4]
    assert [len(chess.BaseBoard(b).piece_map()) for b in lifts] == [
        len(board.piece_map()) - 1, len(board.piece_map()) - 2, len(board.piece_map()) - 1]
    assert chess.BaseBoard(lifts[0]).piece_at(chess.D3) is None
    assert chess.BaseBoard(lifts[1]).piece_at(chess.E4) is None
    # 21. O-O: the king lifted, then the rook, then both put down.
    for node in source[32:40]:
        board.push(node.move)
    assert board.san(source[40].move) == "O-O"
    at = boards.index(board.board_fen())
    king_up, rook_up = chess.BaseBoard(boards[at + 1]), chess.BaseBoard(boards[at + 2])
    assert king_up.piece_at(chess.E1) is None and king_up.piece_at(chess.H1) is not None
    assert rook_up.piece_at(chess.H1) is None
    assert boards[-1] == "8/8/1k6/8/2K5/8/8/8"
    # The times: each press a move's thinking after the last, the game over an hour.
    # 10... Qxc5 took Black from 14:47 to 13:22 with the 10 s increment: 95 s.
    assert presses[19]["time"] - presses[18]["time"] == 95_000
    assert time.server_ms() - began > 45 * 60_000
