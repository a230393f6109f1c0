"""The board clock the players press, on touch tablets in Debian Chromium, against the
real service on a real port: the hall display and the arbiter console follow it.

- Two tablets on the board of match 1 play game 1 of the UzChess Cup play-off (GCT
  rules): each tap switches the halves at once, the other tablet, the hall display
  and the console follow, and the result ends the game on the board.
- The Armageddon: "DRAW = BLACK WINS", its increment in words, and the 3 seconds
  added from White's 61st move on, not before.
- A call for the arbiter stops the clocks and alerts the console with the board and
  the time; the board cannot resume, the arbiter's console does.
- An outage: presses made off line are held with their stamps, sent in order when
  the link is back, and charged at their stamps.
- A flag: at 0 the board says it has sent every press up to then, and shows the flag
  the server announced.
- Its language: the address's ``?lang=`` or the board key's. In the pseudo-language
  ``en-XA`` every text on it is in [brackets] but the names and the clocks' digits,
  and nothing is cut off on a phone, though every text is 40 % longer.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.support.board import (
    PHONE,
    board_key,
    board_page,
    bracketed,
    clock_url,
    events,
    settled,
    state,
    tap,
    visible_texts,
    wait_running,
)
from tests.support.browser import browser, save_screenshot
from tests.support.console import console
from tests.support.display import (
    Playoff,
    SkippableTime,
    chess_playoff,
    fits,
    level_after_two_games,
    ok,
    opened,
)
from tests.support.events import ABDU, SINDAROV
from tests.support.server import RunningServer, running_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

__all__ = ["browser"]  # the fixture, from tests/support/browser.py


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    db: Path = tmp_path_factory.mktemp("board") / "log.db"
    with running_server(db, SkippableTime()) as running:
        yield running


def text_of(page: Page, place: str) -> str:
    return page.get_by_test_id(f"half-{place}").inner_text()


def test_two_tablets_play_a_game_with_the_hall_and_the_console_following(
    browser: Browser, server: RunningServer
) -> None:
    from playwright.sync_api import expect

    playoff = chess_playoff(server)
    key = board_key(playoff, 1)
    assert key["role"] == "board" and key["match"] == 1
    assert key["link"] == f"/clock/{playoff.id}#key={key['token']}"
    assert key["qr_svg"].lstrip().startswith("<")
    url = clock_url(playoff, key)
    with (
        board_page(browser, url) as one,
        board_page(browser, url) as two,
        opened(browser, playoff.url) as hall,
        console(browser, f"{server.base_url}/arbiter/{playoff.id}", playoff.token) as arbiter,
    ):
        # Before the start: names and colours, White on the left, nothing to press.
        left = one.get_by_test_id("half-left")
        expect(left).to_have_attribute("data-side", "white")
        expect(left).to_contain_text("Abdusattorov")
        expect(one.get_by_test_id("half-right")).to_contain_text("Sindarov")
        tap(one, "white")
        assert state(one)["sent"] == []

        playoff.game(1, 1, "start")
        wait_running(one, "white")
        wait_running(two, "white")
        save_screenshot(one, "board-clock-1280x800")
        # White moves and taps on one tablet, Black on the other: each sees both.
        for move in range(1, 4):
            tap(one, "white")
            wait_running(one, "black", timeout=500)  # at once, before any answer
            wait_running(two, "black")
            tap(two, "black")
            wait_running(two, "white", timeout=500)
            wait_running(one, "white")
            settled(one)
            settled(two)
            expect(one.get_by_test_id("half-left")).to_contain_text(f"Moves: {move}")
        sent = sorted(state(one)["sent"] + state(two)["sent"], key=lambda p: p["stamp_ms"])
        assert [p["side"] for p in sent] == ["white", "black"] * 3
        assert all(p["queued"] is False and isinstance(p["stamp_ms"], int) for p in sent)
        pressed = events(playoff, "clock-pressed")
        assert len(pressed) == 6
        assert all(p["charged"] == "stamp" for p in pressed), pressed
        assert [p["stamp_ms"] for p in pressed] == [p["stamp_ms"] for p in sent]

        # The hall and the console follow the board.
        hall.wait_for_function(
            "document.querySelector('[data-testid=\"clock-white\"]')"
            "?.dataset.running === 'true'", timeout=2000)
        panel = arbiter.get_by_test_id("game-panel-1-1")
        expect(panel.get_by_test_id("moves-white")).to_contain_text("moves 3")
        board = arbiter.get_by_test_id("board-1")
        expect(board.get_by_test_id("board-conn-1")).to_have_attribute("data-online", "true")

        # The arbiter puts Black on the left: the halves swap on both tablets.
        board.get_by_test_id("board-left-1").select_option("black")
        expect(one.get_by_test_id("half-left")).to_have_attribute("data-side", "black")
        expect(two.get_by_test_id("half-left")).to_have_attribute("data-side", "black")

        # A key press: "l" is the right half (White now).
        one.keyboard.press("l")
        wait_running(two, "black")
        settled(one)

        # The result ends the game on the board, which then waits for game 2.
        playoff.game(1, 1, "result", {"result": "1-0"})
        for tablet in (one, two):
            expect(tablet.get_by_test_id("game")).to_have_text("Game 2")
            expect(tablet.get_by_test_id("notice")).to_contain_text("start the game")
        tap(one, "white")
        assert len(state(one)["sent"]) == 4  # nothing to press before the start


def test_the_armageddon_draw_odds_and_its_increment_from_move_61(
    browser: Browser, server: RunningServer
) -> None:
    from playwright.sync_api import expect

    playoff = chess_playoff(server)
    level_after_two_games(playoff)
    playoff.post("/matches/1/coin-toss", {"method": "physical", "winner": SINDAROV})
    playoff.post("/matches/1/armageddon-colours", {"white": ABDU, "black": SINDAROV})
    url = clock_url(playoff, board_key(playoff, 1))
    with board_page(browser, url, PHONE) as page:
        expect(page.get_by_test_id("draw-means")).to_have_text("DRAW = BLACK WINS")
        expect(page.get_by_test_id("half-left")).to_contain_text("+3 s from move 61")
        playoff.game(1, 3, "start")
        wait_running(page, "white")
        save_screenshot(page, "board-clock-phone-armageddon")
        for _ in range(60):
            tap(page, "white")
            wait_running(page, "black", timeout=500)
            tap(page, "black")
            wait_running(page, "white", timeout=500)
        settled(page, timeout=10_000)
        pressed = events(playoff, "clock-pressed")
        white = [p for p in pressed if p["side"] == "white" and p["game"] == 3]
        assert [p["move"] for p in white] == list(range(1, 61))
        before = state(page)["halves"]["left"]["ms"]
        tap(page, "white")  # move 61: the first with the increment
        settled(page)
        after = state(page)["halves"]["left"]["ms"]
        assert after > before + 2000, (before, after)


def test_a_call_for_the_arbiter_stops_the_clocks_until_an_arbiter_resumes(
    browser: Browser, server: RunningServer
) -> None:
    from playwright.sync_api import expect

    playoff = chess_playoff(server)
    url = clock_url(playoff, board_key(playoff, 1))
    with (
        board_page(browser, url, {"width": 800, "height": 1280}) as page,
        console(browser, f"{server.base_url}/arbiter/{playoff.id}", playoff.token) as arbiter,
    ):
        playoff.game(1, 1, "start")
        wait_running(page, "white")
        tap(page, "white")
        settled(page)
        # One tap never calls: the call is confirmed first, and a cancel sends nothing.
        page.get_by_test_id("call-arbiter").tap()
        expect(page.get_by_test_id("confirm-call")).to_be_visible()
        page.get_by_test_id("call-cancel").tap()
        expect(page.get_by_test_id("confirm-call")).to_be_hidden()
        expect(arbiter.get_by_test_id("call-1")).to_have_count(0)
        page.get_by_test_id("call-arbiter").tap()
        page.get_by_test_id("call-confirm").tap()
        expect(page.get_by_test_id("called")).to_contain_text("Arbiter called at")
        alert = arbiter.get_by_test_id("call-1")
        expect(alert).to_contain_text("Arbiter called at the board")
        expect(alert).to_contain_text("Abdusattorov")
        save_screenshot(page, "board-clock-called-800x1280")
        save_screenshot(arbiter, "console-board-call")
        assert events(playoff, "arbiter-called")[0]["match"] == 1
        # Taps do nothing while called.
        frozen = state(page)["halves"]
        tap(page, "black")
        page.wait_for_timeout(300)
        assert state(page)["halves"]["left"]["text"] == frozen["left"]["text"]
        alert.get_by_test_id("call-resume-1").click()
        expect(arbiter.get_by_test_id("call-1")).to_have_count(0)
        wait_running(page, "black")
        expect(page.get_by_test_id("called")).to_be_hidden()


def test_presses_made_off_line_are_sent_in_order_and_charged_at_their_stamps(
    browser: Browser, server: RunningServer
) -> None:
    playoff = chess_playoff(server)
    url = clock_url(playoff, board_key(playoff, 1))
    with board_page(browser, url) as page:
        playoff.game(1, 1, "start")
        wait_running(page, "white")
        page.context.set_offline(True)
        page.wait_for_function("window.boardState.connection !== 'live'", timeout=15_000)
        # The clocks run on, the players press on; the page says it is off line, quietly.
        for side in ("white", "black", "white"):
            page.wait_for_timeout(400)
            tap(page, side)
        assert state(page)["queued"] == 3
        assert "offline" in page.get_by_test_id("connection").inner_text()
        save_screenshot(page, "board-clock-offline")
        page.context.set_offline(False)
        page.wait_for_function("window.boardState.connection === 'live'", timeout=15_000)
        settled(page, timeout=10_000)
        sent = state(page)["sent"]
        assert [(p["side"], p["queued"]) for p in sent] == [
            ("white", True), ("black", True), ("white", True)]
        pressed = events(playoff, "clock-pressed")
        assert [p["stamp_ms"] for p in pressed] == [p["stamp_ms"] for p in sent]
        assert all(p["charged"] == "stamp" for p in pressed), pressed
        wait_running(page, "black")


def test_the_flag_at_zero_as_the_server_announces_it(
    browser: Browser, server: RunningServer
) -> None:
    from playwright.sync_api import expect

    playoff: Playoff = chess_playoff(server)
    url = clock_url(playoff, board_key(playoff, 1))
    with board_page(browser, url) as page:
        playoff.game(1, 1, "start")
        wait_running(page, "white")
        left = int(state(page)["halves"]["left"]["ms"])
        playoff.post("/commands", {
            "type": "adjust", "match": 1, "game": 1, "side": "white", "delta_ms": 1500 - left,
            "reason": "a short clock to see the flag",
        })
        flag = page.get_by_test_id("half-left").locator('[data-role="flag"]')
        expect(flag).to_be_visible(timeout=6000)
        expect(page.get_by_test_id("half-left").locator('[data-role="time"]')).to_have_text("0.0")
        (flag_fell,) = events(playoff, "flag-fell")
        assert flag_fell["side"] == "white"
        # At its own 0.0 the page told the server it had sent every press up to then,
        # so the flag needed no wait for a press still on its way.
        assert any(through >= flag_fell["at_ms"] for through in state(page)["through"])
        save_screenshot(page, "board-clock-flag")


def test_the_tablets_time_never_runs_back_under_a_correction_of_its_offset(
    browser: Browser, server: RunningServer
) -> None:
    """A board that said "every press stamped before now is sent" must never stamp a
    later press earlier than that: a correction of its offset that would take its time
    back holds it still instead, and only one of more than a second (another server, a
    tablet's clock reset) is taken at once."""
    playoff: Playoff = chess_playoff(server)
    url = clock_url(playoff, board_key(playoff, 1))
    with board_page(browser, url) as page:
        readings = page.evaluate("""async () => {
          const { PlayoffConnection } = await import("/static/common/connection.js");
          const conn = new PlayoffConnection({ playoffId: "p", token: "t", client: "test",
                                               view: "hall" });
          conn.offsetMs = 10000;
          const before = conn.runningNow();
          conn.offsetMs -= 80;          // the estimate corrected 80 ms back
          const held = conn.runningNow();
          await new Promise((done) => setTimeout(done, 120));
          const after = conn.runningNow();  // the true time has caught up
          conn.offsetMs -= 5000;        // another clock altogether
          const reset = conn.runningNow();
          return { before, held, after, reset };
        }""")
    assert readings["held"] >= readings["before"]
    assert readings["after"] > readings["held"]
    assert readings["after"] - readings["before"] < 120  # held still, then ran on
    assert readings["reset"] < readings["after"] - 3000


DIGITS = re.compile(r"^[\d:.]+$|^—$")
"""A clock's digits (or its dash before the game): a figure in every language."""


def in_language(url: str, lang: str) -> str:
    address, _, fragment = url.partition("#")
    return f"{address}?lang={lang}#{fragment}"


def speaks(page: Page, lang: str) -> None:
    page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)


