"""The arbiter console (``clients/console``) runs a whole play-off in Debian Chromium.

The real service runs on the system clock. Only the set-up goes through REST: the
event (a double round robin in which A and B tie for first), its play-off, and
the tokens. From then on every step is taken on the page, as an arbiter would:
the token typed into the form, the lots, both games (each started by the chief
arbiter before the rest GCT 2015 reg. 5 owes the players, with a reason), the coin
toss, the colours, the Armageddon with presses on a tablet, and the results, each
confirmed; the page then shows the champion. Along the way: a command shows as pending until the
server's ack (held back in the websocket by a Playwright route), a refused command
shows the server's reason and what to do, overrides need a reason, the schedule
re-flows and marks what moved, and a 768x1024 touch viewport has no control under
48 px. A correction that voids a played game of the final says so first, needs a
confirmation, is listed with what it voided, and leaves the game to be played
again, its presses counting from move 1. Screenshots go to ``test-artifacts/`` with
``TEST_SCREENSHOTS=1``.

The page renders the server's arbiter view and sends the payloads it offers: it
reads nothing else (no ``GET /api/playoffs/{id}``, no log), which a route checks.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import TYPE_CHECKING

from tests.support.browser import browser, save_screenshot
from tests.support.console import (
    BRIDGE,
    FrameGate,
    console,
    lots_by_hand,
    ok,
    record,
    set_up,
    start_anyway,
)
from tests.support.events import ABDU, PRAGG, uzchess_json
from tests.support.server import running_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator, Page

__all__ = ["browser"]  # the fixture, from tests/support/browser.py















def test_the_console_runs_a_whole_playoff_with_an_armageddon(
    tmp_path: Path, browser: Browser
) -> None:
    from playwright.sync_api import expect

    began = time.monotonic()
    with running_server(tmp_path / "log.db") as server:
        chief_token, deputy_token, playoff_id = set_up(server)
        url = f"{server.base_url}/arbiter/{playoff_id}"
        gate = FrameGate()
        with console(browser, url, chief_token, gate) as page:
            # ---- the schedule: three games, the Armageddon tentative (dashed), a break
            for game in (1, 2, 3):
                expect(page.get_by_test_id(f"timeline-game-1-{game}")).to_be_visible()
            expect(page.get_by_test_id("timeline-game-1-3")).to_have_attribute(
                "data-tentative", "true")
            expect(page.get_by_test_id("timeline-game-1-1")).to_have_attribute(
                "data-tentative", "false")
            assert page.get_by_test_id("timeline-break").count() >= 1

            shorten_the_time_control(page)

            # ---- lots: pending until the server's ack arrives, then the commit-reveal proof
            gate.hold = "acks"
            page.get_by_test_id("lots-service-1").click()
            page.get_by_test_id("lots-panel-1").get_by_test_id("confirm-yes").click()
            expect(page.get_by_test_id("pending-count")).to_have_text("1 pending…")
            expect(page.locator('[data-testid="cmd"][data-status="pending"]')).to_have_count(1)
            page.wait_for_timeout(300)  # the ack is held: still pending
            expect(page.get_by_test_id("pending-count")).to_be_visible()
            assert gate.release() == 1
            expect(page.get_by_test_id("pending-count")).to_be_hidden()
            expect(page.locator('[data-testid="cmd"][data-type="lots"]')).to_have_attribute(
                "data-status", "ok")
            lots = page.get_by_test_id("draw-lots-1")
            expect(lots.get_by_test_id("commitment")).to_have_text(re.compile(r"^[0-9a-f]{64}$"))
            expect(lots.get_by_test_id("seed")).to_have_text(re.compile(r"^[0-9a-f]{64}$"))
            expect(lots.get_by_test_id("draw-verified")).to_be_visible()

            # ---- game 1: started early, so games 2 and 3 move up: the page marks them
            game1 = page.get_by_test_id("game-panel-1-1")
            expect(game1.get_by_test_id("time-white")).to_have_text("15:00")  # G/15+5 now
            start_anyway(game1, "both players are at the board")
            expect(game1.get_by_test_id("press-white")).to_be_enabled()
            expect(game1.get_by_test_id("press-black")).to_be_disabled()
            expect(page.get_by_test_id("reflow")).to_contain_text(
                "Re-planned after the start of game 1 of Final")
            expect(page.get_by_test_id("moved-1-2")).to_be_visible()
            expect(page.get_by_test_id("timeline-game-1-2")).to_have_attribute("data-moved", "true")

            # ---- a second arbiter, whose console lags, records the same result: refused
            deputy_gate = FrameGate()
            with console(browser, url, deputy_token, deputy_gate) as deputy:
                stale = deputy.get_by_test_id("game-panel-1-1").get_by_test_id("result-1-0")
                expect(stale).to_be_enabled()
                deputy_gate.hold = "all"
                record(game1, "result-1-0")
                expect(page.get_by_test_id("game-1-1-result")).to_have_text("1-0")
                stale.click()
                deputy.get_by_test_id("confirm-yes").click()
                expect(deputy.get_by_test_id("pending-count")).to_be_visible()
                deputy_gate.release()
                alert = deputy.get_by_test_id("alert-error")
                expect(alert).to_be_visible()
                expect(alert.get_by_test_id("alert-reason")).to_contain_text(
                    "already has a result")
                expect(alert.get_by_test_id("alert-advice")).to_contain_text("Nothing was changed")
                expect(deputy.get_by_test_id("game-1-1-result")).to_have_text("1-0")
                save_screenshot(deputy, "console-refused")

            # ---- game 2: the other player has White and wins: 1-1
            game2 = page.get_by_test_id("game-panel-1-2")
            start_anyway(game2, "the players waive the interval")
            record(game2, "result-1-0")
            expect(page.get_by_test_id("game-1-2-result")).to_have_text("1-0")
            # Level: the seeds' order (drawn by lot between these two), names beside points.
            expect(page.get_by_test_id("score-1")).to_have_text(
                re.compile(r"^(Player A 1–1 Player B|Player B 1–1 Player A)$"))

            # ---- the Armageddon: coin toss (commit-reveal), the winner takes Black
            page.get_by_test_id("toss-caller-1").select_option("A")
            page.get_by_test_id("toss-call-heads-1").check()
            page.get_by_test_id("toss-1").click()
            page.get_by_test_id("toss-panel-1").get_by_test_id("confirm-yes").click()
            winner_el = page.get_by_test_id("toss-winner-1")
            expect(winner_el).to_be_visible()
            winner = winner_el.get_attribute("data-player")
            assert winner in ("A", "B")
            loser = "B" if winner == "A" else "A"
            toss = page.get_by_test_id("draw-coin-toss-1")
            expect(toss.get_by_test_id("commitment")).to_have_text(re.compile(r"^[0-9a-f]{64}$"))
            expect(toss.get_by_test_id("draw-verified")).to_be_visible()
            page.get_by_test_id("colours-winner-black-1").click()
            game3 = page.get_by_test_id("game-panel-1-3")
            expect(game3).to_be_visible()
            expect(page.get_by_test_id("game-row-1-3")).to_contain_text(
                f"Player {loser} – Player {winner}")
            start_anyway(game3, "the players waive the interval")
            expect(game3.get_by_test_id("time-black")).to_have_text("5:00")

            play_the_armageddon_on_a_tablet(browser, url, chief_token)

            expect(game3.get_by_test_id("moves-white")).to_contain_text("moves 2")
            expect(game3.get_by_test_id("moves-black")).to_contain_text("moves 1")
            # White's two moves took under a second of its 6 minutes (shown rounded up).
            expect(game3.get_by_test_id("time-white")).to_have_text(re.compile(r"^(6:00|5:5\d)$"))
            expect(game3.get_by_test_id("press-black")).to_be_enabled()
            give_black_ten_seconds(page)
            # An adjustment by hand is listed for everyone at once, with its reason.
            expect(page.get_by_test_id("change-clock-adjusted")).to_contain_text(
                f"Gave 10 s to Black (Player {winner}) in the Armageddon of Final")
            game3.get_by_test_id("pause").click()
            expect(game3.get_by_test_id("clock-status")).to_have_text("paused")
            expect(game3.get_by_test_id("press-black")).to_be_disabled()
            game3.get_by_test_id("resume").click()
            expect(game3.get_by_test_id("clock-status")).to_contain_text("running since")

            # ---- a drawn Armageddon: Black wins the final, and is the champion
            record(game3, "result-draw")
            decision = page.get_by_test_id("decision-1")
            expect(decision).to_contain_text(f"Player {winner} is the champion")
            expect(decision).to_contain_text(f"Black (Player {winner}) wins the final")
            expect(page.get_by_test_id("champion")).to_contain_text(f"Champion: Player {winner}")
            expect(page.get_by_test_id("placings")).to_contain_text(
                re.compile(rf"1\s*Player {winner}"))
            expect(page.get_by_test_id("game-1-3-result")).to_have_text("½-½")
            expect(page.get_by_test_id("pending-count")).to_be_hidden()
            # No clock runs any more: this console is no longer the clock.
            expect(page.get_by_test_id("acts-as-clock")).to_have_count(0)
            # Every early start is listed, by whom, with its reason.
            expect(page.get_by_test_id("change-game-started")).to_have_count(3)
            expect(page.get_by_test_id("change-game-started").last).to_contain_text(
                "chief arbiter")
            expect(page.get_by_test_id("change-game-started").last).to_contain_text(
                "both players are at the board")
            save_screenshot(page, "console-champion", full_page=True)

        # ---- what the server logged: all of it made by the consoles, once each
        log = ok(server.client(chief_token).get(f"/api/playoffs/{playoff_id}/events"))["events"]
        made = [e for e in log if e["type"] != "transition-fired"]
        types = [e["type"] for e in made]
        assert types.count("lots-drawn") == 1
        assert types.count("game-started") == 3
        assert types.count("result-recorded") == 3  # the deputy's second 1-0 was refused
        assert types.count("clock-pressed") == 3
        for kind in ("coin-tossed", "armageddon-colours-chosen", "clock-adjusted",
                     "clock-paused", "clock-resumed", "time-control-shortened"):
            assert kind in types, kind
        assert all(e["actor"].startswith(("chief:", "arbiter:")) for e in made)
        state = ok(server.client(chief_token).get(f"/api/playoffs/{playoff_id}"))
        assert state["champion"] == winner
        assert state["matches"][0]["decision"]["method"] == "armageddon-draw"
    assert time.monotonic() - began < 60




def shorten_the_time_control(page: Page) -> None:
    """The reason is required; a bad notation gets the server's reason; then it applies."""
    from playwright.sync_api import expect

    page.get_by_test_id("time-control").locator("summary").click()
    page.get_by_test_id("tc-value").fill("G/15+5")
    page.get_by_test_id("tc-submit").click()  # no reason: the form does not send
    expect(page.locator('[data-testid="cmd"][data-type="time-control"]')).to_have_count(0)
    assert page.get_by_test_id("tc-reason").evaluate("el => !el.validity.valid")

    page.get_by_test_id("tc-value").fill("G/soon")
    page.get_by_test_id("tc-reason").fill("the hall closes early")
    page.get_by_test_id("tc-submit").click()
    alert = page.get_by_test_id("alert-error")
    # The field by its name, in words: no JSON path, no command type.
    expect(alert.get_by_test_id("alert-reason")).to_contain_text("time control: ")
    expect(alert.get_by_test_id("alert-reason")).not_to_contain_text("time_control")
    expect(alert.get_by_test_id("alert-advice")).to_contain_text("Correct the value")
    alert.get_by_test_id("alert-dismiss").click()
    expect(alert).to_have_count(0)

    page.get_by_test_id("tc-value").fill("G/15+5")
    page.get_by_test_id("tc-submit").click()
    expect(page.get_by_test_id("change-time-control-shortened")).to_contain_text(
        "the hall closes early")
    expect(page.get_by_test_id("match-1")).to_contain_text("Time control G/15+5")
    expect(page.get_by_test_id("tc-reason")).to_have_value("")


