"""The arbiter console run live, as a chief arbiter and a deputy would, in Debian
Chromium against the real service on a real port (its system clock).

- The console says who is logged in, refuses a display key with a clear message,
  and a refused token points to the form where a good one is typed.
- Inside the 30-minute break after the main event (GCT 2015 reg. 5) the start is
  disabled with the rule, until when and a countdown; only the chief arbiter gets
  "start anyway", which needs a reason and is listed among the changes.
- Before a game starts only the forfeits are offered; then every result, each
  asked for a confirmation that can be cancelled.
- A flag fall is announced with FIDE Laws of Chess art. 6.9, and the correction to
  ½-½ needs only its reason.
- Offline, the console says so and freezes its clocks; back on line they run on.
  The console and the hall display show a clock the same way (``formatClock``,
  tenths under ten seconds).
- The space bar presses the clock of the side to move when no field has the focus.
- The timeline's lane labels are whole.
- Bridge extra boards: a board with no swing shows 0, and a tied set stays in view
  when the set is played again.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tests.support.browser import browser, save_screenshot
from tests.support.console import BRIDGE, FrameGate, console, ok, set_up, start_anyway
from tests.support.events import uzchess_json
from tests.support.server import running_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, WebSocketRoute

__all__ = ["browser"]  # the fixture, from tests/support/browser.py


class OfflineGate(FrameGate):
    """A websocket route that can also make the server unreachable: while ``offline``,
    every new connection of the page is closed at once."""

    def __init__(self) -> None:
        super().__init__()
        self.offline = False

    def route(self, ws: WebSocketRoute) -> None:
        if self.offline:
            ws.close(code=4000, reason="unreachable")
            return
        super().route(ws)


def lots_a_white(page: Page) -> None:
    page.get_by_test_id("lots-white-1").select_option("A")
    page.get_by_test_id("lots-physical-1").click()
    page.get_by_test_id("lots-panel-1").get_by_test_id("confirm-yes").click()


def test_who_is_logged_in_and_which_tokens_are_refused(tmp_path: Path, browser: Browser) -> None:
    from playwright.sync_api import expect

    with running_server(tmp_path / "log.db") as server:
        chief_token, deputy_token, playoff_id = set_up(server)
        event_id = ok(server.client(chief_token).get(f"/api/playoffs/{playoff_id}"))["event_id"]
        key = ok(server.client(chief_token).post(
            f"/api/events/{event_id}/tokens", json={"role": "display"}))["token"]
        url = f"{server.base_url}/arbiter/{playoff_id}"
        with console(browser, url, deputy_token, wrong_token="not-a-token") as page:
            expect(page.get_by_test_id("who")).to_have_text("Logged in: arbiter")
            page.get_by_test_id("sign-out").click()
            # A display key: refused at once, saying what it is for.
            page.get_by_test_id("token-input").fill(key)
            page.get_by_test_id("token-submit").click()
            alert = page.get_by_test_id("alert-error")
            expect(alert).to_contain_text("This is a display key, not an arbiter token")
            expect(alert.get_by_test_id("alert-advice")).to_contain_text("read-only")
            expect(page.get_by_test_id("login")).to_be_visible()
            expect(page.get_by_test_id("who")).to_be_hidden()
            expect(page.get_by_test_id("now")).to_be_hidden()
            assert page.evaluate("sessionStorage.length") == 0
            # A wrong token: the advice names the field and the button, which are there.
            page.get_by_test_id("token-input").fill("still-not-a-token")
            page.get_by_test_id("token-submit").click()
            advice = page.get_by_test_id("alert-advice").first
            expect(advice).to_contain_text("Arbiter or chief arbiter token")
            expect(advice).to_contain_text("Connect")
            expect(page.get_by_label("Arbiter or chief arbiter token")).to_be_visible()
            expect(page.get_by_role("button", name="Connect")).to_be_visible()
            page.get_by_test_id("token-input").fill(chief_token)
            page.get_by_test_id("token-submit").click()
            expect(page.get_by_test_id("who")).to_have_text("Logged in: chief arbiter")
            save_screenshot(page, "console-logged-in")


def test_the_break_is_kept_unless_the_chief_arbiter_starts_anyway_with_a_reason(
    tmp_path: Path, browser: Browser
) -> None:
    from playwright.sync_api import expect

    with running_server(tmp_path / "log.db") as server:
        chief_token, deputy_token, playoff_id = set_up(server)  # no end times: break from now
        url = f"{server.base_url}/arbiter/{playoff_id}"
        with console(browser, url, chief_token) as page:
            lots_a_white(page)
            game1 = page.get_by_test_id("game-panel-1-1")
            expect(game1.get_by_test_id("start")).to_be_disabled()
            rest = game1.get_by_test_id("rest")
            expect(rest).to_contain_text(re.compile(r"Not before \d\d:\d\d"))
            expect(rest).to_contain_text(
                "The play-off starts at least 30 minutes after the last main-event game of "
                "any play-off player (GCT 2015 reg. 5)")
            expect(rest.get_by_test_id("rest-countdown")).to_have_text(
                re.compile(r"^in (30:00|29:[0-5]\d)$"))
            # Not started: only the forfeits.
            expect(game1.get_by_test_id("result-white-forfeit")).to_be_visible()
            expect(game1.get_by_test_id("result-1-0")).to_have_count(0)

            with console(browser, url, deputy_token) as deputy:
                panel = deputy.get_by_test_id("game-panel-1-1")
                expect(panel.get_by_test_id("start")).to_be_disabled()
                expect(panel.get_by_test_id("rest")).to_contain_text("GCT 2015 reg. 5")
                expect(panel.get_by_test_id("start-anyway")).to_have_count(0)

                # The chief's start anyway needs its reason.
                game1.get_by_test_id("start-anyway-submit").click()
                expect(page.locator('[data-testid="cmd"][data-type="start-clock"]')).to_have_count(0)
                save_screenshot(page, "console-break", full_page=True)
                start_anyway(game1, "both players are at the board and agree")
                expect(panel.get_by_test_id("clock-status")).to_contain_text("running since")

            change = page.get_by_test_id("change-game-started")
            expect(change).to_contain_text("Game 1 of Final started early by the chief arbiter")
            expect(change).to_contain_text("both players are at the board and agree")
            expect(change).to_contain_text("chief arbiter")

            # Started: every result, each confirmed first; a cancel sends nothing.
            game1.get_by_test_id("result-1-0").click()
            confirm = game1.get_by_test_id("confirm")
            expect(confirm).to_contain_text(
                "Record 1-0 (White wins) in game 1 of Final: Player A (White) beats Player B.")
            expect(game1.get_by_test_id("confirm-yes")).to_be_focused()
            save_screenshot(page, "console-confirm-result")
            game1.get_by_test_id("confirm-no").click()
            expect(confirm).to_have_count(0)
            expect(page.locator('[data-testid="cmd"][data-type="result"]')).to_have_count(0)
            expect(page.get_by_test_id("game-1-1-result")).to_have_text("")


def test_a_flag_fall_is_announced_and_corrected_to_a_draw_under_fide_6_9(
    tmp_path: Path, browser: Browser
) -> None:
    from playwright.sync_api import expect

    with running_server(tmp_path / "log.db") as server:
        chief_token, _, playoff_id = set_up(server)
        url = f"{server.base_url}/arbiter/{playoff_id}"
        with console(browser, url, chief_token) as page:
            lots_a_white(page)
            game1 = page.get_by_test_id("game-panel-1-1")
            start_anyway(game1, "the players are ready")
            # White is left about three seconds: tenths under ten seconds, then the flag.
            game1.get_by_test_id("adjust").locator("summary").click()
            game1.get_by_test_id("adjust-side").select_option("white")
            game1.get_by_test_id("adjust-seconds").fill("1497")
            game1.get_by_test_id("adjust-reason").fill("to see the flag fall")
            game1.get_by_test_id("adjust-take").click()
            expect(game1.get_by_test_id("time-white")).to_have_text(re.compile(r"^\d\.\d$"))
            flag = page.get_by_test_id("flag-1")
            expect(flag.get_by_test_id("flag-text")).to_have_text("White's flag fell: 0-1")
            expect(flag.get_by_test_id("flag-rule")).to_contain_text(
                "FIDE Laws of Chess art. 6.9: the game is drawn")
            expect(page.get_by_test_id("game-1-1-result")).to_have_text("0-1")
            save_screenshot(page, "console-flag", full_page=True)
            flag.get_by_test_id("flag-submit").click()  # the reason is still needed
            expect(page.locator('[data-testid="cmd"][data-type="correct"]')).to_have_count(0)
            flag.get_by_test_id("flag-reason").fill("Black has only a king left")
            flag.get_by_test_id("flag-submit").click()
            expect(page.get_by_test_id("game-1-1-result")).to_have_text("½-½")
            expect(page.get_by_test_id("flag-1")).to_have_count(0)
            expect(page.get_by_test_id("change-result-corrected")).to_contain_text(
                "Black has only a king left")


def test_offline_the_clocks_freeze_and_both_screens_show_a_clock_alike(
    tmp_path: Path, browser: Browser
) -> None:
    from playwright.sync_api import expect

    with running_server(tmp_path / "log.db") as server:
        chief_token, _, playoff_id = set_up(server)
        event_id = ok(server.client(chief_token).get(f"/api/playoffs/{playoff_id}"))["event_id"]
        key = ok(server.client(chief_token).post(
            f"/api/events/{event_id}/tokens", json={"role": "display"}))["token"]
        url = f"{server.base_url}/arbiter/{playoff_id}"
        gate = OfflineGate()
        with console(browser, url, chief_token, gate) as page:
            lots_a_white(page)
            game1 = page.get_by_test_id("game-panel-1-1")
            start_anyway(game1, "the players are ready")
            white = game1.get_by_test_id("time-white")
            expect(white).to_have_text(re.compile(r"^24:5\d$"))

            # The server becomes unreachable: the page says so and its clocks stop.
            gate.offline = True
            assert gate.page_side is not None
            gate.page_side.close(code=1012, reason="restarting")
            banner = page.get_by_test_id("offline")
            expect(banner).to_be_visible()
            expect(banner).to_contain_text("Connection lost: clocks shown may be behind.")
            expect(banner).to_contain_text("The server has not answered since")
            expect(banner).not_to_contain_text("stopped")
            expect(game1.locator(".face-frozen").first).to_have_text(
                "connection lost: may be behind")
            expect(page.get_by_test_id("connection")).to_have_text("offline · reconnecting…")
            frozen = white.inner_text()
            page.wait_for_timeout(1500)
            assert white.inner_text() == frozen
            save_screenshot(page, "console-offline")

            # Back on line: the banner goes and the clock runs on.
            gate.offline = False
            expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "live",
                                                                         timeout=15_000)
            expect(banner).to_be_hidden()
            expect(white).not_to_have_text(frozen)

            # Paused with under ten seconds left: the hall shows what the console shows.
            game1.get_by_test_id("pause").click()
            expect(game1.get_by_test_id("clock-status")).to_have_text("paused")
            view = ok(server.client(chief_token).get(
                f"/api/playoffs/{playoff_id}/view", params={"kind": "arbiter"}))
            left = view["clocks"]["1:1"]["white_ms"] // 1000 - 9  # 9.x s left
            game1.get_by_test_id("adjust").locator("summary").click()
            game1.get_by_test_id("adjust-side").select_option("white")
            game1.get_by_test_id("adjust-seconds").fill(str(left))
            game1.get_by_test_id("adjust-reason").fill("to compare the screens")
            game1.get_by_test_id("adjust-take").click()
            expect(white).to_have_text(re.compile(r"^9\.\d$"))
            context = browser.new_context(viewport={"width": 1280, "height": 720})
            try:
                hall = context.new_page()
                hall.goto(f"{server.base_url}/display/{playoff_id}?key={key}")
                for side in ("white", "black"):
                    shown = game1.get_by_test_id(f"time-{side}").inner_text()
                    expect(hall.get_by_test_id(f"clock-{side}").first).to_have_text(shown)
            finally:
                context.close()


def test_the_space_bar_presses_the_clock_of_the_side_to_move(
    tmp_path: Path, browser: Browser
) -> None:
    from playwright.sync_api import expect

    with running_server(tmp_path / "log.db") as server:
        chief_token, _, playoff_id = set_up(server)
        url = f"{server.base_url}/arbiter/{playoff_id}"
        with console(browser, url, chief_token) as page:
            expect(page.get_by_test_id("keyboard-help")).to_contain_text(
                "Space presses the clock for the side to move")
            lots_a_white(page)
            game1 = page.get_by_test_id("game-panel-1-1")
            start_anyway(game1, "the players are ready")
            page.evaluate("document.activeElement && document.activeElement.blur()")
            page.keyboard.press("Space")
            expect(game1.get_by_test_id("moves-white")).to_contain_text("moves 1")
            expect(game1.get_by_test_id("press-black")).to_be_enabled()
            page.keyboard.press("Space")
            expect(game1.get_by_test_id("moves-black")).to_contain_text("moves 1")
            expect(game1.get_by_test_id("press-white")).to_be_enabled()
            # In a field, the space bar types a space.
            game1.get_by_test_id("adjust").locator("summary").click()
            reason = game1.get_by_test_id("adjust-reason")
            reason.click()
            page.keyboard.type("a b")
            expect(reason).to_have_value("a b")
            page.wait_for_timeout(300)
            expect(game1.get_by_test_id("moves-white")).to_contain_text("moves 1 ·")
            presses = [e for e in ok(server.client(chief_token).get(
                f"/api/playoffs/{playoff_id}/events"))["events"] if e["type"] == "clock-pressed"]
            assert [(e["data"]["side"], e["data"]["move"]) for e in presses] == [
                ("white", 1), ("black", 1)]


def test_the_timeline_shows_whole_lane_labels(tmp_path: Path, browser: Browser) -> None:
    from playwright.sync_api import expect

    with running_server(tmp_path / "log.db") as server:
        created = ok(server.client().post(
            "/api/events", content=uzchess_json().encode(),
            headers={"Content-Type": "application/json"},
        ))
        token = created["chief_token"]
        playoff = ok(server.client(token).post(f"/api/events/{created['id']}/playoff", json={}))
        url = f"{server.base_url}/arbiter/{playoff['id']}"
        for width in (1280, 768):
            with console(browser, url, token, viewport={"width": width, "height": 900}) as page:
                expect(page.get_by_test_id("lane-label")).to_have_count(2)
                labels: list[dict[str, Any]] = page.evaluate("""() => {
                    const svg = document.querySelector('[data-testid="timeline"]');
                    const left = Number(svg.dataset.lanesX);
                    return [...svg.querySelectorAll('[data-testid="lane-label"]')].map((el) => {
                      const box = el.getBBox();
                      return {text: [...el.querySelectorAll('tspan')].map((t) => t.textContent)
                                .join(' '),
                              right: box.x + box.width, left};
                    });
                }""")
                assert [label["text"] for label in labels] == [
                    "Seeds 2 v 3 (reg. 7)", "Final (reg. 6)"], labels
                assert all(label["right"] <= label["left"] for label in labels), labels
                expect(page.get_by_test_id("timeline")).not_to_contain_text("…")


def test_extra_boards_show_no_swing_as_0_and_keep_a_tied_set_in_view(
    tmp_path: Path, browser: Browser
) -> None:
    from playwright.sync_api import expect

    with running_server(tmp_path / "log.db") as server:
        created = ok(server.client().post("/api/events", content=json.dumps(BRIDGE).encode(),
                                          headers={"Content-Type": "application/json"}))
        chief = server.client(created["chief_token"])
        made = ok(chief.post(f"/api/events/{created['id']}/extra-boards",
                             json={"home": "N", "away": "S", "scheduled": 16}))
        url = f"{server.base_url}/arbiter/{made['id']}"
        with console(browser, url, created["chief_token"]) as page:
            for board, table, score in ((1, 1, 420), (1, 2, 420), (2, 1, -50), (2, 2, -50)):
                page.get_by_test_id("board-board").select_option(str(board))
                page.get_by_test_id(f"board-table-{table}").check()
                page.get_by_test_id("board-ns").fill(str(score))
                page.get_by_test_id("board-submit").click()
                expect(page.locator('[data-testid="cmd"]').first).to_have_attribute(
                    "data-status", "ok")
            first = page.get_by_test_id("stanza-1")
            expect(first.get_by_test_id("imps")).to_have_text(["0", "0"])
            expect(first).to_contain_text("set tied: played again")
            expect(page.get_by_test_id("stanza-2")).to_be_visible()
            expect(page.get_by_test_id("running-total-label")).to_have_text("IMPs, set 2")
            expect(page.get_by_test_id("running-total")).to_have_text("0–0")
            expect(page.get_by_test_id("extra-status")).to_contain_text("Stanza 2 in play")
            save_screenshot(page, "console-extra-boards-set-2",
                            full_page=True)
