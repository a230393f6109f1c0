"""The play-off watch on the arbiter console of a main event, in Debian Chromium.

The UzChess Cup Masters 2025 is uploaded before its last round (round 9 pending)
and the console opened on it (``/arbiter/events/{id}``) with the chief arbiter's
token. The page shows the pending games, the outcomes that need a play-off for
first with their probability and the model named beside it, who can be first
alone or in the play-off, and the conditions in words. A result recorded on the
page (after a confirmation) and one recorded by another arbiter over REST both
change the watch without a reload; the chief arbiter switches the hall's line
on. With every result in, the standings are final and the play-off, once built,
is linked. The page reads nothing but its view (a route checks).

With ``UPDATE_DOCS_SCREENSHOTS=1`` the screenshot is copied to
``docs/console-foresight.png``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx

from tests.support import ROOT
from tests.support.browser import browser, save_screenshot
from tests.support.foresight import before_round_9, round_9
from tests.support.server import running_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

__all__ = ["browser"]  # the fixture, from tests/support/browser.py

TIMEOUT_MS = 10_000
LABELS = {"1-0": "1-0", "1/2-1/2": "½-½", "0-1": "0-1"}


def ok(response: httpx.Response) -> dict[str, Any]:
    assert response.status_code in (200, 201), response.text
    body: dict[str, Any] = response.json()
    return body


def record_on_page(page: Page, white_name: str, result: str) -> None:
    from playwright.sync_api import expect

    game = page.get_by_test_id("pending-game").filter(has_text=white_name)
    game.get_by_test_id(f"result-{LABELS[result]}").click()
    expect(game.get_by_test_id("confirm")).to_contain_text("Record")
    game.get_by_test_id("confirm-yes").click()


def test_the_console_watches_the_last_round_and_follows_each_result(
    tmp_path: Path, browser: Browser
) -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT_MS)
    data = before_round_9()
    names = {p["id"]: p["name"] for p in data["players"]}
    games = round_9()
    with running_server(tmp_path / "log.db") as server:
        with server.client() as anonymous:
            made = ok(anonymous.post("/api/events", content=json.dumps(data),
                                     headers={"Content-Type": "application/json"}))
        event_id, token = made["id"], made["chief_token"]
        with server.client(token) as chief:
            arbiter = ok(chief.post(f"/api/events/{event_id}/tokens",
                                    json={"role": "arbiter", "label": "board 3"}))["token"]

        context = browser.new_context(viewport={"width": 1366, "height": 1000})
        errors: list[str] = []
        reads: list[str] = []
        try:
            page = context.new_page()
            page.set_default_timeout(TIMEOUT_MS)
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.on("request", lambda request: reads.append(request.url)
                    if "/api/" in request.url and request.method == "GET"
                    and f"/api/events/{event_id}/view?" not in request.url else None)
            page.goto(f"{server.base_url}/arbiter/events/{event_id}")
            page.get_by_test_id("token-input").fill(token)
            page.get_by_test_id("token-submit").click()
            expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "live")
            assert token not in page.url

            # ---- before round 9: five games, 243 outcomes, the model beside the figure
            expect(page.get_by_test_id("title")).to_have_text(data["name"])
            expect(page.get_by_test_id("who")).to_have_text("Logged in: chief arbiter")
            expect(page.get_by_test_id("pending-game")).to_have_count(5)
            first = games[0]
            expect(page.get_by_test_id("pending-label").first).to_have_text(
                f"Round 9: {names[first['white']]} – {names[first['black']]}")
            expect(page.get_by_test_id("headline")).to_contain_text("of 243 outcomes")
            expect(page.get_by_test_id("probability")).to_have_text(
                re.compile(r"^[<>]?\d+(\.\d)?%$"))
            expect(page.get_by_test_id("model")).to_contain_text("Davidson draw model")
            assert page.get_by_test_id("watch-player").count() >= 2
            expect(page.get_by_test_id("first-alone").first).to_contain_text("of 243 outcomes ·")
            expect(page.get_by_test_id("conditions")).to_contain_text(
                "A play-off for first is needed if")
            expect(page.get_by_test_id("hall-state")).to_contain_text("does not show")

            # ---- the model follows the time control the arbiter chooses
            page.get_by_test_id("time-control").select_option("rapid")
            expect(page.get_by_test_id("model")).to_contain_text("draw rate 40%")
            page.get_by_test_id("time-control").select_option("classical")
            expect(page.get_by_test_id("model")).to_contain_text("draw rate 55%")

            # ---- a result on the page, confirmed first; cancelling sends nothing
            game = page.get_by_test_id("pending-game").filter(has_text=names[first["white"]])
            game.get_by_test_id("result-½-½").click()
            expect(game.get_by_test_id("confirm")).to_contain_text(
                f"draws with {names[first['black']]}")
            game.get_by_test_id("confirm-no").click()
            expect(page.get_by_test_id("confirm")).to_have_count(0)
            record_on_page(page, names[first["white"]], first["result"])
            expect(page.get_by_test_id("pending-game")).to_have_count(4)
            expect(page.get_by_test_id("headline")).to_contain_text("of 81 outcomes")

            # ---- another arbiter's result, over REST: the page follows without a reload
            second = games[1]
            with server.client(arbiter) as board:
                ok(board.post(f"/api/events/{event_id}/results",
                              json={k: second[k] for k in ("round", "white", "black",
                                                           "result")}))
            expect(page.get_by_test_id("pending-game")).to_have_count(3)
            expect(page.get_by_test_id("headline")).to_contain_text("of 27 outcomes")

            # ---- the chief arbiter shows the watch in the hall
            page.get_by_test_id("hall-switch").click()
            expect(page.get_by_test_id("hall-state")).to_contain_text(
                "The hall display shows the play-off watch")
            path = save_screenshot(page, "console-foresight", full_page=True,
                                   animations="disabled")
            if path is not None and os.environ.get("UPDATE_DOCS_SCREENSHOTS"):
                shutil.copyfile(path, ROOT / "docs" / "console-foresight.png")

            # ---- a refusal is shown with the server's reason and changes nothing
            third = games[2]
            page.route(f"**/api/events/{event_id}/results", lambda route: route.continue_(
                post_data=json.dumps({"round": 9, "white": third["black"],
                                      "black": third["white"], "result": "1-0"})))
            record_on_page(page, names[third["white"]], third["result"])
            expect(page.get_by_test_id("alert-reason")).to_contain_text("has White")
            expect(page.get_by_test_id("pending-game")).to_have_count(3)
            page.unroute(f"**/api/events/{event_id}/results")

            # ---- the last results: the standings are final, the play-off is linked
            for left, last in enumerate(games[2:], start=1):
                record_on_page(page, names[last["white"]], last["result"])
                # The list closes up once the view comes: tap the next game after that.
                expect(page.get_by_test_id("pending-game")).to_have_count(3 - left)
            expect(page.get_by_test_id("no-pending")).to_be_visible()
            expect(page.get_by_test_id("headline")).to_contain_text("Every result is in")
            expect(page.get_by_test_id("next-step")).to_contain_text("the standings are final")
            page.get_by_test_id("build").click()
            expect(page.get_by_test_id("confirm")).to_contain_text("seeded by the tie-breaks")
            page.get_by_test_id("confirm-yes").click()
            link = page.get_by_test_id("playoff-link")
            expect(link).to_be_visible()
            expect(page.get_by_test_id("build")).to_have_count(0)
            with server.client(token) as chief:
                playoffs = ok(chief.get(f"/api/events/{event_id}"))["playoffs"]
            assert len(playoffs) == 1
            expect(link).to_have_attribute("href", f"/arbiter/{playoffs[0]}")
            assert errors == [], errors
            assert reads == [], f"the page read what its view should have given: {reads}"
        finally:
            context.close()


def test_an_arbiter_has_no_hall_switch_and_a_display_key_is_turned_away(
    tmp_path: Path, browser: Browser
) -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT_MS)
    with running_server(tmp_path / "log.db") as server:
        with server.client() as anonymous:
            made = ok(anonymous.post("/api/events", content=json.dumps(before_round_9()),
                                     headers={"Content-Type": "application/json"}))
        event_id = made["id"]
        with server.client(made["chief_token"]) as chief:
            arbiter = ok(chief.post(f"/api/events/{event_id}/tokens",
                                    json={"role": "arbiter"}))["token"]
            display = ok(chief.post(f"/api/events/{event_id}/tokens",
                                    json={"role": "display"}))["token"]
        context = browser.new_context()
        try:
            page = context.new_page()
            page.set_default_timeout(TIMEOUT_MS)
            page.goto(f"{server.base_url}/arbiter/events/{event_id}")
            page.get_by_test_id("token-input").fill(display)
            page.get_by_test_id("token-submit").click()
            expect(page.get_by_test_id("alert-reason")).to_contain_text("hall")
            expect(page.get_by_test_id("login")).to_be_visible()
            page.get_by_test_id("token-input").fill(arbiter)
            page.get_by_test_id("token-submit").click()
            expect(page.get_by_test_id("who")).to_have_text("Logged in: arbiter")
            expect(page.get_by_test_id("hall-switch")).to_have_count(0)
            expect(page.get_by_test_id("hall-refusal")).to_contain_text("only the chief arbiter")
        finally:
            context.close()


def test_the_hall_shows_the_watch_line_only_while_the_chief_arbiter_shows_it(
    tmp_path: Path, browser: Browser
) -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT_MS)
    with running_server(tmp_path / "log.db") as server:
        with server.client() as anonymous:
            made = ok(anonymous.post("/api/events", content=json.dumps(before_round_9()),
                                     headers={"Content-Type": "application/json"}))
        event_id = made["id"]
        context = browser.new_context(viewport={"width": 1920, "height": 1080})
        try:
            with server.client(made["chief_token"]) as chief:
                key = ok(chief.post(f"/api/events/{event_id}/tokens",
                                    json={"role": "display"}))["token"]
                page = context.new_page()
                page.set_default_timeout(TIMEOUT_MS)
                page.goto(f"{server.base_url}/display/events/{event_id}#key={key}")
                expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "live")
                expect(page.get_by_test_id("title")).to_have_text("UzChess Cup Masters 2025")
                expect(page.get_by_test_id("watch-line")).to_be_hidden()
                ok(chief.put(f"/api/events/{event_id}/hall-foresight", json={"on": True}))
                line = page.get_by_test_id("watch-line")
                expect(line).to_have_text(
                    "A play-off for first is possible: it depends on the games still in play.")
                expect(line).not_to_contain_text("Davidson")  # the model is the console's
                ok(chief.put(f"/api/events/{event_id}/hall-foresight", json={"on": False}))
                expect(line).to_be_hidden()
                # The last round's results: a tie for first, the play-off is built, and
                # the event's hall screen follows it there with the same key.
                for game in round_9():
                    body = {k: game[k] for k in ("round", "white", "black", "result")}
                    ok(chief.post(f"/api/events/{event_id}/results", json=body))
                playoff = ok(chief.post(f"/api/events/{event_id}/playoff", json={}))["id"]
                page.wait_for_url(f"**/display/{playoff}#key={key}")
                page.wait_for_function(
                    "window.displayState && window.displayState.synced", timeout=TIMEOUT_MS)
                expect(page.get_by_test_id("bracket")).to_be_visible()
                page = context.new_page()
                page.goto(f"{server.base_url}/display/events/{event_id}#key=wrong")
                expect(page.get_by_test_id("connection")).to_have_attribute(
                    "data-state", "refused")
        finally:
            context.close()
