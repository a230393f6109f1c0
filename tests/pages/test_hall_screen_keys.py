"""A hall screen takes a display key only.

A hall screen's address carries its key (``/display/{playoff}#key=``) and anyone in
the hall can read it: a token that can send commands there would be anybody's. The
display says it is a hall screen (``"screen": "hall"`` in its hello, ``screen=hall``
in a REST read) and the server refuses such a token, saying how to make a display
key; the page shows that, shows nothing of the play-off, and takes the token out of
its address. The chief arbiter makes a display key in the arbiter console ("Hall
display key"), and the screen opens with it. All in Debian Chromium against the real
service, and at the websocket and REST doors.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.support.browser import browser
from tests.support.keys import TIMEOUT_MS, Event, page_of, uploaded
from tests.support.server import RunningServer, running_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser

__all__ = ["browser"]  # the fixture, from tests/support/browser.py

PLAYERS = ("Praggnanandhaa", "Abdusattorov", "Sindarov")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(tmp_path_factory.mktemp("screens") / "log.db") as running:
        yield running


def refusal(event: Event, whose: str, page: str) -> str:
    return (
        f"this key can send commands ({whose}): a hall screen shows its address to everyone, "
        "so it takes a display key, which only shows. The chief arbiter makes one in the "
        f'arbiter console ("Hall display key"), or with POST /api/events/{event.id}/tokens '
        f'and the body {{"role": "display"}}; then open {page}#key= followed by that key'
    )


def first_frames(server: RunningServer, playoff_id: str, hello: dict[str, Any]) -> list[Any]:
    """The websocket's first answer to ``hello``: [welcome] or [error, close code]."""

    async def ask() -> list[Any]:
        async with connect(f"ws://127.0.0.1:{server.port}/ws/playoffs/{playoff_id}") as ws:
            await ws.send(json.dumps({"t": "hello", "d": hello}))
            first = json.loads(await asyncio.wait_for(ws.recv(), 5))
            if first["t"] != "error":
                return [first]
            with pytest.raises(ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), 5)
            assert closed.value.rcvd is not None
            return [first, closed.value.rcvd.code]

    with ThreadPoolExecutor(1) as pool:  # Playwright keeps an event loop in this thread
        return pool.submit(lambda: asyncio.run(ask())).result(timeout=30)


def test_a_hall_screen_refuses_a_token_that_can_send_commands(
    server: RunningServer, browser: Browser
) -> None:
    from playwright.sync_api import expect

    event = uploaded(server)
    assert event.playoff is not None
    page = f"/display/{event.playoff}"
    for token, whose in ((event.arbiter, "an arbiter's token"),
                         (event.chief, "the chief arbiter's token")):
        said = refusal(event, whose, page)
        # REST and the websocket say it in the same words.
        with server.client(token) as http:
            read = http.get(f"/api/playoffs/{event.playoff}/view",
                            params={"kind": "hall", "screen": "hall"})
            assert (read.status_code, read.json()["detail"]) == (403, said)
        error, code = first_frames(server, event.playoff, {"token": token, "screen": "hall"})
        assert (error["d"]["reason"], code) == (said, 4403)

        with page_of(browser, f"{server.base_url}{page}#key={token}") as screen:
            stage = screen.get_by_test_id("stage")
            expect(stage).to_have_text(said)
            expect(screen.get_by_test_id("connection")).to_have_text("refused")
            # Nothing of the play-off: no view came, no name is shown.
            assert screen.evaluate("window.displayState.views") == 0
            expect(screen.get_by_test_id("title")).to_have_text("Play-off")
            text = screen.locator("body").inner_text()
            assert not any(name in text for name in PLAYERS), text
            # The token is no longer in the screen's address.
            assert screen.evaluate("location.hash") == ""
            assert token not in screen.url

    # A display key is welcomed on a hall screen; an arbiter's token elsewhere (the
    # console, a script) as before.
    assert first_frames(server, event.playoff, {"token": event.display, "screen": "hall"})[0][
        "d"]["role"] == "display"
    assert first_frames(server, event.playoff, {"token": event.arbiter})[0]["t"] == "welcome"
    with page_of(browser, f"{server.base_url}{page}#key={event.display}") as screen:
        expect(screen.get_by_test_id("title")).to_have_text("UzChess Cup Masters 2025")
        expect(screen.get_by_test_id("connection")).to_have_attribute("data-state", "live")


def test_the_events_hall_screen_refuses_an_arbiters_token(
    server: RunningServer, browser: Browser
) -> None:
    from playwright.sync_api import expect

    event = uploaded(server, playoff=False)
    page = f"/display/events/{event.id}"
    said = refusal(event, "an arbiter's token", page)
    with server.client(event.arbiter) as http:
        read = http.get(f"/api/events/{event.id}/view", params={"kind": "hall", "screen": "hall"})
        assert (read.status_code, read.json()["detail"]) == (403, said)
        # Without screen=hall, the hall's view is anyone's to read (the console's preview).
        assert http.get(f"/api/events/{event.id}/view", params={"kind": "hall"}).status_code \
            == 200
    with page_of(browser, f"{server.base_url}{page}#key={event.arbiter}") as screen:
        status = screen.get_by_test_id("connection")
        expect(status).to_have_attribute("data-state", "refused")
        expect(status).to_have_text(said)
        expect(screen.get_by_test_id("title")).to_have_text("Hall display")
        assert screen.evaluate("location.hash") == ""


def test_the_chief_arbiter_makes_a_display_key_in_the_console(
    server: RunningServer, browser: Browser
) -> None:
    from playwright.sync_api import expect

    event = uploaded(server)
    console = f"{server.base_url}/arbiter/{event.playoff}"
    with page_of(browser, console) as page:
        page.get_by_test_id("token-input").fill(event.arbiter)
        page.get_by_test_id("token-submit").click()
        expect(page.get_by_test_id("who")).to_have_text("Logged in: arbiter")
        expect(page.get_by_test_id("timeline")).to_be_visible()
        expect(page.get_by_test_id("hall-key")).to_be_hidden()  # the chief arbiter's
    with page_of(browser, console) as page:
        page.get_by_test_id("token-input").fill(event.chief)
        page.get_by_test_id("token-submit").click()
        expect(page.get_by_test_id("who")).to_have_text("Logged in: chief arbiter")
        panel = page.get_by_test_id("hall-key")
        expect(panel).to_contain_text("Hall display key")
        expect(panel).to_contain_text("A hall screen takes a display key")
        panel.get_by_test_id("hall-key-make").click()
        link = panel.get_by_test_id("hall-key-link")
        expect(link).to_be_visible()
        address = link.input_value()
        start = f"{server.base_url}/display/{event.playoff}#key="
        assert address.startswith(start), address
        key = address.removeprefix(start)
        assert key not in (event.chief, event.arbiter, event.display)
        # It is a display key: it reads, and sends nothing.
        with server.client(key) as http:
            sent = http.post(f"/api/playoffs/{event.playoff}/commands",
                             json={"type": "lots", "match": 1, "method": "service"})
            assert sent.status_code == 403 and "read-only" in sent.json()["detail"]
        # The hall screen opens with it.
        screen = page.context.new_page()
        screen.set_default_timeout(TIMEOUT_MS)
        screen.goto(address)
        expect(screen.get_by_test_id("connection")).to_have_attribute("data-state", "live")
        expect(screen.get_by_test_id("title")).to_have_text("UzChess Cup Masters 2025")
