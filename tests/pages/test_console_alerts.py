"""The arbiter console in Debian Chromium against the real service: what it says,
where, and for how long, and what it asks before it sends.

- A refusal's alert never covers a clock face, on one column or two, wherever the
  page is scrolled, and goes after a few seconds (the commands list keeps it).
- Two consoles pressing the same clock at once: the second says "already pressed",
  as a note, not a refusal.
- The lots and the coin toss cannot be undone: each asks for a confirmation that
  says what it draws (a physical one names the player chosen), and sends nothing
  if cancelled or changed; the schedule names the colour rule of each game as the
  match does, the coin toss for the Armageddon before it is even due.
- A start held by the break or by the chief arbiter's time says so in its tooltip,
  counting down.
"""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tests.support.browser import browser, save_screenshot
from tests.support.console import FrameGate, console, ok, record, set_up, start_anyway
from tests.support.server import running_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator, Page

__all__ = ["browser"]  # the fixture, from tests/support/browser.py

Box = dict[str, float]


def lots_by_hand(page: Page, white: str) -> None:
    page.get_by_test_id("lots-white-1").select_option(white)
    page.get_by_test_id("lots-physical-1").click()
    page.get_by_test_id("lots-panel-1").get_by_test_id("confirm-yes").click()


def take_too_much_time(panel: Locator) -> None:
    """Ask to take ten hours from White: refused, White has less than that left."""
    details = panel.get_by_test_id("adjust")
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    panel.get_by_test_id("adjust-side").select_option("white")
    panel.get_by_test_id("adjust-seconds").fill("36000")
    panel.get_by_test_id("adjust-reason").fill("to see what a refusal covers")
    panel.get_by_test_id("adjust-take").click()


def boxes(page: Page, selector: str) -> list[Box]:
    found: list[Box] = page.evaluate(
        """s => [...document.querySelectorAll(s)].map((el) => {
             const r = el.getBoundingClientRect();
             return {top: r.top, bottom: r.bottom, left: r.left, right: r.right};
           }).filter((r) => r.bottom > r.top)""",
        selector,
    )
    return found


def overlap(a: Box, b: Box) -> bool:
    return a["left"] < b["right"] and b["left"] < a["right"] and (
        a["top"] < b["bottom"] and b["top"] < a["bottom"])


def alerts_clear_of_the_faces(page: Page) -> None:
    """At each scroll of the clocks (top, middle, foot of the window) the alerts show,
    in the window, and no part of them is over a clock face."""
    faces = page.get_by_test_id("game-panel-1-1").locator(".faces")
    for block in ("start", "center", "end"):
        faces.evaluate(f"el => el.scrollIntoView({{block: '{block}'}})")
        page.wait_for_timeout(150)
        (shown,) = boxes(page, "#alerts")
        height = page.evaluate("document.documentElement.clientHeight")
        assert shown["bottom"] - shown["top"] >= 60, (block, shown)
        assert shown["top"] >= 0 and shown["bottom"] <= height, (block, shown)
        for face in boxes(page, ".faces, .face"):
            assert not overlap(shown, face), (block, shown, face)


def test_refusal_alerts_keep_clear_of_the_clock_faces_and_go_after_a_few_seconds(
    tmp_path: Path, browser: Browser
) -> None:
    from playwright.sync_api import expect

    with running_server(tmp_path / "log.db") as server:
        chief_token, _, playoff_id = set_up(server)
        url = f"{server.base_url}/arbiter/{playoff_id}"
        tablet = {"viewport": {"width": 768, "height": 1024}, "has_touch": True}
        with console(browser, url, chief_token, **tablet) as page:
            lots_by_hand(page, "A")
            game1 = page.get_by_test_id("game-panel-1-1")
            start_anyway(game1, "the players are ready")
            take_too_much_time(game1)
            alert = page.get_by_test_id("alert-error")
            expect(alert.get_by_test_id("alert-reason")).to_contain_text(
                "cannot take 600 min from white")
            shown_at = time.monotonic()
            alerts_clear_of_the_faces(page)
            save_screenshot(page, "console-alert-one-column")
            # Gone after a few seconds, asking for nothing; the list keeps the refusal.
            page.wait_for_timeout(max(0, 3000 - 1000 * (time.monotonic() - shown_at)))
            expect(alert).to_be_visible()
            expect(alert).to_have_count(0, timeout=12_000)
            assert time.monotonic() - shown_at < 12
            refused = page.locator('[data-testid="cmd"][data-type="adjust"]')
            expect(refused).to_have_attribute("data-status", "error")
            expect(refused).to_contain_text("cannot take 600 min from white")

        for size in ({"width": 1280, "height": 900}, {"width": 1024, "height": 640}):
            with console(browser, url, chief_token, viewport=size) as page:
                game1 = page.get_by_test_id("game-panel-1-1")
                take_too_much_time(game1)
                expect(page.get_by_test_id("alert-error")).to_be_visible()
                alerts_clear_of_the_faces(page)
                if size["width"] > 1100:  # two columns: over the schedule's
                    (shown,) = boxes(page, "#alerts")
                    (clocks,) = boxes(page, "#now")
                    assert shown["right"] <= clocks["left"], (shown, clocks)
                save_screenshot(page, f"console-alert-{size['width']}x{size['height']}")


