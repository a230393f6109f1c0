"""No false flag: presses made with the mover's time near zero at 400 ms round trip,
each arriving after the mover's flag instant on the server's clock."""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bench.clock.harness import LINKS, playing

if TYPE_CHECKING:
    from playwright.async_api import Browser

from bench.fanout.harness import CommandRefused, Server

RTT_MS = 400
LEFT_MS = 200
"""The mover's time the chief leaves them before each press."""
MARGIN_MS = (20.0, 150.0)
"""How long before the flag instant the player touches the clock, drawn uniformly:
less than the one-way delay (200 ± 60 ms), so every press reaches the server after
the flag instant it beat."""


@dataclass
class NearZero:
    presses: int = 0  # touches before the flag instant, as the machine's clock has it
    late: int = 0  # touches this process made too late (past the flag): not counted
    arrived_after_flag: int = 0  # of the presses, those logged after their flag instant
    false_flags: int = 0
    flags: int = 0
    margins_ms: list[float] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


async def near_zero(server: Server, browser: Browser, presses: int, seed: int) -> NearZero:
    """Before each press the chief leaves the mover ``LEFT_MS`` (an ``adjust``, on
    loopback); the tablet's player touches the clock ``MARGIN_MS`` before it runs
    out. A ``flag-fell`` for a touch that came before the flag instant is false."""
    found = NearZero()
    rng = random.Random(seed)
    async with playing(server, browser, LINKS[RTT_MS], seed) as (game, board):
        places = {side: await board.place_of(side) for side in ("white", "black")}
        flag_at: list[float] = []
        for k in range(presses):
            side = "white" if k % 2 == 0 else "black"
            try:
                await game.wait_pressed(k, timeout_s=15)
            except TimeoutError as exc:
                refused = await board.page.evaluate("window.boardState.refused")
                found.notes.append(f"{exc}; the page was told: {refused}")
                break
            if game.logged("flag-fell"):
                break
            clock = game.last_clock()
            assert clock is not None and clock.get("running") == side, clock
            left = clock[f"{side}_ms"] - (game.server_now_ms() - clock["server_ms"])
            try:
                ack = await game.chief.command({
                    "type": "adjust", "match": 1, "game": game.game, "side": side,
                    "delta_ms": round(LEFT_MS - left),
                    "reason": "bench: the mover's time near zero",
                })
            except CommandRefused as exc:
                found.notes.append(f"adjust refused: {exc}")
                break
            adjusted = (await game.chief.event(ack["d"]["seqs"][0]))["clock"]
            flag_ms = adjusted["server_ms"] + adjusted[f"{side}_ms"]
            flag_at.append(flag_ms)
            touch_ms = flag_ms - rng.uniform(*MARGIN_MS) - game.offset_ms
            await asyncio.sleep(max(0.0, (touch_ms - time.time_ns() / 1e6) / 1000))
            await board.tap(places[side])
        await asyncio.sleep(2.0)  # a press's way back, and any flag the server would log
        taps = await board.touches()
        pressed = game.pressed()
        for i, tap in enumerate(taps[: len(flag_at)]):
            touched = tap["wall"] - board.page_offset_ms + game.offset_ms  # server clock
            margin = flag_at[i] - touched
            if margin <= 0:
                found.late += 1
                continue
            found.presses += 1
            found.margins_ms.append(margin)
            if i < len(pressed) and pressed[i].arrived_ns / 1e6 + game.offset_ms > flag_at[i]:
                found.arrived_after_flag += 1
        flags = game.logged("flag-fell")
        found.flags = len(flags)
        for flag in flags:
            data = flag.get("data", {})
            # The flag of the touch that was due before it: false if that touch was
            # made before the flag instant.
            due = next((i for i, at in enumerate(flag_at)
                        if abs(at - data.get("at_ms", 0)) < 5), None)
            if due is not None and due < len(taps):
                touched = taps[due]["wall"] - board.page_offset_ms + game.offset_ms
                if touched < flag_at[due]:
                    found.false_flags += 1
            else:
                found.notes.append(f"a flag not matched to a press: {data}")
                found.false_flags += 1
    return found
