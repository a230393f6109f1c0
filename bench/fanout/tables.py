"""The tables ``python -m bench.fanout`` prints."""

from __future__ import annotations

import math
import os
import platform
from typing import Any

from bench.fanout.changes import Changes
from bench.fanout.harness import (
    CHANGE_EVERY_S,
    FLAG_SERVER_TARGET_MS,
    FLAG_TARGET_MS,
    FLAG_WATCHERS,
    MEMORY_TARGET_KIB,
    RATIO_TARGET,
)
from bench.fanout.latency import FanOut, percentile
from bench.fanout.runs import Results, _ratio

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
