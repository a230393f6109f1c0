"""Websocket fan-out: press-to-display latency at 100 to 5,000 displays, against a baseline.

``python -m bench.fanout [--quick] [--n 100,1000,5000]`` prints its own tables, each
target beside its figure; ``run(quick=False)`` gives the rows to ``python -m bench``.
``--workers W`` instead compares one worker with ``W`` workers sharing a throwaway
PostgreSQL and Redis (``python -m bench fanout --workers W`` too): the same displays,
spread evenly over the workers, the same presses, sent to the first worker, whose
events reach the others through Redis (docs/deploy.md).

Three processes on this machine, all on loopback:

- the server, alone in its process: ``python -m orchestrator.cli serve`` (system time,
  a fresh SQLite log in a temporary folder for every N), prepared over HTTP as an
  organiser would: the UzChess Cup event uploaded, its GCT play-off built, a display
  key and an arbiter token issued, the lots of match 1 drawn;
- N read-only displays in another process (``bench/displays.py``: raw websocket
  connections, each recording the arrival time of every ``event`` frame and
  checking the seqs come in order without a gap), opened in batches;
- the arbiter, in this process: it starts game 1 over the websocket, then presses
  at a steady rate (open loop: each press is sent on schedule, whatever the
  answers), alternating sides, move numbers increasing, timestamping each send.

A press's latency to a display is the display's arrival time of the press's event
(matched by seq, from the press's ``ack``) minus the press's send time; the same
wall clock (``time.time_ns``) on both sides. The percentiles are over every
(press, display) pair. The server's memory per connection is its VmRSS after the
displays are connected minus before, over the displays connected.

The baseline is ``bench/bare_server.py`` (``websockets.broadcast`` of a frame of the
same size and shape, nothing else) under the same harness, at 20 messages a second
(the rate of the figures the hub is compared with) and at the arbiter's 10 presses
a second, like for like. Both servers run at once, each with its own N displays, and
are pressed in turn, a block of presses at a time (ours, bare 10/s, bare 20/s, then
the other way round): other work on the machine weighs on both alike. The targets:
our p99 at most 1.2 times the baseline's at the same rate, at every N; every event
delivered in order; the server's memory under 20 KiB a connection.

Results-heavy: 1,000 displays (100 with ``--quick``) while the arbiter presses as
above and the chief arbiter, on another connection, sends a result, a correction
or a schedule change every 2 s: match 1's game 1 won by White and its game 2 under
way (the presses), then in turn corrections of game 1's result, postponements of
match 2 and deadlines. Each changes the views: the hub
computes the hall view once for its seq and sends a ``view`` frame to every
display. Reported: the presses' p99 as above, and for the changes, the send to a
display's arrival of the change's event and of the view that follows it. The
displays make no HTTP request but their handshakes (``bench/displays.py`` counts
them), and the server's access log shows none during the run.

Flags: on a fresh server, the arbiter starts a game and takes (``adjust``) all of
White's time but ~100 ms, and does not press; a few watching displays record when
the ``flag-fell`` frame arrives. Its ``at_ms`` is the exact flag instant on the
server's clock, so arrival minus ``at_ms`` bounds the server's lateness from above
(timer, durable append, fan-out and the hop). The server's clock (``server_ms``) is
its monotonic clock set to the wall clock at start-up, with whole milliseconds: its
offset to this process's wall clock is measured with ``ping``/``pong`` and taken
out. The targets: at the displays p99 under 5 ms; at the server (the flag instant
to the ``at`` of the ``flag-fell`` event, when the server begins logging it) p99
under 2 ms. Each play-off gives six flags (games 1-3 of both matches: a 1-1 then an
Armageddon lost on time, twice); more play-offs give more.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import pickle
import platform
import re
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

ROOT = Path(__file__).resolve().parent.parent
EVENT_FILE = ROOT / "tests" / "data" / "uzchess-cup-masters-2025.json"
PYTHON = sys.executable

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
             "--port", str(port)],
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


# --------------------------------------------------------------------------- analysis


def percentile(ordered: Sequence[float], q: float) -> float:
    """Nearest rank: the smallest value with at least ``q`` of the values at or below it."""
    if not ordered:
        return math.nan
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


@dataclass
class Record:
    """What the blocks of presses of one run gathered, put together."""

    pressed: list[tuple[int, int, int | None]] = field(default_factory=list)
    taken: list[dict[str, Any]] = field(default_factory=list)  # per display
    elapsed_s: float = 0.0  # pressing
    cpu_s: list[float] = field(default_factory=lambda: [0.0, 0.0, 0.0])  # server, displays, us
    machine_s: list[float] = field(default_factory=lambda: [0.0, 0.0, 0.0])  # busy, irq, steal
    server_s: float = 0.0  # the server's CPU, pressing and draining

    def add(self, taken: list[dict[str, Any]]) -> None:
        if not self.taken:
            self.taken = taken
            return
        for into, more in zip(self.taken, taken, strict=True):
            for key in ("seqs", "times", "view_seqs", "view_times"):
                into[key].extend(more[key])
            for key in ("order_errors", "resyncs", "event_bytes", "view_bytes",
                        "http_requests"):
                into[key] += more[key]
            into["closed"] = more["closed"]


@dataclass
class FanOut:
    """One fan-out run: N displays, ``presses`` at ``rate`` a second."""

    server: str
    n: int
    rate: float
    connected: int = 0
    connect_errors: dict[str, int] = field(default_factory=dict)
    connect_s: float = 0.0
    presses: int = 0
    acked: int = 0
    p50_ms: float = math.nan
    p99_ms: float = math.nan
    max_ms: float = math.nan
    all_p50_ms: float = math.nan  # the moment the last display has it, per press
    all_p99_ms: float = math.nan
    ack_p50_ms: float = math.nan
    ack_p99_ms: float = math.nan
    in_p50_ms: float = math.nan  # press sent -> the server begins it (the event's "at")
    in_p99_ms: float = math.nan
    out_p50_ms: float = math.nan  # the server begins it -> a display has the event
    out_p99_ms: float = math.nan
    server_us_per_frame: float = math.nan  # server CPU, presses to drained, per frame
    pairs: int = 0
    delivered: int = 0
    in_order: int = 0  # delivered to displays that saw no gap, no reordering, no resync
    complete_displays: int = 0
    order_errors: int = 0
    resyncs: int = 0
    closed: int = 0
    frame_bytes: float = math.nan
    rss_before_kib: int = 0
    rss_after_kib: int = 0
    server_cpu: float = math.nan  # cores busy during the presses
    displays_cpu: float = math.nan
    others_cpu: float = math.nan  # every other process of the machine (not the bench's)
    steal_cpu: float = math.nan
    irq_cpu: float = math.nan  # interrupts, all cores (the loopback traffic, mostly)
    error: str = ""
    drain_s: float = 0.0
    record: Record = field(default_factory=Record, repr=False)

    @property
    def kib_per_connection(self) -> float:
        return (self.rss_after_kib - self.rss_before_kib) / max(1, self.connected)

    @property
    def complete_pct(self) -> float:
        return 100.0 * self.in_order / self.pairs if self.pairs else math.nan


def _iso_ns(text: str) -> int:
    at = datetime.fromisoformat(text)
    return int(at.timestamp()) * 1_000_000_000 + at.microsecond * 1000


def analyse(
    run: FanOut, taken: list[dict[str, Any]], pressed: list[tuple[int, int, int | None]],
    logged: dict[int, int],
) -> None:
    """``logged``: seq -> the event's ``at`` (ns), when the server began the command."""
    sends = {seq: at for seq, at, acked in pressed if seq >= 0}
    acks = sorted((acked - at) / 1e6 for seq, at, acked in pressed if acked is not None)
    run.presses = len(pressed)
    run.acked = sum(1 for _, _, acked in pressed if acked is not None)
    run.ack_p50_ms, run.ack_p99_ms = percentile(acks, 0.5), percentile(acks, 0.99)
    inward = sorted((logged[seq] - sent) / 1e6 for seq, sent in sends.items() if seq in logged)
    run.in_p50_ms, run.in_p99_ms = percentile(inward, 0.5), percentile(inward, 0.99)
    outward: list[float] = []
    latencies: list[float] = []
    last: dict[int, int] = {}
    event_bytes = events = 0
    for display in taken:
        got = 0
        for seq, arrived in zip(display["seqs"], display["times"], strict=True):
            sent = sends.get(seq)
            if sent is None:
                continue
            got += 1
            latencies.append(arrived - sent)
            began = logged.get(seq)
            if began is not None:
                outward.append(arrived - began)
            if arrived > last.get(seq, 0):
                last[seq] = arrived
        run.delivered += got
        run.order_errors += display["order_errors"]
        run.resyncs += display["resyncs"]
        run.closed += display["closed"] is not None
        event_bytes += display["event_bytes"]
        events += len(display["seqs"])
        if display["order_errors"] == 0 and display["resyncs"] == 0:
            run.in_order += got
            run.complete_displays += got == len(pressed)
    run.pairs = len(pressed) * run.connected
    latencies.sort()
    run.p50_ms = percentile(latencies, 0.5) / 1e6
    run.p99_ms = percentile(latencies, 0.99) / 1e6
    run.max_ms = (latencies[-1] / 1e6) if latencies else math.nan
    everyone = sorted((last[seq] - sends[seq]) / 1e6 for seq in last)
    run.all_p50_ms, run.all_p99_ms = percentile(everyone, 0.5), percentile(everyone, 0.99)
    run.frame_bytes = event_bytes / events if events else math.nan
    outward.sort()
    run.out_p50_ms = percentile(outward, 0.5) / 1e6
    run.out_p99_ms = percentile(outward, 0.99) / 1e6


