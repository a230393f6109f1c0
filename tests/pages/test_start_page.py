"""Getting in: the start page (``/``) in Debian Chromium lists the pages and, for a
token typed there, links to those it opens; an address of the API opened in a browser
answers with a page pointing to them, where a program still gets JSON.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from tests.support.browser import browser
from tests.support.events import uzchess_json
from tests.support.server import RunningServer, running_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

__all__ = ["browser"]  # the fixture, from tests/support/browser.py

TIMEOUT_MS = 10_000


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A server with the UzChess Cup Masters 2025 and its play-off, and the tokens."""
    with running_server(tmp_path_factory.mktemp("start") / "log.db") as server:
        with server.client() as anonymous:
            made = anonymous.post(
                "/api/events", content=uzchess_json(),
                headers={"Content-Type": "application/json"},
            ).json()
        with server.client(made["chief_token"]) as chief:
            playoff = chief.post(f"/api/events/{made['id']}/playoff", json={}).json()
            tokens = {
                role: chief.post(f"/api/events/{made['id']}/tokens",
                                 json={"role": role, "label": label}).json()["token"]
                for role, label in (("arbiter", "deputy arbiter"), ("display", "hall screen"))
            }
        yield {
            "server": server, "event": made["id"], "playoff": playoff["id"],
            "chief": made["chief_token"], **tokens,
        }


def start_page(browser: Browser, server: RunningServer) -> Page:
    page = browser.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    answer = page.goto(f"{server.base_url}/")
    assert answer is not None and answer.status == 200
    assert answer.headers["content-type"].startswith("text/html")
    return page


def open_with(page: Page, token: str) -> dict[str, str]:
    """The token typed in: the links shown, by kind of page, with their addresses."""
    from playwright.sync_api import expect

    page.get_by_test_id("token-input").fill(token)
    page.get_by_test_id("token-submit").click()
    expect(page.get_by_test_id("opened")).to_be_visible()
    links: dict[str, str] = {}
    for item in page.locator("[data-testid=links] li").all():
        kind = item.get_attribute("data-page")
        href = item.locator("a").get_attribute("href")
        assert kind is not None and href is not None
        links[kind] = href
    return links


def test_the_start_page_describes_every_page_and_links_to_the_api_docs(
    served: dict[str, Any], browser: Browser
) -> None:
    from playwright.sync_api import expect

    page = start_page(browser, served["server"])
    try:
        pages = page.get_by_test_id("pages")
        for name in ("Hall display", "Arbiter console", "Event console", "API docs"):
            expect(pages).to_contain_text(name)
        page.get_by_test_id("api-docs").click()
        page.wait_for_url(re.compile(r"/docs$"))
        expect(page.locator("body")).to_contain_text("Play-off orchestrator")
    finally:
        page.close()


def test_a_chief_arbiters_token_opens_the_consoles_already_connected(
    served: dict[str, Any], browser: Browser
) -> None:
    from playwright.sync_api import expect

    page = start_page(browser, served["server"])
    try:
        links = open_with(page, served["chief"])
        expect(page.get_by_test_id("who")).to_have_text(
            "UzChess Cup Masters 2025, with the chief arbiter's token:"
        )
        assert links == {
            "event-console": f"/arbiter/events/{served['event']}",
            "arbiter-console": f"/arbiter/{served['playoff']}",
            "hall-display": f"/display/{served['playoff']}",
            "event-hall-display": f"/display/events/{served['event']}",
            "api-docs": "/docs",
        }
        # The chief's token never goes into an address.
        assert all(served["chief"] not in href for href in links.values())
        page.locator("[data-page=arbiter-console] a").click()
        page.wait_for_url(re.compile(rf"/arbiter/{served['playoff']}$"))
        # Opened from the start page in this tab, the console asks for no token again.
        expect(page.get_by_test_id("connection")).to_have_text("live")
        expect(page.get_by_test_id("login")).to_be_hidden()
        page.go_back()
        page.wait_for_url(re.compile(r"/$"))
        open_with(page, served["chief"])
        page.locator("[data-page=event-console] a").click()
        page.wait_for_url(re.compile(rf"/arbiter/events/{served['event']}$"))
        expect(page.get_by_test_id("connection")).to_have_text("live")
    finally:
        page.close()


