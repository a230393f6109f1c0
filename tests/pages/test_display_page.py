"""The hall display (``clients/display``) in Debian Chromium against the real service.

The server runs on the system clock (so the page's own countdown between messages
is real time), which the tests may move forward between games: a player's games
are at least 10 minutes apart, as GCT 2015 reg. 5 prefers and the service
requires, without waiting for them. Presses go through the websocket as an
arbiter would (``clients.python.PlayoffClient``); the rest through the REST API.
The page renders the hall view the server sends over the websocket and reads
nothing else: every test records the page's requests and checks that none went to
the REST API. With ``TEST_SCREENSHOTS=1`` each test saves a screenshot in
``test-artifacts/``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests import support
from tests.support import ROOT
from tests.support.events import ABDU, PRAGG, SINDAROV

pytest.importorskip("playwright.sync_api", reason="the browser tests need playwright")

from orchestrator.views.hall import STANZA_DUE
from tests.support.browser import browser, save_screenshot
from tests.support.display import (
    CLOCK,
    Playoff,
    SkippableTime,
    bridge_playoff,
    chess_playoff,
    fits,
    key_never_sent,
    level_after_two_games,
    no_rest_reads,
    ok,
    opened,
    record_requests,
    skip,
    wait_text,
)
from tests.support.events import uzchess_json
from tests.support.server import RunningServer, free_port, running_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

__all__ = ["browser"]  # the fixture, from tests/support/browser.py

DATA = support.DATA / "uzchess-cup-masters-2025.json"






def clock_text(ms: int) -> str:
    """What a screen shows for ``ms`` (formatClock, clients/common/time.js): the time
    cut to the tenth under ten seconds, else to the second."""
    ms = max(0, ms)
    if ms < 10_000:
        tenths = ms // 100
        return f"{tenths // 10}.{tenths % 10}"
    s = ms // 1000
    h, m, sec = s // 3600, s % 3600 // 60, s % 60
    return f"{h}:{m:02}:{sec:02}" if h else f"{m}:{sec:02}"
























def shown(page: Page, key: str = "1:1") -> dict[str, Any]:
    state: dict[str, Any] = page.evaluate(
        "k => ({...window.displayState, clock: window.displayState.clocks[k] || null})",
        key,
    )
    return state






# --------------------------------------------------------------------------- clocks


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    db = tmp_path_factory.mktemp("display") / "log.db"
    with running_server(db, SkippableTime()) as running:
        yield running


def test_the_clocks_follow_an_arbiters_press_within_a_second(
    browser: Browser, server: RunningServer
) -> None:
    playoff = chess_playoff(server)
    with opened(browser, playoff.url) as page:
        assert page.get_by_test_id("connection").get_attribute("data-state") == "live"
        assert page.evaluate("window.displayState.clocks") == {}
        started = playoff.game(1, 1, "start")["events"][0]["clock"]
        assert started["running"] == "white"
        page.wait_for_function(
            f"{CLOCK.format(side='white')}?.dataset.running === 'true'", timeout=1000
        )
        assert page.get_by_test_id("clock-black").inner_text() == "25:00"
        assert page.get_by_test_id("clock-black").get_attribute("data-running") == "false"

        time.sleep(0.4)
        playoff.command("press", match=1, game=1, side="white", move=1)
        pressed = time.monotonic()
        page.wait_for_function(
            f"{CLOCK.format(side='black')}?.dataset.running === 'true'"
            f" && {CLOCK.format(side='white')}.dataset.running === 'false'",
            timeout=1000,
        )
        assert time.monotonic() - pressed < 1.0
        clock = playoff.hall()["clocks"]["1:1"]
        assert clock["running"] == "black"
        state = shown(page)
        # G/25+5: White used about 0.4 s and got the 5 s increment.
        assert state["clock"]["white_ms"] == clock["white_ms"]
        assert 1_500_000 < clock["white_ms"] < 1_505_000
        assert state["clock"]["running"] == "black"
        assert page.get_by_test_id("clock-white").inner_text() == clock_text(clock["white_ms"])
        assert 1_500_000 - 5_000 < state["clock"]["black_ms"] <= 1_500_000  # Black's runs
        # Names and seeds next to the clocks, the bracket with the seeds.
        game = page.get_by_test_id("game")
        assert "Abdusattorov" in game.inner_text() and "Sindarov" in game.inner_text()
        seeds = page.locator("[data-testid=bracket-player][data-seed]")
        assert sorted(seeds.evaluate_all("els => els.map(e => e.dataset.seed)")) == ["1", "2", "3"]
        save_screenshot(page, "display-press")


def test_the_clocks_count_down_between_messages(
    browser: Browser, server: RunningServer
) -> None:
    playoff = chess_playoff(server)
    with opened(browser, playoff.url) as page:
        playoff.game(1, 1, "start")
        page.wait_for_function(
            f"{CLOCK.format(side='white')}?.dataset.running === 'true'", timeout=1000
        )
        first = shown(page)
        first_text = page.get_by_test_id("clock-white").inner_text()
        time.sleep(1.5)
        second = shown(page)
        assert second["clockMessages"] == first["clockMessages"]
        assert second["events"] == first["events"]
        # The page's own time between the two drawings, against what the clock lost.
        elapsed = second["shownAt"] - first["shownAt"]
        dropped = first["clock"]["white_ms"] - second["clock"]["white_ms"]
        assert 1400 <= elapsed <= 3000
        assert abs(dropped - elapsed) < 100, (dropped, elapsed)
        assert second["clock"]["black_ms"] == first["clock"]["black_ms"] == 1_500_000
        assert page.get_by_test_id("clock-white").inner_text() != first_text

        # Low time: red and pulsing under a minute, tenths under ten seconds.
        left = second["clock"]["white_ms"]
        playoff.command("adjust", match=1, game=1, side="white", delta_ms=-(left - 40_000),
                        reason="arbiter's test")
        white = page.get_by_test_id("clock-white")
        page.wait_for_function(f"{CLOCK.format(side='white')}.dataset.low === 'low'", timeout=1000)
        assert white.inner_text().startswith("0:")
        playoff.command("adjust", match=1, game=1, side="white", delta_ms=-31_000,
                        reason="arbiter's test")
        page.wait_for_function(
            f"{CLOCK.format(side='white')}.dataset.low === 'critical'", timeout=1000
        )
        assert white.get_attribute("data-running") == "true"
        text = white.inner_text()
        assert len(text) == 3 and text[1] == "." and text[0] in "6789", text
        colour = white.evaluate("e => getComputedStyle(e).color")
        assert colour == "rgb(255, 69, 69)"
        save_screenshot(page, "display-low-time")


def test_every_screen_writes_a_clock_the_same_way(browser: Browser, server: RunningServer) -> None:
    """One rounding (the time is cut, never rounded up) and one tenths threshold
    (under 10 s), in clients/common/time.js, which the display and the arbiter
    console both import."""
    playoff = chess_playoff(server)
    with opened(browser, playoff.url) as page:
        readings = page.evaluate(
            """async (values) => {
                const time = await import('/static/common/time.js');
                return values.map((ms) => [time.formatClock(ms), time.clockUrgency(ms)]);
            }""",
            [1_500_000, 1_499_999, 3_600_000, 3_909_500, 60_000, 59_999, 10_999, 10_000,
             9_999, 9_400, 100, 99, 0],
        )
    assert readings == [
        ["25:00", "no"], ["24:59", "no"], ["1:00:00", "no"], ["1:05:09", "no"],
        ["1:00", "no"], ["0:59", "low"], ["0:10", "low"], ["0:10", "low"],
        ["9.9", "critical"], ["9.4", "critical"], ["0.1", "critical"], ["0.0", "critical"],
        ["0.0", "critical"],
    ]
    assert [clock_text(ms) for ms in (1_499_999, 10_999, 9_999, 99)] == [
        "24:59", "0:10", "9.9", "0.0"
    ]
    for script in ("display/tick.js", "console/console.js"):
        source = (ROOT / "clients" / script).read_text()
        assert "formatClock" in source and "../common/time.js" in source, script


# --------------------------------------------------------------------------- the countdown


def test_one_countdown_to_the_next_games_start_whatever_pause_is_in_force(
    browser: Browser, server: RunningServer
) -> None:
    """The main event ended 25 minutes ago: its 30-minute break (GCT 2015 reg. 5)
    ends in 5 minutes, but the organiser's earliest start is 15 minutes away. The
    hall says which pause is in force and counts down once, to the game's start;
    while the game is played it shows no pause."""
    now = server.service.time.now()
    playoff = chess_playoff(
        server, event=uzchess_json(now - timedelta(minutes=25)),
        not_before=(now + timedelta(minutes=15)).isoformat(),
    )
    view = playoff.hall()
    assert view["break"]["kind"] == "main-event"
    assert view["countdown"]["until_ms"] == view["next"]["due_ms"] > view["break"]["end_ms"]
    with opened(browser, playoff.url) as page:
        wait_text(page, "idle-label", "Break after the main event")
        counting = page.locator("[data-until]")
        assert counting.count() == 1
        # An instant put on the server's clock from the wall clock, once for the page
        # and once for this request, may come out a millisecond apart.
        until = int(counting.get_attribute("data-until") or 0)
        assert abs(until - view["countdown"]["until_ms"]) <= 1
        shown_left = page.get_by_test_id("idle-countdown").inner_text()
        minutes, seconds = (int(x) for x in shown_left.split(":"))
        assert 14 * 60 <= minutes * 60 + seconds <= 15 * 60, shown_left
        idle = page.get_by_test_id("idle").inner_text()
        assert f"planned start {view['countdown']['at']}" in idle
        assert "ends in" not in page.locator("body").inner_text()
        save_screenshot(page, "display-countdown")

        # Once the break is over the arbiters start, before the organiser's time.
        skip(server, 5)
        playoff.game(1, 1, "start")
        page.wait_for_function(
            f"{CLOCK.format(side='white')}?.dataset.running === 'true'", timeout=5000
        )
        assert page.locator("[data-testid=break]").count() == 0
        assert page.locator("[data-until]").count() == 0  # game 2 waits on game 1
        when = page.get_by_test_id("next-countdown").inner_text()
        assert when.startswith("about "), when


# --------------------------------------------------------------------------- flags


def test_a_flag_fall_is_announced_until_the_next_game_starts(
    browser: Browser, server: RunningServer
) -> None:
    playoff = chess_playoff(server)
    with opened(browser, playoff.url) as page:
        playoff.game(1, 1, "start")
        page.wait_for_function(
            f"{CLOCK.format(side='white')}?.dataset.running === 'true'", timeout=1000
        )
        left = shown(page)["clock"]["white_ms"]
        playoff.command("adjust", match=1, game=1, side="white", delta_ms=-(left - 1_500),
                        reason="arbiter's test")
        wait_text(page, "flag", "White's flag fell: 0-1", timeout=4000)
        flag = page.get_by_test_id("flag").inner_text()
        assert "Seeds 2 v 3 · Game 1" in flag
        assert "Sindarov beat Abdusattorov on time" in flag
        bracket = page.locator("[data-testid=match][data-match='1'] .marks").all_inner_texts()
        assert [marks.split() for marks in bracket][1][0] == "1"
        save_screenshot(page, "display-flag")
        playoff.rest()
        page.wait_for_timeout(300)
        assert page.get_by_test_id("flag").is_visible()  # until the next game starts
        playoff.game(1, 2, "start")
        page.wait_for_function(
            "!document.querySelector('[data-testid=flag]')", timeout=2000
        )


# --------------------------------------------------------------------------- Armageddon


def test_the_armageddon_banner_with_colours_times_and_draw_odds(
    browser: Browser, server: RunningServer
) -> None:
    playoff = chess_playoff(server)
    with opened(browser, playoff.url) as page:
        banner = page.get_by_test_id("armageddon-banner")
        assert banner.is_hidden()
        level_after_two_games(playoff)
        # Before the toss, no colours are implied.
        wait_text(page, "idle", "colours by coin toss")
        players = page.get_by_test_id("idle-players").inner_text()
        assert "–" in players and " v " not in f" {players} "
        playoff.post("/matches/1/coin-toss", {"method": "physical", "winner": SINDAROV})
        wait_text(page, "armageddon-banner", "Coin toss won by Sindarov")
        assert banner.get_attribute("data-state") == "next"
        playoff.post("/matches/1/armageddon-colours", {"white": ABDU, "black": SINDAROV})
        page.get_by_test_id("arm-white").wait_for(timeout=2000)
        assert "Abdusattorov" in page.get_by_test_id("arm-white").inner_text()
        assert "Sindarov" in page.get_by_test_id("arm-black").inner_text()
        rules = page.get_by_test_id("arm-rules").text_content() or ""
        assert "6′ v 5′" in rules
        assert "+3 s from move 61" in rules
        assert "draw = Black wins" in rules

        playoff.game(1, 3, "start")
        page.wait_for_function(
            "document.querySelector('[data-testid=armageddon-banner]').dataset.state === 'on'",
            timeout=2000,
        )
        assert "now playing" in (banner.text_content() or "")
        page.wait_for_function(
            f"{CLOCK.format(side='white')}?.dataset.running === 'true'", timeout=1000
        )
        assert page.get_by_test_id("clock-black").inner_text() == "5:00"
        assert page.get_by_test_id("clock-white").inner_text() in ("6:00", "5:59")
        # The bracket: 1-1 after the regular games, seeds 2 and 3.
        first = page.locator("[data-testid=match][data-match='1']")
        assert first.get_attribute("data-status") == "running"
        totals = first.locator(".total").all_inner_texts()
        assert totals == ["1", "1"]
        save_screenshot(page, "display-armageddon")


# --------------------------------------------------------------------------- the server decides


def test_a_correction_reaches_the_page_as_the_servers_view_alone(
    browser: Browser, server: RunningServer
) -> None:
    """The bracket and the next game change on the page after a correction, as the
    server's hall view says, with no read of the REST API by the page."""
    playoff = chess_playoff(server)
    level_after_two_games(playoff)  # 1-1: the Armageddon is next
    with opened(browser, playoff.url) as page:
        next_game = page.get_by_test_id("next-game")
        assert next_game.inner_text() == "Seeds 2 v 3 · Game 3 · Armageddon"
        first = page.locator("[data-testid=match][data-match='1']")
        assert first.locator(".total").all_inner_texts() == ["1", "1"]
        assert page.get_by_test_id("armageddon-banner").is_visible()
        views = shown(page)["views"]

        with server.client(playoff.token) as chief:
            ok(chief.put(f"/api/playoffs/{playoff.id}/matches/1/games/2/result",
                         json={"result": "0-1", "reason": "the score sheet says Black won"}))
        wait_text(page, "next-game", "Final · Game 1")
        assert shown(page)["views"] > views
        assert first.locator(".total").all_inner_texts() == ["2", "0"]
        # The score is held together by word joiners: never broken across lines.
        said = first.get_by_test_id("decision").inner_text().replace("\u2060", "")
        assert said == "Abdusattorov beat Sindarov 2–0"
        assert first.locator(".advances").get_attribute("data-player") == ABDU
        final = page.locator("[data-testid=match][data-match='2'] [data-testid=bracket-player]")
        assert final.evaluate_all("els => els.map(e => e.dataset.player)") == [PRAGG, ABDU]
        assert page.get_by_test_id("armageddon-banner").is_hidden()
        # Word for word what the server's hall view says.
        view = playoff.hall()
        assert next_game.inner_text() == view["next"]["label"]
        players = page.get_by_test_id("idle-players").inner_text()
        assert "Praggnanandhaa" in players and "Abdusattorov" in players
        assert "colours by lot" in page.get_by_test_id("idle").inner_text()
        assert page.get_by_test_id("title").inner_text() == view["title"]
        save_screenshot(page, "display-after-correction")


