"""The fan-out's cheap paths (no server, no network): frames built once and written
straight to sockets that can take them, in order with those that have to wait; the
heartbeat's pings spread over the interval; a flag timer that fires on its
millisecond, not before.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any, cast

from websockets.frames import Frame, Opcode
from websockets.streams import StreamReader

from orchestrator.api.ws import wire
from orchestrator.core.auth import Role
from orchestrator.runtime.clocks import SPIN_S, FlagTimers, _Timer
from orchestrator.runtime.hub import Connection, Hub, encode


def parse(data: bytes) -> Frame:
    reader = StreamReader()
    reader.feed_data(data)
    parser = Frame.parse(reader.read_exact, mask=False)
    try:
        next(parser)
    except StopIteration as done:
        frame: Frame = done.value
        assert reader.at_eof() or not reader.buffer
        return frame
    raise AssertionError("an incomplete frame")


def test_a_frame_is_built_as_the_websocket_library_reads_it() -> None:
    for size in (0, 125, 126, 65535, 65536, 200_000):
        text = "é" * (size // 2) + "x" * (size % 2)
        frame = parse(wire(text))
        assert frame.opcode is Opcode.TEXT and frame.fin
        assert frame.data.decode() == text
    assert wire("same") is wire("same")  # built once for every connection


@dataclass
class Socket:
    """A socket that takes frames at once while ``open``, else only by waiting."""

    open: bool = True
    written: list[str] = field(default_factory=list)
    gate: asyncio.Event = field(default_factory=asyncio.Event)

    def write(self, data: str) -> bool:
        if not self.open:
            return False
        self.written.append(data)
        return True

    async def send_text(self, data: str) -> None:
        await self.gate.wait()
        self.written.append(data)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        pass

    def abort(self) -> None:
        pass


@dataclass
class State:
    id: str = "p1"
    seq: int = 0


class Service:
    state = State()

    def playoff(self, playoff_id: str) -> State:
        return self.state


def connect(hub: Hub, socket: Any, name: str = "display") -> Connection:
    connection = Connection(
        hub=hub, socket=socket, playoff_id="p1", role=Role.DISPLAY, token_id="t",
        name=name, queue_size=hub.queue_size, holding=None,
    )
    hub.join(connection)
    return connection


def seqs(socket: Socket) -> list[int]:
    return [json.loads(frame)["seq"] for frame in socket.written]


async def test_frames_are_written_at_once_and_in_order_when_the_socket_must_wait() -> None:
    hub = Hub(cast(Any, Service()), cast(Any, None))
    socket = Socket()
    connection = connect(hub, socket)
    connection.offer(1, encode("event", 1, {}))
    assert seqs(socket) == [1] and not connection.stalled  # no task, no queue
    socket.open = False  # its buffer is full: the next send waits, the rest queue
    for seq in (2, 3):
        connection.offer(seq, encode("event", seq, {}))
    assert connection.stalled and seqs(socket) == [1]
    socket.open = True  # written at once from now on, behind the one that waited
    socket.gate.set()
    for _ in range(5):
        await asyncio.sleep(0)
    assert seqs(socket) == [1, 2, 3] and not connection.stalled
    connection.offer(4, encode("event", 4, {}))
    assert seqs(socket) == [1, 2, 3, 4]


async def test_the_pings_of_a_round_are_spread_over_the_interval() -> None:
    hub = Hub(cast(Any, Service()), cast(Any, _Clock()), heartbeat_ms=1000)
    sockets = [Socket() for _ in range(40)]
    connections = [connect(hub, socket, f"d{i}") for i, socket in enumerate(sockets)]
    for connection in connections:
        connection.last_seq = 7
    beats = asyncio.ensure_future(hub.run_heartbeats())
    turns: list[int] = []  # how many have been pinged, at each change
    try:
        for _ in range(400):
            await asyncio.sleep(0.01)
            pinged = sum(1 for socket in sockets if socket.written)
            if not turns or pinged != turns[-1]:
                turns.append(pinged)
            if pinged == len(sockets):
                break
    finally:
        beats.cancel()
    assert turns[-1] == len(sockets)
    assert len([n for n in turns if n > 0]) >= 3  # a share at a time, not all at once
    assert all(seqs(socket) == [7] for socket in sockets)  # once each, with its own seq
    # One encoding for every connection at the same seq.
    assert len({id(socket.written[0]) for socket in sockets}) < len(sockets)


class _Clock:
    def server_ms(self) -> int:
        return 0


@dataclass
class Ticking:
    """A server clock that moves on by ``step`` ms each time it is read."""

    now: int
    step: int = 1

    def server_ms(self) -> int:
        self.now += self.step
        return self.now


async def test_a_flag_timer_fires_on_its_millisecond_and_not_before() -> None:
    clock = Ticking(now=10_000 - int(SPIN_S * 1000) - 1)
    flags = FlagTimers(cast(Any, None), cast(Any, clock))
    fired: list[int] = []
    flags._spawn = lambda playoff_id, key, flag_at: fired.append(clock.now)  # type: ignore[method-assign]
    flags._timers[("p1", (1, 1))] = _Timer(10_000, None)
    flags._due("p1", (1, 1), 10_000, None)  # woken early: the loop turns until the instant
    for _ in range(20):
        await asyncio.sleep(0)
        if fired:
            break
    assert fired == [10_000]
    assert flags._timers[("p1", (1, 1))].handle is None


async def test_a_flag_timer_woken_too_early_waits_on_a_timer_again() -> None:
    clock = Ticking(now=0, step=0)  # a clock that does not move as the loop's does
    flags = FlagTimers(cast(Any, None), cast(Any, clock))
    flags._timers[("p1", (1, 1))] = _Timer(10_000, None)
    flags._due("p1", (1, 1), 10_000, None)
    handle = flags._timers[("p1", (1, 1))].handle
    assert isinstance(handle, asyncio.TimerHandle)  # not spinning for ten seconds
    handle.cancel()
