"""Each move's charged time against the think time measured at the tablet, at a
round trip, optionally across an outage; and the press's way to the hall and the
console."""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bench.clock.harness import LINKS, playing, think_and_charged

if TYPE_CHECKING:
    from playwright.async_api import Browser

from bench.fanout.harness import Server

THINK_S = (0.3, 1.5)
"""Each move's think time, drawn uniformly (seconds)."""


@dataclass
class Fairness:
    rtt_ms: int
    outage_s: float = 0.0
    taps: int = 0
    logged: int = 0
    differences_ms: list[float] = field(default_factory=list)  # |charged - think| per move
    by_arrival: int = 0
    whys: list[str] = field(default_factory=list)
    queued: int = 0  # presses the page sent after the outage
    stamp_offsets_ms: list[float] = field(default_factory=list)  # stamp - touch, per press
    to_display_ms: list[float] = field(default_factory=list)
    to_console_ms: list[float] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def lost(self) -> int:
        return self.taps - self.logged


async def fairness(
    server: Server, browser: Browser, rtt_ms: int, presses: int, seed: int,
    outage_s: float = 0.0,
) -> Fairness:
    """``presses`` taps at random think times on a board clock reached through the
    proxy at ``rtt_ms``; with ``outage_s``, the link is cut that long after half of
    them, while the players go on pressing."""
    found = Fairness(rtt_ms, outage_s)
    rng = random.Random(seed)
    async with playing(server, browser, LINKS[rtt_ms], seed) as (game, board):
        places = {side: await board.place_of(side) for side in ("white", "black")}
        cut_at: float | None = None
        for i in range(presses):
            if outage_s and i == presses // 2:
                game.proxy.start_outage("drop")
                cut_at = time.monotonic()
            if cut_at is not None and time.monotonic() - cut_at >= outage_s:
                game.proxy.end_outage()
                cut_at = None
            await asyncio.sleep(rng.uniform(*THINK_S))
            await board.tap(places["white" if i % 2 == 0 else "black"])
        if cut_at is not None:  # the outage outlasted the presses: it ends now
            await asyncio.sleep(max(0.0, outage_s - (time.monotonic() - cut_at)))
            game.proxy.end_outage()
        await board.settled(timeout_s=60 + outage_s)
        taps = await board.touches()
        sent = await board.sent()
        found.taps = len(taps)
        try:
            await game.wait_pressed(len(taps), timeout_s=10)
        except TimeoutError as exc:
            found.notes.append(str(exc))
        pressed = game.pressed()
        found.logged = len(pressed)
        found.queued = sum(1 for payload in sent if payload.get("queued"))
        think, charged, how = think_and_charged(taps, pressed)
        found.differences_ms = [abs(c - t) for c, t in zip(charged, think, strict=True)]
        found.by_arrival = sum(1 for h in how if h == "arrival")
        # The page's stamp is its clock plus the offset it measured: how far that
        # offset wanders from press to press is what a charge can be off by.
        found.stamp_offsets_ms = [float(payload["stamp_ms"]) - tap["wall"]
                                  for payload, tap in zip(sent, taps, strict=False)]
        found.whys = [str(p.data["why"]) for p in pressed if p.data.get("why")]
        for tap, press in zip(taps, pressed, strict=False):
            tapped_ms = tap["wall"] - board.page_offset_ms
            found.to_console_ms.append(press.arrived_ns / 1e6 - tapped_ms)
            shown = game.display.events.get(press.seq)
            if shown is not None:
                found.to_display_ms.append(shown[1] / 1e6 - tapped_ms)
        refused = await board.page.evaluate("window.boardState.refused")
        found.notes.extend(f"refused: {reason}" for reason in refused)
    return found
