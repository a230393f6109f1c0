"""Press-to-ack of a running play-off while floods run: the scenario that
``python -m bench floods`` measures and ``tests/runtime/test_floods.py`` checks.

The service runs as ``playoff serve``, a process of its own. A play-off's presses are
timed (send to ack, over the arbiter's websocket), first with nothing else happening,
then while another process (``tests.support.flood_clients``, at a lower priority: its clients
would run on machines of their own) has six clients ask again and again for the
play-off watch of an event with fifteen games pending (a new draw rate each time),
and opens 1,500 websockets on one display key from ten addresses of this machine,
none of them reading. Target: the p99 under the floods below max(2 x the idle p99,
50 ms).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[2]
UZCHESS = ROOT / "tests" / "data" / "uzchess-cup-masters-2025.json"
ABDU = "14204118"
PRESSES = 200
FLOOD_S = 12
JSON = {"Content-Type": "application/json"}


@dataclass
class Figures:
    idle: list[float]
    flooded: list[float]
    foresight: list[int]
    sockets: dict[str, int]

    @property
    def idle_p99(self) -> float:
        return p99(self.idle)

    @property
    def flooded_p99(self) -> float:
        return p99(self.flooded)

    @property
    def bound(self) -> float:
        return max(2 * self.idle_p99, 50.0)

    def words(self) -> str:
        slowest = sorted(enumerate(self.flooded), key=lambda x: -x[1])[:5]
        return (
            f"press -> ack p99: idle {self.idle_p99:.1f} ms, under the floods "
            f"{self.flooded_p99:.1f} ms (target {self.bound:.1f} ms); median "
            f"{statistics.median(self.idle):.1f} / {statistics.median(self.flooded):.1f} ms\n"
            f"foresight answers: {self.foresight.count(200)} x 200, "
            f"{self.foresight.count(429)} x 429, {self.foresight.count(503)} x 503, "
            f"{self.foresight.count(0)} given up; websockets: {self.sockets}\n"
            f"slowest under the floods (press, ms): "
            + ", ".join(f"{n}: {ms:.0f}" for n, ms in slowest)
        )


def p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[98]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _answers(base: str) -> bool:
    try:
        return httpx.get(f"{base}/api/health", timeout=1, trust_env=False).status_code == 200
    except httpx.HTTPError:
        return False


@contextlib.contextmanager
def served(folder: Path) -> Iterator[str]:
    """``playoff serve`` on a fresh log in ``folder``: its base URL."""
    port = _free_port()
    with open(folder / "server.log", "wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "orchestrator.cli", "serve", "--db", str(folder / "log.db"),
             "--port", str(port)],
            cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 30
            while not _answers(base):
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError((folder / "server.log").read_text(errors="replace"))
                time.sleep(0.05)
            yield base
        finally:
            process.terminate()
            process.wait(timeout=30)


def _events(pending_from: int | None = None) -> str:
    data: dict[str, Any] = json.loads(UZCHESS.read_text(encoding="utf-8"))
    for game in data["games"]:
        if pending_from is not None and game["round"] >= pending_from:
            game["result"] = "*"
            game.pop("ended_at", None)
    return json.dumps(data)


class Presser:
    """The arbiter at the board: presses White's and Black's clock in turn."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.moves = {"white": 0, "black": 0}
        self.side = "white"
        self.n = 0

    async def presses(self, count: int) -> list[float]:
        took: list[float] = []
        for _ in range(count):
            self.n += 1
            self.moves[self.side] += 1
            sent = time.perf_counter()
            await self.ws.send(json.dumps({"t": "cmd", "id": f"p{self.n}", "d": {
                "type": "press", "match": 1, "game": 1, "side": self.side,
                "move": self.moves[self.side],
            }}))
            while True:
                frame = json.loads(await asyncio.wait_for(self.ws.recv(), 30))
                if frame.get("id") == f"p{self.n}":
                    break
            if frame["t"] != "ack":
                raise AssertionError(f"a press was refused: {frame}")
            took.append((time.perf_counter() - sent) * 1000)
            self.side = "black" if self.side == "white" else "white"
            await asyncio.sleep(0.055)  # under the websocket's 20 commands a second
        return took


async def measure(base: str) -> Figures:
    """The figures, on the service at ``base``."""
    with httpx.Client(base_url=base, trust_env=False, timeout=60) as http:
        made = http.post("/api/events", content=_events(), headers=JSON).json()
        chief = {"Authorization": f"Bearer {made['chief_token']}"}
        playoff_id = http.post(f"/api/events/{made['id']}/playoff", json={},
                               headers=chief).json()["id"]
        arbiter = http.post(f"/api/events/{made['id']}/tokens",
                            json={"role": "arbiter"}, headers=chief).json()["token"]
        display = http.post(f"/api/events/{made['id']}/tokens",
                            json={"role": "display"}, headers=chief).json()["token"]
        matches = f"/api/playoffs/{playoff_id}/matches/1"
        http.post(f"{matches}/lots", json={"method": "physical", "white": ABDU}, headers=chief)
        http.post(f"{matches}/games/1/start", json={"override": "the benchmark's own pace"},
                  headers=chief).raise_for_status()
        watched = http.post("/api/events", content=_events(pending_from=7), headers=JSON).json()
        watchers = [
            http.post(f"/api/events/{watched['id']}/tokens", json={"role": "arbiter"},
                      headers={"Authorization": f"Bearer {watched['chief_token']}"}
                      ).json()["token"]
            for _ in range(6)
        ]
    # The watch's processes start when an event with games pending arrives: let them.
    await asyncio.sleep(1.0)
    url = base.replace("http", "ws") + f"/ws/playoffs/{playoff_id}"
    async with connect(url, max_size=None, proxy=None) as ws:
        await ws.send(json.dumps({"t": "hello", "d": {"token": arbiter}}))
        presser = Presser(ws)
        await presser.presses(10)  # warm
        idle = await presser.presses(PRESSES)
        flooder = await asyncio.create_subprocess_exec(
            "nice", "-n", "10", sys.executable, "-m", "tests.support.flood_clients", base,
            playoff_id, display, watched["id"], str(FLOOD_S), *watchers,
            cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )
        assert flooder.stdout is not None
        started = await asyncio.wait_for(flooder.stdout.readline(), 60)
        if json.loads(started) != {"started": True}:
            raise RuntimeError(f"the flood did not start: {started!r}")
        await asyncio.sleep(0.3)  # both floods under way
        flooded = await presser.presses(PRESSES)
        output, errors = await asyncio.wait_for(flooder.communicate(), FLOOD_S + 240)
    if flooder.returncode != 0 or not output.strip():
        raise RuntimeError(f"the flood failed: {errors.decode()[-3000:]}")
    result = json.loads(output.decode().strip().splitlines()[-1])
    return Figures(idle, flooded, result["foresight"], result["sockets"])