async def _press_block(
    run: FanOut, arbiter: Arbiter, displays: Displays, server_pid: int, count: int,
    folder: Path, alongside: Awaitable[list[int]] | None = None, game: int = 1,
) -> None:
    """``count`` presses, and ``alongside`` them other commands (the seqs they logged),
    then what the displays recorded, all added to ``run.record``."""
    record = run.record
    pids = (server_pid, displays.pid, os.getpid())
    cpu0, machine0 = [cpu_seconds(pid) for pid in pids], machine_busy_seconds()
    t0 = time.monotonic()
    others: list[int] = []
    if alongside is None:
        pressed = await arbiter.presses(count, run.rate, game=game)
    else:
        pressed, others = await asyncio.gather(
            arbiter.presses(count, run.rate, game=game), alongside
        )
    cpu1, machine1 = [cpu_seconds(pid) for pid in pids], machine_busy_seconds()
    record.elapsed_s += time.monotonic() - t0
    record.cpu_s = [t + b - a for t, a, b in zip(record.cpu_s, cpu0, cpu1, strict=True)]
    record.machine_s = [
        t + b - a for t, a, b in zip(record.machine_s, machine0, machine1, strict=True)
    ]
    last = max([seq for seq, _, _ in pressed] + others, default=0)
    t1 = time.monotonic()
    taken = await displays.collect(last, 10 + run.connected / 100, folder / "taken.pickle")
    run.drain_s = max(run.drain_s, time.monotonic() - t1)
    record.server_s += cpu_seconds(server_pid) - cpu0[0]
    record.pressed += pressed
    record.add(taken)


