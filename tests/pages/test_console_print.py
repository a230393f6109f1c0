"""The Print menu of the arbiter console and of the event console, in Debian Chromium.

The menu lists the PDFs the view offers; what cannot be printed yet (the placings,
before the champion) is disabled with the service's reason beside it. A click
fetches the PDF with the console's token in the Authorization header (never in the
address), opens it as a blob URL in a new tab and offers it to save: the PDF is the
one the service makes, on the paper chosen, the names in their own scripts.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from orchestrator.core.timesource import ManualTime
from tests.support import pdf
from tests.support.browser import browser
from tests.support.printing import CYRILLIC, GREEK, HALL, UZBEK, printing_setup
from tests.support.server import running_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Request

__all__ = ["browser"]  # the fixture, from tests/support/browser.py

TIMEOUT_MS = 20_000


@contextmanager
def opened(browser: Browser, url: str, token: str) -> Iterator[tuple[Page, list[Request]]]:
    """A console at ``url`` connected with ``token``; the requests for PDFs it sends."""
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT_MS)
    context = browser.new_context(viewport={"width": 1366, "height": 1000})
    errors: list[str] = []
    printed: list[Request] = []
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.on("pageerror", lambda error: errors.append(str(error)))
        context.on("request", lambda r: printed.append(r) if "/print/" in r.url else None)
        page.goto(url)
        page.get_by_test_id("token-input").fill(token)
        page.get_by_test_id("token-submit").click()
        expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "live")
        yield page, printed
        assert errors == [], errors
    finally:
        context.close()


def print_and_read(page: Page, button: str) -> tuple[str, bytes]:
    """Click ``button``: a tab opens at the click (a headless browser shows no PDF in
    it); the PDF is offered at a blob URL: that URL, and the PDF it holds."""
    from playwright.sync_api import expect

    save = page.get_by_test_id("print-save")
    before = save.get_attribute("href") if save.count() else None
    with page.context.expect_page() as opening:
        page.get_by_test_id(button).click()
    tab = opening.value
    expect(save).to_have_attribute("href", re.compile(r"^blob:"))
    if before is not None:  # this PDF's, not the one before
        expect(save).not_to_have_attribute("href", before)
    href = save.get_attribute("href")
    assert href is not None
    data = page.evaluate(
        "async href => Array.from(new Uint8Array(await (await fetch(href)).arrayBuffer()))",
        href,
    )
    tab.close()
    return href, bytes(data)


def test_the_consoles_print_menus(tmp_path: Path, browser: Browser) -> None:
    from playwright.sync_api import expect

    with running_server(tmp_path / "log.db", ManualTime(), settings=HALL) as server:
        setup = printing_setup(server)
        url = f"{server.base_url}/arbiter/{setup.playoff_id}"
        with opened(browser, url, setup.arbiter) as (page, printed):
            menu = page.get_by_test_id("print")
            expect(menu).to_be_visible()
            for what in ("slips", "cards", "standings", "bracket"):
                expect(menu.get_by_test_id(f"print-{what}").first).to_be_enabled()
            expect(menu.get_by_test_id("print-placings")).to_be_disabled()
            expect(menu.get_by_test_id("print-refusal-placings")).to_contain_text(
                "printed once the play-off has its champion")

            # ---- every slip, on US Letter
            menu.get_by_test_id("print-paper-letter").check()
            _, slips = print_and_read(page, "print-slips")
            request = printed[-1]
            assert request.url.endswith(
                f"/api/playoffs/{setup.playoff_id}/print/slips.pdf?paper=letter")
            assert request.headers["authorization"] == f"Bearer {setup.arbiter}"
            assert setup.arbiter not in request.url
            assert pdf.papers(slips) == {"Letter"}
            text = pdf.text(slips)
            assert text.count("Result slip Board 1") == 3
            assert f"White {CYRILLIC} seed 2 Black {GREEK} seed 3" in text
            expect(menu.get_by_test_id("print-save")).to_have_attribute(
                "download", "slips-letter.pdf")

            # ---- one game's slip: the Armageddon, if needed
            menu.get_by_test_id("print-game").select_option(
                label="Result slip: Seeds 2 v 3 (reg. 7) · game 3 (Armageddon)")
            _, one = print_and_read(page, "print-one-slip")
            assert printed[-1].url.endswith("/print/slips.pdf?match=1&game=3&paper=letter")
            text = pdf.text(one)
            assert text.count("Result slip Board 1") == 1
            assert "Armageddon: White 6′ · Black 5′ · draw = Black wins" in text

        # ---- the event console prints the standings
        url = f"{server.base_url}/arbiter/events/{setup.event_id}"
        with opened(browser, url, setup.chief) as (page, printed):
            menu = page.get_by_test_id("print")
            expect(menu.get_by_test_id("print-standings")).to_be_enabled()
            menu.get_by_test_id("print-paper-a4").check()
            _, standings = print_and_read(page, "print-standings")
            assert printed[-1].url.endswith(
                f"/api/events/{setup.event_id}/print/standings.pdf?paper=a4")
            assert printed[-1].headers["authorization"] == f"Bearer {setup.chief}"
            assert pdf.papers(standings) == {"A4"}
            text = pdf.text(standings)
            assert UZBEK in text and "How the ties were split" in text
