"""Flag lateness: a flag's fall to the displays, and to the server's log."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from dataclasses import dataclass, field
from pathlib import Path

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from bench.fanout.harness import (
    FLAG_MARGIN_MS,
    FLAG_WATCHERS,
    Arbiter,
    CommandRefused,
    Server,
    players,
    prepare,
    start_ours,
)
from bench.fanout.latency import _iso_ns

# --------------------------------------------------------------------------- flags


@dataclass
class Flags:
    lateness_ms: list[float] = field(default_factory=list)  # every (flag, watcher)
    first_ms: list[float] = field(default_factory=list)  # the first watcher, per flag
    timer_ms: list[float] = field(default_factory=list)  # flag instant -> the server logs it
    publish_ms: list[float] = field(default_factory=list)  # logging begun -> a display has it
    offsets_ms: list[float] = field(default_factory=list)
    flags: int = 0
    missed: int = 0
    notes: list[str] = field(default_factory=list)


class Watcher:
    """A display that keeps when each ``flag-fell`` frame arrived."""

    def __init__(self, url: str, key: str) -> None:
        self.url, self.key = url, key
        # game -> (flag instant at_ms on the server's clock, arrival ns, the event's "at" ns)
        self.flags: dict[tuple[int, int], tuple[int, int, int]] = {}
        self.ws: ClientConnection | None = None
        self._task: asyncio.Task[None] | None = None

    async def open(self) -> None:
        self.ws = await connect(self.url, compression=None, max_size=None, proxy=None,
                                open_timeout=10, ping_interval=None)
        await self.ws.send(json.dumps({"t": "hello", "d": {"token": self.key}}))
        self._task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.ws is not None
        with contextlib.suppress(ConnectionClosed):
            async for raw in self.ws:
                now = time.time_ns()
                if '"flag-fell"' not in raw:
                    continue
                message = json.loads(raw)
                if message.get("t") == "event" and message["d"]["type"] == "flag-fell":
                    data = message["d"]["data"]
                    began = _iso_ns(message["d"]["at"])
                    self.flags[(data["match"], data["game"])] = (data["at_ms"], now, began)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 5)


async def _flag_one_game(
    arbiter: Arbiter, watchers: list[Watcher], offset_ms: float, match: int, game: int,
    found: Flags,
) -> None:
    ack = await arbiter.command({"type": "start-clock", "match": match, "game": game,
                                 "override": "bench: the games follow at once"})
    clock = (await arbiter.event(ack["d"]["seqs"][0]))["clock"]
    assert clock["running"] == "white", clock
    for attempt in range(3):
        server_now = time.time_ns() / 1e6 + offset_ms
        left = clock["white_ms"] - (server_now - clock["server_ms"])
        take = int(left) - (FLAG_MARGIN_MS + 200 * attempt)
        try:
            await arbiter.command({"type": "adjust", "match": match, "game": game,
                                   "side": "white", "delta_ms": -take,
                                   "reason": "bench: let the flag fall now"})
            break
        except CommandRefused as exc:
            found.notes.append(f"adjust refused ({exc}); trying with more margin")
    deadline = time.monotonic() + (FLAG_MARGIN_MS + 600) / 1000 + 5
    key = (match, game)
    while time.monotonic() < deadline and not all(key in w.flags for w in watchers):
        await asyncio.sleep(0.01)
    got = [w.flags[key] for w in watchers if key in w.flags]
    found.flags += 1
    found.missed += len(watchers) - len(got)
    late = sorted(arrived / 1e6 + offset_ms - at_ms for at_ms, arrived, _ in got)
    found.lateness_ms.extend(late)
    if late:
        found.first_ms.append(late[0])
        at_ms, _, began = got[0]
        found.timer_ms.append(began / 1e6 + offset_ms - at_ms)
        found.publish_ms.extend((arrived - began) / 1e6 for _, arrived, began in got)
    await asyncio.sleep(0.05)  # the result-recorded that follows the flag


async def _flag_playoff(server: Server, found: Flags) -> None:
    setup = await prepare(server.http)
    # The chief arbiter's: its games follow each other at once, inside the 5-minute
    # interval of GCT 2015 reg. 5, which only the chief arbiter may set aside.
    arbiter = Arbiter(server.ws(setup.playoff_id), setup.chief)
    watchers = [Watcher(server.ws(setup.playoff_id), setup.display_key)
                for _ in range(FLAG_WATCHERS)]
    try:
        await arbiter.open()
        for watcher in watchers:
            await watcher.open()
        offset = await arbiter.offset_ms()
        found.offsets_ms.append(offset)
        for match in (1, 2):
            if match == 2:
                await arbiter.command({"type": "lots", "match": 2})
            for game in (1, 2):  # White's flag both times: 1-1
                await _flag_one_game(arbiter, watchers, offset, match, game, found)
            caller = (await players(server.http, setup, match))[0]
            ack = await arbiter.command({"type": "coin-toss", "match": match, "caller": caller,
                                         "call": "heads"})
            winner = (await arbiter.event(ack["d"]["seqs"][0]))["data"]["winner"]
            loser = next(p for p in await players(server.http, setup, match) if p != winner)
            await arbiter.command({"type": "armageddon-colours", "match": match,
                                   "white": loser, "black": winner})
            await _flag_one_game(arbiter, watchers, offset, match, 3, found)
    finally:
        for watcher in watchers:
            await watcher.close()
        await arbiter.close()


async def flag_lateness(playoffs: int, folder: Path) -> Flags:
    found = Flags()
    server = await start_ours(folder, "flags")
    try:
        for _ in range(playoffs):
            await _flag_playoff(server, found)
    finally:
        server.stop()
    return found