def _conclude(run: FanOut, arbiter: Arbiter) -> list[dict[str, Any]]:
    """The figures of ``run`` from its record; what the displays recorded."""
    record = run.record
    elapsed = max(record.elapsed_s, 1e-9)
    used = [t / elapsed for t in record.cpu_s]
    run.server_cpu, run.displays_cpu = used[0], used[1]
    run.others_cpu = max(0.0, record.machine_s[0] / elapsed - sum(used))
    run.irq_cpu = record.machine_s[1] / elapsed
    run.steal_cpu = record.machine_s[2] / elapsed
    frames = sum(len(display["seqs"]) for display in record.taken)
    run.server_us_per_frame = 1e6 * record.server_s / max(1, frames)
    logged = {seq: _iso_ns(arbiter.events[seq][0]["at"]) for seq, _, _ in record.pressed
              if seq in arbiter.events}
    analyse(run, record.taken, record.pressed, logged)
    return record.taken


def _connected(run: FanOut, displays: Displays) -> None:
    run.connected = displays.ready["connected"]
    run.connect_errors = displays.ready["errors"]
    run.connect_s = displays.ready["connect_s"]


async def fan_out(
    n: int, presses: int, folder: Path, blocks: int = BLOCKS
) -> tuple[FanOut, FanOut, FanOut]:
    """Ours at RATE, and the baseline at BASELINE_RATE and at RATE, each with its own
    ``n`` displays, all connected at once and pressed in turn, a block at a time:
    whatever else the machine does, it weighs on the three alike."""
    ours = FanOut("ours", n, RATE)
    fast, slow = FanOut("bare", n, BASELINE_RATE), FanOut("bare", n, RATE)
    server = bare = None
    arbiter = bare_arbiter = displays = bare_displays = None
    try:
        server = await start_ours(folder, f"ours-{n}")
        bare = await start_bare(folder, f"bare-{n}")
        setup = await prepare(server.http)
        arbiter = Arbiter(server.ws(setup.playoff_id), setup.arbiter)
        await arbiter.open()
        await arbiter.command({"type": "start-clock", "match": 1, "game": 1})
        bare_arbiter = Arbiter(bare.ws("bare"), "none")
        await bare_arbiter.open()
        await asyncio.sleep(0.5)
        ours.rss_before_kib = vm_rss_kib(server.pid)
        displays = await Displays.start(server.ws(setup.playoff_id), setup.display_key, n,
                                        folder / f"displays-ours-{n}.log")
        _connected(ours, displays)
        await asyncio.sleep(1.0)  # the snapshots go out
        ours.rss_after_kib = vm_rss_kib(server.pid)
        rss = vm_rss_kib(bare.pid)
        bare_displays = await Displays.start(bare.ws("bare"), "none", n,
                                             folder / f"displays-bare-{n}.log")
        await asyncio.sleep(1.0)
        for run in (fast, slow):
            _connected(run, bare_displays)
            run.rss_before_kib, run.rss_after_kib = rss, vm_rss_kib(bare.pid)
        turns = [
            (ours, arbiter, displays, server.pid),
            (slow, bare_arbiter, bare_displays, bare.pid),
            (fast, bare_arbiter, bare_displays, bare.pid),
        ]
        each = math.ceil(presses / blocks)
        for block in range(blocks):
            for run, pressing, watching, pid in turns if block % 2 == 0 else turns[::-1]:
                await _press_block(run, pressing, watching, pid, each, folder)
                await asyncio.sleep(0.2)
        _conclude(ours, arbiter)
        _conclude(slow, bare_arbiter)
        _conclude(fast, bare_arbiter)
    finally:
        for process in (displays, bare_displays):
            if process is not None:
                await process.quit()
        for client in (arbiter, bare_arbiter):
            if client is not None:
                await client.close()
        for started in (server, bare):
            if started is not None:
                started.stop()
    return ours, fast, slow


# --------------------------------------------------------------------------- results


@dataclass
class Changes:
    """The results-heavy run: the presses (``run``) and the changes sent between them."""

    run: FanOut
    sent: int = 0
    refused: list[str] = field(default_factory=list)
    event_p50_ms: float = math.nan  # a change's send -> a display has its event
    event_p99_ms: float = math.nan
    view_p50_ms: float = math.nan  # a change's send -> a display has the view after it
    view_p99_ms: float = math.nan
    views: int = 0  # view frames the displays received in all
    view_bytes: float = math.nan  # their mean size
    display_http: int = -1  # the displays' HTTP requests beyond their handshakes
    server_http: int = -1  # HTTP requests in the server's access log during the run
    error: str = ""


ACCESS_LINE = re.compile(rb'"(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) ')


def _http_requests(log: Path, start: int, end: int | None = None) -> int:
    with open(log, "rb") as f:
        f.seek(start)
        text = f.read() if end is None else f.read(end - start)
    return len(ACCESS_LINE.findall(text))


def change(k: int, now: datetime) -> dict[str, Any]:
    """The ``k``-th change of the results-heavy run: match 1, game 1 was won by White
    and game 2 is under way; match 2 waits for its winner."""
    step = k % 4
    if step in (0, 2):
        return {"type": "correct", "match": 1, "game": 1,
                "result": "0-1" if step == 0 else "1-0",
                "reason": "bench: the result corrected", "confirm": True}
    if step == 1:
        return {"type": "postpone", "match": 2, "game": 1, "minutes": 5,
                "reason": "bench: the game postponed"}
    return {"type": "deadline", "deadline": (now + timedelta(days=1, minutes=k)).isoformat(),
            "reason": "bench: the deadline moved"}


