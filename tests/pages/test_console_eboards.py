"""E-boards on the arbiter console (Debian Chromium, a real server): an e-board its
forwarder reports is listed with its state and battery; the arbiter puts it on a
match from the console; a position no legal move reaches is shown as an alert until
the board shows the game again."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import chess
import pytest

from tests.support.browser import browser, save_screenshot
from tests.support.console import console
from tests.support.display import SkippableTime, chess_playoff
from tests.support.server import RunningServer, running_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser

__all__ = ["browser"]  # the fixture, from tests/support/browser.py


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    db: Path = tmp_path_factory.mktemp("eboards") / "log.db"
    with running_server(db, SkippableTime()) as running:
        yield running


def test_an_eboard_is_put_on_a_match_and_its_alerts_shown(
    browser: Browser, server: RunningServer
) -> None:
    from playwright.sync_api import expect

    playoff = chess_playoff(server)
    playoff.game(1, 1, "start")
    with console(browser, f"{server.base_url}/arbiter/{playoff.id}", playoff.token) as page:
        # The forwarder reports the board (as `playoff-arbiter dgt` does every 10 s).
        playoff.command("eboard-status", serial="23946", state="ACTIVE", battery="84%")
        row = page.get_by_test_id("eboard-23946")
        expect(row).to_contain_text("ACTIVE")
        expect(page.get_by_test_id("eboard-battery-23946")).to_have_text("battery 84%")
        select = page.get_by_test_id("eboard-map-23946")
        expect(select).to_have_value("")
        select.select_option("1")
        expect(select).to_have_value("1")
        assert [e for e in playoff_log(playoff) if e["type"] == "eboard-mapped"]
        # A knocked-over king: the alert, no move.
        board = chess.Board()
        board.push_san("e4")
        playoff.command("board-position", match=1, placement=board.board_fen())
        board.remove_piece_at(chess.E8)
        playoff.command("board-position", match=1, placement=board.board_fen())
        alert = page.get_by_test_id("eboard-alert-23946")
        expect(alert).to_contain_text("no legal move reaches")
        alert.scroll_into_view_if_needed()
        save_screenshot(page, "console-eboard-unread")
        board.set_piece_at(chess.E8, chess.Piece(chess.KING, chess.BLACK))
        playoff.command("board-position", match=1, placement=board.board_fen())
        expect(alert).to_have_count(0)


def playoff_log(playoff: object) -> list[dict[str, object]]:
    from tests.support.display import Playoff

    assert isinstance(playoff, Playoff)
    with playoff.server.client(playoff.token) as http:
        events: list[dict[str, object]] = http.get(
            f"/api/playoffs/{playoff.id}/events").json()["events"]
    return events


def test_the_chief_makes_a_broadcast_key_and_its_feed_answers(
    browser: Browser, server: RunningServer
) -> None:
    import httpx
    from playwright.sync_api import expect

    playoff = chess_playoff(server)
    playoff.game(1, 1, "start")
    with console(browser, f"{server.base_url}/arbiter/{playoff.id}", playoff.token) as page:
        panel = page.get_by_test_id("broadcast-key")
        expect(panel).to_contain_text("Broadcast feed")
        page.get_by_test_id("broadcast-key-make").click()
        link = page.get_by_test_id("broadcast-link")
        expect(link).to_be_visible()
        address = link.input_value()
        assert address.startswith(f"{server.base_url}/api/playoffs/{playoff.id}/broadcast.pgn?key=")
        fed = httpx.get(address, trust_env=False, timeout=10)
        assert fed.status_code == 200 and '[Round "10.1.1.1"]' in fed.text
