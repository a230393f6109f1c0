"""The runs of ``python -m bench.fanout``, and their rows for ``python -m bench``."""

from __future__ import annotations

import asyncio
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.fanout.changes import Changes, fan_out_results
from bench.fanout.flags import Flags, flag_lateness
from bench.fanout.harness import (
    BASELINE_RATE,
    CHANGE_EVERY_S,
    FLAG_PLAYOFFS,
    FLAG_SERVER_TARGET_MS,
    FLAG_TARGET_MS,
    FULL_N,
    MEMORY_TARGET_KIB,
    PRESSES,
    QUICK_FLAG_PLAYOFFS,
    QUICK_PRESSES,
    QUICK_RESULTS_N,
    RATE,
    RATIO_TARGET,
    RESULTS_N,
    _raise_fd_limit,
)
from bench.fanout.latency import FanOut, fan_out, percentile

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
