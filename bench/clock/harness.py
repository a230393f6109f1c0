"""The harness: the service, a play-off with a board key, the delaying proxy, and
Chromium showing the board clock page that the bench presses like a player."""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import httpx

from bench.fanout.harness import Arbiter, Server, Setup, prepare
from tests.support.browser import CHROMIUM, FLAGS
from tests.support.delay_proxy import DelayProxy, Link

if TYPE_CHECKING:
    from playwright.async_api import Browser, BrowserContext, Page

LINKS: dict[int, Link] = {
    0: Link(0, 0),
    150: Link.round_trip(150, 25),
    400: Link.round_trip(400, 60),
}
"""Round trip (ms) -> each direction's delay and jitter: half the round trip each
way, ±25 ms at 150 ms and ±60 ms at 400 ms (the ends of a hall's usual range of
jitter, tens of milliseconds); none at 0, the loopback itself."""

CHARGE_TARGET_MS = 20.0
LATENCY_TARGET_MS = 50.0
FALSE_FLAG_TARGET = 0

TAPS_SCRIPT = """
window.__taps = [];
window.addEventListener("pointerdown", (e) => {
  const half = e.target && e.target.closest ? e.target.closest("[data-place]") : null;
  // The first listener of all (the window, capturing): the instant of the touch, on
  // the page's own clock (what the board clock calls local time).
  window.__taps.push({wall: performance.timeOrigin + performance.now(),
                      place: half ? half.dataset.place : null});
}, {capture: true});
"""
"""Keeps each touch's instant as the tablet measures it, before the page handles it:
the think time at the tablet is the time between two touches."""


async def mint_board_key(base: str, setup: Setup, match: int = 1) -> dict[str, Any]:
    """``POST /api/events/{id}/tokens`` with the board role, as the chief does on the
    console: the key, its link and QR code."""
    async with httpx.AsyncClient(base_url=base, trust_env=False, timeout=15) as http:
        issued = await http.post(
            f"/api/events/{setup.event_id}/tokens",
            headers={"Authorization": f"Bearer {setup.chief}"},
            json={"role": "board", "playoff": setup.playoff_id, "match": match},
        )
        issued.raise_for_status()
    minted: dict[str, Any] = issued.json()
    return minted


@dataclass
class Tap:
    """One touch of a half: its instant on the page's clock and on the bench's."""

    wall_ms: float  # the page's performance.timeOrigin + performance.now()
    bench_ms: float  # the same instant on this process's wall clock
    side: str


class Board:
    """Chromium showing ``/clock/{playoff}#key=...`` (through the proxy when there is
    one), a tablet with a touch screen."""

    def __init__(self, page: Page, context: BrowserContext) -> None:
        self.page, self.context = page, context
        self.page_offset_ms = 0.0  # the page's clock minus this process's wall clock
        self._centres: dict[str, tuple[float, float]] = {}
        self.taps: list[Tap] = []

    async def ready(self, timeout_s: float = 30.0) -> None:
        """Connected, showing its game running."""
        await self.page.wait_for_function(
            "window.boardState && window.boardState.connection === 'live' "
            "&& window.boardState.status === 'running'",
            timeout=timeout_s * 1000,
        )
        for place in ("left", "right"):
            box = await self.page.locator(f"[data-testid=half-{place}]").bounding_box()
            assert box is not None, f"no {place} half"
            self._centres[place] = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        self.page_offset_ms = await self.clock_offset_ms()

    async def clock_offset_ms(self, samples: int = 25) -> float:
        """The page's clock minus this process's wall clock, from the closest reading
        (both read the machine's clock; this takes out where each begins)."""
        best: tuple[float, float] | None = None
        for _ in range(samples):
            before = time.time_ns() / 1e6
            page_ms = float(await self.page.evaluate("performance.timeOrigin + performance.now()"))
            after = time.time_ns() / 1e6
            found = (after - before, page_ms - (before + after) / 2)
            if best is None or found[0] < best[0]:
                best = found
        assert best is not None
        return best[1]

    async def place_of(self, side: str) -> str:
        halves = await self.page.evaluate("window.boardState.halves")
        return "left" if halves["left"]["side"] == side else "right"

    async def tap(self, place: str) -> None:
        x, y = self._centres[place]
        await self.page.touchscreen.tap(x, y)

    async def touches(self) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = await self.page.evaluate("window.__taps")
        return found

    async def sent(self) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = await self.page.evaluate("window.boardState.sent")
        return found

    async def settled(self, timeout_s: float = 90.0) -> None:
        """Back on line with every press sent: none held (whether the server logged
        them all is read from the log)."""
        await self.page.wait_for_function(
            "window.boardState.connection === 'live' && window.boardState.queued === 0",
            timeout=timeout_s * 1000,
        )


