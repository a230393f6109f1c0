"""One worker against several, sharing a PostgreSQL and a Redis."""

from __future__ import annotations

import asyncio
import os
import platform
import subprocess
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from bench.fanout.harness import (
    PYTHON,
    RATE,
    ROOT,
    UNLIMITED,
    Arbiter,
    Displays,
    Server,
    Setup,
    _free_port,
    _raise_fd_limit,
    _wait_listening,
    cpu_seconds,
    machine_busy_seconds,
    prepare,
)
from bench.fanout.latency import FanOut, _iso_ns, analyse
from bench.fanout.tables import _ms

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
             "--redis", redis_url, "--port", str(port), *UNLIMITED],
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
    from tests.support.pg import start_postgres, stop_postgres
    from tests.support.redis import start_redis, stop_redis

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
