"""Websocket fan-out: every logged event to every client of its play-off, in order.

Each event is encoded once and offered to every connection's bounded queue; a
sender task per connection drains its queue, so a slow display never delays the
others. A connection whose queue is full is resynced (its queue replaced by one
snapshot); one that overflows again within ``resync_window_s`` is closed with
4429 "too slow". See docs/protocol.md.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from orchestrator.auth import Role
from orchestrator.state import PlayoffState
from orchestrator.store import StoredEvent
from orchestrator.timesource import TimeSource
from orchestrator.views import clock_view, playoff_view

if TYPE_CHECKING:
    from orchestrator.service import Service


def encode(t: str, seq: int, d: Any, **extra: Any) -> str:
    return json.dumps({"t": t, "seq": seq, "d": d, **extra}, separators=(",", ":"))


def event_frame(logged: StoredEvent) -> str:
    data = logged.data
    d: dict[str, Any] = {
        "type": logged.type,
        "data": data,
        "at": logged.recorded_at.isoformat(),
        "actor": logged.actor,
    }
    if "clock" in data:
        d["clock"] = data["clock"]
    return encode("event", logged.seq, d)


class Socket(Protocol):
    """What the hub needs of a websocket."""

    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


@dataclass(eq=False)
class Connection:
    """One client of one play-off, with its own bounded send queue."""

    hub: Hub
    socket: Socket
    playoff_id: str
    role: Role
    token_id: str
    name: str = ""
    queue_size: int = 256
    last_seq: int = 0
    holding: list[tuple[int, str]] | None = field(default_factory=list)
    closed: bool = False
    last_heard: float = field(default_factory=time.monotonic)
    _queue: deque[str] = field(default_factory=deque)
    _sending: asyncio.Future[None] | None = None
    _overflowed_at: float | None = None

    def offer(self, seq: int, frame: str) -> None:
        """Queue an event frame unless it was already sent; never blocks."""
        if self.closed or seq <= self.last_seq:
            return
        if self.holding is not None:
            self.holding.append((seq, frame))
            return
        if len(self._queue) >= self.queue_size:
            self.resync()
            return
        self.last_seq = seq
        self._push(frame)

    def send(self, frame: str) -> None:
        """Queue a frame that is not an event (ack, error, ping...)."""
        if not self.closed:
            self._push(frame)

    def _push(self, frame: str) -> None:
        """Send now if nothing is in flight, else queue behind what is.

        Writing to a websocket whose buffer has room completes without waiting, so
        the send is run eagerly, on the spot: no task and no task switch per frame,
        which is most of the cost of a fan-out to thousands of displays. Only a send
        that has to wait (a slow reader) becomes a task, which then drains the queue.
        """
        if self._sending is not None:
            self._queue.append(frame)
            return
        coroutine = self.socket.send_text(frame)
        try:
            waiting_on = coroutine.send(None)
        except StopIteration:
            return
        except Exception:
            self._went_away()
            return
        self._sending = asyncio.ensure_future(self._finish(coroutine, waiting_on))

    async def _finish(self, coroutine: Any, waiting_on: Any) -> None:
        try:
            await _Resume(coroutine, waiting_on)
            while self._queue and not self.closed:
                await self.socket.send_text(self._queue.popleft())
        except Exception:
            self._went_away()
        finally:
            self._sending = None

    def _went_away(self) -> None:
        """The socket failed: the receiver notices the close and cleans up."""
        self.closed = True
        self._queue.clear()

    def release(self, upto: int) -> None:
        """After the catch-up up to ``upto``: send what arrived meanwhile, in order."""
        held, self.holding = self.holding or [], None
        self.last_seq = max(self.last_seq, upto)
        for seq, frame in held:
            self.offer(seq, frame)

    def resync(self) -> None:
        now = time.monotonic()
        if self._overflowed_at is not None and now - self._overflowed_at < self.hub.resync_window_s:
            self.hub.drop(self, 4429, "too slow")
            return
        self._overflowed_at = now
        self._queue.clear()
        state = self.hub.service.playoff(self.playoff_id)
        self.last_seq = state.seq
        self._push(self.hub.snapshot_frame(state))


class _Resume:
    """Await the rest of a coroutine that was started by hand and then had to wait.

    ``waiting_on`` is what it yielded when it first suspended; every later value
    goes to the task awaiting us and every resumption back to the coroutine, as
    ``yield from`` would do.
    """

    def __init__(self, coroutine: Any, waiting_on: Any) -> None:
        self.coroutine = coroutine
        self.waiting_on = waiting_on

    def __await__(self) -> Any:
        waiting_on = self.waiting_on
        while True:
            try:
                sent = yield waiting_on
            except BaseException as exc:
                try:
                    waiting_on = self.coroutine.throw(exc)
                except StopIteration as stop:
                    return stop.value
            else:
                try:
                    waiting_on = self.coroutine.send(sent)
                except StopIteration as stop:
                    return stop.value


@dataclass
class Hub:
    service: Service
    time: TimeSource
    queue_size: int = 256
    heartbeat_ms: int = 15_000
    catchup_limit: int = 1000
    resync_window_s: float = 10.0
    rooms: dict[str, set[Connection]] = field(default_factory=dict)
    _view_cache: dict[str, tuple[int, str]] = field(default_factory=dict)
    _tasks: set[asyncio.Future[None]] = field(default_factory=set)

    async def on_events(self, state: PlayoffState, stored: list[StoredEvent] | Any) -> None:
        room = self.rooms.get(state.id)
        if not room:
            return
        frames = [(logged.seq, event_frame(logged)) for logged in stored]
        for connection in list(room):
            for seq, frame in frames:
                connection.offer(seq, frame)

    def snapshot_frame(self, state: PlayoffState) -> str:
        """The whole state (cached per seq) and the clocks as they are now."""
        cached = self._view_cache.get(state.id)
        if cached is None or cached[0] != state.seq:
            view = playoff_view(state, self.service.schedule_of(state))
            cached = (state.seq, json.dumps(view, separators=(",", ":")))
            self._view_cache[state.id] = cached
        now = self.time.server_ms()
        clocks = [clock_view(key, clock, now) for key, clock in sorted(state.clocks.items())]
        return (
            f'{{"t":"snapshot","seq":{state.seq},"d":{{"state":{cached[1]},'
            f'"clocks":{json.dumps(clocks, separators=(",", ":"))}}}}}'
        )

    async def run_heartbeats(self) -> None:
        """One loop for every connection: a ping each interval, and a close for a
        client silent for three (far cheaper than a task per connection)."""
        last_ping = time.monotonic()
        while True:
            interval = self.heartbeat_ms / 1000
            await asyncio.sleep(min(interval, 0.25))
            now = time.monotonic()
            if now - last_ping < interval:
                continue
            last_ping = now
            for room in list(self.rooms.values()):
                if not room:
                    continue
                server_ms = {"server_ms": self.time.server_ms()}
                for connection in list(room):
                    if now - connection.last_heard > 3 * interval:
                        self.drop(connection, 4408, "silent for three heartbeats")
                    else:
                        # Its own seq: a ping never claims an event it has not sent.
                        connection.send(encode("ping", connection.last_seq, server_ms))

    def join(self, connection: Connection) -> None:
        self.rooms.setdefault(connection.playoff_id, set()).add(connection)

    def leave(self, connection: Connection) -> None:
        connection.closed = True
        room = self.rooms.get(connection.playoff_id)
        if room is not None:
            room.discard(connection)

    def drop(self, connection: Connection, code: int, reason: str) -> None:
        self.leave(connection)
        task = asyncio.ensure_future(_close(connection.socket, code, reason))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def count(self, playoff_id: str | None = None) -> int:
        """Connected clients, of one play-off or of all."""
        if playoff_id is not None:
            return len(self.rooms.get(playoff_id, ()))
        return sum(len(room) for room in self.rooms.values())

    async def close_all(self, code: int = 1012, reason: str = "the service is restarting") -> None:
        for room in list(self.rooms.values()):
            for connection in list(room):
                self.leave(connection)
                await _close(connection.socket, code, reason)



async def _close(socket: Socket, code: int, reason: str) -> None:
    try:
        await socket.close(code=code, reason=reason)
    except Exception:  # already closed
        return
