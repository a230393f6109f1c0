"""Run every benchmark and print one table: ``python -m bench [NAME ...] [--gacrux PATH]``.

Each benchmark module has ``run() -> list[dict]`` giving rows with ``benchmark``,
``value`` and ``unit``, and optionally ``target`` (an upper bound in the same
unit) or ``floor`` (a lower bound). ``--gacrux PATH`` names the folder of Gacrux's
``tiebreakchecker.py``, which the standings are timed against (default:
``../shared/tools/gacrux`` when it is there).
"""

from __future__ import annotations

import argparse
import functools
import os
import platform
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from bench import clock, fanout, floods, foresight, restart, standings, store

BENCHMARKS: dict[str, Callable[[], list[dict[str, Any]]]] = {
    "standings": standings.run,
    "store": store.run,
    "restart": restart.run,
    "fanout": fanout.run,
    "foresight": foresight.run,
    "floods": floods.run,
    "clock": clock.run,
}


def _verdict(row: dict[str, Any]) -> tuple[str, bool]:
    if "target" in row:
        ok = row["value"] <= row["target"]
        return f"< {row['target']:g} {row['unit']}", ok
    if "floor" in row:
        ok = row["value"] >= row["floor"]
        return f"> {row['floor']:g} {row['unit']}", ok
    return "", True


def main(names: list[str], gacrux: Path | None = None) -> int:
    console = Console()
    benchmarks = dict(BENCHMARKS)
    if gacrux is not None:
        if not (gacrux / "tiebreakchecker.py").is_file():
            console.print(f"--gacrux: no tiebreakchecker.py in {gacrux}")
            return 2
        benchmarks["standings"] = functools.partial(standings.run, gacrux=gacrux)
    console.print(
        f"Machine: {platform.system()} {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}"
    )
    table = Table(title="Benchmarks (medians; interpreter start-up excluded)")
    table.add_column("benchmark")
    table.add_column("value", justify="right")
    table.add_column("target", justify="right")
    table.add_column("", justify="center")
    failed = False
    for name in names or list(benchmarks):
        if name not in benchmarks:
            console.print(f"unknown benchmark {name!r}; known: {', '.join(benchmarks)}")
            return 2
        for row in benchmarks[name]():
            target, ok = _verdict(row)
            failed |= not ok
            table.add_row(
                row["benchmark"],
                f"{row['value']:,.1f} {row['unit']}",
                target,
                "" if not target else ("ok" if ok else "MISSED"),
            )
    console.print(table)
    return 1 if failed else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m bench")
    parser.add_argument("names", nargs="*", metavar="NAME")
    parser.add_argument("--gacrux", type=Path, help="the folder of Gacrux's tiebreakchecker.py")
    parser.add_argument(
        "--workers", type=int,
        help="fanout: one worker against this many sharing PostgreSQL and Redis, in place "
             "of the single-process report",
    )
    options = parser.parse_args()
    if options.workers is not None:
        if options.workers < 1:
            parser.error("--workers takes a count of 1 or more")
        BENCHMARKS["fanout"] = functools.partial(fanout.run_workers, options.workers)
    sys.exit(main(options.names, options.gacrux))
