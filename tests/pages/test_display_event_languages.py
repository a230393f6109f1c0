"""The hall display of a main event before its play-off, in the language of its
address (``?lang=``) or of its display key, in Debian Chromium.

In the pseudo-language ``en-XA`` every text on the screen is in [brackets] but the
event's name, and nothing is cut off, on a phone as on the hall's screen, though every
text is 40 % longer. Once the play-off is built the screen follows it in the same
language.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from tests.support.board import PHONE, bracketed, visible_texts
from tests.support.browser import browser, save_screenshot
from tests.support.display import fits, ok
from tests.support.foresight import before_round_9, round_9
from tests.support.server import RunningServer, running_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

__all__ = ["browser"]  # the fixture, from tests/support/browser.py

JSON = {"Content-Type": "application/json"}
HALL = {"width": 1920, "height": 1080}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(tmp_path_factory.mktemp("event-display") / "log.db") as running:
        yield running


def event_with_its_line(server: RunningServer) -> tuple[str, str, str]:
    """The UzChess Cup before its last round, the watch line shown in the hall: its id,
    the chief's token and its name."""
    data = before_round_9()
    with server.client() as anonymous:
        made = ok(anonymous.post("/api/events", content=json.dumps(data), headers=JSON))
    with server.client(made["chief_token"]) as chief:
        ok(chief.put(f"/api/events/{made['id']}/hall-foresight", json={"on": True}))
    return made["id"], made["chief_token"], data["name"]


def display_key(server: RunningServer, event_id: str, token: str, **body: Any) -> str:
    with server.client(token) as chief:
        made = ok(chief.post(f"/api/events/{event_id}/tokens", json={"role": "display", **body}))
    return str(made["token"])


def shown_in(page: Page, lang: str, name: str) -> None:
    """Every visible text in ``lang`` (the pseudo-language) but the event's name, none
    cut off, the page scrolling neither way."""
    page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)
    page.get_by_test_id("watch-line").wait_for()
    page.wait_for_function(
        "document.querySelector('[data-testid=connection]').dataset.state === 'live'")
    scroll_width, inner_width, scroll_height, inner_height = fits(page)
    assert scroll_width <= inner_width and scroll_height <= inner_height
    found = visible_texts(page)
    assert found["cut"] == []
    assert found["title"] == name
    assert [text for text in found["texts"] if not bracketed(text) and text != name] == []
    assert len(found["texts"]) == 3


@pytest.mark.parametrize("size", [PHONE, HALL], ids=["phone", "hall"])
def test_the_event_display_in_the_language_of_its_address(
    browser: Browser, server: RunningServer, size: dict[str, int]
) -> None:
    event_id, token, name = event_with_its_line(server)
    key = display_key(server, event_id, token)
    context = browser.new_context(viewport={"width": size["width"], "height": size["height"]})
    try:
        page = context.new_page()
        page.goto(f"{server.base_url}/display/events/{event_id}?lang=en-XA#key={key}")
        shown_in(page, "en-XA", name)
        save_screenshot(page, f"event-display-en-XA-{size['width']}x{size['height']}")
    finally:
        context.close()


def test_the_event_display_speaks_its_keys_language_and_follows_to_the_playoff_in_it(
    browser: Browser, server: RunningServer
) -> None:
    event_id, token, name = event_with_its_line(server)
    keyed = display_key(server, event_id, token, language="en-XA")
    plain = display_key(server, event_id, token)
    context = browser.new_context(viewport={"width": PHONE["width"], "height": PHONE["height"]})
    try:
        page = context.new_page()
        page.goto(f"{server.base_url}/display/events/{event_id}#key={keyed}")
        shown_in(page, "en-XA", name)
        # A language the service does not speak: the key's language (English here).
        page = context.new_page()
        page.goto(f"{server.base_url}/display/events/{event_id}?lang=xx#key={plain}")
        page.get_by_test_id("watch-line").wait_for()
        assert page.get_by_test_id("watch-line").inner_text().startswith("A play-off")
        # In the language of its address, it follows the play-off once built.
        page = context.new_page()
        page.goto(f"{server.base_url}/display/events/{event_id}?lang=en-XA#key={plain}")
        shown_in(page, "en-XA", name)
        with server.client(token) as chief:
            for game in round_9():
                body = {k: game[k] for k in ("round", "white", "black", "result")}
                ok(chief.post(f"/api/events/{event_id}/results", json=body))
            playoff = ok(chief.post(f"/api/events/{event_id}/playoff", json={}))["id"]
        page.wait_for_url(f"**/display/{playoff}?lang=en-XA#key={plain}")
    finally:
        context.close()


def test_in_english_as_ever(browser: Browser, server: RunningServer) -> None:
    event_id, token, name = event_with_its_line(server)
    key = display_key(server, event_id, token)
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    try:
        page = context.new_page()
        page.goto(f"{server.base_url}/display/events/{event_id}#key={key}")
        page.get_by_test_id("watch-line").wait_for()
        page.wait_for_function(
            "document.querySelector('[data-testid=connection]').dataset.state === 'live'")
        assert page.get_by_test_id("connection").inner_text() == "live"
        assert page.get_by_test_id("title").inner_text() == name
        assert page.evaluate("document.documentElement.lang") == "en"
    finally:
        context.close()
