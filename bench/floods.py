"""Press-to-ack of a running play-off while floods run: ``python -m bench floods``.

The scenario (``tests/support/floods.py``) serves a play-off in a process of its own and
times its presses, idle and under foresight and connection floods. Target: the p99
under the floods below max(2 x the idle p99, 50 ms).
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path
from typing import Any

from tests.support.floods import measure, served


def run() -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory() as folder, served(Path(folder)) as base:
        figures = asyncio.run(measure(base))
    print(figures.words())
    return [
        {"benchmark": "press -> ack p99, nothing else happening", "value": figures.idle_p99,
         "unit": "ms"},
        {"benchmark": "press -> ack p99 under foresight and connection floods",
         "value": figures.flooded_p99, "unit": "ms", "target": figures.bound},
    ]
