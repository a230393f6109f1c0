"""The hall never says what is not so (in Debian Chromium against the real service):
a game whose time has come but cannot start says what it waits for, never "starting
now"; the chief arbiter's postponement is said as such, with the reason only if the
chief chose to show it, and the console's schedule says the same; a correction is
announced in a sentence until the next game starts (without the arbiters' reason), a
game it voids is "no longer played" when it will not be played."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from tests.support.events import ABDU, PRAGG

pytest.importorskip("playwright.sync_api", reason="the browser tests need playwright")

from tests.support.browser import browser, save_screenshot
from tests.support.display import SkippableTime, chess_playoff, opened, wait_text
from tests.support.server import RunningServer, running_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser

__all__ = ["browser"]  # the fixture, from tests/support/browser.py


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    db = tmp_path_factory.mktemp("hall-truths") / "log.db"
    with running_server(db, SkippableTime()) as running:
        yield running


def test_a_due_game_says_what_it_waits_for_and_a_postponement_is_said(
    browser: Browser, server: RunningServer
) -> None:
    # The main event ended the evening before: game 1 is due, but nobody drew lots.
    playoff = chess_playoff(server, lots=False)
    with opened(browser, playoff.url) as page:
        wait_text(page, "idle-countdown", "waiting for the arbiter: colours to be drawn")
        assert "starting now" not in page.locator("body").inner_text()
        hall = playoff.hall()
        assert hall["next"]["due_text"] == "waiting for the arbiter: colours to be drawn"

        playoff.post("/matches/1/games/1/postpone", {
            "minutes": 20, "reason": "the hall's lights", "public_reason": True})
        at = playoff.hall()["next"]["at"]
        wait_text(page, "next-note", f"postponed to {at} by the chief arbiter (the hall's lights)")
        # The console's schedule says the same, in the same words.
        with server.client(playoff.token) as chief:
            console = chief.get(f"/api/playoffs/{playoff.id}/view",
                                params={"kind": "arbiter"}).json()
        (first,) = [g for g in console["schedule"]["games"] if (g["match"], g["game"]) == (1, 1)]
        assert first["reason"] == f"postponed to {at} by the chief arbiter (the hall's lights)"

        playoff.post("/matches/1/lots", {"method": "physical", "white": ABDU})
        wait_text(page, "idle-countdown", ":")  # a countdown to the postponed start
        playoff.rest(20)
        wait_text(page, "idle-countdown", "starting now")
        save_screenshot(page, "hall-due-after-postponement")


def test_a_postponement_keeps_its_reason_from_the_hall_unless_shown(
    server: RunningServer,
) -> None:
    playoff = chess_playoff(server)
    playoff.post("/matches/1/games/1/postpone", {"minutes": 15, "reason": "a player's illness"})
    hall = playoff.hall()
    assert hall["next"]["note"] == f"postponed to {hall['next']['at']} by the chief arbiter"
    assert "illness" not in str(hall)


def test_a_correction_is_announced_until_the_next_game_starts(
    browser: Browser, server: RunningServer
) -> None:
    playoff = chess_playoff(server)
    for game, result in ((1, "1-0"), (2, "0-1")):  # Abdusattorov wins 2-0
        playoff.game(1, game, "start")
        playoff.game(1, game, "result", {"result": result})
        playoff.rest()
    playoff.post("/matches/2/lots", {"method": "physical", "white": PRAGG})
    playoff.game(2, 1, "start")
    with opened(browser, playoff.url) as page:
        assert page.locator("[data-testid=correction]").count() == 0
        # The scoresheets of game 1 were swapped: the match is level, the final's
        # game 1 (under way) is voided and will not be played between these players.
        with server.client(playoff.token) as chief:
            corrected = chief.put(f"/api/playoffs/{playoff.id}/matches/1/games/1/result",
                                  json={"result": "0-1", "reason": "scoresheets swapped",
                                        "confirm": True})
            assert corrected.status_code == 200, corrected.text
        wait_text(page, "correction", "Result corrected")
        notice = page.get_by_test_id("correction").inner_text()
        assert "Seeds 2 v 3 · Game 1 is 0-1 (was 1-0)" in notice
        assert "Final · Game 1: no longer played" in notice
        assert "to be played again" not in notice
        # The arbiters' reason is theirs: the hall says what changed.
        assert "scoresheets swapped" not in notice
        save_screenshot(page, "hall-correction")
        # Announced until a game starts after it: the Armageddon, once its colours
        # are chosen.
        playoff.rest()
        playoff.post("/matches/1/coin-toss", {"method": "physical", "winner": ABDU})
        playoff.post("/matches/1/armageddon-colours", {"white": ABDU, "black": "14205483"})
        playoff.game(1, 3, "start")
        page.wait_for_function(
            "!document.querySelector('[data-testid=\"correction\"]')", timeout=3000)


def test_a_shortened_time_control_is_said_before_the_game_it_applies_to(
    server: RunningServer,
) -> None:
    playoff = chess_playoff(server)
    playoff.post("/time-control", {"time_control": "G/15+5", "reason": "the hall closes"})
    hall = playoff.hall()
    assert hall["next"]["game"] == 1
    assert hall["next"]["note"] == "time control shortened to G/15+5 by the chief arbiter"