def unworded(page: Page, names: set[str]) -> list[str]:
    """The visible texts not in ``en-XA`` but names and digits; none cut off (else the
    texts cut off, marked)."""
    scroll_width, inner_width, scroll_height, inner_height = fits(page)
    assert scroll_width <= inner_width and scroll_height <= inner_height
    found = visible_texts(page)
    assert len(found["texts"]) >= 8  # the halves, the bar and its buttons at least
    assert found["cut"] == [], found["cut"]
    assert bracketed(found["title"]), found["title"]
    return [
        text for text in found["texts"]
        if not bracketed(text) and text not in names and not DIGITS.match(text)
    ]


def names_of(playoff: Playoff, key: dict[str, object]) -> set[str]:
    with playoff.server.client(str(key["token"])) as board:
        view = ok(board.get(f"/api/playoffs/{playoff.id}/view", params={"kind": "board"}))
    return {player["name"] for player in view["players"].values()}


def test_the_board_clock_in_the_pseudo_language_is_worded_whole_on_a_phone(
    browser: Browser, server: RunningServer
) -> None:
    from playwright.sync_api import expect

    playoff = chess_playoff(server)
    key = board_key(playoff, 1)
    names = names_of(playoff, key)
    with board_page(browser, in_language(clock_url(playoff, key), "en-XA"), PHONE) as page:
        speaks(page, "en-XA")
        expect(page.get_by_test_id("game")).to_contain_text("[Ĝåmé 1")
        assert unworded(page, names) == []
        playoff.game(1, 1, "start")
        wait_running(page, "white")
        tap(page, "white")
        wait_running(page, "black")
        expect(page.get_by_test_id("half-left")).to_contain_text("[Mövéš: 1")
        assert unworded(page, names) == []
        save_screenshot(page, "board-clock-phone-en-XA")
        page.get_by_test_id("call-arbiter").tap()
        expect(page.get_by_test_id("confirm-call")).to_be_visible()
        assert unworded(page, names) == []
        page.get_by_test_id("call-confirm").tap()
        expect(page.get_by_test_id("called")).to_be_visible()
        assert unworded(page, names) == []
        save_screenshot(page, "board-clock-phone-called-en-XA")
    # Landscape too: the halves side by side, the bar narrow between them.
    url = in_language(clock_url(playoff, key), "en-XA")
    with board_page(browser, url, {"width": PHONE["height"], "height": PHONE["width"]}) as page:
        speaks(page, "en-XA")
        assert unworded(page, names) == []