def test_two_consoles_pressing_the_same_clock_at_once_say_already_pressed(
    tmp_path: Path, browser: Browser
) -> None:
    from playwright.sync_api import expect

    with running_server(tmp_path / "log.db") as server:
        chief_token, deputy_token, playoff_id = set_up(server)
        url = f"{server.base_url}/arbiter/{playoff_id}"
        with console(browser, url, chief_token) as page:
            lots_by_hand(page, "A")
            game1 = page.get_by_test_id("game-panel-1-1")
            start_anyway(game1, "the players are ready")
            gate = FrameGate()
            with console(browser, url, deputy_token, gate) as deputy:
                theirs = deputy.get_by_test_id("game-panel-1-1")
                expect(theirs.get_by_test_id("press-white")).to_be_enabled()
                # White presses; the deputy's console has not heard of it yet.
                gate.hold = "all"
                game1.get_by_test_id("press-white").click()
                expect(game1.get_by_test_id("moves-white")).to_contain_text("moves 1")
                theirs.get_by_test_id("press-white").click()
                expect(deputy.get_by_test_id("pending-count")).to_be_visible()
                gate.release()
                note = deputy.get_by_test_id("alert-info")
                expect(note).to_contain_text("White pressed after move 1")
                expect(note).to_contain_text("already pressed")
                expect(note.get_by_test_id("alert-reason")).to_have_text(
                    "White's clock was already pressed after move 1 (match 1, game 1): the "
                    "press counts once")
                expect(note).to_have_attribute("role", "status")
                expect(deputy.get_by_test_id("alert-error")).to_have_count(0)
                sent = deputy.locator('[data-testid="cmd"][data-type="press"]')
                expect(sent).to_have_attribute("data-status", "already")
                expect(sent).not_to_contain_text("refused")
                # Its clock shows the press that counted: Black's turn.
                expect(theirs.get_by_test_id("moves-white")).to_contain_text("moves 1")
                expect(theirs.get_by_test_id("press-black")).to_be_enabled()
                save_screenshot(deputy, "console-already-pressed")
        presses = [e for e in ok(server.client(chief_token).get(
            f"/api/playoffs/{playoff_id}/events"))["events"] if e["type"] == "clock-pressed"]
        assert [(e["data"]["side"], e["data"]["move"]) for e in presses] == [("white", 1)]


def test_lots_and_the_coin_toss_are_confirmed_and_named_alike_in_schedule_and_match(
    tmp_path: Path, browser: Browser
) -> None:
    from playwright.sync_api import expect

    undo_lots = "A drawing of lots cannot be undone: its outcome sets the colours."
    undo_toss = "A coin toss cannot be undone: its winner chooses the colours."
    with running_server(tmp_path / "log.db") as server:
        chief_token, _, playoff_id = set_up(server)
        url = f"{server.base_url}/arbiter/{playoff_id}"
        with console(browser, url, chief_token) as page:
            # The schedule says how each game's colours are settled, as the match does.
            row = page.get_by_test_id("game-1-1-players")
            expect(row).to_have_text(re.compile(r"^Player [AB] – Player [AB] \(colours by lot\)$"))
            players = row.inner_text().removesuffix(" (colours by lot)")
            first, second = players.split(" – ")
            expect(page.get_by_test_id("plan-1-1")).to_contain_text(f"{players} (colours by lot)")
            expect(page.get_by_test_id("plan-1-3")).to_contain_text(
                f"{players} (colours by coin toss)")

            # Lots by the service: what it draws, and that it cannot be undone.
            lots = page.get_by_test_id("lots-panel-1")
            lots.get_by_test_id("lots-service-1").click()
            expect(lots.get_by_test_id("confirm-text")).to_have_text(
                f"Draw lots by the service for White in game 1 of Final: {first} or {second}. "
                + undo_lots)
            lots.get_by_test_id("confirm-no").click()
            expect(lots.get_by_test_id("confirm")).to_have_count(0)
            # A physical draw names the player chosen; choosing another withdraws it.
            lots.get_by_test_id("lots-white-1").select_option("B")
            lots.get_by_test_id("lots-physical-1").click()
            expect(lots.get_by_test_id("confirm-text")).to_have_text(
                "Record the physical draw: White in game 1 of Final is Player B. " + undo_lots)
            expect(lots.get_by_test_id("confirm-yes")).to_be_focused()
            lots.get_by_test_id("lots-white-1").select_option("A")
            expect(lots.get_by_test_id("confirm")).to_have_count(0)
            expect(page.locator('[data-testid="cmd"]')).to_have_count(0)
            lots.get_by_test_id("lots-physical-1").click()
            expect(lots.get_by_test_id("confirm-text")).to_contain_text("is Player A.")
            lots.get_by_test_id("confirm-yes").click()
            expect(page.get_by_test_id("game-1-1-players")).to_have_text("Player A – Player B")
            expect(page.get_by_test_id("plan-1-1")).to_contain_text("Player A – Player B")

            for game in (1, 2):
                panel = page.get_by_test_id(f"game-panel-1-{game}")
                start_anyway(panel, "the players waive the interval")
                record(panel, "result-1-0")
                expect(page.get_by_test_id(f"game-1-{game}-result")).to_have_text("1-0")

            # Level: the Armageddon's colours by coin toss, in the match and the schedule.
            expect(page.get_by_test_id("game-1-3-players")).to_have_text(
                f"{players} (colours by coin toss)")
            expect(page.get_by_test_id("plan-1-3")).to_contain_text(
                f"{players} (colours by coin toss)")
            toss = page.get_by_test_id("toss-panel-1")
            toss.get_by_test_id("toss-caller-1").select_option("B")
            toss.get_by_test_id("toss-call-tails-1").check()
            toss.get_by_test_id("toss-1").click()
            expect(toss.get_by_test_id("confirm-text")).to_have_text(
                "Toss the coin by the service for Final: Player B calls Tails. " + undo_toss)
            save_screenshot(page, "console-confirm-toss")
            toss.get_by_test_id("confirm-no").click()
            expect(toss.get_by_test_id("confirm")).to_have_count(0)
            toss.get_by_test_id("toss-physical-winner-1").select_option("B")
            toss.get_by_test_id("toss-physical-1").click()
            expect(toss.get_by_test_id("confirm-text")).to_have_text(
                "Record the physical toss for Final: won by Player B. " + undo_toss)
            toss.get_by_test_id("confirm-yes").click()
            expect(page.get_by_test_id("toss-winner-1")).to_have_attribute("data-player", "B")

        log = ok(server.client(chief_token).get(f"/api/playoffs/{playoff_id}/events"))["events"]
        drawn = [(e["type"], e["data"].get("method")) for e in log
                 if e["type"] in ("lots-drawn", "coin-tossed")]
        assert [kind for kind, _ in drawn] == ["lots-drawn", "coin-tossed"], drawn


