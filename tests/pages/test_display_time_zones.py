"""The hall display across the end of summer time in London (Debian Chromium against
the real service, its clock set to the evening of 2026-10-24): every time of day is
the hall's, in the zone the view names, whatever the zone of the browser; with
``?viewer_zone=1`` the viewer's own time as well.

The play-off (see tests/api/test_time_zones.py): game 1 of Abdusattorov v Sindarov at
00:10 BST, game 2 at 01:20 BST, ending 60 minutes later at 01:20 GMT (the clocks go
back at 02:00 BST), the Armageddon at 01:30 GMT. A browser in Tokyo shows the hall's
times; one in New York (EDT, UTC-4 until 1 November) shows them, and its own beside.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

pytest.importorskip("playwright.sync_api", reason="the browser tests need playwright")

from orchestrator.core.timesource import ManualTime
from tests.support.browser import browser, save_screenshot
from tests.support.display import (
    JSON,
    Playoff,
    _display_key,
    key_never_sent,
    no_rest_reads,
    ok,
    record_requests,
    wait_text,
)
from tests.support.events import ABDU, uzchess_json
from tests.support.server import RunningServer, running_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

__all__ = ["browser"]  # the fixture, from tests/support/browser.py

MIN = timedelta(minutes=1)


def utc(hour: int, minute: int, day: int = 25) -> datetime:
    return datetime(2026, 10, day, hour, minute, tzinfo=UTC)


@pytest.fixture
def clock() -> ManualTime:
    return ManualTime(wall=utc(22, 45, day=24), mono=5_000_000)  # 23:45 BST


@pytest.fixture
def server(tmp_path: Path, clock: ManualTime) -> Iterator[RunningServer]:
    with running_server(tmp_path / "log.db", clock) as running:
        yield running


def london_playoff(server: RunningServer) -> Playoff:
    data = json.loads(uzchess_json(utc(22, 40, day=24)))  # the last game ended 23:40 BST
    data["time_zone"] = "Europe/London"
    with server.client() as anonymous:
        created = ok(anonymous.post("/api/events", content=json.dumps(data), headers=JSON))
    token = created["chief_token"]
    with server.client(token) as chief:
        made = ok(chief.post(f"/api/events/{created['id']}/playoff", json={}))
    playoff = Playoff(server, made["id"], token, _display_key(server, created["id"], token))
    playoff.post("/matches/1/lots", {"method": "physical", "white": ABDU})
    return playoff


@contextmanager
def display_in(browser: Browser, url: str, zone: str) -> Iterator[Page]:
    """The hall display in a browser whose own zone is ``zone``."""
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, timezone_id=zone)
    try:
        page = context.new_page()
        requested = record_requests(page)
        page.goto(url)
        page.wait_for_function("window.displayState && window.displayState.synced", timeout=5000)
        yield page
        no_rest_reads(requested)
        key_never_sent(requested, url.partition("#key=")[2])
    finally:
        context.close()


def text(page: Page, test_id: str) -> str:
    return page.locator(f"[data-testid={test_id}]").inner_text()


def wall_clock(page: Page, expected: tuple[str, ...]) -> None:
    """The hall's clock in the corner reads one of ``expected`` (the page counts on
    between the server's frames: a minute may turn while the test runs)."""
    page.wait_for_function(
        "(shown) => shown.includes(document.querySelector('[data-testid=wallclock]')"
        ".textContent)", arg=list(expected), timeout=5000,
    )


def test_the_hall_display_says_the_halls_times_across_the_change_and_the_viewers_if_asked(
    browser: Browser, server: RunningServer, clock: ManualTime
) -> None:
    playoff = london_playoff(server)
    base, _, key = playoff.url.partition("#")
    with display_in(browser, playoff.url, "Asia/Tokyo") as hall, \
            display_in(browser, f"{base}?viewer_zone=1#{key}", "America/New_York") as abroad:
        # 23:45 BST (22:45 UTC): game 1 at 00:10 BST.
        for page in (hall, abroad):
            wait_text(page, "planned-start", "planned start 00:10")
            wall_clock(page, ("23:45", "23:46"))
        assert text(hall, "planned-start") == "planned start 00:10"
        assert hall.locator("[data-testid=viewer-clock]").is_hidden()
        assert text(abroad, "planned-start") == "planned start 00:10 · your time 19:10"
        wait_text(abroad, "viewer-clock", "your time 18:4")

        # Game 1 from 00:10 to 01:10 BST: game 2 is planned at 01:20 BST.
        clock.advance(utc(23, 10, day=24) - clock.now())
        playoff.game(1, 1, "start")
        clock.advance(60 * MIN)
        playoff.game(1, 1, "result", {"result": "1-0"})
        wait_text(hall, "planned-start", "planned start 01:20")
        wait_text(abroad, "planned-start", "planned start 01:20 · your time 20:20")
        wall_clock(hall, ("01:10", "01:11"))

        # Game 2 from 01:20 BST to 01:20 GMT: the Armageddon at 01:30 GMT, not 02:30.
        clock.advance(10 * MIN)
        playoff.game(1, 2, "start")
        clock.advance(60 * MIN)
        playoff.game(1, 2, "result", {"result": "0-1"})
        wait_text(hall, "planned-start", "planned start 01:30")
        assert text(hall, "planned-start") == "planned start 01:30"
        assert text(abroad, "planned-start") == "planned start 01:30 · your time 21:30"
        wall_clock(hall, ("01:20", "01:21"))
        wall_clock(abroad, ("01:20", "01:21"))
        wait_text(abroad, "viewer-clock", "your time 21:2")
        save_screenshot(abroad, "hall-viewer-zone")