def test_the_armageddon_in_the_board_keys_language(
    browser: Browser, server: RunningServer
) -> None:
    from playwright.sync_api import expect

    playoff = chess_playoff(server)
    level_after_two_games(playoff)
    playoff.post("/matches/1/coin-toss", {"method": "physical", "winner": SINDAROV})
    playoff.post("/matches/1/armageddon-colours", {"white": ABDU, "black": SINDAROV})
    with playoff.server.client(playoff.token) as chief:
        event_id = ok(chief.get(f"/api/playoffs/{playoff.id}"))["event_id"]
        key = ok(chief.post(f"/api/events/{event_id}/tokens", json={
            "role": "board", "playoff": playoff.id, "match": 1, "language": "en-XA",
        }))
    names = names_of(playoff, key)
    with board_page(browser, clock_url(playoff, key), PHONE) as page:
        speaks(page, "en-XA")
        expect(page.get_by_test_id("draw-means")).to_contain_text("[ÐŔÅŴ = BĻÅÇĶ ŴÎÑŠ")
        expect(page.get_by_test_id("half-left")).to_contain_text("[+3 š fŕöm mövé 61")
        # The decider's name is the format's own (worded by playoff_formats).
        decider = page.get_by_test_id("game").inner_text()
        assert unworded(page, names | {decider}) == []
        save_screenshot(page, "board-clock-phone-armageddon-en-XA")