def test_a_display_key_opens_the_hall_displays_and_no_console(
    served: dict[str, Any], browser: Browser
) -> None:
    from playwright.sync_api import expect

    page = start_page(browser, served["server"])
    try:
        links = open_with(page, served["display"])
        expect(page.get_by_test_id("who")).to_have_text(
            "UzChess Cup Masters 2025, with a display key (hall screen):"
        )
        assert set(links) == {"hall-display", "event-hall-display", "api-docs"}
        key = served["display"]
        assert links["hall-display"] == f"/display/{served['playoff']}#key={key}"
        page.locator("[data-page=hall-display] a").click()
        page.wait_for_function("window.displayState && window.displayState.synced")
        expect(page.get_by_test_id("title")).to_contain_text("UzChess Cup Masters 2025")
    finally:
        page.close()


def test_a_token_the_service_never_issued_is_refused_in_words(
    served: dict[str, Any], browser: Browser
) -> None:
    from playwright.sync_api import expect

    page = start_page(browser, served["server"])
    try:
        page.get_by_test_id("token-input").fill("not-a-token-of-this-service")
        page.get_by_test_id("token-submit").click()
        expect(page.get_by_test_id("problem")).to_have_text("this token is not valid")
        expect(page.get_by_test_id("opened")).to_be_hidden()
    finally:
        page.close()


def test_an_api_address_opened_in_a_browser_is_a_page_that_points_to_the_pages(
    served: dict[str, Any], browser: Browser
) -> None:
    from playwright.sync_api import expect

    server: RunningServer = served["server"]
    url = f"{server.base_url}/api/playoffs/{served['playoff']}"
    page = browser.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        answer = page.goto(url)
        assert answer is not None and answer.status == 401  # still refused: no token
        assert answer.headers["content-type"].startswith("text/html")
        expect(page.get_by_test_id("address")).to_have_text(url)
        expect(page.get_by_test_id("curl")).to_have_text(
            f'curl -H "Authorization: Bearer <token>" {url}'
        )
        page.get_by_role("link", name=f"/arbiter/{served['playoff']}").click()
        page.wait_for_url(re.compile(rf"/arbiter/{served['playoff']}$"))
        expect(page.get_by_test_id("token-input")).to_be_visible()
    finally:
        page.close()
    # A program is answered as before, in JSON; with a token, with the play-off.
    with server.client() as anonymous:
        refused = anonymous.get(url)
    assert refused.status_code == 401
    assert refused.json() == {"detail": "this needs a token: send 'Authorization: Bearer <token>'"}
    with server.client(served["arbiter"]) as arbiter:
        assert arbiter.get(url).json()["id"] == served["playoff"]


def test_access_names_what_each_token_opens(served: dict[str, Any]) -> None:
    server: RunningServer = served["server"]
    with server.client(served["arbiter"]) as arbiter:
        access = arbiter.get("/api/access").json()
    assert access["role"] == "arbiter"
    assert access["who"] == "an arbiter's token (deputy arbiter)"
    assert access["event"] == {"id": served["event"], "name": "UzChess Cup Masters 2025"}
    kinds = [p["page"] for p in access["pages"]]
    assert kinds == [
        "event-console", "arbiter-console", "hall-display", "event-hall-display", "api-docs",
    ]
    hall = next(p for p in access["pages"] if p["page"] == "hall-display")
    assert not hall["token_in_fragment"]
    assert "opens with a display key" in hall["about"]
    with server.client() as anonymous:
        assert anonymous.get("/api/access").status_code == 401