# --------------------------------------------------------------------------- bridge


def test_the_extra_board_stanza_scoreboard(browser: Browser, server: RunningServer) -> None:
    playoff = bridge_playoff(server)

    def score(stanza: int, board: int, table: int, ns: int) -> None:
        playoff.post("/board-scores", {"stanza": stanza, "board": board, "table": table,
                                       "ns_score": ns})

    def cells(stanza: int, board: int) -> list[str]:
        row = page.locator(
            f"[data-testid=stanza-board][data-stanza='{stanza}'][data-board='{board}'] td"
        )
        return row.all_inner_texts()

    with opened(browser, playoff.url) as page:
        board = page.get_by_test_id("scoreboard")
        assert "North London" in board.inner_text() and "Surrey" in board.inner_text()
        assert page.get_by_test_id("stanza-number").inner_text().startswith("Stanza 1")
        assert page.get_by_test_id("partner-change").is_visible()
        # Table 1 has played board 1; table 2 has not: nothing shows yet.
        score(1, 1, 1, 620)
        page.wait_for_function(
            "document.querySelector(\"[data-testid=stanza-board][data-stanza='1']"
            "[data-board='1']\")?.dataset.state === 'playing'",
            timeout=2000,
        )
        assert "620" not in board.inner_text()
        assert cells(1, 1) == ["1", "1", "—", "—", "—", "—"]
        for args in ((1, 1, 2, 170), (1, 2, 1, 0), (1, 2, 2, 0)):
            score(*args)
        wait_text(page, "stanza-number", "Stanza 2")
        total = page.get_by_test_id("running-total").locator(".imps").all_inner_texts()
        assert total == ["10", "0"]
        assert page.get_by_test_id("partner-change").inner_text() == (
            "Partners change after this stanza"
        )
        assert cells(1, 1) == ["1", "1", "+620", "+170", "10", ""]
        assert cells(1, 2) == ["", "2", "0", "0", "0", "0"]  # no swing: 0 IMPs
        # Between stanzas: a stanza change, not a chess interval.
        pause = page.get_by_test_id("break")
        assert pause.get_attribute("data-kind") == "stanza-change"
        assert "stanza change" in pause.inner_text().lower()
        assert "interval" not in page.get_by_test_id("side").inner_text().lower()
        assert page.get_by_test_id("next-countdown").inner_text() == STANZA_DUE
        score(2, 1, 1, 100)
        wait_text(page, "next-game", "Stanza 3")
        assert page.locator("[data-testid=break]").count() == 0
        assert fits(page)[0] <= fits(page)[1] and fits(page)[2] <= fits(page)[3]
        save_screenshot(page, "display-extra-boards")


