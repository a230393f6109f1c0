"""Run every benchmark and print one table: ``python -m bench [NAME ...]``.

Each benchmark module has ``run() -> list[dict]`` giving rows with ``benchmark``,
``value`` and ``unit``, and optionally ``target`` (an upper bound in the same
unit) or ``floor`` (a lower bound).
"""

from __future__ import annotations

import os
import platform
import sys
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.table import Table

from bench import fanout, restart, standings, store

BENCHMARKS: dict[str, Callable[[], list[dict[str, Any]]]] = {
    "standings": standings.run,
    "store": store.run,
    "restart": restart.run,
    "fanout": fanout.run,
}


def _verdict(row: dict[str, Any]) -> tuple[str, bool]:
    if "target" in row:
        ok = row["value"] <= row["target"]
        return f"< {row['target']:g} {row['unit']}", ok
    if "floor" in row:
        ok = row["value"] >= row["floor"]
        return f"> {row['floor']:g} {row['unit']}", ok
    return "", True


def main(names: list[str]) -> int:
    console = Console()
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
    for name in names or list(BENCHMARKS):
        if name not in BENCHMARKS:
            console.print(f"unknown benchmark {name!r}; known: {', '.join(BENCHMARKS)}")
            return 2
        for row in BENCHMARKS[name]():
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
    sys.exit(main(sys.argv[1:]))
