"""Helpers shared by tests."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.support.events import ABDU

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page


import asyncio
import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import httpx

from clients.python.client import PlayoffClient
from orchestrator.core.timesource import SystemTime
from tests.support.events import uzchess_json
from tests.support.server import RunningServer

JSON = {"Content-Type": "application/json"}


BRIDGE = {
    "name": "Knock-out, round 3", "kind": "team", "regulation": "ebu-143.7",
    "teams": [{"id": "N", "name": "North London"}, {"id": "S", "name": "Surrey"}],
    "matches": [{"round": 1, "home": "N", "away": "S", "venue": "neutral",
                 "boards": [420, -420, 50, -50]}],
}


CLOCK = "document.querySelector('[data-testid=\"clock-{side}\"]')"


class SkippableTime(SystemTime):
    """This machine's clocks, which a test may move forward between games (never
    while a clock runs: that clock would lose the time skipped)."""

    def __init__(self) -> None:
        super().__init__()
        self.skipped_ms = 0

    def now(self) -> datetime:
        return super().now() + timedelta(milliseconds=self.skipped_ms)

    def monotonic_ms(self) -> int:
        return super().monotonic_ms() + self.skipped_ms

    def skip(self, minutes: float) -> None:
        self.skipped_ms += round(minutes * 60_000)


def ok(response: httpx.Response) -> dict[str, Any]:
    assert response.status_code in (200, 201), response.text
    body: dict[str, Any] = response.json()
    return body


@dataclass
class Playoff:
    server: RunningServer
    id: str
    token: str  # the chief arbiter's
    key: str  # a display key

    @property
    def url(self) -> str:
        """The display's address: the key in the fragment, which is never sent."""
        return f"{self.server.base_url}/display/{self.id}#key={self.key}"

    def url_in(self, language: str) -> str:
        """The display's address in ``language`` (``?lang=``)."""
        return f"{self.server.base_url}/display/{self.id}?lang={language}#key={self.key}"

    def post(self, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        with self.server.client(self.token) as chief:
            return ok(chief.post(f"/api/playoffs/{self.id}{path}", json=body))

    def game(self, match: int, game: int, action: str, body: Any = None) -> dict[str, Any]:
        return self.post(f"/matches/{match}/games/{game}/{action}", body)

    def hall(self) -> dict[str, Any]:
        """The hall view the server computes now."""
        with self.server.client(self.token) as chief:
            return ok(chief.get(f"/api/playoffs/{self.id}/view", params={"kind": "hall"}))

    def rest(self, minutes: float = 10) -> None:
        """The players rest between games: the server's clock moves on."""
        skip(self.server, minutes)

    def command(self, type_: str, **fields: Any) -> None:
        """A websocket command as the arbiter's console sends it; returns on its ack."""

        async def send() -> None:
            async with PlayoffClient(
                self.server.base_url, self.id, self.token, reconnect=False
            ) as client:
                await client.command(type_, **fields)

        with ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, send()).result(timeout=10)


def skip(server: RunningServer, minutes: float) -> None:
    clock = server.service.time
    assert isinstance(clock, SkippableTime)
    clock.skip(minutes)


def _display_key(server: RunningServer, event_id: str, token: str) -> str:
    with server.client(token) as chief:
        made = ok(chief.post(f"/api/events/{event_id}/tokens", json={"role": "display"}))
    key: str = made["token"]
    return key


def chess_playoff(
    server: RunningServer, *, lots: bool = True, event: str | None = None, **options: Any
) -> Playoff:
    """The UzChess Cup play-off (seeds 2 v 3, then the final), its main event over the
    evening before; with ``lots``, Abdusattorov has White in game 1."""
    with server.client() as anonymous:
        body = (event or uzchess_json()).encode()
        created = ok(anonymous.post("/api/events", content=body, headers=JSON))
    token = created["chief_token"]
    with server.client(token) as chief:
        made = ok(chief.post(f"/api/events/{created['id']}/playoff", json={
            "prizes": [100000, 50000, 30000], "points": [13, 10, 8], **options,
        }))
    playoff = Playoff(server, made["id"], token, _display_key(server, created["id"], token))
    if lots:
        playoff.post("/matches/1/lots", {"method": "physical", "white": ABDU})
    return playoff


def bridge_playoff(server: RunningServer) -> Playoff:
    """Hubert Phillips Bowl extra boards: three stanzas of two, partners change after each."""
    with server.client() as anonymous:
        created = ok(anonymous.post("/api/events", content=json.dumps(BRIDGE), headers=JSON))
    token = created["chief_token"]
    with server.client(token) as chief:
        made = ok(chief.post(f"/api/events/{created['id']}/extra-boards", json={
            "home": "N", "away": "S", "scheduled": 48, "competition": "hubert-phillips-bowl",
        }))
    return Playoff(server, made["id"], token, _display_key(server, created["id"], token))


def level_after_two_games(playoff: Playoff) -> None:
    """Match 1 to 1-1: each player wins with White (Abdusattorov had White in game 1),
    10 minutes apart."""
    for game in (1, 2):
        playoff.game(1, game, "start")
        playoff.game(1, game, "result", {"result": "1-0"})
        playoff.rest()




def record_requests(page: Page) -> list[str]:
    """Every URL the page requests from now on (documents, scripts, websockets...)."""
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.on("websocket", lambda socket: requested.append(socket.url))
    return requested


def no_rest_reads(requested: list[str]) -> None:
    """The page got everything from the websocket: it read nothing over REST."""
    assert requested, "no request was recorded"
    assert any("/ws/playoffs/" in url for url in requested)
    assert [url for url in requested if "/api/" in url] == []


def key_never_sent(requested: list[str], key: str) -> None:
    """No address the page requested carries its display key."""
    assert requested, "no request was recorded"
    assert [url for url in requested if key in url] == []


@contextmanager
def opened(browser: Browser, url: str, width: int = 1920, height: int = 1080) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        requested = record_requests(page)
        page.goto(url)
        page.wait_for_function("window.displayState && window.displayState.synced", timeout=5000)
        yield page
        no_rest_reads(requested)
        if "#key=" in url:
            key_never_sent(requested, url.partition("#key=")[2])
    finally:
        context.close()


def fits(page: Page) -> tuple[int, int, int, int]:
    sizes: list[int] = page.evaluate(
        "[document.documentElement.scrollWidth, innerWidth,"
        " document.documentElement.scrollHeight, innerHeight]"
    )
    return sizes[0], sizes[1], sizes[2], sizes[3]


def wait_text(page: Page, test_id: str, text: str, timeout: int = 3000) -> None:
    """Wait until the element with ``test_id`` contains ``text``."""
    page.wait_for_function(
        "([id, text]) => (document.querySelector(`[data-testid=\"${id}\"]`)?.textContent || '')"
        ".includes(text)",
        arg=[test_id, text], timeout=timeout,
    )