def play_the_armageddon_on_a_tablet(browser: Browser, url: str, token: str) -> None:
    """A second console on a 768x1024 touch screen presses the clock: big targets, no overflow."""
    from playwright.sync_api import expect

    with console(browser, url, token, viewport={"width": 768, "height": 1024},
                 has_touch=True, is_mobile=True, device_scale_factor=1) as tablet:
        game3 = tablet.get_by_test_id("game-panel-1-3")
        white, black = game3.get_by_test_id("press-white"), game3.get_by_test_id("press-black")
        for side, move in ((white, 1), (black, 1), (white, 2)):
            expect(side).to_be_enabled()
            expect(side).to_contain_text(f"press after move {move}")
            side.tap()
        expect(black).to_be_enabled()
        expect(white).to_be_disabled()
        expect(game3.get_by_test_id("moves-white")).to_contain_text("moves 2")
        # A reload keeps the token (this tab's sessionStorage) and rebuilds the move numbers.
        tablet.reload()
        expect(tablet.get_by_test_id("connection")).to_have_attribute("data-state", "live")
        expect(game3.get_by_test_id("moves-white")).to_contain_text("moves 2")
        expect(black).to_contain_text("moves 1 · press after move 2")
        tablet.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        too_small = tablet.evaluate("""() => [...document.querySelectorAll(
              'button, select, summary, .seg, .check, input:not([type=hidden])'
              + ':not([type=radio]):not([type=checkbox])')]
            .filter(el => el.offsetParent !== null)
            .map(el => [el.dataset.testid || el.id || el.tagName, el.getBoundingClientRect()])
            .filter(([, r]) => r.height < 47.5 || r.width < 47.5)
            .map(([name, r]) => `${name} ${Math.round(r.width)}x${Math.round(r.height)}`)""")
        assert too_small == [], too_small
        width = tablet.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        assert width[0] <= width[1], width
        faces = game3.get_by_test_id("press-white").bounding_box()
        assert faces is not None and faces["height"] >= 100 and faces["width"] >= 250, faces
        tablet.evaluate("document.querySelectorAll('details').forEach(d => d.open = false)")
        save_screenshot(tablet, "console-tablet-768x1024")


