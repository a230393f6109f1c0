"""Standings of a 500-player 11-round Swiss TRF and of a 20-player double round robin.

In process: reading the TRF (into the model, and as the plain event the command
line ranks) and the standings. As a whole process, as an arbiter runs it:
``playoff standings FILE --regulation REG`` with the criteria WON SB KS BH BH-C1,
against Gacrux (FIDE's reference tie-break engine, ``tiebreakchecker.py -t PTS
WON SB KS BH BH/C1 -s``) on the same file: medians of runs alternating the two,
after one untimed run of each. Both run with bytecode caching on, in a directory
of their own, whatever ``PYTHONDONTWRITEBYTECODE`` says: an installed program
has its bytecode, and neither side should pay for compiling itself. Beside the
elapsed times, the processor time of each process (user and system), which a
busy machine disturbs less.
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from playoff_formats.io.trf import parse_trf, read_trf
from playoff_formats.regulations import get_regulation
from playoff_formats.regulations.custom import regulation_from_text
from tests.support.synthetic import double_round_robin, swiss_trf

ROOT = Path(__file__).resolve().parent.parent
GACRUX = ROOT.parent / "shared" / "tools" / "gacrux"
"""Where Gacrux is looked for when no ``--gacrux`` is given."""

CRITERIA = ("WON", "SB", "KS", "BH", "BH-C1")
GACRUX_CRITERIA = ("PTS", "WON", "SB", "KS", "BH", "BH/C1")
TARGET_RATIO = 4.0
"""The whole ``playoff standings`` process at least this many times faster than Gacrux."""
GACRUX_REFERENCE_MS = 700.0
"""Gacrux on the 500 x 11 Swiss on the project's machine (2-core x86_64, Python 3.11.7):
the target stands on it when Gacrux is not at hand."""
IMPORT_TARGET_MS = 50.0

_RULES_MODULES = (
    "playoff_formats.io.trf",
    "playoff_formats.regulations.custom",
    "playoff_formats.regulations.gct2015",
)
"""What ``playoff standings`` loads of the rules package for a TRF."""


def _median_seconds(work: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _regulation_toml() -> str:
    codes = ", ".join(f'"{code}"' for code in CRITERIA)
    return f'name = "bench"\ncriteria = [{codes}]\n'


def _environment(cache: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(cache)
    return env


def _processor_seconds() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _process_seconds(command: Sequence[str], env: dict[str, str]) -> tuple[float, float]:
    """Elapsed and processor time of one run of ``command``."""
    processor = _processor_seconds()
    start = time.perf_counter()
    done = subprocess.run(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=ROOT
    )
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed: {done.stderr.decode()[-2000:]}")
    return elapsed, _processor_seconds() - processor


def _import_ms(env: dict[str, str], repeat: int) -> float:
    """The processor time of the import, in a fresh process: elapsed time on a busy
    machine says more about the machine."""
    probe = (
        "import time; start = time.process_time(); import "
        + ", ".join(_RULES_MODULES)
        + "; print(time.process_time() - start)"
    )
    command = [sys.executable, "-c", probe]
    subprocess.run(command, check=True, capture_output=True, env=env, cwd=ROOT)
    times = [
        float(subprocess.run(command, check=True, capture_output=True, text=True, env=env,
                             cwd=ROOT).stdout)
        for _ in range(repeat)
    ]
    return statistics.median(times) * 1000


def _in_process(repeat: int) -> list[dict[str, Any]]:
    gct = get_regulation("gct2015")
    custom = regulation_from_text(_regulation_toml(), "bench.toml")
    swiss_text = swiss_trf(500, 11)
    swiss = parse_trf(swiss_text)
    plain = read_trf(swiss_text)
    drr = double_round_robin(20)
    parse_s = _median_seconds(lambda: parse_trf(swiss_text), repeat)
    read_s = _median_seconds(lambda: read_trf(swiss_text), repeat)
    swiss_s = _median_seconds(lambda: gct.standings(swiss), repeat)
    custom_s = _median_seconds(lambda: custom.standings(plain), repeat)
    drr_s = _median_seconds(lambda: gct.standings(drr), repeat)
    return [
        {"benchmark": "Swiss 500 x 11: parse TRF", "value": parse_s * 1000, "unit": "ms"},
        {
            "benchmark": "Swiss 500 x 11: standings (gct2015)",
            "value": swiss_s * 1000,
            "unit": "ms",
            "target": 200,
        },
        {
            "benchmark": "Swiss 500 x 11: parse + standings",
            "value": (parse_s + swiss_s) * 1000,
            "unit": "ms",
            "target": 200,
        },
        {"benchmark": "Swiss 500 x 11: read TRF, plain", "value": read_s * 1000, "unit": "ms"},
        {
            "benchmark": f"Swiss 500 x 11: standings ({' '.join(CRITERIA)}), plain",
            "value": custom_s * 1000,
            "unit": "ms",
        },
        {"benchmark": "Double round robin 20: standings", "value": drr_s * 1000, "unit": "ms"},
    ]


def _gacrux_at_hand(gacrux: Path | None) -> Path | None:
    folder = GACRUX if gacrux is None else gacrux
    return folder if (folder / "tiebreakchecker.py").is_file() else None


def run(repeat: int = 7, gacrux: Path | None = None, processes: int = 5) -> list[dict[str, Any]]:
    """The rows; ``gacrux`` is the folder of ``tiebreakchecker.py`` (default :data:`GACRUX`)."""
    rows = _in_process(repeat)
    reference = _gacrux_at_hand(gacrux)
    with tempfile.TemporaryDirectory(prefix="bench-standings-") as folder:
        work = Path(folder)
        trf = work / "swiss-500x11.trf"
        trf.write_text(swiss_trf(500, 11), encoding="utf-8")
        regulation = work / "bench.toml"
        regulation.write_text(_regulation_toml(), encoding="utf-8")
        env = _environment(work / "bytecode")
        ours = [sys.executable, "-m", "orchestrator.cli.entry", "standings", str(trf),
                "--regulation", str(regulation)]
        ours_json = [*ours, "--format", "json"]
        commands = {"table": ours, "json": ours_json}
        if reference is not None:
            python = shutil.which("python3") or sys.executable
            commands["gacrux"] = [python, str(reference / "tiebreakchecker.py"), "-i", str(trf),
                                  "-t", *GACRUX_CRITERIA, "-s"]
        for command in commands.values():
            _process_seconds(command, env)  # bytecode, disk caches
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
        for _ in range(processes):
            for name, command in commands.items():
                times[name].append(_process_seconds(command, env))
        median = {
            name: statistics.median([t[0] for t in runs]) * 1000 for name, runs in times.items()
        }
        processor = {
            name: statistics.median([t[1] for t in runs]) * 1000 for name, runs in times.items()
        }
        rows.append(
            {
                "benchmark": "rules package import (what the command loads), processor time",
                "value": _import_ms(env, 9),
                "unit": "ms",
                "target": IMPORT_TARGET_MS,
            }
        )
    gacrux_ms = median.get("gacrux", GACRUX_REFERENCE_MS)
    source = "" if "gacrux" in median else " (Gacrux not at hand: its reference time)"
    rows.append(
        {
            "benchmark": f"playoff standings, whole process{source}",
            "value": median["table"],
            "unit": "ms",
            "target": round(gacrux_ms / TARGET_RATIO, 1),
        }
    )
    rows.append(
        {
            # Gacrux writes JSON: this is the same work, output for output.
            "benchmark": f"playoff standings --format json, whole process{source}",
            "value": median["json"],
            "unit": "ms",
            "target": round(gacrux_ms / TARGET_RATIO, 1),
        }
    )
    if "gacrux" in median:
        rows.append(
            {"benchmark": "Gacrux tiebreakchecker, whole process", "value": gacrux_ms,
             "unit": "ms"}
        )
        rows.append(
            {
                "benchmark": "Gacrux / ours, whole process",
                "value": gacrux_ms / median["table"],
                "unit": "x",
                "floor": TARGET_RATIO,
            }
        )
        rows.append(
            {
                "benchmark": "Gacrux / ours --format json, whole process",
                "value": gacrux_ms / median["json"],
                "unit": "x",
                "floor": TARGET_RATIO,
            }
        )
    for name, label in (
        ("table", "playoff standings"),
        ("json", "playoff standings --format json"),
        ("gacrux", "Gacrux tiebreakchecker"),
    ):
        if name in processor:
            rows.append(
                {"benchmark": f"{label}, processor time", "value": processor[name], "unit": "ms"}
            )
    if "gacrux" in processor:
        for name, label in (("table", ""), ("json", " --format json")):
            rows.append(
                {
                    "benchmark": f"Gacrux / ours{label}, processor time",
                    "value": processor["gacrux"] / processor[name],
                    "unit": "x",
                }
            )
    return rows
