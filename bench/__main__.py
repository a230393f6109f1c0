"""Run every benchmark and print a table: ``python -m bench``."""

from __future__ import annotations

import os
import platform
import sys

from rich.console import Console
from rich.table import Table

from bench import standings


def main() -> int:
    console = Console()
    cpu = platform.processor() or platform.machine()
    console.print(
        f"Machine: {platform.system()} {platform.machine()} ({cpu}), {os.cpu_count()} cores, "
        f"Python {platform.python_version()}"
    )
    table = Table(title="Benchmarks (median of repeated runs, interpreter start-up excluded)")
    table.add_column("benchmark")
    table.add_column("median", justify="right")
    table.add_column("target", justify="right")
    table.add_column("", justify="center")
    failed = False
    for row in standings.run():
        target = row["target"]
        ok = target is None or row["median"] <= target
        failed |= not ok
        table.add_row(
            row["benchmark"],
            f"{row['median'] * 1000:.1f} ms",
            "" if target is None else f"< {target * 1000:.0f} ms",
            "" if target is None else ("ok" if ok else "MISSED"),
        )
    console.print(table)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