def give_black_ten_seconds(page: Page) -> None:
    from playwright.sync_api import expect

    game3 = page.get_by_test_id("game-panel-1-3")
    game3.get_by_test_id("adjust").locator("summary").click()
    game3.get_by_test_id("adjust-side").select_option("black")
    game3.get_by_test_id("adjust-seconds").fill("10")
    game3.get_by_test_id("adjust-reason").fill("the opponent's phone rang")
    before = clock_seconds(game3.get_by_test_id("time-black").inner_text())
    game3.get_by_test_id("adjust-give").click()
    expect(page.locator('[data-testid="cmd"][data-type="adjust"]')).to_have_attribute(
        "data-status", "ok")
    # The clock frame of the adjustment: Black's running clock has 10 s more.
    after = clock_seconds(game3.get_by_test_id("time-black").inner_text())
    assert before + 8 <= after <= before + 10, (before, after)
    expect(game3.get_by_test_id("adjust-reason")).to_have_value("")


def clock_seconds(text: str) -> int:
    """Seconds shown on a clock face ("4:58", "1:02:03")."""
    seconds = 0
    for part in text.strip().split(":"):
        seconds = seconds * 60 + int(float(part))
    return seconds


def local_input(page: Page, minutes_from_now: int) -> str:
    """A ``datetime-local`` value in the browser's own time zone."""
    value: str = page.evaluate(
        """m => { const d = new Date(Date.now() + m * 60000);
                  d.setMinutes(d.getMinutes() - d.getTimezoneOffset());
                  return d.toISOString().slice(0, 16); }""",
        minutes_from_now,
    )
    return value