async def _send_changes(
    chief: Arbiter, count: int, sent: list[tuple[tuple[int, ...], int]], refused: list[str]
) -> list[int]:
    """``count`` changes, one every CHANGE_EVERY_S, half a period after the presses
    begin; each (seqs, send ns) acknowledged goes to ``sent``."""
    loop = asyncio.get_running_loop()
    start = loop.time() + CHANGE_EVERY_S / 2
    for k in range(count):
        await asyncio.sleep(max(0.0, start + k * CHANGE_EVERY_S - loop.time()))
        _, at, waiter = await chief.send(change(k, datetime.now(UTC)))
        try:
            message, _ = await asyncio.wait_for(waiter, 10)
        except TimeoutError:
            refused.append("no answer within 10 s")
            continue
        if message["t"] == "ack":
            sent.append((tuple(message["d"]["seqs"]), at))
        else:
            refused.append(str(message["d"].get("reason", message["d"])))
    return [seqs[-1] for seqs, _ in sent]


def _analyse_changes(
    found: Changes, taken: list[dict[str, Any]], sent: list[tuple[tuple[int, ...], int]]
) -> None:
    events: list[float] = []
    views: list[float] = []
    view_bytes = requests = 0
    for display in taken:
        arrived = dict(zip(display["seqs"], display["times"], strict=True))
        viewed: dict[int, int] = {}
        for seq, at in zip(display["view_seqs"], display["view_times"], strict=True):
            viewed.setdefault(seq, at)
        for seqs, at in sent:
            if seqs[0] in arrived:
                events.append((arrived[seqs[0]] - at) / 1e6)
            if seqs[-1] in viewed:
                views.append((viewed[seqs[-1]] - at) / 1e6)
        found.views += len(display["view_seqs"])
        view_bytes += display["view_bytes"]
        requests += display["http_requests"]
    events.sort()
    views.sort()
    found.sent = len(sent)
    found.event_p50_ms, found.event_p99_ms = percentile(events, 0.5), percentile(events, 0.99)
    found.view_p50_ms, found.view_p99_ms = percentile(views, 0.5), percentile(views, 0.99)
    found.view_bytes = view_bytes / found.views if found.views else math.nan
    found.display_http = requests - found.run.connected


async def fan_out_results(n: int, presses: int, folder: Path) -> Changes:
    """Presses at RATE to ``n`` displays, with a view-changing command every
    CHANGE_EVERY_S from the chief arbiter."""
    found = Changes(FanOut("ours", n, RATE))
    run = found.run
    server = await start_ours(folder, f"results-{n}")
    arbiter = chief = displays = None
    try:
        setup = await prepare(server.http)
        arbiter = Arbiter(server.ws(setup.playoff_id), setup.arbiter)
        chief = Arbiter(server.ws(setup.playoff_id), setup.chief)
        await arbiter.open()
        await chief.open()
        await arbiter.command({"type": "start-clock", "match": 1, "game": 1})
        await arbiter.command({"type": "result", "match": 1, "game": 1, "result": "1-0"})
        # Within the 5 minutes of GCT 2015 reg. 5 after game 1: the chief arbiter's.
        await chief.command({"type": "start-clock", "match": 1, "game": 2,
                             "override": "bench: the games follow at once"})
        await asyncio.sleep(0.5)
        run.rss_before_kib = vm_rss_kib(server.pid)
        displays = await Displays.start(server.ws(setup.playoff_id), setup.display_key, n,
                                        folder / f"displays-results-{n}.log")
        _connected(run, displays)
        await asyncio.sleep(1.0)
        run.rss_after_kib = vm_rss_kib(server.pid)
        # The access log has the set-up's requests: it is on, and a zero below means none.
        mark = server.log.stat().st_size
        logging_on = _http_requests(server.log, 0, mark) > 0
        sent: list[tuple[tuple[int, ...], int]] = []
        count = max(1, int(presses / RATE / CHANGE_EVERY_S))
        await _press_block(
            run, arbiter, displays, server.pid, presses, folder,
            alongside=_send_changes(chief, count, sent, found.refused), game=2,
        )
        taken = _conclude(run, arbiter)
        found.server_http = _http_requests(server.log, mark) if logging_on else -1
        _analyse_changes(found, taken, sent)
    finally:
        if displays is not None:
            await displays.quit()
        for client in (arbiter, chief):
            if client is not None:
                await client.close()
        server.stop()
    return found


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


# --------------------------------------------------------------------------- the runs


@dataclass
class Results:
    ns: tuple[int, ...]
    presses: int
    ours: dict[int, FanOut] = field(default_factory=dict)
    bare_fast: dict[int, FanOut] = field(default_factory=dict)
    bare_slow: dict[int, FanOut] = field(default_factory=dict)
    flags: Flags = field(default_factory=Flags)
    changes: Changes | None = None
    seconds: float = 0.0


async def measure(
    ns: Sequence[int], presses: int, flag_playoffs: int, results_n: int | None = None
) -> Results:
    _raise_fd_limit()
    results = Results(tuple(ns), presses)
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="bench-fanout-") as tmp:
        folder = Path(tmp)
        try:
            results.flags = await flag_lateness(flag_playoffs, folder)
        except Exception as exc:  # reported, and the fan-out runs still run
            results.flags = Flags(notes=[f"flags failed: {exc!r}"])
        for n in ns:
            try:
                results.ours[n], results.bare_fast[n], results.bare_slow[n] = await fan_out(
                    n, presses, folder
                )
            except Exception as exc:
                results.ours[n] = FanOut("ours", n, RATE, error=repr(exc))
                results.bare_fast[n] = FanOut("bare", n, BASELINE_RATE, error=repr(exc))
                results.bare_slow[n] = FanOut("bare", n, RATE, error=repr(exc))
        if results_n:
            try:
                results.changes = await fan_out_results(results_n, presses, folder)
            except Exception as exc:
                results.changes = Changes(FanOut("ours", results_n, RATE), error=repr(exc))
    results.seconds = time.monotonic() - start
    return results


