"""Helpers shared by tests."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator, Page, WebSocketRoute


import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx

from tests.support.server import RunningServer

WS_URL = re.compile(r"/ws/playoffs/")


TIMEOUT_MS = 10_000


def tied_event() -> dict[str, Any]:
    """Four players, two legs: A and B draw each other twice and beat C and D: 5 each."""
    pairs = [[("A", "B"), ("C", "D")], [("A", "C"), ("B", "D")], [("A", "D"), ("B", "C")]]
    first_leg = {("A", "B"): "1/2-1/2", ("C", "D"): "1/2-1/2", ("A", "C"): "1-0",
                 ("B", "D"): "1-0", ("A", "D"): "1-0", ("B", "C"): "1-0"}
    flipped = {"1-0": "0-1", "0-1": "1-0", "1/2-1/2": "1/2-1/2"}
    games = []
    number = 0
    for leg in (1, 2):
        for pairing in pairs:
            number += 1
            for white, black in pairing:
                result = first_leg[(white, black)]
                if leg == 2:
                    white, black, result = black, white, flipped[result]
                games.append({"round": number, "white": white, "black": black, "result": result})
    return {
        "name": "Console Cup", "kind": "individual", "regulation": "gct2015",
        "players": [{"id": p, "name": f"Player {p}", "rating": 2600 - i}
                    for i, p in enumerate("ABCD")],
        "games": games,
    }


def ok(response: httpx.Response) -> dict[str, Any]:
    assert response.status_code in (200, 201), response.text
    body: dict[str, Any] = response.json()
    return body


def start_anyway(panel: Locator, reason: str) -> None:
    """The chief arbiter starts a game before its rest is over (GCT 2015 reg. 5)."""
    from playwright.sync_api import expect

    expect(panel.get_by_test_id("start")).to_be_disabled()
    expect(panel.get_by_test_id("rest").first).to_contain_text("GCT 2015 reg. 5")
    panel.get_by_test_id("override-reason").fill(reason)
    panel.get_by_test_id("start-anyway-submit").click()
    expect(panel.get_by_test_id("clock-status")).to_have_text(
        re.compile(r"^running since \d\d:\d\d$"))


def record(panel: Locator, result: str) -> None:
    """Tap a result, then confirm it."""
    from playwright.sync_api import expect

    panel.get_by_test_id(result).click()
    expect(panel.get_by_test_id("confirm")).to_be_visible()
    panel.get_by_test_id("confirm-yes").click()


class FrameGate:
    """A Playwright route in the page's websocket that can hold back the server's frames."""

    def __init__(self) -> None:
        self.hold: str | None = None  # None, "acks" or "all"
        self.held: list[str | bytes] = []
        self.sent: list[dict[str, Any]] = []  # what the page sent, in order
        self.page_side: WebSocketRoute | None = None

    def route(self, ws: WebSocketRoute) -> None:
        self.page_side = ws
        server = ws.connect_to_server()
        server.on_message(self._from_server)

        def from_page(message: str | bytes) -> None:
            if isinstance(message, str):
                self.sent.append(json.loads(message))
            server.send(message)

        ws.on_message(from_page)

    def hellos(self) -> list[dict[str, Any]]:
        return [frame["d"] for frame in self.sent if frame.get("t") == "hello"]

    def _from_server(self, message: str | bytes) -> None:
        assert self.page_side is not None
        is_ack = isinstance(message, str) and message.startswith('{"t":"ack"')
        if self.hold == "all" or (self.hold == "acks" and is_ack):
            self.held.append(message)
            return
        self.page_side.send(message)

    def release(self) -> int:
        assert self.page_side is not None
        self.hold = None
        held, self.held = self.held, []
        for message in held:
            self.page_side.send(message)
        return len(held)


@contextmanager
def console(
    browser: Browser, url: str, token: str, gate: FrameGate | None = None,
    wrong_token: str | None = None, **options: Any,
) -> Iterator[Page]:
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT_MS)
    context = browser.new_context(**({"viewport": {"width": 1280, "height": 900}} | options))
    errors: list[str] = []
    reads: list[str] = []
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("request", lambda request: reads.append(request.url)
                if "/api/" in request.url and request.method == "GET" else None)
        if gate is not None:
            page.route_web_socket(WS_URL, gate.route)
        page.goto(url)
        expect(page.get_by_test_id("login")).to_be_visible()
        if wrong_token is not None:
            page.get_by_test_id("token-input").fill(wrong_token)
            page.get_by_test_id("token-submit").click()
            alert = page.get_by_test_id("alert-error")
            expect(alert).to_contain_text("Token refused")
            expect(alert.get_by_test_id("alert-advice")).to_contain_text("valid arbiter token")
            expect(page.get_by_test_id("login")).to_be_visible()
            assert page.evaluate("sessionStorage.length") == 0
        page.get_by_test_id("token-input").fill(token)
        page.get_by_test_id("token-submit").click()
        expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "live")
        expect(page.get_by_test_id("timeline")).to_be_visible()
        # Kept for this tab only, never in the address.
        assert token not in page.url
        assert token in page.evaluate("Object.values(sessionStorage)")
        yield page
        assert errors == [], errors
        assert reads == [], f"the page read what its view should have given: {reads}"
    finally:
        context.close()


def set_up(server: RunningServer) -> tuple[str, str, str]:
    """REST only: the event, its play-off, the chief's token and a deputy arbiter's."""
    created = ok(server.client().post("/api/events", json=tied_event()))
    chief = server.client(created["chief_token"])
    standings = ok(chief.get(f"/api/events/{created['id']}/standings"))["standings"]
    assert [(r["id"], r["rank"], r["playoff"]) for r in standings[:3]] == [
        ("A", 1, True), ("B", 1, True), ("C", 3, False)]
    playoff = ok(chief.post(f"/api/events/{created['id']}/playoff", json={}))
    assert len(playoff["matches"]) == 1
    assert set(playoff["matches"][0]["players"]) == {"A", "B"}
    deputy = ok(chief.post(f"/api/events/{created['id']}/tokens",
                           json={"role": "arbiter", "label": "deputy"}))["token"]
    return created["chief_token"], deputy, playoff["id"]


BRIDGE = {
    "name": "Knock-out, round 3", "kind": "team", "regulation": "ebu-143.7",
    "teams": [{"id": "N", "name": "North London"}, {"id": "S", "name": "Surrey"}],
    "matches": [{"round": 1, "home": "N", "away": "S", "venue": "neutral",
                 "boards": [420, -420, 50, -50]}],
}


def lots_by_hand(page: Page, match: int, white: str) -> None:
    page.get_by_test_id(f"lots-white-{match}").select_option(white)
    page.get_by_test_id(f"lots-physical-{match}").click()
    page.get_by_test_id(f"lots-panel-{match}").get_by_test_id("confirm-yes").click()

