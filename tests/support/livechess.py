"""A stand-in for DGT LiveChess: its local websocket API on a real port, with boards
the test scripts.

It speaks the API as LiveChess's own clients and a recorded session show it (the
facts in ``clients/python/livechess.py``): ``ws://HOST:PORT/api/v1.0``; calls
``{"id": N, "call": NAME, "param": ...}`` answered ``{"response": "call", "id": N,
"param": ..., "time": MS}``; ``eboards``; ``subscribe`` to the ``eboardevent`` feed
of a board (an answer with ``param`` null, then a first feed frame with the board and
its clock); ``unsubscribe``; an unknown call, feed or serial answered
``{"response": "error", "id": N, "param": {"message": ...}}``. Feed frames carry the
feed id the subscriber chose, ``serialnr`` and ``flipped``, and ``board`` and
``clock`` only when they changed; every lifted piece is a frame of its own.

``replay`` plays a real game from a PGN with ``[%clk]`` as hands and a DGT clock
would: for each move the piece lifted (for a capture the captured piece too, for
castling the king then the rook), the piece put down, then the press, the clock
showing the mover's time after the move in whole seconds. The frames' ``time``
comes from the time source given, which the replay moves on by each move's
thinking time, so a game of an hour is played in seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from http import HTTPStatus
from pathlib import Path
from typing import Any, Protocol

import chess
import chess.pgn
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from clients.python.clock import wall_ms

PATH = "/api/v1.0"
START = chess.STARTING_BOARD_FEN

LIFT_MS = 100
"""Between one piece lifted and the next, and the last and the piece put down."""
PRESS_MS = 100
"""Between the piece put down and the clock pressed."""
LEAST_THINK_MS = 1_000
"""A move's shortest thinking time in a replay (a PGN's clocks may disagree with
their increment: the time a move took is never below this)."""


class Advancing(Protocol):
    """A time source the replay moves on (``ManualTime``)."""

    def server_ms(self) -> int: ...

    def advance(self, delta: int) -> None: ...


@dataclass
class Clock:
    """A DGT clock: whole seconds, ``run`` True (White's runs), False, None."""

    white: int
    black: int
    run: bool | None = None

    def reading(self, time_ms: int) -> dict[str, Any]:
        return {"white": self.white, "black": self.black, "run": self.run, "time": time_ms}


@dataclass
class _Board:
    serial: str
    source: str | None
    state: str | None
    battery: str | None
    comment: str | None = None
    placement: str | None = START
    flipped: bool = False
    clock: dict[str, Any] | None = None

    def entry(self) -> dict[str, Any]:
        return {
            "serialnr": self.serial, "source": self.source, "state": self.state,
            "battery": self.battery, "comment": self.comment, "board": self.placement,
            "flipped": self.flipped, "clock": self.clock,
        }


@dataclass
class _Subscriber:
    connection: ServerConnection
    feeds: dict[int, str] = field(default_factory=dict)  # feed id -> serial


class LiveChessStandIn:
    """Use ``async with livechess_stand_in(now_ms) as live:``; ``live.url``."""

    def __init__(self, now_ms: Callable[[], int] = wall_ms) -> None:
        self.now_ms = now_ms
        self.url = ""
        self.boards: dict[str, _Board] = {}
        self.calls: list[dict[str, Any]] = []
        """Every call received, as sent."""
        self.feed: list[dict[str, Any]] = []
        """Every feed frame sent (to any subscriber), in order."""
        self._subscribers: list[_Subscriber] = []

    # -- scripting the boards --------------------------------------------------

    def board(
        self, serial: str, *, battery: str | None = "84%", state: str | None = "ACTIVE",
        source: str | None = "COM3", comment: str | None = None,
        placement: str | None = START, clock: Clock | None = None,
    ) -> None:
        """A board LiveChess knows (or the same board, its state and battery changed)."""
        known = self.boards.get(serial)
        if known is not None:
            known.battery, known.state, known.source, known.comment = (
                battery, state, source, comment)
            return
        self.boards[serial] = _Board(
            serial, source, state, battery, comment, placement,
            clock=clock.reading(self.now_ms()) if clock else None,
        )

    async def play(self, serial: str, *frames: str | Clock, at_ms: int | None = None) -> None:
        """The board shows each placement, or its clock each reading, in turn: a feed
        frame for each change."""
        for frame in frames:
            time_ms = self.now_ms() if at_ms is None else at_ms
            if isinstance(frame, Clock):
                await self._show(serial, time_ms, clock=frame.reading(time_ms))
            else:
                await self._show(serial, time_ms, placement=frame)

    async def replay(
        self, serial: str, pgn: Path, time: Advancing, *,
        between: Callable[[int], Awaitable[None]] | None = None,
    ) -> chess.pgn.Game:
        """The game of ``pgn`` played on board ``serial`` from its first move: the DGT
        clock started for White, then each move (see the module's docstring).
        ``between(ply)`` is awaited after each press."""
        with pgn.open(encoding="utf-8") as text:
            game = chess.pgn.read_game(text)
        assert game is not None, f"no game in {pgn}"
        base, _, increment = game.headers["TimeControl"].partition("+")
        inc = int(increment or 0)
        board = game.board()
        dial = Clock(int(base), int(base), None)
        await self._show(serial, time.server_ms(), placement=board.board_fen(),
                         clock=dial.reading(time.server_ms()))
        dial.run = True  # the arbiter starts White's clock
        await self._show(serial, time.server_ms(), clock=dial.reading(time.server_ms()))
        for ply, node in enumerate(game.mainline(), start=1):
            move, mover = node.move, board.turn
            shown = node.clock()
            assert shown is not None, f"move {ply} of {pgn} has no [%clk]"
            after = int(shown)
            before = dial.white if mover == chess.WHITE else dial.black
            think = max(LEAST_THINK_MS, (before + inc - after) * 1000)
            lifted = _lifted(board, move)
            time.advance(think - LIFT_MS * len(lifted) - PRESS_MS)
            hand = chess.BaseBoard(board.board_fen())
            for square in lifted:
                hand.remove_piece_at(square)
                await self._show(serial, time.server_ms(), placement=hand.board_fen())
                time.advance(LIFT_MS)
            board.push(move)
            await self._show(serial, time.server_ms(), placement=board.board_fen())
            time.advance(PRESS_MS)
            if mover == chess.WHITE:
                dial.white, dial.run = after, False
            else:
                dial.black, dial.run = after, True
            await self._show(serial, time.server_ms(), clock=dial.reading(time.server_ms()))
            if between is not None:
                await between(ply)
        return game

    async def _show(self, serial: str, time_ms: int, *, placement: str | None = None,
                    clock: dict[str, Any] | None = None) -> None:
        """The board's placement or clock changed: its subscribers told, with only
        what changed."""
        known = self.boards[serial]
        param: dict[str, Any] = {"serialnr": serial, "flipped": known.flipped}
        if placement is not None and placement != known.placement:
            known.placement = param["board"] = placement
        if clock is not None and clock != known.clock:
            known.clock = param["clock"] = clock
        if "board" not in param and "clock" not in param:
            return
        for subscriber in list(self._subscribers):
            for feed_id, watched in subscriber.feeds.items():
                if watched == serial:
                    await self._feed(subscriber, feed_id, param, time_ms)

    async def _feed(self, subscriber: _Subscriber, feed_id: int, param: dict[str, Any],
                    time_ms: int) -> None:
        frame = {"response": "feed", "id": feed_id, "param": param, "time": time_ms}
        self.feed.append(frame)
        with contextlib.suppress(ConnectionClosed):
            await subscriber.connection.send(json.dumps(frame))

    # -- the API ---------------------------------------------------------------

    async def _serve(self, connection: ServerConnection) -> None:
        subscriber = _Subscriber(connection)
        self._subscribers.append(subscriber)
        try:
            async for raw in connection:
                await self._answer(subscriber, raw)
        except ConnectionClosed:
            pass
        finally:
            self._subscribers.remove(subscriber)

    async def _answer(self, subscriber: _Subscriber, raw: str | bytes) -> None:
        try:
            frame = json.loads(raw)
        except ValueError:
            frame = None
        if not isinstance(frame, dict):
            await self._error(subscriber, None, "Invalid request")
            return
        self.calls.append(frame)
        call_id, call, param = frame.get("id"), frame.get("call"), frame.get("param")
        if call == "eboards":
            await self._reply(subscriber, call_id, [b.entry() for b in self.boards.values()])
        elif call == "subscribe":
            await self._subscribe(subscriber, call_id, param)
        elif call == "unsubscribe":
            feed_id = param.get("id") if isinstance(param, dict) else None
            if feed_id not in subscriber.feeds:
                await self._error(subscriber, call_id, f"Unknown feed: {feed_id}")
                return
            del subscriber.feeds[feed_id]
            await self._reply(subscriber, call_id, None)
        else:
            await self._error(subscriber, call_id, f"Unknown call: {call}")

    async def _subscribe(self, subscriber: _Subscriber, call_id: Any, param: Any) -> None:
        param = param if isinstance(param, dict) else {}
        feed, feed_id = param.get("feed"), param.get("id")
        serial = (param.get("param") or {}).get("serialnr")
        if feed != "eboardevent":
            await self._error(subscriber, call_id, f"Unknown feed: {feed}")
        elif not isinstance(feed_id, int) or feed_id in subscriber.feeds:
            await self._error(subscriber, call_id, f"Invalid feed id: {feed_id}")
        elif serial not in self.boards:
            await self._error(subscriber, call_id, f"Unknown eboard: {serial}")
        else:
            subscriber.feeds[feed_id] = serial
            await self._reply(subscriber, call_id, None)
            known = self.boards[serial]
            await self._feed(subscriber, feed_id, {
                "serialnr": serial, "flipped": known.flipped, "board": known.placement,
                "clock": known.clock,
            }, self.now_ms())

    async def _reply(self, subscriber: _Subscriber, call_id: Any, param: Any) -> None:
        await subscriber.connection.send(json.dumps(
            {"response": "call", "id": call_id, "param": param, "time": self.now_ms()}))

    async def _error(self, subscriber: _Subscriber, call_id: Any, message: str) -> None:
        await subscriber.connection.send(json.dumps(
            {"response": "error", "id": call_id, "param": {"message": message},
             "time": self.now_ms()}))

    @staticmethod
    def _only_the_api(connection: ServerConnection, request: Request) -> Response | None:
        if request.path != PATH:
            return connection.respond(HTTPStatus.NOT_FOUND, "Not found\n")
        return None


def _lifted(board: chess.Board, move: chess.Move) -> list[chess.Square]:
    """The squares a hand empties for ``move``, in order."""
    if board.is_castling(move):
        rank = chess.square_rank(move.from_square)
        rook_file = 7 if chess.square_file(move.to_square) > chess.square_file(
            move.from_square) else 0
        return [move.from_square, chess.square(rook_file, rank)]
    if board.is_en_passant(move):
        return [move.from_square, chess.square(chess.square_file(move.to_square),
                                               chess.square_rank(move.from_square))]
    if board.is_capture(move):
        return [move.from_square, move.to_square]
    return [move.from_square]


@asynccontextmanager
async def livechess_stand_in(
    now_ms: Callable[[], int] = wall_ms,
) -> AsyncIterator[LiveChessStandIn]:
    """The stand-in listening on a free port of 127.0.0.1."""
    live = LiveChessStandIn(now_ms)
    server: Server = await serve(
        live._serve, "127.0.0.1", 0, process_request=LiveChessStandIn._only_the_api,
    )
    port = next(iter(server.sockets)).getsockname()[1]
    live.url = f"ws://127.0.0.1:{port}{PATH}"
    try:
        yield live
    finally:
        server.close()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(server.wait_closed(), 5)
