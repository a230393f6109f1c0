"""The Python client library against a small fake server speaking protocol v1.

The fake server below is written for these tests only: it keeps an event log,
answers `hello` with `welcome` and then a snapshot or the missed events, applies
a command id once, and lets each test script what a connection does after
`welcome` and on a command.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from clients.python import (
    Ack,
    AuthError,
    ClientClosed,
    CommandError,
    ConnectError,
    Disconnected,
    Message,
    NotFound,
    PlayoffClient,
    display_remaining_ms,
    websocket_url,
)

PLAYOFF = "po-1"
CHIEF = "chief-token-3f9a"
DISPLAY = "display-key-77c1"
SKEW_MS = 10_000  # the fake server's clock runs 10 s ahead of ours


def now_ms() -> int:
    return time.time_ns() // 1_000_000


@dataclass
class Conn:
    """One connection to the fake server, as the server saw it."""

    index: int
    ws: ServerConnection
    path: str
    headers: list[tuple[str, str]]
    received: list[dict[str, Any]] = field(default_factory=list)
    close_code: int | None = None

    @property
    def hello(self) -> dict[str, Any]:
        return self.received[0]

    def commands(self) -> list[dict[str, Any]]:
        return [frame for frame in self.received if frame.get("t") == "cmd"]

    async def send(self, frame: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(frame))


Hook = Callable[[Conn], Awaitable[None]]
CommandHook = Callable[[Conn, dict[str, Any]], Awaitable[None]]


class FakeServer:
    def __init__(self) -> None:
        self.tokens = {CHIEF: "chief", DISPLAY: "display"}
        self.events: list[dict[str, Any]] = []
        self.applied: dict[str, list[int]] = {}
        self.conns: list[Conn] = []
        self.pongs = asyncio.Event()
        self.base_url = ""
        self.heartbeat_ms = 15000
        self.after_welcome: Hook | None = None
        self.on_command: CommandHook = self.apply_and_ack

    # the log ------------------------------------------------------------------

    @property
    def head(self) -> int:
        return len(self.events)

    def append(self, kind: str, **data: Any) -> dict[str, Any]:
        frame = {
            "t": "event",
            "seq": self.head + 1,
            "d": {"type": kind, "data": data, "at": "2025-06-28T12:31:05.120Z", "actor": "x"},
        }
        self.events.append(frame)
        return frame

    def apply(self, command: dict[str, Any]) -> tuple[list[int], bool]:
        """Apply a command id once: its seqs, and whether it is new."""
        if command["id"] in self.applied:
            return self.applied[command["id"]], False
        event = self.append(f"{command['d']['type']}-done", **command["d"])
        self.applied[command["id"]] = [event["seq"]]
        return [event["seq"]], True

    async def apply_and_ack(self, conn: Conn, command: dict[str, Any]) -> None:
        if command["d"]["type"] == "refused":
            await conn.send(
                {
                    "t": "error",
                    "id": command["id"],
                    "seq": self.head,
                    "d": {"code": "conflict", "reason": "it is Black's turn"},
                }
            )
            return
        seqs, new = self.apply(command)
        if new:
            await conn.send(self.events[seqs[0] - 1])
        await conn.send({"t": "ack", "id": command["id"], "seq": self.head, "d": {"seqs": seqs}})

    # the connection -----------------------------------------------------------

    async def handler(self, ws: ServerConnection) -> None:
        assert ws.request is not None
        conn = Conn(len(self.conns), ws, ws.request.path, list(ws.request.headers.raw_items()))
        self.conns.append(conn)
        with contextlib.suppress(ConnectionClosed):
            await self._serve(conn)
        conn.close_code = ws.close_code

    async def _serve(self, conn: Conn) -> None:
        hello = json.loads(await conn.ws.recv())
        conn.received.append(hello)
        if conn.path != f"/ws/playoffs/{PLAYOFF}":
            await conn.ws.close(4404, "no such play-off")
            return
        role = self.tokens.get(hello["d"]["token"])
        if hello["t"] != "hello" or role is None:
            await conn.send({"t": "error", "seq": 0, "d": {"code": "forbidden", "reason": "bad"}})
            await conn.ws.close(4401, "bad or missing token")
            return
        welcome = {"role": role, "server_ms": now_ms() + SKEW_MS, "heartbeat_ms": self.heartbeat_ms}
        await conn.send(
            {"t": "welcome", "seq": self.head, "d": welcome | {"max_frame_bytes": 65536}}
        )
        last = hello["d"].get("last_seq")
        if last is None or last > self.head:
            await conn.send({"t": "snapshot", "seq": self.head, "d": {"id": PLAYOFF, "clocks": []}})
        else:
            for event in self.events[last:]:
                await conn.send(event)
        if self.after_welcome is not None:
            await self.after_welcome(conn)
        async for raw in conn.ws:
            frame = json.loads(raw)
            conn.received.append(frame)
            if frame["t"] == "pong":
                self.pongs.set()
            elif frame["t"] == "cmd":
                await self.on_command(conn, frame)


@pytest.fixture
async def server() -> AsyncIterator[FakeServer]:
    fake = FakeServer()
    fake.append("playoff-created")
    fake.append("lots-drawn")
    async with serve(fake.handler, "127.0.0.1", 0) as ws_server:
        port = next(iter(ws_server.sockets)).getsockname()[1]
        fake.base_url = f"http://127.0.0.1:{port}"
        yield fake


def client_for(server: FakeServer, **options: Any) -> PlayoffClient:
    return PlayoffClient(server.base_url, PLAYOFF, options.pop("token", CHIEF), **options)


async def take(client: PlayoffClient, until: Callable[[Message], bool]) -> list[Message]:
    """Messages up to and including the first for which `until` is true (1 s at most)."""
    seen: list[Message] = []

    async def collect() -> None:
        async for message in client.messages():
            seen.append(message)
            if until(message):
                return

    await asyncio.wait_for(collect(), 1.0)
    return seen


def kinds(messages: list[Message]) -> list[tuple[str, int | None]]:
    return [(m.t, m.seq) for m in messages]


# -- connecting ----------------------------------------------------------------


async def test_hello_is_the_first_frame_and_the_token_is_not_in_the_url(
    server: FakeServer,
) -> None:
    async with client_for(server, name="hall-left") as client:
        assert client.role == "chief"
        assert client.connected
        instance = client.instance
    conn = server.conns[0]
    assert conn.hello == {
        "t": "hello",
        "d": {"token": CHIEF, "last_seq": None, "client": "hall-left", "view": "none",
              "instance": instance},
    }
    assert len(instance) == 32  # its own random id, the same in each of its hellos
    assert conn.path == "/ws/playoffs/po-1"  # the path and the query
    assert all(CHIEF not in value for _, value in conn.headers)


async def test_snapshot_and_events_update_seq_state_and_offset(server: FakeServer) -> None:
    async def two_more(conn: Conn) -> None:
        await conn.send(server.append("game-scheduled"))
        await conn.send(server.append("clock-started"))

    server.after_welcome = two_more
    async with client_for(server) as client:
        seen = await take(client, lambda m: m.seq == 4)
        assert kinds(seen) == [("snapshot", 2), ("event", 3), ("event", 4)]
        assert seen[1].d["type"] == "game-scheduled"
        assert client.seq == 4
        assert client.state == {"id": PLAYOFF, "clocks": []}
        assert abs(client.server_offset_ms - SKEW_MS) < 1000
        assert client.max_frame_bytes == 65536


async def test_last_seq_given_gets_the_missed_events(server: FakeServer) -> None:
    async with client_for(server, last_seq=1) as client:
        seen = await take(client, lambda m: m.seq == 2)
    assert server.conns[0].hello["d"]["last_seq"] == 1
    assert kinds(seen) == [("event", 2)]


async def test_pings_are_answered_without_anybody_reading(server: FakeServer) -> None:
    async def ping(conn: Conn) -> None:
        await conn.send({"t": "ping", "seq": server.head, "d": {"server_ms": now_ms() + SKEW_MS}})

    server.after_welcome = ping
    async with client_for(server) as client:
        await asyncio.wait_for(server.pongs.wait(), 1.0)
        assert {"t": "pong"} in server.conns[0].received
        seen = await take(client, lambda m: m.t == "ping")
        assert kinds(seen) == [("snapshot", 2), ("ping", 2)]


async def test_a_bad_token_raises_auth_error_and_is_not_retried(server: FakeServer) -> None:
    with pytest.raises(AuthError):
        async with client_for(server, token="wrong"):
            pass
    await asyncio.sleep(0.2)
    assert len(server.conns) == 1


async def test_an_unknown_playoff_raises_not_found(server: FakeServer) -> None:
    with pytest.raises(NotFound):
        async with PlayoffClient(server.base_url, "nope", CHIEF):
            pass
    assert len(server.conns) == 1


async def test_an_unreachable_server_raises_connect_error(server: FakeServer) -> None:
    with pytest.raises(ConnectError):
        async with PlayoffClient("http://127.0.0.1:9", PLAYOFF, CHIEF, open_timeout=1.0):
            pass


# -- commands ------------------------------------------------------------------


async def test_a_command_is_sent_with_a_fresh_id_and_acked(server: FakeServer) -> None:
    async with client_for(server) as client:
        ack = await client.command("start-clock", match=1, game=1)
        assert len(ack.id) == 32
        assert ack == Ack(ack.id, [3])
        [sent] = server.conns[0].commands()
        assert sent == {
            "t": "cmd",
            "id": ack.id,
            "d": {"type": "start-clock", "match": 1, "game": 1},
        }
        seen = await take(client, lambda m: m.t == "ack")
        assert kinds(seen) == [("snapshot", 2), ("event", 3), ("ack", 3)]
        assert client.seq == 3


async def test_concurrent_commands_are_matched_by_id(server: FakeServer) -> None:
    received: list[tuple[Conn, dict[str, Any]]] = []

    async def answer_all_backwards(conn: Conn, command: dict[str, Any]) -> None:
        received.append((conn, command))
        if len(received) == 3:
            for each_conn, each in reversed(received):
                await server.apply_and_ack(each_conn, each)

    server.on_command = answer_all_backwards
    async with client_for(server) as client:
        results = await asyncio.gather(
            client.command("press", id="a", match=1, game=1, side="white", move=1),
            client.command("refused", id="b", match=1),
            client.command("press", id="c", match=1, game=1, side="black", move=1),
            return_exceptions=True,
        )
    assert results[0] == Ack("a", [4])
    assert results[2] == Ack("c", [3])
    error = results[1]
    assert isinstance(error, CommandError)
    assert (error.code, error.reason, error.id) == ("conflict", "it is Black's turn", "b")


async def test_the_same_id_twice_is_applied_once(server: FakeServer) -> None:
    async with client_for(server) as client:
        first = await client.command("pause", id="same", match=1, game=1)
        again = await client.command("pause", id="same", match=1, game=1)
    assert first == again == Ack("same", [3])
    assert server.head == 3
    assert [c["id"] for c in server.conns[0].commands()] == ["same", "same"]


async def test_the_same_id_at_once_shares_one_frame_and_one_ack(server: FakeServer) -> None:
    async with client_for(server) as client:
        first, again = await asyncio.gather(
            client.command("pause", id="twin", match=1, game=1),
            client.command("pause", id="twin", match=1, game=1),
        )
    assert first == again == Ack("twin", [3])
    assert [c["id"] for c in server.conns[0].commands()] == ["twin"]


async def test_a_frame_too_large_is_refused_before_sending(server: FakeServer) -> None:
    async with client_for(server) as client:
        with pytest.raises(CommandError) as refused:
            await client.command("adjust", id="big", reason="x" * 70_000)
        assert refused.value.code == "too-large"
        assert client.connected
    assert server.conns[0].commands() == []


async def test_an_unanswered_command_times_out(server: FakeServer) -> None:
    async def ignore(conn: Conn, command: dict[str, Any]) -> None:
        pass

    server.on_command = ignore
    async with client_for(server) as client:
        with pytest.raises(TimeoutError):
            await client.command("pause", id="slow", timeout=0.05, match=1, game=1)


async def test_close_fails_pending_commands_and_ends_messages(server: FakeServer) -> None:
    async def ignore(conn: Conn, command: dict[str, Any]) -> None:
        pass

    server.on_command = ignore
    client = client_for(server)
    async with client:
        pending = asyncio.create_task(client.command("pause", id="p", match=1, game=1))
        await asyncio.sleep(0.05)
    with pytest.raises(ClientClosed):
        await pending
    assert kinds([m async for m in client.messages()]) == [("snapshot", 2)]
    assert server.conns[0].close_code == 1000


# -- resuming ------------------------------------------------------------------


async def test_a_gap_in_seq_makes_the_client_resume_with_last_seq(server: FakeServer) -> None:
    async def skip_one(conn: Conn) -> None:
        if conn.index == 0:
            third, _, fifth = server.append("a"), server.append("b"), server.append("c")
            await conn.send(third)
            await conn.send(fifth)  # 4 is missing

    server.after_welcome = skip_one
    async with client_for(server) as client:
        seen = await take(client, lambda m: m.seq == 5 and m.t == "event")
        assert kinds(seen) == [
            ("snapshot", 2),
            ("event", 3),
            ("reconnected", 3),
            ("event", 4),
            ("event", 5),
        ]
        assert client.seq == 5
    assert server.conns[0].close_code == 1002
    assert server.conns[1].hello["d"]["last_seq"] == 3


async def test_a_restart_resumes_and_resends_the_pending_command(server: FakeServer) -> None:
    async def apply_then_restart(conn: Conn, command: dict[str, Any]) -> None:
        if conn.index == 0:  # durable, but the ack never leaves: the service restarts
            server.apply(command)
            await conn.ws.close(1012, "restarting")
        else:
            await server.apply_and_ack(conn, command)

    server.on_command = apply_then_restart
    async with client_for(server) as client:
        ack = await client.command("press", id="c-17", match=1, game=1, side="white", move=12)
        assert ack == Ack("c-17", [3])
        seen = await take(client, lambda m: m.t == "ack")
        assert client.seq == 3
    assert kinds(seen) == [("snapshot", 2), ("reconnected", 2), ("event", 3), ("ack", 3)]
    assert seen[1].d["code"] == 1012
    assert server.conns[1].hello["d"]["last_seq"] == 2
    assert [c["id"] for c in server.conns[1].commands()] == ["c-17"]
    assert server.head == 3  # applied once


async def test_a_silent_server_is_left_and_the_stream_resumed(server: FakeServer) -> None:
    server.heartbeat_ms = 40  # no ping for three heartbeats (120 ms): the server is gone

    async def fall_silent(conn: Conn) -> None:
        if conn.index == 0:
            server.heartbeat_ms = 15000
            await conn.send(server.append("a"))
            await conn.ws.wait_closed()  # no ping, no frame: the client leaves

    server.after_welcome = fall_silent
    async with client_for(server) as client:
        seen = await take(client, lambda m: m.t == "reconnected")
        assert kinds(seen) == [("snapshot", 2), ("event", 3), ("reconnected", 3)]
    assert server.conns[1].hello["d"]["last_seq"] == 3


async def test_a_refusal_on_reconnecting_stops_the_client(server: FakeServer) -> None:
    async def revoke_and_restart(conn: Conn) -> None:
        if conn.index == 0:
            del server.tokens[DISPLAY]
            await conn.ws.close(1012, "restarting")

    server.after_welcome = revoke_and_restart
    async with client_for(server, token=DISPLAY) as client:
        assert client.role == "display"
        with pytest.raises(AuthError):
            await take(client, lambda m: False)
        with pytest.raises(AuthError):
            await client.command("pause", match=1, game=1)
    assert len(server.conns) == 2


async def test_without_reconnect_a_lost_connection_raises_disconnected(
    server: FakeServer,
) -> None:
    async def restart(conn: Conn) -> None:
        await conn.ws.close(1012, "restarting")

    server.after_welcome = restart
    async with client_for(server, reconnect=False) as client:
        seen: list[Message] = []
        with pytest.raises(Disconnected) as lost:
            async for message in client.messages():
                seen.append(message)
        assert lost.value.code == 1012
        assert kinds(seen) == [("snapshot", 2)]
    assert len(server.conns) == 1


# -- the display clock ---------------------------------------------------------

CLOCK = {
    "match": 1,
    "game": 3,
    "white_ms": 359_120,
    "black_ms": 300_000,
    "running": "black",
    "status": "running",
    "server_ms": 1_751_122_865_120,
}


@pytest.mark.parametrize(
    ("clock", "side", "local_now_ms", "offset_ms", "expected"),
    [
        (CLOCK, "black", 1_751_122_865_120, 0, 300_000),
        (CLOCK, "black", 1_751_122_866_120, 0, 299_000),  # one second later
        (CLOCK, "black", 1_751_122_856_120, 10_000, 299_000),  # a local clock 10 s behind
        (CLOCK, "white", 1_751_122_866_120, 0, 359_120),  # the other side stands
        (CLOCK, "black", 1_751_122_864_120, 0, 300_000),  # never more than the server said
        (CLOCK, "black", 1_751_123_865_120, 0, 0),  # never below zero
        (CLOCK | {"running": None}, "black", 1_751_122_866_120, 0, 300_000),
        (CLOCK | {"running": None, "status": "running"}, "white", 1_751_122_866_120, 0, 359_120),
    ],
)
def test_display_remaining_ms(
    clock: dict[str, Any], side: str, local_now_ms: int, offset_ms: int, expected: int
) -> None:
    assert display_remaining_ms(clock, side, local_now_ms, offset_ms) == expected


def test_display_remaining_ms_refuses_an_unknown_side() -> None:
    with pytest.raises(ValueError):
        display_remaining_ms(CLOCK, "red", 0, 0)


def test_the_websocket_url_comes_from_the_base_url() -> None:
    assert websocket_url("http://h:8000", "po-1") == "ws://h:8000/ws/playoffs/po-1"
    assert websocket_url("https://h/api/", "a/b") == "wss://h/api/ws/playoffs/a%2Fb"
    with pytest.raises(ValueError):
        websocket_url("http://h/?token=x", "po-1")
    with pytest.raises(ValueError):
        websocket_url("ftp://h", "po-1")


async def test_remaining_ms_uses_the_clients_clock_and_offset(server: FakeServer) -> None:
    async with client_for(server, now_ms=lambda: 1_751_122_856_120 - SKEW_MS) as client:
        assert client.server_offset_ms > 0
        clock = CLOCK | {"server_ms": client.server_now_ms() - 1000}
        assert client.remaining_ms(clock, "black") == 299_000