# --------------------------------------------------------------------------- restarts


def test_it_says_it_is_offline_and_stops_its_clocks_then_recovers(
    browser: Browser, tmp_path: Path
) -> None:
    db, port = tmp_path / "log.db", free_port()
    with running_server(db, SkippableTime(), port=port) as first:
        playoff = chess_playoff(first)
        playoff.game(1, 1, "start")
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        page = context.new_page()
        requested = record_requests(page)
        page.goto(playoff.url)
        page.wait_for_function("window.displayState.synced", timeout=5000)
        page.wait_for_function(
            f"{CLOCK.format(side='white')}?.dataset.running === 'true'", timeout=1000
        )
        before = shown(page)
    try:
        # The service is gone: the page says so plainly and its clocks stand still.
        page.wait_for_function(
            "document.querySelector('[data-testid=connection]').dataset.state === 'reconnecting'",
            timeout=3000,
        )
        assert page.get_by_test_id("connection").inner_text() == "offline"
        offline = page.get_by_test_id("offline")
        assert offline.is_visible()
        assert offline.inner_text() == (
            "Connection lost: clocks shown may be behind. Reconnecting…"
        )
        assert page.locator(".game-status").inner_text() == "connection lost: may be behind"
        frozen = page.get_by_test_id("clock-white")
        assert frozen.get_attribute("data-running") == "false"
        held = shown(page)["clock"]["white_ms"]
        held_text = frozen.inner_text()
        time.sleep(0.6)
        assert shown(page)["clock"]["white_ms"] == held and frozen.inner_text() == held_text
        save_screenshot(page, "display-offline")

        with running_server(db, port=port) as second:
            page.wait_for_function("window.displayState.synced", timeout=8000)
            after = shown(page)
            assert after["connection"] == "live"
            assert offline.is_hidden()
            assert after["lastSeq"] == before["lastSeq"]
            assert after["snapshots"] == before["snapshots"] == 1  # resumed, no snapshot
            page.wait_for_function(
                f"{CLOCK.format(side='white')}.dataset.running === 'true'", timeout=1000
            )
            # What happens after the restart reaches the page.
            Playoff(second, playoff.id, playoff.token, playoff.key).command(
                "press", match=1, game=1, side="white", move=1
            )
            page.wait_for_function(
                f"{CLOCK.format(side='black')}.dataset.running === 'true'", timeout=1000
            )
            assert shown(page)["lastSeq"] == before["lastSeq"] + 1
            save_screenshot(page, "display-after-restart")
        no_rest_reads(requested)
        key_never_sent(requested, playoff.key)
    finally:
        context.close()


