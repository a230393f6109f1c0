"""The console speaks the language chosen on it, in Debian Chromium.

A console opened in an English browser reads English and asks the service for no
words. Switched to the pseudo-language ``en-XA`` (which wraps every message of the
catalogs in [brackets]), the page's own words and the view, worded again by the
server for the new hello, are in brackets at once: the header, the match and its
lots, the schedule, the records. The choice is remembered: the console opened
again in this browser speaks it from the start. Switched back, it reads English.

The keys the console makes open their screens in the language chosen for them: a
hall screen's display key, a board's tablet key. The console's print menu asks for
the PDFs in its language, and the event console opened in the same browser speaks
the console's language, its view worded in it by the server.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from orchestrator.core.languages import LANGUAGES
from tests.support.browser import browser
from tests.support.console import TIMEOUT_MS, ok, set_up, tied_event
from tests.support.server import running_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Route

__all__ = ["browser"]  # the fixture, from tests/support/browser.py

BRACKETED = re.compile(r"^\s*\[.*\]\s*$", re.S)


def bracketed(page: Page, test_id: str) -> str:
    return page.get_by_test_id(test_id).first.inner_text()


def test_the_console_switches_to_the_pseudo_language_and_remembers_it(
    tmp_path: Path, browser: Browser
) -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT_MS)
    with running_server(tmp_path / "log.db") as server:
        chief_token, _, playoff_id = set_up(server)
        url = f"{server.base_url}/arbiter/{playoff_id}"
        context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
        errors: list[str] = []
        words: list[str] = []
        try:
            page = context.new_page()
            page.set_default_timeout(TIMEOUT_MS)
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.on("request", lambda request: words.append(request.url)
                    if "/api/languages" in request.url else None)
            page.goto(url)
            # English: as written, and nothing asked for.
            expect(page.get_by_test_id("token-submit")).to_have_text("Connect")
            page.get_by_test_id("token-input").fill(chief_token)
            page.get_by_test_id("token-submit").click()
            expect(page.get_by_test_id("connection")).to_have_text("live")
            expect(page.get_by_test_id("lots-panel-1")).to_contain_text("Lots for White in game 1")
            assert words == []

            # The switch lists the service's languages once reached for.
            switch = page.get_by_test_id("language")
            switch.focus()
            expect(switch.locator("option[value='en-XA']")).to_have_count(1)
            switch.select_option("en-XA")
            expect(page.get_by_test_id("connection")).to_have_text(BRACKETED)
            lots = page.get_by_test_id("lots-panel-1")
            expect(lots.locator("h3")).to_have_text(BRACKETED)
            expect(page.get_by_test_id("lots-service-1")).to_have_text(BRACKETED)
            expect(page.get_by_test_id("match-status-1")).to_have_text(BRACKETED)
            expect(page.get_by_test_id("match-1").locator("h2")).to_have_text(BRACKETED)
            expect(page.get_by_test_id("subtitle")).to_have_text(BRACKETED)
            expect(page.get_by_test_id("who")).to_have_text(BRACKETED)
            expect(page.get_by_test_id("plan-summary")).to_contain_text("[")
            for heading in ("draws", "overrides", "changes", "commands"):
                expect(page.get_by_test_id(heading).locator("h2")).to_have_text(BRACKETED)
            expect(page.get_by_test_id("keyboard-help")).to_have_text(BRACKETED)
            expect(page.get_by_test_id("sign-out")).to_have_text(BRACKETED)
            # Names stay as they are.
            expect(page.get_by_test_id("lots-white-1")).to_contain_text("Player A")
            # The confirmation of a drawing is worded by the server, in brackets.
            page.get_by_test_id("lots-service-1").click()
            expect(lots.get_by_test_id("confirm-text")).to_have_text(BRACKETED)
            expect(lots.get_by_test_id("confirm-yes")).to_have_text(BRACKETED)
            lots.get_by_test_id("confirm-no").click()
            assert page.evaluate("document.documentElement.lang") == "en-XA"

            # Remembered: the console opened again speaks it from the start.
            page.reload()
            expect(page.get_by_test_id("connection")).to_have_text(BRACKETED)
            expect(page.get_by_test_id("lots-panel-1").locator("h3")).to_have_text(BRACKETED)
            expect(page.get_by_test_id("language")).to_have_value("en-XA")

            # And back to English, as written.
            page.get_by_test_id("language").select_option("en")
            expect(page.get_by_test_id("connection")).to_have_text("live")
            expect(page.get_by_test_id("lots-panel-1").locator("h3")).to_have_text(
                "Lots for White in game 1")
            expect(page.get_by_test_id("subtitle")).to_contain_text("play-off · ")
            assert errors == [], errors
        finally:
            context.close()


def welcomed(page: Page) -> list[dict[str, Any]]:
    """The welcome frames ``page`` is to receive over its websockets (a list filled as
    they come): listen before the page is opened."""
    welcomes: list[dict[str, Any]] = []

    def frame(payload: str | bytes) -> None:
        message = json.loads(payload)
        if isinstance(message, dict) and message.get("t") == "welcome":
            welcomes.append(message["d"])

    page.on("websocket", lambda ws: ws.on("framereceived", frame))
    return welcomes


def opened_in(page: Page, address: str, language: str) -> None:
    """``address`` opened in ``page``: it is welcomed in ``language`` and speaks it."""
    from playwright.sync_api import expect

    welcomes = welcomed(page)
    page.goto(address)
    expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "live")
    page.wait_for_function("lang => document.documentElement.lang === lang", arg=language)
    assert welcomes and welcomes[-1]["language"] == language, welcomes


def test_keys_are_made_in_a_language_and_the_consoles_speak_theirs_everywhere(
    tmp_path: Path, browser: Browser
) -> None:
    """The chief arbiter makes a hall display key and a board key in a language: the
    screen and the tablet they open speak it. The English console's choice is English
    (the screen opens as it always did). Switched to the pseudo-language, the board
    clocks, the timeline and the print menu are in brackets and the PDFs are asked for
    in it; so is the event console opened in the same browser."""
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT_MS)
    with running_server(tmp_path / "log.db") as server:
        created = ok(server.client().post("/api/events", json=tied_event()))
        chief_token, event_id = created["chief_token"], created["id"]
        playoff_id = ok(server.client(chief_token).post(
            f"/api/events/{event_id}/playoff", json={}))["id"]
        context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
        errors: list[str] = []
        try:
            page = context.new_page()
            page.set_default_timeout(TIMEOUT_MS)
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(f"{server.base_url}/arbiter/{playoff_id}")
            page.get_by_test_id("token-input").fill(chief_token)
            page.get_by_test_id("token-submit").click()
            expect(page.get_by_test_id("connection")).to_have_text("live")

            # The hall key's languages, each in its own name; the console's chosen.
            panel = page.get_by_test_id("hall-key")
            choice = panel.get_by_test_id("hall-key-language")
            expect(choice).to_have_value("en")
            options = choice.locator("option").evaluate_all(
                "options => options.map((o) => [o.value, o.textContent])")
            assert options == [[code, name] for code, name in LANGUAGES.items()]
            expect(page.get_by_test_id("boards").locator("h2")).to_have_text("Board clocks")
            expect(page.get_by_test_id("board-language")).to_have_value("en")

            # A key made in English opens the screen in English.
            panel.get_by_test_id("hall-key-make").click()
            link = panel.get_by_test_id("hall-key-link")
            expect(link).to_be_visible()
            english = link.input_value()
            screen = context.new_page()
            screen.set_default_timeout(TIMEOUT_MS)
            opened_in(screen, english, "en")
            expect(screen.get_by_test_id("connection")).not_to_have_text(BRACKETED)

            # A key made in the pseudo-language opens it in brackets.
            choice.select_option("en-XA")
            panel.get_by_test_id("hall-key-make").click()
            expect(link).not_to_have_value(english)
            screen = context.new_page()
            screen.set_default_timeout(TIMEOUT_MS)
            opened_in(screen, link.input_value(), "en-XA")
            expect(screen.get_by_test_id("connection")).to_have_text(BRACKETED)

            # A board key made in it opens the tablet in it.
            page.get_by_test_id("board-language").select_option("en-XA")
            page.get_by_test_id("board-key-1").click()
            board = page.get_by_test_id("board-link-1")
            expect(board).to_be_visible()
            expect(page.get_by_test_id("board-qr-1")).to_be_visible()
            tablet = context.new_page()
            tablet.set_default_timeout(TIMEOUT_MS)
            opened_in(tablet, board.input_value(), "en-XA")

            # The console in the pseudo-language: its panels, and the PDFs asked in it.
            page.get_by_test_id("language").focus()
            page.get_by_test_id("language").select_option("en-XA")
            expect(page.get_by_test_id("connection")).to_have_text(BRACKETED)
            expect(page.get_by_test_id("boards").locator("h2")).to_have_text(BRACKETED)
            expect(page.locator(".legend")).to_have_text(BRACKETED)
            expect(page.get_by_test_id("print").locator("legend")).to_have_text(BRACKETED)
            printed: list[str] = []

            def pdf(route: Route) -> None:  # the address asked for, not the PDF, is tested
                printed.append(route.request.url)
                route.fulfill(status=200, body=b"%PDF-1.4", content_type="application/pdf")

            page.route("**/print/**", pdf)
            with context.expect_page():
                page.get_by_test_id("print-standings").click()
            expect(page.get_by_test_id("print-open")).to_have_text(BRACKETED)
            assert printed and printed[-1].endswith("standings.pdf?paper=a4&lang=en-XA"), printed

            # The event console opened in this browser speaks it too, its view as well.
            watch = context.new_page()
            watch.set_default_timeout(TIMEOUT_MS)
            views: list[str] = []
            watch.on("request", lambda r: views.append(r.url) if "/view?" in r.url else None)
            watch.goto(f"{server.base_url}/arbiter/events/{event_id}")
            expect(watch.get_by_test_id("token-submit")).to_have_text(BRACKETED)
            watch.get_by_test_id("token-input").fill(chief_token)
            watch.get_by_test_id("token-submit").click()
            expect(watch.get_by_test_id("connection")).to_have_text(BRACKETED)
            expect(watch.get_by_test_id("who")).to_have_text(BRACKETED)
            for part in ("pending", "next", "hall"):
                expect(watch.get_by_test_id(part).locator("h2")).to_have_text(BRACKETED)
            expect(watch.get_by_test_id("no-pending")).to_have_text(BRACKETED)
            expect(watch.get_by_test_id("playoff-link")).to_have_text(BRACKETED)
            assert views and all("lang=en-XA" in url for url in views), views
            assert watch.evaluate("document.documentElement.lang") == "en-XA"
            assert errors == [], errors
        finally:
            context.close()
