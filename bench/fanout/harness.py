"""The harness: the servers' processes, the event they run, the arbiter who presses
and the displays that watch."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import pickle
import resource
import socket
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

ROOT = Path(__file__).resolve().parents[2]  # the project, above bench/fanout/
EVENT_FILE = ROOT / "tests" / "data" / "uzchess-cup-masters-2025.json"
PYTHON = sys.executable

UNLIMITED = (
    "--max-connections-per-address", "100000", "--max-connections-per-token", "100000",
    "--openings-per-s", "100000",
)
"""Every display of a run is on this machine, behind one key: the limits that keep a
flood from one address or one key away would refuse them (``playoff serve``'s own)."""

FULL_N = (100, 1000, 5000)
PRESSES, QUICK_PRESSES = 200, 50
RATE, BASELINE_RATE = 10.0, 20.0
BLOCKS = 4
FLAG_PLAYOFFS, QUICK_FLAG_PLAYOFFS = 6, 1
FLAG_MARGIN_MS = 100
FLAG_WATCHERS = 3
RATIO_TARGET = 1.2
MEMORY_TARGET_KIB = 20.0
FLAG_TARGET_MS = 5.0
FLAG_SERVER_TARGET_MS = 2.0
RESULTS_N, QUICK_RESULTS_N = 1000, 100
CHANGE_EVERY_S = 2.0
CLK_TCK = os.sysconf("SC_CLK_TCK")


# --------------------------------------------------------------------------- processes


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _raise_fd_limit() -> int:
    """As high as allowed: the servers started from here inherit it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def vm_rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK  # utime + stime


def machine_busy_seconds() -> tuple[float, float, float]:
    """All cores' time since boot, in CPU seconds (/proc/stat): in processes (user and
    system), in interrupts (mostly the loopback traffic's softirqs: ours), stolen."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields[:8]
    return (user + nice + system) / CLK_TCK, (irq + softirq) / CLK_TCK, steal / CLK_TCK


@dataclass
class Server:
    """A server in its own process (ours or the bare one), stopped by its pid."""

    proc: subprocess.Popen[bytes]
    port: int
    log: Path

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws(self, playoff_id: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/playoffs/{playoff_id}"

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


async def _wait_listening(server: Server, timeout_s: float = 20.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if server.proc.poll() is not None:
            raise RuntimeError(f"server exited ({server.proc.returncode}): see {server.log}")
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", server.port)
        except OSError:
            await asyncio.sleep(0.1)
            continue
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()
        return
    server.stop()
    raise RuntimeError(f"server did not listen within {timeout_s:.0f} s: see {server.log}")


async def start_ours(folder: Path, name: str) -> Server:
    port = _free_port()
    log = folder / f"{name}.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [PYTHON, "-m", "orchestrator.cli", "serve", "--db", str(folder / f"{name}.db"),
             "--port", str(port), *UNLIMITED],
            cwd=ROOT, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
        )
    server = Server(proc, port, log)
    await _wait_listening(server)
    return server


async def start_bare(folder: Path, name: str) -> Server:
    port = _free_port()
    log = folder / f"{name}.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [PYTHON, "-m", "bench.bare_server", "--port", str(port), "--life-s", "600"],
            cwd=ROOT, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
        )
    server = Server(proc, port, log)
    await _wait_listening(server)
    return server


@dataclass
class Setup:
    playoff_id: str
    event_id: str
    chief: str
    arbiter: str
    display_key: str


def event_played_yesterday() -> bytes:
    """The event with its games ended a day ago: the break after it (GCT 2015 reg. 5)
    is over, so a play-off game may start at once."""
    data = json.loads(EVENT_FILE.read_text(encoding="utf-8"))
    ended = (datetime.now(UTC) - timedelta(days=1)).isoformat()
    for game in data["games"]:
        game["ended_at"] = ended
    return json.dumps(data).encode()