def countdown(page: Page) -> tuple[str, int]:
    """The disabled start's tooltip, and the seconds it says are left."""
    title = page.get_by_test_id("game-panel-1-1").get_by_test_id("start").get_attribute("title")
    assert title is not None
    found = re.search(r"\((\d+):(\d\d) from now\)", title)
    assert found is not None, title
    return title, int(found.group(1)) * 60 + int(found.group(2))


def test_a_start_held_by_a_rest_or_the_chief_arbiters_time_counts_down_in_its_tooltip(
    tmp_path: Path, browser: Browser
) -> None:
    from playwright.sync_api import expect

    with running_server(tmp_path / "log.db") as server:
        chief_token, deputy_token, playoff_id = set_up(server)  # the break runs from now
        url = f"{server.base_url}/arbiter/{playoff_id}"
        with console(browser, url, deputy_token) as page:
            lots_by_hand(page, "A")
            start = page.get_by_test_id("game-panel-1-1").get_by_test_id("start")
            expect(start).to_be_disabled()
            expect(start).to_have_attribute("title", re.compile(
                r"^too early for match 1, game 1: the play-off starts at least 30 minutes "
                r"after the last main-event game of any play-off player \(GCT 2015 reg\. 5\): "
                r"not before \d\d:\d\d \((30:00|29:[0-5]\d) from now\)\. The chief arbiter "
                r"may start it all the same, giving the reason\.$"))
            before, left = countdown(page)
            page.wait_for_timeout(2300)
            after, later = countdown(page)
            assert 1 <= left - later <= 4, (before, after)
            # The words are the server's: only the time left differs from its view.
            view: dict[str, Any] = ok(server.client(deputy_token).get(
                f"/api/playoffs/{playoff_id}/view", params={"kind": "arbiter"}))
            wait = view["matches"][0]["panels"][0]["start"]["wait"]
            left_text = re.search(r"\((\d+:\d\d) from now\)", after)
            assert left_text is not None
            assert after == wait["text"].replace("{left}", left_text.group(1))

            # The chief arbiter sets the start 45 minutes from now: it holds the start.
            at = (datetime.now(UTC) + timedelta(minutes=45)).isoformat()
            ok(server.client(chief_token).post(f"/api/playoffs/{playoff_id}/commands", json={
                "type": "move-start", "match": 1, "game": 1, "at": at,
                "reason": "the players asked for lunch"}))
            expect(start).to_have_attribute(
                "title", re.compile(r"the chief arbiter set its start for \d\d:\d\d "
                                    r"\((45:00|44:[0-5]\d) from now\)"))
            _, left = countdown(page)
            page.wait_for_timeout(2300)
            _, later = countdown(page)
            assert 1 <= left - later <= 4, (left, later)
            expect(start).to_be_disabled()
