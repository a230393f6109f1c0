"""Moves from an electronic board (DGT, read through LiveChess) over a real server:
the positions a forwarder sends become the game's moves, the hall's diagram, the
PGN's moves with their clock times; what no legal move reaches is shown, never a
move invented; the board's own clock gives the times and the flag.

Match 1 of the UzChess Cup Masters 2025 play-off (GCT), game 1 at G/25+5,
Abdusattorov White.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import chess
import chess.pgn

from orchestrator.core.timesource import ManualTime
from tests.support.ws import Setup, make_playoff, ok, served

G25 = 25 * 60_000


def command(setup: Setup, token: str | None = None, **d: Any) -> Any:
    with setup.server.client(token or setup.arbiter) as http:
        return http.post(f"/api/playoffs/{setup.playoff_id}/commands", json=d)


def placement(*san: str) -> str:
    board = chess.Board()
    for move in san:
        board.push_san(move)
    return board.board_fen()


def moves(setup: Setup) -> list[str]:
    return [e["data"]["san"] for e in setup.log() if e["type"] == "move-made"]


def arbiter_view(setup: Setup) -> dict[str, Any]:
    with setup.server.client(setup.arbiter) as http:
        view: dict[str, Any] = ok(http.get(
            f"/api/playoffs/{setup.playoff_id}/view", params={"kind": "arbiter"}))
    return view


def hall_view(setup: Setup) -> dict[str, Any]:
    with setup.server.client(setup.displays[0]) as http:
        view: dict[str, Any] = ok(http.get(
            f"/api/playoffs/{setup.playoff_id}/view", params={"kind": "hall"}))
    return view


async def test_positions_become_moves_and_the_hall_draws_them(tmp_path: Path) -> None:
    async with served(tmp_path / "log.db", ManualTime()) as server:
        setup = make_playoff(server)
        # No game being played: the board's moves wait for it.
        early = command(setup, type="board-position", match=1, placement=placement("e4"))
        assert early.status_code == 409 and "no game being played" in early.json()["detail"]
        setup.post("/1/games/1/start")
        assert command(setup, type="board-position", match=1,
                       placement=placement("e4")).status_code == 201
        assert moves(setup) == ["e4"]
        # The same position again changes nothing; two plies at once are both read.
        answer = ok(command(setup, type="board-position", match=1, placement=placement("e4")))
        assert answer["events"] == []
        command(setup, type="board-position", match=1, placement=placement("e4", "e5", "Nf3"))
        assert moves(setup) == ["e4", "e5", "Nf3"]
        # Nf3 put down on c3 instead before the clock was pressed: the move replaced.
        command(setup, type="board-position", match=1, placement=placement("e4", "e5", "Nc3"))
        assert [m["data"]["san"] for m in setup.log() if m["type"] == "move-made"][-1] == "Nc3"
        view = hall_view(setup)
        (live,) = view["live"]
        position = live["position"]
        assert position["last_move"] == ["b1", "c3"]
        assert position["last_move_words"] == "2. Nc3" and position["moves"] == 3
        assert position["ranks"][0] == "rnbqkbnr" and position["ranks"][5] == "..N....."
        # A lifted piece that settles (a knocked-over king): unread, shown, no move.
        lifted = chess.Board(fen=chess.Board().fen())
        for san in ("e4", "e5", "Nc3"):
            lifted.push_san(san)
        lifted.remove_piece_at(chess.E8)
        command(setup, type="board-position", match=1, placement=lifted.board_fen())
        assert moves(setup) == ["e4", "e5", "Nf3", "Nc3"]  # logged; the game reads e4 e5 Nc3
        command(setup, type="map-eboard", serial="23946", match=1)
        (eboard,) = arbiter_view(setup)["eboards"]
        assert eboard["serial"] == "23946" and eboard["match"] == 1
        assert "no legal move reaches" in eboard["unread"]
        assert eboard["unread_placement"] == lifted.board_fen()
        # The king put back: the alert clears.
        command(setup, type="board-position", match=1, placement=placement("e4", "e5", "Nc3"))
        assert arbiter_view(setup)["eboards"][0]["unread"] is None
        # Taken back to the position before Nc3.
        command(setup, type="board-position", match=1, placement=placement("e4", "e5"))
        assert [e["type"] for e in setup.log()][-1] == "move-taken-back"
        assert hall_view(setup)["live"][0]["position"]["last_move_words"] == "1… e5"


async def test_refusals_are_in_words_and_change_nothing(tmp_path: Path) -> None:
    async with served(tmp_path / "log.db", ManualTime()) as server:
        setup = make_playoff(server)
        setup.post("/1/games/1/start")
        before = setup.seq()
        bad = command(setup, type="board-position", match=1,
                      placement="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX")
        assert bad.status_code == 422
        assert "a FEN's piece placement is eight ranks" in bad.text
        with server.client(setup.arbiter) as http:
            board_key = ok(http.post(f"/api/events/{setup.event_id}/tokens", json={
                "role": "board", "playoff": setup.playoff_id, "match": 2}))["token"]
        other = command(setup, board_key, type="board-position", match=1,
                        placement=placement("e4"))
        assert other.status_code == 403
        assert command(setup, setup.displays[0], type="map-eboard", serial="1",
                       match=1).status_code == 403
        assert setup.seq() == before


async def test_the_dgt_clock_gives_the_times_the_gap_and_the_flag(tmp_path: Path) -> None:
    clock = ManualTime()
    async with served(tmp_path / "log.db", clock) as server:
        setup = make_playoff(server)
        setup.post("/1/games/1/start")
        command(setup, type="map-eboard", serial="23946", match=1)
        command(setup, type="board-position", match=1, placement=placement("d4"))
        clock.advance(12_000)
        # The DGT clock after White's press: 24:53 (it ran 12 s, +5 s): the service's
        # 24:53 too.
        ok(command(setup, type="press", match=1, game=1, side="white",
                   board_clock={"white_ms": 1_493_000, "black_ms": G25}))
        command(setup, type="board-position", match=1, placement=placement("d4", "Nf6"))
        clock.advance(30_000)
        # Black's DGT clock says 24:20 after the press, the service's 24:35: 15 s apart.
        ok(command(setup, type="press", match=1, game=1, side="black",
                   board_clock={"white_ms": 1_493_000, "black_ms": 1_460_000}))
        (eboard,) = arbiter_view(setup)["eboards"]
        assert eboard["clock_gap"] == (
            f"The DGT clock of {eboard['title']} gives black 15 s less than the service's "
            "clock (more than 2 s apart): check the clocks"
        )
        assert eboard["title"].endswith("match 1")
        # White's DGT clock shows the flag while the service's still has time: the
        # board's clock is the game's.
        clock.advance(1_000)
        answer = ok(command(setup, type="board-flag", match=1, side="white"))
        assert len(answer["events"]) == 2
        fell = [e for e in setup.log() if e["type"] == "flag-fell"]
        assert fell[0]["data"]["side"] == "white" and fell[0]["data"]["board"] is True
        with server.client(setup.arbiter) as http:
            text = http.get(f"/api/playoffs/{setup.playoff_id}/pgn").text
        game = chess.pgn.read_game(io.StringIO(text))
        assert game is not None and game.headers["Result"] == "0-1"
        nodes = list(game.mainline())
        assert [n.san() for n in nodes] == ["d4", "Nf6"]
        assert [n.clock() for n in nodes] == [1493.0, 1460.0]
        # The broadcast feed: the moves with their clocks, as a broadcast reads them.
        with server.client(setup.arbiter) as http:
            fed = http.get(f"/api/playoffs/{setup.playoff_id}/broadcast.pgn").text
        assert "1. d4 {[%clk 0:24:53]} 1... Nf6 {[%clk 0:24:20]} 0-1" in fed
        assert "WhiteClock" not in fed  # moves carry the clocks once there are moves
