"""A flag at a board: from its instant to the hall display and the console having it,
when the game's board clock is connected (the server waits for that board's presses
before logging the flag, and the page says when none can still come)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bench.clock.harness import LINKS, playing

if TYPE_CHECKING:
    from playwright.async_api import Browser

from bench.fanout.harness import Server

LEFT_MS = 400
"""The mover's time the chief leaves before the flag (an ``adjust``)."""


@dataclass
class Announced:
    rtt_ms: int
    to_display_ms: list[float] = field(default_factory=list)
    to_console_ms: list[float] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


async def flags_at_the_board(
    server: Server, browser: Browser, rtt_ms: int, flags: int, seed: int,
) -> Announced:
    """``flags`` fresh games, each left to run out of time with its board connected
    through a link of ``rtt_ms``: the flag's instant (the clock's, as the server set
    it) to the ``flag-fell`` event at the display and at the console."""
    found = Announced(rtt_ms)
    for k in range(flags):
        async with playing(server, browser, LINKS[rtt_ms], seed + k) as (game, board):
            clock = game.last_clock()
            assert clock is not None and clock.get("running") == "white", clock
            left = clock["white_ms"] - (game.server_now_ms() - clock["server_ms"])
            ack = await game.chief.command({
                "type": "adjust", "match": 1, "game": game.game, "side": "white",
                "delta_ms": round(LEFT_MS - left), "reason": "bench: a flag at the board",
            })
            adjusted = (await game.chief.event(ack["d"]["seqs"][0]))["clock"]
            flag_ms = adjusted["server_ms"] + adjusted["white_ms"]
            deadline = time.monotonic() + LEFT_MS / 1000 + 5.0
            while not (_arrival(game.display.events) and _arrival(game.chief.events)):
                if time.monotonic() > deadline:
                    found.notes.append(f"flag {k + 1}: not announced within 5 s")
                    break
                await asyncio.sleep(0.005)
            else:
                display_ns = _arrival(game.display.events)
                console_ns = _arrival(game.chief.events)
                assert display_ns is not None and console_ns is not None
                found.to_display_ms.append(display_ns / 1e6 + game.offset_ms - flag_ms)
                found.to_console_ms.append(console_ns / 1e6 + game.offset_ms - flag_ms)
                if found.to_display_ms[-1] > 1000:  # waited: what did the board say?
                    through = await board.page.evaluate("window.boardState.through")
                    found.notes.append(
                        f"flag {k + 1} at {flag_ms} waited {found.to_display_ms[-1]:.0f} ms; "
                        f"the board said it had sent its presses through {through}"
                    )
    return found


def _arrival(events: dict[int, tuple[dict[str, object], int]]) -> int | None:
    for d, arrived in events.values():
        if d.get("type") == "flag-fell":
            return arrived
    return None
