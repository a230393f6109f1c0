"""The console speaks the language chosen on it, in Debian Chromium.

A console opened in an English browser reads English and asks the service for no
words. Switched to the pseudo-language ``en-XA`` (which wraps every message of the
catalogs in [brackets]), the page's own words and the view, worded again by the
server for the new hello, are in brackets at once: the header, the match and its
lots, the schedule, the records. The choice is remembered: the console opened
again in this browser speaks it from the start. Switched back, it reads English.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from tests.support.browser import browser
from tests.support.console import TIMEOUT_MS, set_up
from tests.support.server import running_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

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