async def prepare(base: str) -> Setup:
    """Upload the event, build its play-off, issue tokens, draw the lots of match 1."""
    async with httpx.AsyncClient(base_url=base, trust_env=False, timeout=15) as http:
        made = await http.post("/api/events", content=event_played_yesterday(),
                               headers={"Content-Type": "application/json"})
        made.raise_for_status()
        event_id, chief = made.json()["id"], made.json()["chief_token"]
        auth = {"Authorization": f"Bearer {chief}"}
        playoff = await http.post(f"/api/events/{event_id}/playoff", headers=auth)
        playoff.raise_for_status()
        playoff_id = playoff.json()["id"]
        tokens = {}
        for role in ("display", "arbiter"):
            issued = await http.post(f"/api/events/{event_id}/tokens", headers=auth,
                                     json={"role": role, "label": f"bench {role}"})
            issued.raise_for_status()
            tokens[role] = issued.json()["token"]
        lots = await http.post(f"/api/playoffs/{playoff_id}/matches/1/lots", headers=auth,
                               json={"method": "service"})
        lots.raise_for_status()
    return Setup(playoff_id, event_id, chief, tokens["arbiter"], tokens["display"])


async def players(base: str, setup: Setup, match: int) -> list[str]:
    async with httpx.AsyncClient(base_url=base, trust_env=False, timeout=15) as http:
        got = await http.get(f"/api/playoffs/{setup.playoff_id}",
                             headers={"Authorization": f"Bearer {setup.chief}"})
        got.raise_for_status()
    found = next(m["players"] for m in got.json()["matches"] if m["id"] == match)
    return [str(p) for p in found]


# --------------------------------------------------------------------------- the arbiter


class CommandRefused(Exception):
    pass


