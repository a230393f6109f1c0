"""The hub's send queues against sockets that stop taking frames (no server, no
network: a socket whose sends wait until the test lets them through).

- A resync replaces the events and views a client has not read with a snapshot,
  and keeps the answers to its commands (``ack``, ``error``) and pings, in order.
- A connection dropped or closed lets go of its queue and its pending send at once;
  one whose socket takes no more frames is cut off at once (a close frame would
  wait behind them); a close frame not taken, or not answered, within
  ``close_timeout_s`` ends in a cut-off too.
"""

from __future__ import annotations

import asyncio
import gc
import json
import time
from dataclasses import dataclass
from typing import Any, cast

from orchestrator.core.auth import Role
from orchestrator.runtime.hub import Connection, Hub, encode


class Socket:
    """A websocket whose sends wait while ``gate`` is shut, as on a peer that
    stopped reading."""

    def __init__(self, *, stalled: bool = False, close_hangs: bool = False) -> None:
        self.gate = asyncio.Event()
        if not stalled:
            self.gate.set()
        self.close_hangs = close_hangs
        self.sent: list[dict[str, Any]] = []
        self.closed_with: tuple[int, str | None] | None = None
        self.closed_at: float | None = None
        self.aborted_at: float | None = None
        self.send_abandoned = False

    async def send_text(self, data: str) -> None:
        if not self.gate.is_set():
            try:
                await self.gate.wait()
            except BaseException:  # cancelled, or closed unfinished
                self.send_abandoned = True
                raise
        self.sent.append(json.loads(data))

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        if self.close_hangs or not self.gate.is_set():
            await asyncio.Event().wait()
        self.closed_with = (code, reason)
        self.closed_at = time.monotonic()

    def abort(self) -> None:
        if self.aborted_at is None:
            self.aborted_at = time.monotonic()

    def frames(self) -> list[tuple[str, int, str | None]]:
        return [(f["t"], f["seq"], f.get("id")) for f in self.sent]


@dataclass
class State:
    id: str
    seq: int


class Service:
    def __init__(self) -> None:
        self.state = State("p1", 0)

    def playoff(self, playoff_id: str) -> State:
        return self.state


class StubHub(Hub):
    """The hub with the snapshot and the view reduced to their seq."""

    def snapshot_frame(self, state: Any) -> str:
        return encode("snapshot", state.seq, {})

    def view_frame(self, connection: Connection) -> str | None:
        return encode("view", self.service.playoff(connection.playoff_id).seq, {})


def hub(queue_size: int = 4) -> tuple[StubHub, Service]:
    service = Service()
    made = StubHub(cast(Any, service), cast(Any, None), queue_size=queue_size)
    made.close_timeout_s = 0.3
    return made, service


def connect(hub: Hub, socket: Socket, name: str = "display") -> Connection:
    connection = Connection(
        hub=hub, socket=socket, playoff_id="p1", role=Role.ARBITER, token_id="t",
        name=name, queue_size=hub.queue_size, holding=None,
    )
    hub.join(connection)
    return connection


def event(service: Service, connection: Connection) -> None:
    service.state.seq += 1
    connection.offer(service.state.seq, encode("event", service.state.seq, {}))


def answer(kind: str, seq: int, command_id: str) -> str:
    return encode(kind, seq, {}, id=command_id)


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_a_resync_replaces_events_and_views_and_keeps_the_answers() -> None:
    made, service = hub(queue_size=5)
    socket = Socket(stalled=True)
    connection = connect(made, socket)
    event(service, connection)  # 1: the send that waits on the socket
    connection.send(answer("ack", 1, "a"))
    event(service, connection)  # 2
    connection.offer_view(2, encode("view", 2, {}))
    connection.send(answer("error", 2, "b"))
    event(service, connection)  # 3
    assert connection.stalled
    event(service, connection)  # 4: the queue is full: a resync
    event(service, connection)  # 5: queued after it
    socket.gate.set()
    await settle()
    assert socket.frames() == [
        ("event", 1, None),
        ("snapshot", 4, None), ("view", 4, None),
        ("ack", 1, "a"), ("error", 2, "b"),  # kept, in order, after the snapshot
        ("event", 5, None),
    ]
    assert not connection.closed
    assert made.count("p1") == 1


async def test_answers_a_client_never_reads_are_bounded() -> None:
    made, service = hub(queue_size=2)
    socket = Socket(stalled=True)
    connection = connect(made, socket)
    event(service, connection)
    connection.send(answer("error", 1, "a"))
    connection.send(answer("error", 1, "b"))
    assert not connection.closed
    connection.send(answer("error", 1, "c"))  # one more than its queue holds
    assert connection.closed
    assert socket.aborted_at is not None  # its socket takes nothing: cut off
    assert made.count("p1") == 0


async def test_a_dropped_connection_that_stalled_is_cut_off_and_let_go_at_once() -> None:
    made, service = hub(queue_size=4)
    socket = Socket(stalled=True)
    connection = connect(made, socket)
    for _ in range(4):
        event(service, connection)
    sending = connection._sending
    assert sending is not None
    made.drop(connection, 4429, "too slow")
    assert socket.aborted_at is not None
    assert socket.closed_with is None  # no close frame behind what it never read
    assert made.count("p1") == 0
    assert not connection.stalled and not connection._queue
    await settle()
    assert sending.cancelled()
    del sending
    gc.collect()
    assert socket.send_abandoned
    connection.offer(service.state.seq + 1, encode("event", service.state.seq + 1, {}))
    assert not connection._queue


async def test_a_dropped_connection_gets_its_close_frame_then_is_cut_off() -> None:
    made, service = hub()
    socket = Socket()
    connection = connect(made, socket)
    event(service, connection)
    began = time.monotonic()
    made.drop(connection, 4408, "silent for three heartbeats")
    assert made.count("p1") == 0
    await asyncio.sleep(0.05)
    assert socket.closed_with == (4408, "silent for three heartbeats")
    assert socket.aborted_at is None  # the peer has its time to answer the close
    await asyncio.sleep(made.close_timeout_s + 0.1)
    assert socket.aborted_at is not None
    assert socket.aborted_at - began >= made.close_timeout_s


async def test_close_all_waits_on_no_socket_and_cuts_off_those_that_take_no_close() -> None:
    made, service = hub()
    answering, hanging, stalled = Socket(), Socket(close_hangs=True), Socket(stalled=True)
    connections = [connect(made, s, name) for s, name in (
        (answering, "answering"), (hanging, "hanging"), (stalled, "stalled"),
    )]
    for connection in connections:
        event(service, connection)
    began = time.monotonic()
    await asyncio.wait_for(made.close_all(), made.close_timeout_s + 0.5)
    assert time.monotonic() - began < made.close_timeout_s + 0.2
    assert made.count() == 0
    assert all(c.closed and not c.stalled for c in connections)
    # The one that takes its close frame has it at once, whatever the others do.
    assert answering.closed_with == (1012, "the service is restarting")
    assert answering.closed_at is not None and answering.closed_at - began < 0.1
    # The one whose close never completes is cut off after close_timeout_s...
    assert hanging.closed_with is None
    assert hanging.aborted_at is not None
    assert hanging.aborted_at - began >= made.close_timeout_s
    # ... and the one that took no more frames, at once.
    assert stalled.aborted_at is not None and stalled.aborted_at - began < 0.1
    assert stalled.send_abandoned