@asynccontextmanager
async def chromium() -> AsyncIterator[Browser]:
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield browser
        finally:
            await browser.close()


@asynccontextmanager
async def board_page(browser: Browser, base: str, link: str) -> AsyncIterator[Board]:
    """A tablet (touch, landscape) opened on the board key's link at ``base``."""
    context = await browser.new_context(
        has_touch=True, viewport={"width": 1024, "height": 700}, device_scale_factor=1,
    )
    try:
        await context.add_init_script(TAPS_SCRIPT)
        page = await context.new_page()
        await page.goto(base + link)
        yield Board(page, context)
    finally:
        await context.close()


@dataclass
class Pressed:
    """A logged ``clock-pressed`` event: its seq, data, clock, and when the chief's
    console had it (this process's wall clock, ns)."""

    seq: int
    data: dict[str, Any]
    clock: dict[str, Any]
    arrived_ns: int


@dataclass
class Game:
    """A fresh play-off with match 1's first game under way, its board key, the
    chief arbiter and a hall display listening on loopback, and a proxy to the
    service with the given delay."""

    setup: Setup
    chief: Arbiter
    display: Arbiter
    proxy: DelayProxy
    link: str
    offset_ms: float  # the server's clock minus this process's wall clock
    game: int = 1

    def server_now_ms(self) -> float:
        return time.time_ns() / 1e6 + self.offset_ms

    def pressed(self) -> list[Pressed]:
        """The logged ``clock-pressed`` events of this game, in the log's order."""
        found = []
        for seq in sorted(self.chief.events):
            d, arrived = self.chief.events[seq]
            data = d.get("data", {})
            if d.get("type") == "clock-pressed" and data.get("match") == 1 \
                    and data.get("game") == self.game:
                found.append(Pressed(seq, data, d.get("clock") or {}, arrived))
        return found

    def last_clock(self) -> dict[str, Any] | None:
        """The clock of this game as the last event that carried it left it."""
        for seq in sorted(self.chief.events, reverse=True):
            d, _ = self.chief.events[seq]
            clock = d.get("clock")
            if clock and clock.get("match") == 1 and clock.get("game") == self.game:
                found: dict[str, Any] = clock
                return found
        return None

    def logged(self, kind: str) -> list[dict[str, Any]]:
        return [d for _, (d, _) in sorted(self.chief.events.items()) if d.get("type") == kind]

    async def wait_pressed(self, count: int, timeout_s: float = 30.0) -> None:
        deadline = time.monotonic() + timeout_s
        while len(self.pressed()) < count:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{len(self.pressed())} of {count} presses logged")
            await asyncio.sleep(0.005)


@asynccontextmanager
async def game_through(server: Server, link: Link, seed: int) -> AsyncIterator[Game]:
    setup = await prepare(server.http)
    minted = await mint_board_key(server.http, setup)
    chief = Arbiter(server.ws(setup.playoff_id), setup.chief)
    display = Arbiter(server.ws(setup.playoff_id), setup.display_key)
    async with DelayProxy("127.0.0.1", server.port, link, seed=seed) as proxy:
        try:
            await chief.open()
            await display.open()
            offset = await chief.offset_ms()
            yield Game(setup, chief, display, proxy, str(minted["link"]), offset)
        finally:
            await display.close()
            await chief.close()


async def start_game(game: Game) -> None:
    # The chief's: the game starts at once, inside the interval the regulations give.
    await game.chief.command({"type": "start-clock", "match": 1, "game": game.game,
                              "override": "bench: the game starts at once"})


@asynccontextmanager
async def playing(
    server: Server, browser: Browser, link: Link, seed: int,
) -> AsyncIterator[tuple[Game, Board]]:
    """A fresh play-off's first game running, its board clock open through the proxy
    with ``link``, connected and showing the running game."""
    async with game_through(server, link, seed) as game, \
            board_page(browser, f"http://{game.proxy.address}", game.link) as board:
        await board.page.wait_for_function(
            "window.boardState && window.boardState.connection === 'live'", timeout=30_000)
        await start_game(game)
        await board.ready()
        yield game, board


def think_and_charged(
    taps: list[dict[str, Any]], pressed: list[Pressed],
) -> tuple[list[float], list[float], list[str]]:
    """Per move after the first: the think time at the tablet (touch to touch) and
    the time charged (the log's press to press), and how each was charged."""
    n = min(len(taps), len(pressed))
    think = [taps[i]["wall"] - taps[i - 1]["wall"] for i in range(1, n)]
    charged = [float(pressed[i].data["at_ms"] - pressed[i - 1].data["at_ms"])
               for i in range(1, n)]
    how = [str(pressed[i].data.get("charged") or "?") for i in range(1, n)]
    return think, charged, how


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")