# --------------------------------------------------------------------------- the key


def test_an_old_link_with_the_key_in_its_query_moves_it_into_the_fragment(
    browser: Browser, server: RunningServer
) -> None:
    """``?key=`` still opens the display; the page moves the key into the fragment
    at once, so that a reload or a bookmark never sends it again."""
    playoff = chess_playoff(server)
    old = f"{server.base_url}/display/{playoff.id}?key={playoff.key}"
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        page = context.new_page()
        page.goto(old)
        page.wait_for_function("window.displayState.synced", timeout=5000)
        where = page.evaluate("({search: location.search, hash: location.hash})")
        assert where == {"search": "", "hash": f"#key={playoff.key}"}
        assert page.url == playoff.url
        requested = record_requests(page)
        page.reload()
        page.wait_for_function("window.displayState.synced", timeout=5000)
        assert shown(page)["connection"] == "live"
        no_rest_reads(requested)
        key_never_sent(requested, playoff.key)
    finally:
        context.close()


def test_without_a_key_the_page_says_where_it_goes(
    browser: Browser, server: RunningServer
) -> None:
    playoff = chess_playoff(server, lots=False)
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        page = context.new_page()
        page.goto(f"{server.base_url}/display/{playoff.id}")
        page.wait_for_function("window.displayState.connection === 'error'", timeout=5000)
        assert page.get_by_test_id("connection").inner_text() == (
            "No display key: open /display/{playoff}#key=…"
        )
    finally:
        context.close()