@dataclass
class Arbiter:
    """A raw websocket client that sends commands and keeps every event it sees."""

    url: str
    token: str
    ws: ClientConnection | None = None
    events: dict[int, tuple[dict[str, Any], int]] = field(default_factory=dict)
    pending: dict[str, asyncio.Future[tuple[dict[str, Any], int]]] = field(default_factory=dict)
    pongs: asyncio.Queue[tuple[dict[str, Any], int]] = field(default_factory=asyncio.Queue)
    _reader: asyncio.Task[None] | None = None
    _ids: int = 0
    _pressed: int = 0

    async def open(self) -> None:
        self.ws = await connect(self.url, compression=None, max_size=None, proxy=None,
                                open_timeout=10, ping_interval=None)
        await self.ws.send(json.dumps({"t": "hello", "d": {"token": self.token,
                                                           "client": "bench arbiter"}}))
        welcome = json.loads(await asyncio.wait_for(self.ws.recv(), 10))
        if welcome.get("t") != "welcome":
            raise RuntimeError(f"arbiter not welcomed: {welcome}")
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.ws is not None
        with contextlib.suppress(ConnectionClosed):
            async for raw in self.ws:
                now = time.time_ns()
                message = json.loads(raw)
                kind = message.get("t")
                if kind == "event":
                    self.events[message["seq"]] = (message["d"], now)
                elif kind in ("ack", "error"):
                    waiter = self.pending.pop(message.get("id"), None)
                    if waiter is not None and not waiter.done():
                        waiter.set_result((message, now))
                elif kind == "pong":
                    self.pongs.put_nowait((message, now))
                elif kind == "ping":
                    await self.ws.send('{"t":"pong"}')

    async def send(
        self, d: dict[str, Any]
    ) -> tuple[str, int, asyncio.Future[tuple[dict[str, Any], int]]]:
        """Send a command; its id, send time (ns) and the future of its answer."""
        assert self.ws is not None
        self._ids += 1
        command_id = f"b{self._ids}"
        waiter: asyncio.Future[tuple[dict[str, Any], int]] = (
            asyncio.get_running_loop().create_future()
        )
        self.pending[command_id] = waiter
        sent = time.time_ns()
        await self.ws.send(json.dumps({"t": "cmd", "id": command_id, "d": d}))
        return command_id, sent, waiter

    async def command(self, d: dict[str, Any], timeout_s: float = 10.0) -> dict[str, Any]:
        """Send a command and wait for its ack; an ``error`` raises CommandRefused."""
        _, _, waiter = await self.send(d)
        message, _ = await asyncio.wait_for(waiter, timeout_s)
        if message["t"] == "error":
            raise CommandRefused(message["d"].get("reason", message["d"]))
        return message

    async def event(self, seq: int, timeout_s: float = 5.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout_s
        while seq not in self.events:
            if time.monotonic() > deadline:
                raise TimeoutError(f"event {seq} never came")
            await asyncio.sleep(0.002)
        return self.events[seq][0]

    async def presses(
        self, count: int, rate: float, timeout_s: float = 60.0, game: int = 1
    ) -> list[tuple[int, int, int | None]]:
        """``count`` presses at ``rate`` a second, open loop: (seq, send ns, ack ns).
        Their moves follow those of the presses before."""
        first, self._pressed = self._pressed, self._pressed + count
        loop = asyncio.get_running_loop()
        start = loop.time() + 0.05
        sent: list[tuple[int, asyncio.Future[Any]]] = []
        for i in range(count):
            await asyncio.sleep(max(0.0, start + i / rate - loop.time()))
            k = first + i
            d = {"type": "press", "match": 1, "game": game,
                 "side": "white" if k % 2 == 0 else "black", "move": k // 2 + 1}
            _, at, waiter = await self.send(d)
            sent.append((at, waiter))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(
                asyncio.gather(*(w for _, w in sent), return_exceptions=True), timeout_s
            )
        # A press not acknowledged in time: its seq from the event the arbiter saw, if any.
        seen = {(d["data"].get("side"), d["data"].get("move")): seq
                for seq, (d, _) in self.events.items() if d.get("type") == "clock-pressed"}
        out: list[tuple[int, int, int | None]] = []
        for i, (at, waiter) in enumerate(sent):
            if waiter.done() and not waiter.cancelled():
                message, acked = waiter.result()
                if message["t"] == "ack":
                    out.append((message["d"]["seqs"][0], at, acked))
                    continue
            k = first + i
            key = ("white" if k % 2 == 0 else "black", k // 2 + 1)
            out.append((seen.get(key, -1), at, None))
        return out

    async def offset_ms(self, samples: int = 40) -> float:
        """The server's clock minus this machine's wall clock, in ms, from ping/pong.

        ``server_ms`` is whole milliseconds (truncated), so half a ms is added back.
        """
        assert self.ws is not None
        found: list[float] = []
        for _ in range(samples):
            sent = time.time_ns()
            await self.ws.send('{"t":"ping"}')
            message, got = await asyncio.wait_for(self.pongs.get(), 5)
            found.append(message["d"]["server_ms"] + 0.5 - (sent + got) / 2e6)
            await asyncio.sleep(0.005)
        return statistics.median(found)

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 5)


# --------------------------------------------------------------------------- displays


@dataclass
class Displays:
    """The displays' process (bench/displays.py), spoken to in JSON lines."""

    proc: asyncio.subprocess.Process
    ready: dict[str, Any]

    @classmethod
    async def start(
        cls, url: str, key: str, n: int, log: Path, batch: int = 100, compress: bool = False
    ) -> Displays:
        with open(log, "wb") as err:
            proc = await asyncio.create_subprocess_exec(
                # "=": a key may begin with "-", which would read as an option.
                PYTHON, "-m", "bench.displays", "--url", url, f"--key={key}", "--n", str(n),
                "--batch", str(batch), "--life-s", "600", *(["--compress"] if compress else []),
                cwd=ROOT, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                stderr=err,
            )
        displays = cls(proc, {})
        try:
            displays.ready = await displays._answer(30 + n / 50)
        except BaseException:
            await displays.quit()
            raise
        return displays

    @property
    def pid(self) -> int:
        return self.proc.pid

    async def _answer(self, timeout_s: float) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = await asyncio.wait_for(self.proc.stdout.readline(), timeout_s)
        if not line:
            raise RuntimeError(f"the displays' process exited ({await self.proc.wait()})")
        answer: dict[str, Any] = json.loads(line)
        return answer

    async def _say(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write((json.dumps(message) + "\n").encode())
        await self.proc.stdin.drain()

    async def collect(self, until_seq: int, timeout_s: float, out: Path) -> list[dict[str, Any]]:
        await self._say({"cmd": "collect", "until_seq": until_seq, "timeout_s": timeout_s,
                         "out": str(out)})
        await self._answer(timeout_s + 60)
        with open(out, "rb") as f:
            taken: list[dict[str, Any]] = pickle.load(f)
        out.unlink()
        return taken

    async def quit(self) -> None:
        if self.proc.returncode is None:
            with contextlib.suppress(Exception):
                await self._say({"cmd": "quit"})
            try:
                await asyncio.wait_for(self.proc.wait(), 15)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()
