"""A graceful stop (SIGTERM) of the real command while a hall display has stopped
reading: the process ends within its graceful-shutdown timeout, and the other
clients are served meanwhile and come back to the next process.

The display that stopped reading holds megabytes the server cannot hand to its
socket: a close frame queued behind them never arrives, so only cutting its
connection lets the stop finish.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from clients.python.client import Message, PlayoffClient
from orchestrator.cli.main import GRACEFUL_STOP_S
from tests.support.events import ABDU, uzchess_json
from tests.support.server import free_port, service_process

REASON_BYTES = 60_000  # each event frame carries it: ~60 KB a frame


def ok(response: httpx.Response) -> dict[str, Any]:
    assert response.status_code in (200, 201), response.text
    body: dict[str, Any] = response.json()
    return body


def make_playoff(base: str) -> tuple[str, str, list[str]]:
    """The UzChess Cup play-off with game 1 started and paused: (play-off id, chief
    token, two display keys)."""
    with httpx.Client(base_url=base, trust_env=False, timeout=10) as anonymous:
        created = ok(anonymous.post(
            "/api/events", content=uzchess_json().encode(),
            headers={"Content-Type": "application/json"},
        ))
    event_id, chief = created["id"], created["chief_token"]
    with httpx.Client(
        base_url=base, trust_env=False, timeout=10, headers={"Authorization": f"Bearer {chief}"}
    ) as http:
        playoff_id = ok(http.post(f"/api/events/{event_id}/playoff", json={}))["id"]
        keys = [
            ok(http.post(f"/api/events/{event_id}/tokens", json={"role": "display"}))["token"]
            for _ in range(2)
        ]
        commands = f"/api/playoffs/{playoff_id}/commands"
        ok(http.post(commands, json={"type": "lots", "match": 1, "method": "physical",
                                     "white": ABDU}))
        ok(http.post(commands, json={"type": "start-clock", "match": 1, "game": 1}))
        ok(http.post(commands, json={"type": "pause", "match": 1, "game": 1}))
    return playoff_id, chief, keys


def adjust_many(base: str, playoff_id: str, chief: str, count: int) -> int:
    """``count`` adjustments of ~60 KB each (the reason); the last seq."""
    seq = 0
    with httpx.Client(
        base_url=base, trust_env=False, timeout=10, headers={"Authorization": f"Bearer {chief}"}
    ) as http:
        for n in range(count):
            acked = ok(http.post(f"/api/playoffs/{playoff_id}/commands", json={
                "type": "adjust", "match": 1, "game": 1, "side": "white", "delta_ms": 1000,
                "reason": f"{n} " + "z" * REASON_BYTES,
            }))
            seq = max(seq, *(e["seq"] for e in acked["events"]))
    return seq


async def stalled_socket(port: int, playoff_id: str, key: str) -> ClientConnection:
    """A display that says hello and then never reads: a tiny receive buffer, and
    the library stops taking frames from the socket after one."""
    raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.setblocking(False)
    await asyncio.get_running_loop().sock_connect(raw, ("127.0.0.1", port))
    ws = await connect(
        f"ws://127.0.0.1:{port}/ws/playoffs/{playoff_id}", sock=raw, max_size=None,
        max_queue=1, compression=None, ping_interval=None,
    )
    await ws.send(json.dumps({"t": "hello", "d": {"token": key, "client": "stalled"}}))
    return ws


def send_buffer_limit() -> int:
    """The most a socket's kernel send buffer grows to (bytes)."""
    try:
        return int(Path("/proc/sys/net/ipv4/tcp_wmem").read_text().split()[2])
    except (OSError, IndexError, ValueError):
        return 4 * 1024 * 1024


