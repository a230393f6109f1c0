"""Counting a server clock down locally, as hall displays do (protocol v1, "Events")."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

SIDES = ("white", "black")


def wall_ms() -> int:
    """The local wall clock in milliseconds since the Unix epoch (the default local clock)."""
    return time.time_ns() // 1_000_000


def display_remaining_ms(
    clock: Mapping[str, Any], side: str, local_now_ms: int, offset_ms: int
) -> int:
    """The time to show for `side` ("white" or "black"), in milliseconds.

    `clock` is a clock object from an event or snapshot: `white_ms`/`black_ms`
    are the remaining times at `server_ms` (server time), and `running` is the
    side whose time runs, or null when none runs. The server's time now is
    estimated as `local_now_ms + offset_ms` (`offset_ms` = server ms − local ms,
    as measured by the client from `welcome` and `ping`).

    Only the side named by `running` counts down, from `server_ms`; with
    `running` null nothing runs, whatever else the clock says. Elapsed time
    is never negative (a display never shows more time than the server sent) and the
    result is never below 0. The flag itself is decided by the server only.
    """
    if side not in SIDES:
        raise ValueError(f"side must be 'white' or 'black', not {side!r}")
    remaining = int(clock[f"{side}_ms"])
    if clock.get("running") == side:
        elapsed = local_now_ms + offset_ms - int(clock["server_ms"])
        remaining -= max(0, elapsed)
    return max(0, remaining)