def test_a_plan_missing_the_deadline_shows_the_proposal_and_the_page_applies_it(
    tmp_path: Path, browser: Browser
) -> None:
    from playwright.sync_api import expect

    with running_server(tmp_path / "log.db") as server:
        chief_token, _, playoff_id = set_up(server)
        url = f"{server.base_url}/arbiter/{playoff_id}"
        gate = FrameGate()
        with console(browser, url, chief_token, gate) as page:
            expect(page.get_by_test_id("timeline-deadline")).to_have_count(0)
            page.get_by_test_id("deadline").locator("summary").click()
            page.get_by_test_id("dl-at").fill(local_input(page, 120))
            page.get_by_test_id("dl-reason").fill("the hall closes")
            page.get_by_test_id("dl-submit").click()
            expect(page.get_by_test_id("fits")).to_contain_text("does not fit: over by")
            expect(page.get_by_test_id("timeline-deadline")).to_have_count(1)
            proposal = page.get_by_test_id("proposal")
            expect(proposal).to_contain_text("shorten the time control to G/10+5")
            page.evaluate("scrollTo(0, 0)")
            save_screenshot(page, "console-deadline-missed")

            # The service restarts (1012): the page reconnects and resumes from its last seq.
            assert gate.page_side is not None
            gate.page_side.close(code=1012, reason="restarting")
            expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "off")
            expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "live")
            hellos = gate.hellos()
            assert len(hellos) == 2, hellos
            assert hellos[0]["last_seq"] is None and hellos[1]["last_seq"] == 2, hellos
            assert all(h["token"] == chief_token for h in hellos)

            proposal.get_by_test_id("use-proposal").click()
            expect(page.get_by_test_id("tc-value")).to_have_value("G/10+5")
            page.get_by_test_id("tc-reason").fill("to meet the deadline (reg. 5)")
            page.get_by_test_id("tc-submit").click()
            expect(page.get_by_test_id("fits")).to_have_text("fits")
            expect(proposal).to_have_count(0)
            expect(page.get_by_test_id("moved-1-2")).to_be_visible()
            expect(page.get_by_test_id("reflow")).to_contain_text("the shorter time control")

            # Moving a start needs a reason; too early a start is planned legally, with a warning.
            page.get_by_test_id("move-start").locator("summary").click()
            page.get_by_test_id("ms-game").select_option("1:1")
            page.get_by_test_id("ms-at").fill(local_input(page, 5))
            page.get_by_test_id("ms-submit").click()
            expect(page.locator('[data-testid="cmd"][data-type="move-start"]')).to_have_count(0)
            page.get_by_test_id("ms-reason").fill("both players are ready")
            page.get_by_test_id("ms-submit").click()
            expect(page.get_by_test_id("change-start-moved")).to_contain_text(
                "both players are ready")
            expect(page.get_by_test_id("warnings")).to_contain_text("earlier than allowed")
            save_screenshot(page, "console-plan", full_page=True)