async def test_sigterm_ends_the_service_in_time_while_a_display_reads_nothing(
    tmp_path: Path,
) -> None:
    db, port = tmp_path / "log.db", free_port()
    base = f"http://127.0.0.1:{port}"
    with open(tmp_path / "service.log", "wb") as log, service_process(
        db, log, port
    ) as (process, _):
        playoff_id, chief, keys = await asyncio.to_thread(make_playoff, base)
        stalled = await stalled_socket(port, playoff_id, keys[0])
        reading = PlayoffClient(base, playoff_id, keys[1], name="reading")
        await reading.connect()
        seen: list[Message] = []

        async def read() -> None:
            async for message in reading.messages():
                seen.append(message)

        reader = asyncio.create_task(read())
        # More than the stalled display's socket can hold: the rest stays in the
        # server, in its transport and its queue.
        count = (send_buffer_limit() + 2 * 1024 * 1024) // REASON_BYTES
        last = await asyncio.to_thread(adjust_many, base, playoff_id, chief, count)

        async def reached(seq: int) -> None:
            while not any(m.t == "event" and m.seq == seq for m in seen):
                await asyncio.sleep(0.02)

        # Served meanwhile: every event, at once, and the REST API answers.
        async with asyncio.timeout(5):
            await reached(last)
        async with httpx.AsyncClient(base_url=base, trust_env=False, timeout=5) as http:
            assert (await http.get(f"/api/playoffs/{playoff_id}", headers={
                "Authorization": f"Bearer {chief}"})).status_code == 200

        stopped_at = time.monotonic()
        os.kill(process.pid, signal.SIGTERM)
        # The reading display is told at once (1012: reconnect and resume)...
        async with asyncio.timeout(3):
            while reading.connected:
                await asyncio.sleep(0.02)
        assert time.monotonic() - stopped_at < 2
        # ... and the process ends within its graceful-shutdown timeout.
        try:
            await asyncio.to_thread(process.wait, GRACEFUL_STOP_S + 3)
        except subprocess.TimeoutExpired:
            raise AssertionError(
                f"SIGTERM: the service still runs {GRACEFUL_STOP_S + 3} s later"
            ) from None
        assert time.monotonic() - stopped_at < GRACEFUL_STOP_S + 3
    output = (tmp_path / "service.log").read_text()
    # A graceful stop: the app's own shutdown ran (the event log closed).
    assert "Application shutdown complete" in output, output[-2000:]

    # The next process on the same port and log: the reading display resumes,
    # missing nothing.
    with open(tmp_path / "service.log", "ab") as log, service_process(db, log, port):
        async with asyncio.timeout(10):
            while not (reading.connected and reading.seq == last):
                await asyncio.sleep(0.05)
        reconnected = [m for m in seen if m.t == "reconnected"]
        assert [m.d["code"] for m in reconnected] == [1012]
        after = seen[seen.index(reconnected[0]) + 1:]
        assert [m.t for m in after if m.t in ("event", "snapshot")] == []
        await reading.close()
        reader.cancel()
    stalled.transport.abort()


def test_a_stop_answers_the_views_held_for_a_change_at_once(tmp_path: Path) -> None:
    """The event console holds a view request until the event changes (up to 25 s); a
    stop answers it with the event as it is rather than waiting out the hold."""
    import threading

    from tests.support.foresight import before_round_9

    with (tmp_path / "serve.log").open("wb") as log, \
            service_process(tmp_path / "log.db", log) as (process, base):
        with httpx.Client(base_url=base, trust_env=False, timeout=10) as anonymous:
            made = ok(anonymous.post("/api/events", content=json.dumps(before_round_9()),
                                     headers={"Content-Type": "application/json"}))
        held: list[httpx.Response] = []

        def hold() -> None:
            with httpx.Client(base_url=base, trust_env=False, timeout=30,
                              headers={"Authorization": f"Bearer {made['chief_token']}"}) as http:
                held.append(http.get(f"/api/events/{made['id']}/view",
                                     params={"kind": "arbiter", "after": 10**6, "wait": 25}))

        holder = threading.Thread(target=hold)
        holder.start()
        # The request is held by now (a margin for a loaded machine, where the service
        # may take a moment to read it).
        time.sleep(2.0)
        assert holder.is_alive()
        asked = time.monotonic()
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=GRACEFUL_STOP_S + 5)
        holder.join(timeout=5)
        assert time.monotonic() - asked < GRACEFUL_STOP_S - 2
        assert held and held[0].status_code == 200
