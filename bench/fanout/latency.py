"""Press-to-display latency: the blocks of presses, and what they gave."""

from __future__ import annotations

import asyncio
import math
import os
import time
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from bench.fanout.harness import (
    BASELINE_RATE,
    BLOCKS,
    RATE,
    Arbiter,
    Displays,
    cpu_seconds,
    machine_busy_seconds,
    prepare,
    start_bare,
    start_ours,
    vm_rss_kib,
)

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