# --------------------------------------------------------------------------- the end


def test_the_champion_and_the_final_placings(browser: Browser, server: RunningServer) -> None:
    playoff = chess_playoff(server)
    playoff.game(1, 1, "start")
    playoff.game(1, 1, "result", {"result": "1-0"})
    playoff.rest()
    playoff.game(1, 2, "start")
    playoff.game(1, 2, "result", {"result": "0-1"})  # Abdusattorov wins 2-0
    playoff.post("/matches/2/lots", {"method": "physical", "white": PRAGG})
    with opened(browser, playoff.url, 1366, 768) as page:
        decision = page.locator("[data-testid=match][data-match='1'] [data-testid=decision]")
        assert decision.inner_text().replace("\u2060", "") == "Abdusattorov beat Sindarov 2–0"
        advancing = page.locator("[data-testid=match][data-match='1'] .advances")
        assert advancing.get_attribute("data-player") == ABDU
        for game in (1, 2):
            playoff.rest()
            playoff.game(2, game, "start")
            playoff.game(2, game, "result", {"result": "1-0" if game == 1 else "1/2-1/2"})
        page.get_by_test_id("champion").wait_for(timeout=2000)
        assert page.get_by_test_id("champion").inner_text() == "Praggnanandhaa R"
        page.get_by_test_id("placings").wait_for(timeout=2000)
        rows = page.get_by_test_id("placings").locator("tbody tr").all_inner_texts()
        assert [cell.strip().split("\n")[0] for cell in rows[0].split("\t")][:3] == [
            "1", "Praggnanandhaa R", "100,000"
        ]
        assert len(rows) == 3
        # Beside "Abdusattorov beat Sindarov 2–0", places 2 and 3 say where they come
        # from: the play-off decides first place only (GCT 2015 reg. 2).
        assert page.get_by_test_id("placings-note").inner_text() == (
            "The play-off decides first place only; the other places come from the main "
            "event's tiebreaks (reg. 2).")
        # The final's winner is the champion; the other match's winner advanced.
        final = page.locator("[data-testid=match][data-match='2'] [data-testid=bracket-player]")
        assert final.evaluate_all("els => els.map(e => e.dataset.outcome)") == ["champion", "out"]
        assert "advances" not in page.locator("body").inner_text()
        scroll_width, inner_width, scroll_height, inner_height = fits(page)
        assert scroll_width <= inner_width and scroll_height <= inner_height
        save_screenshot(page, "display-champion")