def _ratio(results: Results, n: int, baseline: dict[int, FanOut]) -> float:
    return results.ours[n].p99_ms / baseline[n].p99_ms


def rows(results: Results) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for n in results.ns:
        ours, slow, fast = results.ours[n], results.bare_slow[n], results.bare_fast[n]
        shown = f"{n:,}" if ours.connected == n else f"{ours.connected:,} of {n:,}"
        out += [
            {"benchmark": f"fan-out, {shown} displays, 10/s: ours p50", "value": ours.p50_ms,
             "unit": "ms"},
            {"benchmark": f"fan-out, {shown} displays, 10/s: ours p99", "value": ours.p99_ms,
             "unit": "ms"},
            {"benchmark": "  baseline (bare websockets) 10/s p50", "value": slow.p50_ms,
             "unit": "ms"},
            {"benchmark": "  baseline (bare websockets) 10/s p99", "value": slow.p99_ms,
             "unit": "ms"},
            {"benchmark": "  baseline (bare websockets) 20/s p99", "value": fast.p99_ms,
             "unit": "ms"},
            {"benchmark": f"  ours: events delivered in order, {shown} displays",
             "value": ours.complete_pct, "unit": "%", "floor": 100.0},
            {"benchmark": f"  ours: press-to-ack p50, {shown} displays",
             "value": ours.ack_p50_ms, "unit": "ms"},
            {"benchmark": f"  ours: press-to-ack p99, {shown} displays",
             "value": ours.ack_p99_ms, "unit": "ms"},
            {"benchmark": f"  ours: server memory per connection, {shown} displays",
             "value": ours.kib_per_connection, "unit": "KiB", "target": MEMORY_TARGET_KIB},
            {"benchmark": f"  baseline: server memory per connection, {n:,} displays",
             "value": slow.kib_per_connection, "unit": "KiB"},
            {"benchmark": f"  ours: server CPU per frame sent, {shown} displays",
             "value": ours.server_us_per_frame, "unit": "µs"},
            {"benchmark": f"  baseline: server CPU per frame sent, {n:,} displays",
             "value": slow.server_us_per_frame, "unit": "µs"},
        ]
    for n in results.ns:
        out.append({"benchmark": f"p99 ratio ours/baseline at {n:,} (10/s both)",
                    "value": _ratio(results, n, results.bare_slow), "unit": "x",
                    "target": RATIO_TARGET})
        out.append({"benchmark": f"  p99 ratio ours 10/s / baseline 20/s at {n:,}",
                    "value": _ratio(results, n, results.bare_fast), "unit": "x"})
    if results.changes is not None:
        out += _change_rows(results.changes)
    flags = results.flags
    late = sorted(flags.lateness_ms)
    server = sorted(flags.timer_ms)
    out += [
        {"benchmark": f"flag lateness p50 (display side, {flags.flags} flags)",
         "value": percentile(late, 0.5), "unit": "ms"},
        {"benchmark": f"flag lateness p99 (display side, {flags.flags} flags)",
         "value": percentile(late, 0.99), "unit": "ms", "target": FLAG_TARGET_MS},
        {"benchmark": "flag lateness p99 (server side: the instant -> it begins logging)",
         "value": percentile(server, 0.99), "unit": "ms", "target": FLAG_SERVER_TARGET_MS},
    ]
    return out


def _change_rows(changes: Changes) -> list[dict[str, Any]]:
    run = changes.run
    shown = f"{run.n:,}" if run.connected == run.n else f"{run.connected:,} of {run.n:,}"
    where = f"{shown} displays, a change every {CHANGE_EVERY_S:g} s"
    return [
        {"benchmark": f"results-heavy, {where}: presses p50", "value": run.p50_ms,
         "unit": "ms"},
        {"benchmark": f"results-heavy, {where}: presses p99", "value": run.p99_ms,
         "unit": "ms"},
        {"benchmark": f"  the changes ({changes.sent}): their event p99",
         "value": changes.event_p99_ms, "unit": "ms"},
        {"benchmark": f"  the changes ({changes.sent}): the view after them p99",
         "value": changes.view_p99_ms, "unit": "ms"},
        {"benchmark": "  view frame size (mean)", "value": changes.view_bytes, "unit": "B"},
        {"benchmark": "  events delivered in order", "value": run.complete_pct, "unit": "%",
         "floor": 100.0},
        {"benchmark": "  the displays' HTTP requests beyond their handshakes",
         "value": changes.display_http, "unit": "requests"},
        {"benchmark": "  HTTP requests in the server's access log during the run",
         "value": changes.server_http, "unit": "requests"},
    ]


def run(quick: bool = False, ns: Sequence[int] | None = None) -> list[dict[str, Any]]:
    return rows(_measure(quick, ns))


def _measure(quick: bool, ns: Sequence[int] | None, results_n: int | None = None) -> Results:
    chosen = tuple(ns) if ns else ((100,) if quick else FULL_N)
    if results_n is None:
        results_n = QUICK_RESULTS_N if quick else RESULTS_N
    return asyncio.run(measure(
        chosen, QUICK_PRESSES if quick else PRESSES,
        QUICK_FLAG_PLAYOFFS if quick else FLAG_PLAYOFFS, results_n,
    ))


# --------------------------------------------------------------------------- several workers

WORKERS_N, QUICK_WORKERS_N = 1000, 200
WORKERS_PRESSES, QUICK_WORKERS_PRESSES = 100, 40


