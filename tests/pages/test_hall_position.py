"""The hall shows the live position of a game whose e-board gives the moves: a
diagram drawn from the server's ranks, the last move marked and written, beside the
clocks, at the hall's sizes with nothing cut off (Debian Chromium, a real server)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import chess
import pytest

from tests.support.browser import browser, save_screenshot
from tests.support.display import SkippableTime, chess_playoff, fits, opened, wait_text
from tests.support.server import RunningServer, running_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser

__all__ = ["browser"]  # the fixture, from tests/support/browser.py


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    db: Path = tmp_path_factory.mktemp("position") / "log.db"
    with running_server(db, SkippableTime()) as running:
        yield running


OPENING = ("e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4")


@pytest.mark.parametrize("size", [(1920, 1080), (1366, 768), (1080, 1920)])
def test_the_hall_draws_the_position_and_the_last_move(
    browser: Browser, server: RunningServer, size: tuple[int, int]
) -> None:
    playoff = chess_playoff(server)
    playoff.game(1, 1, "start")
    board = chess.Board()
    for san in OPENING:
        board.push_san(san)
        playoff.command("board-position", match=1, placement=board.board_fen())
    width, height = size
    with opened(browser, playoff.url, width, height) as page:
        wait_text(page, "last-move", "4. Nxd4", timeout=5000)
        diagram = page.get_by_test_id("diagram")
        squares = diagram.locator("[data-square]")
        assert squares.count() == 64
        # The knight on d4, White's, and the last move's squares marked.
        knight = diagram.locator('[data-square="d4"] .piece')
        assert knight.inner_text() == "\u265e" and "w" in (knight.get_attribute("class") or "")
        marked = sorted(
            s.get_attribute("data-square") or "" for s in diagram.locator(".sq.last").all()
        )
        assert marked == ["d4", "f3"]
        assert diagram.locator('[data-square="e1"] .piece.w').inner_text() == "\u265a"
        assert diagram.locator('[data-square="c5"] .piece').count() == 0  # c5 went to d4
        # Nothing cut off: the page scrolls neither way, the diagram is square and whole.
        scroll_w, inner_w, scroll_h, inner_h = fits(page)
        assert scroll_w <= inner_w and scroll_h <= inner_h
        box = diagram.bounding_box()
        assert box is not None and abs(box["width"] - box["height"]) < 3
        assert box["width"] >= min(width, height) * 0.2  # read from the back of the hall
        assert box["y"] + box["height"] <= inner_h and box["x"] + box["width"] <= inner_w
        # Within its card, nothing overflows: the diagram, the clocks, their digits.
        clipped = page.evaluate("""() => {
          const card = document.querySelector('[data-testid=game]').getBoundingClientRect();
          const inside = (el) => { const r = el.getBoundingClientRect();
            return r.left >= card.left - 1 && r.right <= card.right + 1
              && r.top >= card.top - 1 && r.bottom <= card.bottom + 1; };
          const out = [];
          for (const el of document.querySelectorAll('.diagram, .clock-side, .last-move'))
            if (!inside(el)) out.push(el.className);
          for (const el of document.querySelectorAll('.time'))
            if (el.scrollWidth > el.clientWidth + 1) out.push('digits of ' + el.dataset.side);
          return out; }""")
        assert clipped == []
        save_screenshot(page, f"hall-position-{width}x{height}")