def test_extra_boards_are_scored_on_the_page_until_the_match_is_decided(
    tmp_path: Path, browser: Browser
) -> None:
    from playwright.sync_api import expect

    with running_server(tmp_path / "log.db") as server:
        created = ok(server.client().post("/api/events", json=BRIDGE))
        chief = server.client(created["chief_token"])
        made = ok(chief.post(f"/api/events/{created['id']}/extra-boards",
                             json={"home": "N", "away": "S", "scheduled": 16}))
        url = f"{server.base_url}/arbiter/{made['id']}"
        with console(browser, url, created["chief_token"], wrong_token="not-a-token") as page:
            card = page.get_by_test_id("extra-boards")
            expect(card).to_contain_text("North London v Surrey")
            expect(page.get_by_test_id("timeline-game-1-1")).to_be_visible()
            for board, table, score in ((1, 1, 420), (1, 2, 420), (2, 1, -100), (2, 2, -50)):
                page.get_by_test_id("board-board").select_option(str(board))
                page.get_by_test_id(f"board-table-{table}").check()
                page.get_by_test_id("board-ns").fill(str(score))
                page.get_by_test_id("board-submit").click()
                expect(page.locator('[data-testid="cmd"]').first).to_have_attribute(
                    "data-status", "ok")
            expect(page.get_by_test_id("running-total")).to_have_text("0–2")
            expect(page.get_by_test_id("extra-winner")).to_contain_text("Surrey win the match")
            expect(page.get_by_test_id("board-form")).to_have_count(0)
            # Each table's column names the team sitting North-South there.
            headings = card.locator("table.boards th").all_inner_texts()
            assert headings[1:3] == [
                "Table 1: North London North-South", "Table 2: Surrey North-South"]
            save_screenshot(page, "console-extra-boards", full_page=True)

            # The slip of board 2 at table 2 was misread: -100, not -50. Flat board, a
            # level stanza: Surrey's win is voided, which the chief arbiter confirms.
            page.get_by_test_id("board-correct").locator("summary").click()
            page.get_by_test_id("bc-entry").select_option("1:2:2")
            page.get_by_test_id("bc-ns").fill("-100")
            page.get_by_test_id("bc-reason").fill("the travelling slip was misread")
            page.get_by_test_id("bc-submit").click()
            alert = page.get_by_test_id("alert-error")
            expect(alert.get_by_test_id("alert-reason")).to_contain_text(
                "this correction voids Surrey as the winner of the match")
            expect(page.get_by_test_id("extra-winner")).to_contain_text("Surrey win the match")
            page.get_by_test_id("bc-confirm").check()
            page.get_by_test_id("bc-submit").click()
            expect(page.get_by_test_id("extra-status")).to_contain_text("Stanza 2 in play")
            expect(page.get_by_test_id("running-total")).to_have_text("0–0")
            expect(page.get_by_test_id("board-form")).to_be_visible()




