"""Helpers shared by tests."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from clients.python.client import Message, PlayoffClient
from orchestrator.core.timesource import ManualTime, TimeSource
from tests.support.events import ABDU, SINDAROV, uzchess_json
from tests.support.server import RunningServer, running_server


@asynccontextmanager
async def served(
    db: Path, time_source: TimeSource | None = None, port: int | None = None
) -> AsyncIterator[RunningServer]:
    """`running_server`, entered and left off the test's loop (so its clients keep
    running while the server starts and stops)."""
    context = running_server(db, time_source, port=port)
    server = await asyncio.to_thread(context.__enter__)
    try:
        yield server
    finally:
        await asyncio.to_thread(context.__exit__, None, None, None)


def ok(response: httpx.Response) -> dict[str, Any]:
    assert response.status_code in (200, 201), response.text
    body: dict[str, Any] = response.json()
    return body


@dataclass
class Setup:
    server: RunningServer
    event_id: str
    chief: str
    arbiter: str
    playoff_id: str
    displays: list[str]

    @property
    def base(self) -> str:
        return f"/api/playoffs/{self.playoff_id}/matches"

    def client(self, token: str, name: str, **kwargs: Any) -> PlayoffClient:
        return PlayoffClient(
            self.server.base_url, self.playoff_id, token, name=name, **kwargs
        )

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.server.port}/ws/playoffs/{self.playoff_id}"

    def post(self, path: str, body: Any = None) -> dict[str, Any]:
        with self.server.client(self.arbiter) as http:
            return ok(http.post(f"{self.base}{path}", json=body))

    def log(self, after: int = 0) -> list[dict[str, Any]]:
        with self.server.client(self.chief) as http:
            got = ok(http.get(f"/api/playoffs/{self.playoff_id}/events", params={"after": after}))
        events: list[dict[str, Any]] = got["events"]
        return events

    def seq(self) -> int:
        with self.server.client(self.chief) as http:
            seq: int = ok(http.get(f"/api/playoffs/{self.playoff_id}"))["seq"]
        return seq


def make_playoff(server: RunningServer, displays: int = 3, lots: bool = True) -> Setup:
    """The event, its play-off, an arbiter token, display keys; lots for match 1 drawn
    by hand (Abdusattorov White in game 1)."""
    with server.client() as anonymous:
        created = ok(anonymous.post(
            "/api/events", content=uzchess_json().encode(),
            headers={"Content-Type": "application/json"},
        ))
    event_id, chief = created["id"], created["chief_token"]
    with server.client(chief) as http:
        playoff_id = ok(http.post(f"/api/events/{event_id}/playoff", json={}))["id"]
        arbiter = ok(http.post(
            f"/api/events/{event_id}/tokens", json={"role": "arbiter", "label": "deputy"}
        ))["token"]
        keys = [
            ok(http.post(
                f"/api/events/{event_id}/tokens", json={"role": "display", "label": f"hall {n}"}
            ))["token"]
            for n in range(displays)
        ]
    setup = Setup(server, event_id, chief, arbiter, playoff_id, keys)
    if lots:
        setup.post("/1/lots", {"method": "physical", "white": ABDU})
    return setup


class Reader:
    """Reads one client's `messages()` (one iterator for the client's whole life)."""

    def __init__(self, client: PlayoffClient) -> None:
        self.client = client
        self._messages = client.messages().__aiter__()
        self.seen: list[Message] = []

    async def next(self, timeout: float = 5.0) -> Message:
        async with asyncio.timeout(timeout):
            message = await anext(self._messages)
        self.seen.append(message)
        return message

    async def until_seq(self, seq: int, timeout: float = 5.0) -> list[Message]:
        """The frames up to the first event or snapshot at `seq` or later."""
        got: list[Message] = []
        async with asyncio.timeout(timeout):
            while True:
                message = await anext(self._messages)
                self.seen.append(message)
                got.append(message)
                if message.t in ("event", "snapshot") and (message.seq or 0) >= seq:
                    return got


def events_of(messages: list[Message]) -> list[Message]:
    return [m for m in messages if m.t == "event"]


async def raw_hello(
    url: str, token: str, last_seq: int | None = None, **kwargs: Any
) -> tuple[ClientConnection, dict[str, Any]]:
    """A raw websocket that sent `hello`; and the `welcome` it got."""
    ws = await connect(url, max_size=None, **kwargs)
    await ws.send(json.dumps({"t": "hello", "d": {"token": token, "last_seq": last_seq}}))
    welcome = json.loads(await asyncio.wait_for(ws.recv(), 5))
    assert welcome["t"] == "welcome", welcome
    return ws, welcome


async def raw_frames(
    ws: ClientConnection, until: Any, timeout: float = 5.0
) -> list[dict[str, Any]]:
    """Frames from a raw websocket until `until(frame)` holds."""
    frames: list[dict[str, Any]] = []
    async with asyncio.timeout(timeout):
        while True:
            frame = json.loads(await ws.recv())
            frames.append(frame)
            if until(frame):
                return frames


def cmd(command_id: str, **d: Any) -> str:
    return json.dumps({"t": "cmd", "id": command_id, "d": d})


async def ws_answer(url: str, token: str, **command: Any) -> dict[str, Any]:
    """One command sent over a new websocket, and the frame that answers it."""
    ws, _ = await raw_hello(url, token)
    try:
        await ws.send(cmd("answer-me", **command))
        return (await raw_frames(ws, lambda f: f.get("id") == "answer-me"))[-1]
    finally:
        await ws.close()


def press(side: str, move: int) -> dict[str, Any]:
    return {"type": "press", "match": 1, "game": 1, "side": side, "move": move}


def level_after_two_games(setup: Setup, clock: ManualTime) -> None:
    """Games 1 and 2 won by White (1-1), the toss won by Sindarov, who takes Black."""
    for game in (1, 2):
        setup.post(f"/1/games/{game}/start")
        clock.advance(30 * 60_000)
        setup.post(f"/1/games/{game}/result", {"result": "1-0"})
        clock.advance(10 * 60_000)
    setup.post("/1/coin-toss", {"method": "physical", "winner": SINDAROV})
    setup.post("/1/armageddon-colours", {"white": ABDU, "black": SINDAROV})


async def welcome_and_view(
    setup: Setup, hello: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The welcome and the first view a client sending ``hello`` gets."""
    async with connect(setup.ws_url) as ws:
        await ws.send(json.dumps({"t": "hello", "d": hello}))
        (welcome,) = await raw_frames(ws, lambda f: f["t"] == "welcome")
        view = (await raw_frames(ws, lambda f: f["t"] == "view"))[-1]
    return welcome["d"], view["d"]
