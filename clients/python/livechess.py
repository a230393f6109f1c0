"""A small client of DGT LiveChess's local websocket API (``ws://HOST:1982/api/v1.0``).

LiveChess reads the hall's DGT e-boards and the DGT 3000 clocks beside them. Its API,
as its own clients and a recorded session show it:

- a call is ``{"id": N, "call": NAME, "param": ...}``; the answer
  ``{"response": "call", "id": N, "param": ..., "time": MS}``, or
  ``{"response": "error", "id": N, "param": {"message": ...}, "time": MS}``;
- ``eboards`` answers every board LiveChess knows: ``serialnr``, ``source``,
  ``state`` (``ACTIVE``, ``INACTIVE``, ``NOTRESPONDING``, ``DELAYED`` or null),
  ``battery`` (``"84%"``), ``comment``, ``board`` (the FEN piece placement only),
  ``flipped`` and ``clock``;
- ``subscribe`` with ``{"feed": "eboardevent", "id": FEED, "param": {"serialnr": S}}``
  starts a feed of frames ``{"response": "feed", "id": FEED, "param": {...}}`` whose
  ``param`` has ``serialnr`` and ``flipped``, and ``board``/``clock`` only when they
  changed; each lifted piece brings a frame of its own;
- a clock is ``{"white": S, "black": S, "run": true|false|null, "time": MS}``: whole
  seconds, White's clock running (true), Black's (false) or neither (null), read at
  ``time``.

``time`` is the epoch milliseconds of the machine LiveChess runs on. This module
keeps each board's current state (the placement, the clock, the last ``time``) as
the feed frames change it; what to do with it is the forwarder's business.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, replace
from types import TracebackType
from typing import Any, Final, Self, TypeGuard

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from .clock import wall_ms
from .errors import ClientError

DEFAULT_URL: Final = "ws://127.0.0.1:1982/api/v1.0"
CALL_TIMEOUT_S: Final = 10.0


class LiveChessError(ClientError):
    """LiveChess cannot be reached, closed the connection, or refused a call (in its
    own words)."""


@dataclass(frozen=True, slots=True)
class DgtClock:
    """A DGT clock as LiveChess read it at ``time_ms`` (its machine's epoch ms)."""

    white_s: int
    black_s: int
    run: bool | None
    """True: White's clock runs; False: Black's; None: neither."""
    time_ms: int

    @property
    def running(self) -> str | None:
        """``"white"``, ``"black"`` or None."""
        return None if self.run is None else "white" if self.run else "black"

    def seconds(self, side: str) -> int:
        return self.white_s if side == "white" else self.black_s

    @classmethod
    def parse(cls, raw: Any, frame_ms: int) -> DgtClock | None:
        if not isinstance(raw, dict):
            return None
        run = raw.get("run")
        time_ms = raw.get("time")
        return cls(
            white_s=_whole(raw.get("white")), black_s=_whole(raw.get("black")),
            run=run if isinstance(run, bool) else None,
            time_ms=time_ms if _is_int(time_ms) else frame_ms,
        )


@dataclass(frozen=True, slots=True)
class EBoard:
    """One e-board as LiveChess knows it now."""

    serial: str
    source: str | None = None
    state: str | None = None
    battery: str | None = None
    comment: str | None = None
    placement: str | None = None
    """The FEN piece placement of the pieces on the board, or None if unknown."""
    flipped: bool = False
    clock: DgtClock | None = None
    time_ms: int = 0
    """LiveChess's time of the last frame that told of this board."""

    @classmethod
    def parse(cls, raw: Any, frame_ms: int) -> EBoard:
        if not isinstance(raw, dict) or not isinstance(raw.get("serialnr"), str):
            raise LiveChessError(f"LiveChess described a board without a serial number: {raw!r}")
        return cls(
            serial=raw["serialnr"], source=_text(raw.get("source")),
            state=_text(raw.get("state")), battery=_text(raw.get("battery")),
            comment=_text(raw.get("comment")), placement=_text(raw.get("board")),
            flipped=raw.get("flipped") is True,
            clock=DgtClock.parse(raw.get("clock"), frame_ms), time_ms=frame_ms,
        )

    def updated(self, event: dict[str, Any], frame_ms: int) -> EBoard:
        """This board after a feed frame: only the fields the frame carries change."""
        changes: dict[str, Any] = {"time_ms": frame_ms}
        if isinstance(event.get("flipped"), bool):
            changes["flipped"] = event["flipped"]
        if "board" in event:
            changes["placement"] = _text(event["board"])
        if "clock" in event:
            changes["clock"] = DgtClock.parse(event["clock"], frame_ms)
        return replace(self, **changes)


@dataclass(frozen=True, slots=True)
class FeedUpdate:
    """A board after one feed frame: its state now, what the frame carried, and when
    the frame reached this client (``received_ms``, on the caller's local clock)."""

    board: EBoard
    placement_changed: bool
    clock_changed: bool
    received_ms: int


class LiveChess:
    """One connection to LiveChess: calls, and the feeds of the boards subscribed.

    Use it as ``async with LiveChess(url) as live:``; then ``await live.eboards()``,
    ``await live.subscribe(serial)`` and ``async for update in live.updates():``.
    ``received_ms`` is the local clock that stamps each frame on arrival."""

    def __init__(
        self, url: str = DEFAULT_URL, *, received_ms: Callable[[], int] = wall_ms,
        open_timeout: float = 5.0,
    ) -> None:
        self.url: Final = url
        self._received_ms = received_ms
        self._open_timeout = open_timeout
        self._ids = itertools.count(1)
        self._feed_ids = itertools.count(1)
        self._ws: ClientConnection | None = None
        self._reader: asyncio.Task[None] | None = None
        self._calls: dict[int, asyncio.Future[tuple[Any, int]]] = {}
        self._feeds: dict[int, str] = {}  # feed id -> serial
        self._boards: dict[str, EBoard] = {}
        self._updates: asyncio.Queue[FeedUpdate | None] = asyncio.Queue()
        self._lost: LiveChessError | None = None
        self._closed = False

    async def __aenter__(self) -> Self:
        try:
            self._ws = await connect(self.url, open_timeout=self._open_timeout)
        except (OSError, InvalidHandshake, InvalidURI, TimeoutError) as exc:
            raise LiveChessError(f"cannot reach LiveChess at {self.url}: {exc}") from None
        self._reader = asyncio.create_task(self._read(self._ws), name=f"livechess {self.url}")
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def close(self) -> None:
        self._closed = True
        if self._ws is not None:
            # The reader goes on draining the frames in flight, so LiveChess's answer
            # to the close gets through.
            await self._ws.close()
        reader, self._reader = self._reader, None
        if reader is not None and not reader.done():
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader
        self._finish(LiveChessError("the connection to LiveChess was closed"))

    # -- calls -----------------------------------------------------------------

    async def call(self, name: str, param: Any = None) -> Any:
        """One call, and the ``param`` of its answer; `LiveChessError` for an error."""
        answer, _ = await self._call(name, param)
        return answer

    async def _call(self, name: str, param: Any = None) -> tuple[Any, int]:
        """The ``param`` and ``time`` of the answer to one call."""
        if self._ws is None or self._lost is not None:
            raise self._lost or LiveChessError("not connected to LiveChess")
        call_id = next(self._ids)
        answer: asyncio.Future[tuple[Any, int]] = asyncio.get_running_loop().create_future()
        self._calls[call_id] = answer
        frame: dict[str, Any] = {"id": call_id, "call": name}
        if param is not None:
            frame["param"] = param
        try:
            await self._ws.send(json.dumps(frame))
            async with asyncio.timeout(CALL_TIMEOUT_S):
                return await answer
        except ConnectionClosed:
            raise self._lost or LiveChessError("LiveChess closed the connection") from None
        except TimeoutError:
            raise LiveChessError(
                f"LiveChess did not answer {name!r} in {CALL_TIMEOUT_S:g} s"
            ) from None
        finally:
            self._calls.pop(call_id, None)

    async def eboards(self) -> list[EBoard]:
        """Every e-board LiveChess knows, as it describes them now."""
        answer, time_ms = await self._call("eboards")
        if not isinstance(answer, list):
            raise LiveChessError("LiveChess answered 'eboards' without a list of boards")
        boards = [EBoard.parse(raw, time_ms) for raw in answer]
        for board in boards:
            known = self._boards.get(board.serial)
            if known is None:
                self._boards[board.serial] = board
            else:  # the feed keeps the placement and the clock: only the rest is news
                self._boards[board.serial] = replace(
                    known, source=board.source, state=board.state, battery=board.battery,
                    comment=board.comment,
                )
        return boards

    async def subscribe(self, serial: str) -> int:
        """Follow one board's ``eboardevent`` feed; its feed id."""
        feed_id = next(self._feed_ids)
        self._feeds[feed_id] = serial
        try:
            await self.call(
                "subscribe",
                {"feed": "eboardevent", "id": feed_id, "param": {"serialnr": serial}},
            )
        except LiveChessError:
            self._feeds.pop(feed_id, None)
            raise
        return feed_id

    async def unsubscribe(self, feed_id: int) -> None:
        await self.call("unsubscribe", {"id": feed_id})
        self._feeds.pop(feed_id, None)

    def board(self, serial: str) -> EBoard | None:
        """The board as the calls and the feed told of it so far."""
        return self._boards.get(serial)

    async def updates(self) -> AsyncIterator[FeedUpdate]:
        """Each feed frame, as the board it changed; raises `LiveChessError` when the
        connection is lost."""
        while True:
            update = await self._updates.get()
            if update is None:
                self._updates.put_nowait(None)
                if self._lost is not None and not self._closed:
                    raise self._lost
                return
            yield update

    async def next_update(self) -> FeedUpdate:
        """The next feed frame, as the board it changed; `LiveChessError` once the
        connection is lost or closed."""
        update = await self._updates.get()
        if update is None:
            self._updates.put_nowait(None)
            raise self._lost or LiveChessError("the connection to LiveChess was closed")
        return update

    def pending_update(self) -> FeedUpdate | None:
        """A feed frame already received and not yet read, if any (without waiting)."""
        try:
            update = self._updates.get_nowait()
        except asyncio.QueueEmpty:
            return None
        if update is None:
            self._updates.put_nowait(None)
        return update

    # -- reading ---------------------------------------------------------------

    @property
    def _last_time(self) -> int:
        return max((b.time_ms for b in self._boards.values()), default=0)

    async def _read(self, ws: ClientConnection) -> None:
        try:
            async for raw in ws:
                received = self._received_ms()
                try:
                    frame = json.loads(raw)
                except ValueError:
                    continue  # not a frame of the API: nothing to learn from it
                if isinstance(frame, dict):
                    self._dispatch(frame, received)
            self._finish(LiveChessError("LiveChess closed the connection"))
        except ConnectionClosed as exc:
            self._finish(LiveChessError(f"the connection to LiveChess was lost ({exc})"))

    def _dispatch(self, frame: dict[str, Any], received_ms: int) -> None:
        kind, frame_id, param = frame.get("response"), frame.get("id"), frame.get("param")
        frame_ms = frame.get("time") if _is_int(frame.get("time")) else self._last_time
        assert isinstance(frame_ms, int)
        if kind == "feed":
            serial = self._feeds.get(frame_id) if _is_int(frame_id) else None
            if serial is None or not isinstance(param, dict):
                return
            if param.get("serialnr") not in (None, serial):
                return
            known = self._boards.get(serial) or EBoard(serial=serial)
            board = known.updated(param, frame_ms)
            self._boards[serial] = board
            self._updates.put_nowait(FeedUpdate(
                board, placement_changed="board" in param, clock_changed="clock" in param,
                received_ms=received_ms,
            ))
            return
        answer = self._calls.get(frame_id) if _is_int(frame_id) else None
        if answer is None or answer.done():
            return
        if kind == "error":
            message = param.get("message") if isinstance(param, dict) else None
            answer.set_exception(LiveChessError(
                f"LiveChess refused: {message}" if message else "LiveChess refused the call"
            ))
        else:
            answer.set_result((param, frame_ms))

    def _finish(self, lost: LiveChessError) -> None:
        if self._lost is None:
            self._lost = lost
        for answer in self._calls.values():
            if not answer.done():
                answer.set_exception(self._lost)
        self._updates.put_nowait(None)


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _whole(value: object) -> int:
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None