def press(panel: Locator, side: str, move: int) -> None:
    """Press ``side``'s clock after move ``move``, as the page offers it."""
    from playwright.sync_api import expect

    face = panel.get_by_test_id(f"press-{side}")
    expect(face).to_be_enabled()
    expect(face).to_contain_text(f"press after move {move}")
    face.click()
    expect(panel.get_by_test_id(f"moves-{side}")).to_contain_text(f"moves {move}")
    expect(face).to_be_disabled()




def test_a_game_voided_by_a_correction_is_played_again_from_move_one(
    tmp_path: Path, browser: Browser
) -> None:
    """UzChess Cup Masters 2025 (GCT 2015 reg. 7): Abdusattorov v Sindarov, the winner
    plays Praggnanandhaa in the final. Abdusattorov wins game 1 and draws game 2; the
    final's game 1 is played, with presses. Then game 1 of match 1 is corrected to a
    win for Sindarov, from that game's own row: the form says first that this voids
    the final's game 1 and gives match 1 to Sindarov, and sends nothing until the
    arbiter ticks the confirmation. He reaches the final instead, the change log
    lists what was voided, and the final's game 1 is played again: its clock counts
    moves from 1 and every press is accepted."""
    from playwright.sync_api import expect

    with running_server(tmp_path / "log.db") as server:
        created = ok(server.client().post(
            "/api/events", content=uzchess_json().encode(),
            headers={"Content-Type": "application/json"},
        ))
        token = created["chief_token"]
        playoff = ok(server.client(token).post(f"/api/events/{created['id']}/playoff", json={}))
        url = f"{server.base_url}/arbiter/{playoff['id']}"
        with console(browser, url, token) as page:
            # ---- match 1, game 1: Abdusattorov (White) wins, after a few presses
            lots_by_hand(page, 1, ABDU)
            game1 = page.get_by_test_id("game-panel-1-1")
            game1.get_by_test_id("start").click()  # the main event ended last night
            for side, move in (("white", 1), ("black", 1), ("white", 2)):
                press(game1, side, move)
            record(game1, "result-1-0")
            expect(page.get_by_test_id("game-1-1-result")).to_have_text("1-0")
            game2 = page.get_by_test_id("game-panel-1-2")
            start_anyway(game2, "both players waive the interval")
            record(game2, "result-draw")
            expect(page.get_by_test_id("winner-1")).to_have_text(
                "Abdusattorov, Nodirbek advances")
            expect(page.get_by_test_id("score-1")).to_have_text(
                "Abdusattorov, Nodirbek 1½–½ Sindarov, Javokhir")

            # ---- the final's game 1, with presses and a result
            final = page.get_by_test_id("match-2")
            expect(final).to_contain_text("Praggnanandhaa R – Abdusattorov, Nodirbek")
            lots_by_hand(page, 2, PRAGG)
            played = page.get_by_test_id("game-panel-2-1")
            start_anyway(played, "Abdusattorov waives the interval")
            for side, move in (("white", 1), ("black", 1), ("white", 2), ("black", 2)):
                press(played, side, move)
            record(played, "result-1-0")
            expect(page.get_by_test_id("game-2-1-result")).to_have_text("1-0")

            # ---- the correction, from game 1's own row: first what it voids
            row = page.get_by_test_id("game-row-1-1")
            row.get_by_test_id("correct-1-1").locator("summary").click()
            row.get_by_test_id("cr-result").select_option("0-1")
            caution = row.locator('[data-testid="cr-result-caution"]:visible')
            expect(caution).to_contain_text("This correction voids:")
            expect(caution).to_contain_text(
                "Final (reg. 6), game 1: Praggnanandhaa R – Abdusattorov, Nodirbek 1-0")
            expect(caution).to_contain_text(
                "Sindarov, Javokhir wins Seeds 2 v 3 (reg. 7) instead of Abdusattorov, Nodirbek")
            row.get_by_test_id("cr-reason").fill("the scoresheets were swapped")
            row.get_by_test_id("cr-submit").click()  # not confirmed: nothing is sent
            expect(page.locator('[data-testid="cmd"][data-type="correct"]')).to_have_count(0)
            expect(page.get_by_test_id("game-2-1-result")).to_have_text("1-0")
            row.get_by_test_id("cr-confirm").check()
            row.get_by_test_id("cr-submit").click()
            change = page.get_by_test_id("change-result-corrected")
            expect(change).to_contain_text("the scoresheets were swapped")
            expect(change.get_by_test_id("change-voided")).to_contain_text(
                "Final (reg. 6), game 1: Praggnanandhaa R – Abdusattorov, Nodirbek 1-0, "
                "to be played again")
            expect(page.get_by_test_id("winner-1")).to_have_text("Sindarov, Javokhir advances")
            expect(final).to_contain_text("Praggnanandhaa R – Sindarov, Javokhir")
            expect(page.get_by_test_id("game-2-1-result")).to_have_text("")
            expect(page.get_by_test_id("game-2-1-state")).to_have_text("to play")

            # ---- the voided game again: new lots, a fresh clock, presses from move 1
            lots_by_hand(page, 2, PRAGG)
            replay = page.get_by_test_id("game-panel-2-1")
            expect(replay.get_by_test_id("time-white")).to_have_text("25:00")
            start_anyway(replay, "Sindarov waives the interval")
            expect(replay.get_by_test_id("moves-white")).to_have_text(
                "moves 0 · press after move 1")
            page.wait_for_timeout(1200)
            press(replay, "white", 1)
            # White was credited its 5 s increment; Black's clock now runs down.
            expect(replay.get_by_test_id("time-white")).to_have_text(re.compile(r"^25:0[1-5]$"))
            expect(replay.get_by_test_id("time-black")).to_have_text(re.compile(r"^24:5\d$"))
            press(replay, "black", 1)
            press(replay, "white", 2)
            expect(page.get_by_test_id("alert-error")).to_have_count(0)
            expect(page.locator('[data-testid="cmd"][data-status="error"]')).to_have_count(0)
            save_screenshot(page, "console-replayed-game", full_page=True)

        log = ok(server.client(token).get(f"/api/playoffs/{playoff['id']}/events"))["events"]
        corrected = next(e["seq"] for e in log if e["type"] == "result-corrected")
        replayed = [
            (e["data"]["side"], e["data"]["move"]) for e in log
            if e["type"] == "clock-pressed" and e["seq"] > corrected
        ]
        assert replayed == [("white", 1), ("black", 1), ("white", 2)]
