"""Standings of a 500-player 11-round Swiss TRF and of a 20-player double round robin."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

from bench.generate import double_round_robin, swiss_trf
from playoff_formats.io.trf import parse_trf
from playoff_formats.regulations import get_regulation


def _median_seconds(work: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def run(repeat: int = 7) -> list[dict[str, Any]]:
    gct = get_regulation("gct2015")
    swiss_text = swiss_trf(500, 11)
    swiss = parse_trf(swiss_text)
    drr = double_round_robin(20)
    parse_s = _median_seconds(lambda: parse_trf(swiss_text), repeat)
    swiss_s = _median_seconds(lambda: gct.standings(swiss), repeat)
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
        {"benchmark": "Double round robin 20: standings", "value": drr_s * 1000, "unit": "ms"},
    ]
