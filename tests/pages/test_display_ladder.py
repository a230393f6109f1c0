"""The hall display of a play-off played in stages (real headless Chromium, a real
server, a real log): the FIDE World Cup 2015 tie-break ladder, each game shown
with its stage's name and time control, then the Armageddon banner with the
format's times, increment and draw odds.

With ``UPDATE_DOCS_SCREENSHOTS=1`` the screenshots are copied to
``docs/hall-ladder-<scene>-1920x1080.png``.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from tests.support import ROOT

pytest.importorskip("playwright.sync_api", reason="the browser tests need playwright")

from tests.support.browser import browser, save_screenshot
from tests.support.display import (
    JSON,
    Playoff,
    SkippableTime,
    _display_key,
    ok,
    opened,
    wait_text,
)
from tests.support.ladder import ANAND, GIRI, LADDER, world_cup_json
from tests.support.server import RunningServer, running_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

__all__ = ["browser"]  # the fixture, from tests/support/browser.py


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    db = tmp_path_factory.mktemp("ladder") / "log.db"
    with running_server(db, SkippableTime()) as running:
        yield running


def world_cup_playoff(server: RunningServer) -> Playoff:
    with server.client() as anonymous:
        created = ok(anonymous.post(
            "/api/events", content=world_cup_json().encode(), headers=JSON
        ))
    token = created["chief_token"]
    with server.client(token) as chief:
        made = ok(chief.post(f"/api/events/{created['id']}/playoff", json={}))
    return Playoff(server, made["id"], token, _display_key(server, created["id"], token))


def screenshot(page: Page, scene: str) -> None:
    path = save_screenshot(page, f"hall-ladder-{scene}-1920x1080", animations="disabled")
    if path is not None and os.environ.get("UPDATE_DOCS_SCREENSHOTS"):
        shutil.copyfile(path, ROOT / "docs" / f"hall-ladder-{scene}-1920x1080.png")


def card(page: Page) -> str:
    return page.locator("[data-testid=game]").first.inner_text()


def test_each_stage_by_name_and_time_control_then_the_armageddon(
    browser: Browser, server: RunningServer
) -> None:
    playoff = world_cup_playoff(server)
    white_first = {1: ANAND, 3: GIRI, 5: ANAND}
    with opened(browser, playoff.url) as page:
        for name, control, (first, second) in LADDER:
            # A new drawing of colours before each pair (entered by hand here).
            drawn = playoff.post("/matches/1/lots", {
                "method": "physical", "white": white_first[first]
            })
            assert drawn["events"][0]["data"]["game"] == first
            for number in (first, second):
                playoff.rest(40)
                playoff.game(1, number, "start")
                wait_text(page, "stage-name", name)
                text = card(page)
                assert f"Game {number}" in text and name in text and control in text
                if number == 3:
                    screenshot(page, "stage")
                playoff.game(1, number, "result", {"result": "1/2-1/2"})
            # Between pairs the next game says its stage and time control.
            if second < 6:
                following = LADDER[(second // 2)]
                wait_text(page, "idle", following[0])
        playoff.post("/matches/1/coin-toss", {"method": "physical", "winner": GIRI})
        wait_text(page, "armageddon-banner", "Coin toss won by Giri")
        playoff.post("/matches/1/armageddon-colours", {"white": ANAND, "black": GIRI})
        page.get_by_test_id("arm-white").wait_for(timeout=2000)
        rules = page.get_by_test_id("arm-rules").text_content() or ""
        assert "5′ v 4′" in rules
        assert "+3 s from move 61" in rules
        assert "draw = Black wins" in rules
        playoff.rest(15)
        playoff.game(1, 7, "start")
        page.wait_for_function(
            "document.querySelector('[data-testid=armageddon-banner]').dataset.state === 'on'",
            timeout=2000,
        )
        banner = page.get_by_test_id("armageddon-banner").text_content() or ""
        assert "Armageddon" in banner and "game 7" in banner
        assert page.get_by_test_id("clock-black").inner_text() == "4:00"
        assert page.get_by_test_id("clock-white").inner_text() in ("5:00", "4:59")
        marks = page.locator("[data-testid=match][data-match='1'] .total").all_inner_texts()
        assert marks == ["3", "3"]
        screenshot(page, "armageddon")
    view: dict[str, Any] = playoff.hall()
    assert json.dumps(view).count("Tie-break") >= 1


def test_the_console_offers_the_new_drawing_before_each_pair(
    browser: Browser, server: RunningServer
) -> None:
    """The arbiter's console draws the colours of each pair in turn, by hand: its lots
    panel names the game and the stage from the view, and the drawing it sends is
    logged for that game."""
    from playwright.sync_api import expect

    from tests.support.console import console, lots_by_hand

    playoff = world_cup_playoff(server)
    url = f"{server.base_url}/arbiter/{playoff.id}"
    whites = {1: ANAND, 3: GIRI, 5: ANAND}
    with console(browser, url, playoff.token) as page:
        for name, _, (first, second) in LADDER:
            lots = page.get_by_test_id("match-1")
            expect(lots).to_contain_text(
                "Lots for White in game 1" if first == 1
                else f"New drawing of colours: White in game {first} ({name})"
            )
            lots_by_hand(page, 1, whites[first])
            expect(page.get_by_test_id(f"game-panel-1-{first}")).to_be_visible()
            for number in (first, second):
                playoff.rest(40)
                playoff.game(1, number, "start")
                playoff.game(1, number, "result", {"result": "1/2-1/2"})
            expect(page.get_by_test_id(f"game-1-{second}-result")).to_have_text("½-½")
        expect(page.get_by_test_id("match-1")).to_contain_text("Armageddon coin toss")
    with server.client(playoff.token) as chief:
        log = ok(chief.get(f"/api/playoffs/{playoff.id}/events"))["events"]
    drawn = [(e["data"]["game"], e["data"]["white"]) for e in log if e["type"] == "lots-drawn"]
    assert drawn == [(1, ANAND), (3, GIRI), (5, ANAND)]
