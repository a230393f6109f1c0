"""No false flag: presses made with the mover's time near zero at 400 ms round trip,
each arriving after the mover's flag instant on the server's clock.

A player is short of time when their turn begins: the opponent presses, and the
little time left runs from that press. So each near-zero turn here begins as in a
game: while one player thinks, the chief leaves the other ``LEFT_MS`` (an ``adjust``
of the clock that is not running, on loopback); the first player presses, and the
second presses ``MARGIN_MS`` before their time runs out. Every one of those presses
reaches the server after the flag instant (the one-way delay is 200 ± 60 ms).
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bench.clock.harness import LINKS, playing

if TYPE_CHECKING:
    from playwright.async_api import Browser

from bench.fanout.harness import CommandRefused, Server

RTT_MS = 400
LEFT_MS = 200
"""The time the chief leaves the player whose turn comes next."""
THINK_S = 0.3
"""The first player's think time, in which the chief's adjustment is logged."""
MARGIN_MS = (20.0, 150.0)
"""How long before the flag instant the player short of time touches the clock,
drawn uniformly: less than the one-way delay (200 ± 60 ms). Touching takes the
browser a few milliseconds more, so the margins measured at the tablet are smaller."""
RESOLUTION_MS = 2.0
"""Instants are logged in whole milliseconds (a stamp is the millisecond the press
fell in), and the tablet's offset may move by 0.5 % of a turn as it is measured (1 ms
over 200 ms): a touch less than 2 ms before the flag is within what the tablet can
tell, and is not counted either way."""


@dataclass
class NearZero:
    presses: int = 0  # touches before the flag instant, by the tablet's own clock
    late: int = 0  # touches this process made too late (past the flag): not counted
    arrived_after_flag: int = 0  # of the presses, those logged after their flag instant
    false_flags: int = 0
    flags: int = 0
    margins_ms: list[float] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


MAX_GAMES = 250
"""A touch the browser makes too late lets a true flag fall, which ends the game: the
run goes on in a fresh one, up to this many."""


async def near_zero(server: Server, browser: Browser, presses: int, seed: int) -> NearZero:
    """``presses`` turns that begin with ``LEFT_MS`` on the mover's clock, each
    pressed ``MARGIN_MS`` before it runs out, over as many games as it takes. A
    ``flag-fell`` for a touch made before its flag instant (the opponent's touch plus
    ``LEFT_MS``, on the tablet's clock) is false."""
    found = NearZero()
    rng = random.Random(seed)
    for n in range(MAX_GAMES):
        if found.presses + found.late >= presses:
            break
        await _one_game(server, browser, presses - found.presses - found.late, seed + n, rng,
                        found)
    return found


async def _one_game(
    server: Server, browser: Browser, presses: int, seed: int, rng: random.Random,
    found: NearZero,
) -> None:
    async with playing(server, browser, LINKS[RTT_MS], seed) as (game, board):
        places = {side: await board.place_of(side) for side in ("white", "black")}
        # (index of the touch short of time, its flag instant in server time)
        short: list[tuple[int, float]] = []
        touches = 0
        for _ in range(presses):
            try:
                await game.wait_pressed(touches, timeout_s=15)
            except TimeoutError as exc:
                if not game.logged("flag-fell"):
                    refused = await board.page.evaluate("window.boardState.refused")
                    found.notes.append(f"{exc}; the page was told: {refused}")
                break
            if game.logged("flag-fell"):
                break
            clock = game.last_clock()
            assert clock is not None and clock.get("running") in places, clock
            first = str(clock["running"])
            second = "black" if first == "white" else "white"
            try:  # the next mover's clock, not running: nothing else moves
                await game.chief.command({
                    "type": "adjust", "match": 1, "game": game.game, "side": second,
                    "delta_ms": LEFT_MS - clock[f"{second}_ms"],
                    "reason": "bench: the next mover's time near zero",
                })
            except CommandRefused as exc:
                found.notes.append(f"adjust refused: {exc}")
                break
            await asyncio.sleep(THINK_S)
            await board.tap(places[first])
            await asyncio.sleep(max(0.0, (LEFT_MS - rng.uniform(*MARGIN_MS)) / 1000))
            await board.tap(places[second])
            short.append((touches + 1, 0.0))
            touches += 2
        await asyncio.sleep(2.0)  # a press's way back, and any flag the server would log
        taps = await board.touches()
        pressed = game.pressed()
        flag_at: dict[int, float] = {}
        for i, _ in short:
            if i >= len(taps):
                continue
            if i - 1 < len(pressed):  # the server's flag instant
                flag_at[i] = pressed[i - 1].data["at_ms"] + LEFT_MS
            margin = taps[i - 1]["wall"] + LEFT_MS - taps[i]["wall"]
            if margin < RESOLUTION_MS:  # late, or in the flag's own millisecond
                found.late += 1
                continue
            found.presses += 1
            found.margins_ms.append(margin)
            if i in flag_at and i < len(pressed) and \
                    pressed[i].arrived_ns / 1e6 + game.offset_ms > flag_at[i]:
                found.arrived_after_flag += 1
        flags = game.logged("flag-fell")
        found.flags += len(flags)

        for flag in flags:
            data = flag.get("data", {})
            due = next((i for i, at in flag_at.items() if abs(at - data.get("at_ms", 0)) < 5),
                       None)
            if due is None:
                found.notes.append(f"a flag not matched to a press: {data}")
                found.false_flags += 1
            elif taps[due]["wall"] - taps[due - 1]["wall"] <= LEFT_MS - RESOLUTION_MS:
                found.false_flags += 1  # touched before the time ran out, on the tablet
                sent = await board.sent()
                stamps = [p.get("stamp_ms") for p in sent[due - 1: due + 1]]
                early = LEFT_MS - taps[due]["wall"] + taps[due - 1]["wall"]
                refused = await board.page.evaluate("window.boardState.refused")
                through = await board.page.evaluate("window.boardState.through")
                found.notes.append(
                    f"a false flag: touched {early:.1f} ms before it by the tablet; "
                    f"stamps {stamps}, flag {data.get('at_ms')}; the page was told "
                    f"{refused[-2:]}; it said it had sent its presses through {through[-3:]}"
                )