@dataclass
class Spread:
    """One worker, then ``workers``, on one PostgreSQL and one Redis: the same displays
    (spread evenly over the workers), the same presses (sent to the first worker)."""

    runs: dict[int, FanOut] = field(default_factory=dict)
    cpu: dict[int, list[float]] = field(default_factory=dict)  # cores busy, per worker
    seconds: float = 0.0
    error: str = ""


async def start_worker(folder: Path, name: str, store_url: str, redis_url: str) -> Server:
    port = _free_port()
    log = folder / f"{name}.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [PYTHON, "-m", "orchestrator.cli", "serve", "--store", store_url,
             "--redis", redis_url, "--port", str(port)],
            cwd=ROOT, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
        )
    server = Server(proc, port, log)
    await _wait_listening(server, 60.0)
    return server


async def _known_everywhere(servers: Sequence[Server], setup: Setup) -> None:
    async with httpx.AsyncClient(trust_env=False, timeout=5) as http:
        for server in servers:
            deadline = time.monotonic() + 20
            while (await http.get(f"{server.http}/api/playoffs/{setup.playoff_id}",
                                  headers={"Authorization": f"Bearer {setup.chief}"})).is_error:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"worker {server.port} never saw the play-off")
                await asyncio.sleep(0.1)


async def spread_run(
    workers: int, n: int, presses: int, folder: Path, store_url: str, redis_url: str
) -> tuple[FanOut, list[float]]:
    """``n`` displays over ``workers`` workers, ``presses`` at RATE to the first one."""
    run = FanOut(f"{workers} worker" + ("s" if workers > 1 else ""), n, RATE)
    servers: list[Server] = []
    arbiter = None
    displays: list[Displays] = []
    try:
        servers = list(await asyncio.gather(*(
            start_worker(folder, f"worker-{workers}-{k}", store_url, redis_url)
            for k in range(workers)
        )))
        setup = await prepare(servers[0].http)
        await _known_everywhere(servers, setup)
        arbiter = Arbiter(servers[0].ws(setup.playoff_id), setup.arbiter)
        await arbiter.open()
        await arbiter.command({"type": "start-clock", "match": 1, "game": 1})
        shares = [n // workers + (k < n % workers) for k in range(workers)]
        for k, (server, share) in enumerate(zip(servers, shares, strict=True)):
            displays.append(await Displays.start(
                server.ws(setup.playoff_id), setup.display_key, share,
                folder / f"displays-{workers}-{k}.log",
            ))
        run.connected = sum(d.ready["connected"] for d in displays)
        await asyncio.sleep(1.0)  # the snapshots go out
        pids = [server.pid for server in servers]
        watchers = [d.pid for d in displays]
        cpu0 = [cpu_seconds(pid) for pid in pids]
        watching0, machine0 = sum(cpu_seconds(pid) for pid in watchers), machine_busy_seconds()
        t0 = time.monotonic()
        pressed = await arbiter.presses(presses, RATE)
        elapsed = time.monotonic() - t0
        run.displays_cpu = (sum(cpu_seconds(pid) for pid in watchers) - watching0) / elapsed
        machine1 = machine_busy_seconds()
        run.others_cpu = (machine1[0] - machine0[0]) / elapsed  # the whole machine, here
        last = max(seq for seq, _, _ in pressed)
        taken: list[dict[str, Any]] = []
        for k, watching in enumerate(displays):
            taken += await watching.collect(
                last, 10 + run.connected / 100, folder / f"taken-{workers}-{k}.pickle"
            )
        used = [b - a for a, b in zip(cpu0, [cpu_seconds(pid) for pid in pids], strict=True)]
        run.record.pressed, run.record.taken = pressed, taken
        run.server_cpu = sum(used) / elapsed
        frames = sum(len(display["seqs"]) for display in taken)
        run.server_us_per_frame = 1e6 * sum(used) / max(1, frames)
        logged = {seq: _iso_ns(arbiter.events[seq][0]["at"]) for seq, _, _ in pressed
                  if seq in arbiter.events}
        analyse(run, taken, pressed, logged)
        return run, [t / elapsed for t in used]
    finally:
        for watching in displays:
            await watching.quit()
        if arbiter is not None:
            await arbiter.close()
        for server in servers:
            server.stop()


async def measure_spread(workers: int, n: int, presses: int) -> Spread:
    """One worker and ``workers``, each run on a new database of a throwaway
    PostgreSQL and on a throwaway Redis (the tests' own: Debian's packages)."""
    from tests.pg import start_postgres, stop_postgres
    from tests.redis import start_redis, stop_redis

    _raise_fd_limit()
    spread = Spread()
    start = time.monotonic()
    postgres = start_postgres()
    redis = start_redis()
    try:
        with tempfile.TemporaryDirectory(prefix="bench-workers-") as tmp:
            for count in sorted({1, workers}):
                url = postgres.create_database(f"bench_{count}_workers")
                try:
                    spread.runs[count], spread.cpu[count] = await spread_run(
                        count, n, presses, Path(tmp), url, redis.url
                    )
                except Exception as exc:
                    spread.runs[count] = FanOut(f"{count} workers", n, RATE, error=repr(exc))
                    spread.cpu[count] = []
    finally:
        stop_redis(redis)
        stop_postgres(postgres)
    spread.seconds = time.monotonic() - start
    return spread


def spread_rows(spread: Spread) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for run in spread.runs.values():
        where = f"{run.connected:,} displays over {run.server}, 10/s"
        out += [
            {"benchmark": f"fan-out, {where}: p50", "value": run.p50_ms, "unit": "ms"},
            {"benchmark": f"fan-out, {where}: p99", "value": run.p99_ms, "unit": "ms"},
            {"benchmark": "  press-to-ack p99", "value": run.ack_p99_ms, "unit": "ms"},
            {"benchmark": "  events delivered in order", "value": run.complete_pct,
             "unit": "%", "floor": 100.0},
            {"benchmark": "  the workers' CPU, all together", "value": 100 * run.server_cpu,
             "unit": "% of a core"},
            {"benchmark": "  the workers' CPU per frame sent", "value": run.server_us_per_frame,
             "unit": "µs"},
        ]
    return out


def run_workers(workers: int, quick: bool = False) -> list[dict[str, Any]]:
    """``python -m bench fanout --workers W``: one worker against ``W``."""
    n = QUICK_WORKERS_N if quick else WORKERS_N
    presses = QUICK_WORKERS_PRESSES if quick else WORKERS_PRESSES
    return spread_rows(asyncio.run(measure_spread(workers, n, presses)))


def print_spread(spread: Spread) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    if not console.is_terminal:
        console = Console(width=170)
    console.print(
        f"Machine: {platform.system()} {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}; {spread.seconds:,.0f} s in all"
    )
    table = Table(title="Fan-out over workers sharing PostgreSQL and Redis: press (to the "
                        "first worker) to display, ms, p50 / p99 over every (press, display); "
                        "CPU in % of a core, during the presses")
    for name in ("workers", "displays", "press -> display", "last display", "press -> ack",
                 "in order", "workers' CPU, each", "CPU µs / frame", "displays' CPU",
                 f"machine busy (of {100 * (os.cpu_count() or 1)} %)"):
        table.add_column(name, justify="right")
    for count, run in spread.runs.items():
        cpu = " + ".join(f"{100 * c:.0f} %" for c in spread.cpu.get(count, []))
        table.add_row(
            str(count), f"{run.connected:,}" + ("" if run.connected == run.n else f" of {run.n:,}"),
            f"{_ms(run.p50_ms)} / {_ms(run.p99_ms)}",
            f"{_ms(run.all_p50_ms)} / {_ms(run.all_p99_ms)}",
            f"{_ms(run.ack_p50_ms)} / {_ms(run.ack_p99_ms)}",
            f"{run.complete_displays:,}/{run.connected:,} ({run.complete_pct:.2f} %)",
            cpu or "-", f"{run.server_us_per_frame:.1f}",
            f"{100 * run.displays_cpu:.0f} %", f"{100 * run.others_cpu:.0f} %",
        )
    console.print(table)
    for count, run in spread.runs.items():
        if run.error:
            console.print(f"  {count} workers: failed: {run.error}", highlight=False)


# --------------------------------------------------------------------------- the tables


def _ms(value: float) -> str:
    return "-" if math.isnan(value) else (f"{value:,.1f}" if value < 100 else f"{value:,.0f}")


def print_tables(results: Results) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    if not console.is_terminal:  # piped: wide enough for the tables
        console = Console(width=170)
    console.print(
        f"Machine: {platform.system()} {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}; {results.presses} presses per run; "
        f"{results.seconds:,.0f} s in all"
    )
    table = Table(title="Fan-out: press to display latency, ms, p50 / p99 over every "
                        "(press, display) pair")
    for name in ("displays", "ours 10/s", "bare 10/s", "bare 20/s",
                 f"p99 ours / bare 10/s (target {RATIO_TARGET:g}x)",
                 "ours: sent -> server begins", "ours: begun -> display",
                 "ours: last display", "ours: in order", "ours: press -> ack"):
        table.add_column(name, justify="right")
    for n in results.ns:
        ours, slow, fast = results.ours[n], results.bare_slow[n], results.bare_fast[n]
        ratio = _ratio(results, n, results.bare_slow)
        mark = _verdict(ratio <= RATIO_TARGET)
        table.add_row(
            f"{ours.connected:,}" + ("" if ours.connected == n else f" of {n:,}"),
            f"{_ms(ours.p50_ms)} / {_ms(ours.p99_ms)}",
            f"{_ms(slow.p50_ms)} / {_ms(slow.p99_ms)}",
            f"{_ms(fast.p50_ms)} / {_ms(fast.p99_ms)}",
            f"{ratio:.2f}x {mark}",
            f"{_ms(ours.in_p50_ms)} / {_ms(ours.in_p99_ms)}",
            f"{_ms(ours.out_p50_ms)} / {_ms(ours.out_p99_ms)}",
            f"{_ms(ours.all_p50_ms)} / {_ms(ours.all_p99_ms)}",
            f"{ours.complete_displays:,}/{ours.connected:,} ({ours.complete_pct:.2f} %)",
            f"{_ms(ours.ack_p50_ms)} / {_ms(ours.ack_p99_ms)}",
        )
    console.print(table)

    costs = Table(title="Resources during the presses (CPU in % of one core)")
    for name in ("displays", "server", "rate",
                 f"KiB / conn (ours: target < {MEMORY_TARGET_KIB:g})", "server CPU µs / frame",
                 "server CPU", "displays CPU", "irq CPU", "others' CPU", "frame bytes",
                 "connect s",
                 "drain s", "resyncs", "closed"):
        costs.add_column(name, justify="right")
    busy = False
    groups: list[tuple[FanOut, ...]] = [
        (results.ours[n], results.bare_slow[n], results.bare_fast[n]) for n in results.ns
    ]
    if results.changes is not None:
        groups.append((results.changes.run,))
    for group in groups:
        for run in group:
            busy |= run.others_cpu > 0.2 or run.steal_cpu > 0.1
            memory = f"{run.kib_per_connection:,.1f}"
            if run.server == "ours":
                memory += " " + _verdict(run.kib_per_connection < MEMORY_TARGET_KIB)
            costs.add_row(
                f"{run.connected:,}", run.server, f"{run.rate:g}/s",
                memory, f"{run.server_us_per_frame:.1f}",
                f"{100 * run.server_cpu:.0f}",
                f"{100 * run.displays_cpu:.0f}", f"{100 * run.irq_cpu:.0f}",
                f"{100 * run.others_cpu:.0f}" + (
                    f" (+{100 * run.steal_cpu:.0f} steal)" if run.steal_cpu > 0.01 else ""),
                f"{run.frame_bytes:.0f}", f"{run.connect_s:.1f}", f"{run.drain_s:.1f}",
                str(run.resyncs), str(run.closed),
            )
    console.print(costs)
    if busy:
        console.print("  [bold]warning:[/] other processes used the CPU during some runs: "
                      "those figures are not this service's alone; run again on a quiet "
                      "machine", highlight=False)
    for n in results.ns:
        for run in (results.ours[n], results.bare_slow[n], results.bare_fast[n]):
            if run.error:
                console.print(f"  {run.server} {run.rate:g}/s, {n:,}: failed: {run.error}",
                              highlight=False)
        for run in (results.ours[n], results.bare_slow[n]):
            if run.connect_errors:
                console.print(f"  {run.server}, {n:,}: {run.n - run.connected:,} could not "
                              f"connect: {run.connect_errors}", highlight=False)

    flags = results.flags
    late = sorted(flags.lateness_ms)
    first = sorted(flags.first_ms)
    table = Table(title=f"Flag lateness: flag-fell frame arrival minus the flag instant "
                        f"({flags.flags} flags, {FLAG_WATCHERS} displays)")
    for name in ("", "p50", "p99", "max", "target"):
        table.add_column(name, justify="right")
    table.add_row("every (flag, display)", _ms(percentile(late, 0.5)),
                  _ms(percentile(late, 0.99)), _ms(late[-1] if late else math.nan),
                  f"p99 < {FLAG_TARGET_MS:g} ms "
                  + _verdict(percentile(late, 0.99) < FLAG_TARGET_MS))
    table.add_row("first display per flag", _ms(percentile(first, 0.5)),
                  _ms(percentile(first, 0.99)), _ms(first[-1] if first else math.nan), "")
    for label, values, target in (
        ("  of which: flag instant -> server begins logging", flags.timer_ms,
         FLAG_SERVER_TARGET_MS),
        ("  of which: logging begun -> display", flags.publish_ms, None),
    ):
        ordered = sorted(values)
        p99 = percentile(ordered, 0.99)
        table.add_row(label, _ms(percentile(ordered, 0.5)), _ms(p99),
                      _ms(ordered[-1] if ordered else math.nan),
                      "" if target is None else f"p99 < {target:g} ms " + _verdict(p99 < target))
    console.print(table)
    offsets = ", ".join(f"{o:+.2f}" for o in flags.offsets_ms)
    console.print(f"  server clock minus wall clock (ms, taken out): {offsets}; "
                  f"missed frames: {flags.missed}", highlight=False)
    for note in sorted(set(flags.notes)):
        console.print(f"  {note}", highlight=False)
    if results.changes is not None:
        _print_changes(console, results.changes)


def _verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def _print_changes(console: Any, changes: Changes) -> None:
    from rich.table import Table

    run = changes.run
    table = Table(title=f"Results-heavy: {run.connected:,} displays, presses at {run.rate:g}/s "
                        f"and a result, correction or schedule change every "
                        f"{CHANGE_EVERY_S:g} s (ms, p50 / p99 over every pair)")
    for name in ("presses: send -> display", "changes: send -> their event",
                 "changes: send -> the view after", "changes sent", "view frames",
                 "view bytes (mean)", "events in order", "displays' HTTP beyond handshakes",
                 "server's HTTP during the run"):
        table.add_column(name, justify="right")
    table.add_row(
        f"{_ms(run.p50_ms)} / {_ms(run.p99_ms)}",
        f"{_ms(changes.event_p50_ms)} / {_ms(changes.event_p99_ms)}",
        f"{_ms(changes.view_p50_ms)} / {_ms(changes.view_p99_ms)}",
        f"{changes.sent}", f"{changes.views:,}",
        "-" if math.isnan(changes.view_bytes) else f"{changes.view_bytes:,.0f}",
        f"{run.complete_pct:.2f} %", str(changes.display_http),
        "unknown" if changes.server_http < 0 else str(changes.server_http),
    )
    console.print(table)
    if changes.error or run.error:
        console.print(f"  results-heavy run failed: {changes.error or run.error}",
                      highlight=False)
    for reason in sorted(set(changes.refused)):
        console.print(f"  a change was refused: {reason}", highlight=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="100 displays, 50 presses, one play-off of flags")
    parser.add_argument("--n", help="display counts, e.g. 100,1000,5000")
    parser.add_argument("--results-n", type=int,
                        help="displays of the results-heavy run (0: none; default 1,000, "
                             "100 with --quick)")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON too")
    parser.add_argument("--workers", type=int,
                        help="instead: one worker against this many, sharing a throwaway "
                             "PostgreSQL and Redis (--n: the displays, default 1,000)")
    args = parser.parse_args(argv)
    ns = [int(part) for part in args.n.split(",")] if args.n else None
    if args.workers is not None:
        if args.workers < 1:
            parser.error("--workers takes a count of 1 or more")
        n = ns[0] if ns else (QUICK_WORKERS_N if args.quick else WORKERS_N)
        presses = QUICK_WORKERS_PRESSES if args.quick else WORKERS_PRESSES
        spread = asyncio.run(measure_spread(args.workers, n, presses))
        print_spread(spread)
        if args.json:
            print(json.dumps(spread_rows(spread), indent=1))
        return 0
    results = _measure(args.quick, ns, args.results_n)
    print_tables(results)
    if args.json:
        print(json.dumps(rows(results), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
