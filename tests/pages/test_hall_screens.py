"""The hall display on the screens it is put on, read from ten metres.

Five scenes of a real play-off, each on the real service and page (Debian
Chromium): the break before play, a game running, an Armageddon, a stanza
scoreboard of bridge extra boards, and the final placings; each on a 1920x1080
screen, a 1366x768 one and a 1080x1920 one turned upright. On every one: nothing
scrolls, nothing is cut off, off the screen or drawn over other text, every piece
of text is at least 40 px high at 1080p (scaled with the screen), no word is
broken across lines, portrait screens stack the stage above the bracket, and the
hall names people, never their ids.

With ``UPDATE_DOCS_SCREENSHOTS=1`` the screenshots are written to ``test-artifacts/``
and to ``docs/hall-<scene>-<width>x<height>.png`` (otherwise a test run leaves the
tree as it found it); ``TEST_SCREENSHOTS=1`` writes them to ``test-artifacts/`` only.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from datetime import timedelta
from itertools import combinations
from typing import TYPE_CHECKING, Any

import pytest

from tests.support import ROOT

pytest.importorskip("playwright.sync_api", reason="the browser tests need playwright")

from tests.support.browser import browser, save_screenshot
from tests.support.display import (
    CLOCK,
    Playoff,
    SkippableTime,
    bridge_playoff,
    chess_playoff,
    fits,
    level_after_two_games,
    opened,
)
from tests.support.events import ABDU, PRAGG, SINDAROV, UZCHESS, round_robin, uzchess_json
from tests.support.server import RunningServer, running_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

__all__ = ["browser"]  # the fixture, from tests/support/browser.py

SIZES = [(1920, 1080), (1366, 768), (1080, 1920)]
SCENES = ["break", "game", "armageddon", "stanzas", "placings", "correction"]
IDS = (PRAGG, ABDU, SINDAROV)

CHECK = """(needed) => {
  const problems = [];
  const vw = innerWidth, vh = innerHeight;
  const clipping = (el) => {
    const s = getComputedStyle(el);
    return s.overflowX !== "visible" || s.overflowY !== "visible";
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const placed = [];
  let texts = 0;
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const text = node.textContent.trim();
    const el = node.parentElement;
    if (!text || !el || el.closest("noscript, script")) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
    const style = getComputedStyle(el);
    if (!rects.length || style.visibility === "hidden") continue;
    texts += 1;
    for (const r of rects) placed.push([text, r, el.closest(".offline") !== null]);
    const size = parseFloat(style.fontSize);
    if (size < needed - 0.01) problems.push(`too small (${size.toFixed(1)} px): ${text}`);
    for (const r of rects) {
      if (r.left < -1 || r.top < -1 || r.right > vw + 1 || r.bottom > vh + 1) {
        problems.push(`off the screen: ${text}`);
      }
      for (let a = el; a && a !== document.documentElement; a = a.parentElement) {
        if (!clipping(a)) continue;
        const b = a.getBoundingClientRect();
        if (r.left < b.left - 1 || r.right > b.right + 1 || r.top < b.top - 1
            || r.bottom > b.bottom + 1) {
          problems.push(`cut off: ${text}`);
          break;
        }
      }
    }
    // A word on two lines is a word broken (a line may end after a hyphen).
    const re = /[^\\s-]+-?/g;
    let m;
    while ((m = re.exec(node.textContent))) {
      const word = document.createRange();
      word.setStart(node, m.index);
      word.setEnd(node, m.index + m[0].length);
      const tops = new Set([...word.getClientRects()].filter((r) => r.width > 0)
        .map((r) => Math.round(r.top)));
      if (tops.size > 1) problems.push(`word broken: ${m[0]}`);
    }
  }
  // No text drawn over other text.
  for (let i = 0; i < placed.length; i += 1) {
    for (let j = i + 1; j < placed.length; j += 1) {
      const [a, ra, overlay] = placed[i];
      const [b, rb] = placed[j];
      if (overlay || placed[j][2]) continue;
      const x = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
      const y = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
      // A glyph box is a little taller than a tight line: a fifth of it may touch.
      if (x > 2 && y > 0.2 * Math.min(ra.height, rb.height)) {
        problems.push(`overlap: ${a} / ${b}`);
      }
    }
  }
  return { problems, texts, text: document.body.innerText };
}"""


def needed_px(width: int, height: int) -> float:
    """At least 40 px at 1080p, scaled with the screen's shorter side."""
    return 40 * min(width, height) / 1080


def check(page: Page, width: int, height: int) -> str:
    """Everything on the page read from 10 m: the problems found (none), and its text."""
    scroll_width, inner_width, scroll_height, inner_height = fits(page)
    assert scroll_width <= inner_width and scroll_height <= inner_height
    found: dict[str, Any] = page.evaluate(CHECK, needed_px(width, height))
    assert found["texts"] > 5
    assert found["problems"] == []
    text: str = found["text"]
    for who in IDS:
        assert who not in text
    assert not re.search(r"\d{4}-\d{2}-\d{2}T|\bseq\b|[a-z]+-(?:started|recorded|fell)", text)
    return text


@pytest.fixture(scope="module")
def scenes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Playoff]]:
    """One play-off per scene, on one server. The time is moved on only while no
    clock runs: the scenes with a clock running are made last."""
    db = tmp_path_factory.mktemp("screens") / "log.db"
    with running_server(db, SkippableTime()) as server:
        made: dict[str, Playoff] = {}
        made["placings"] = final_played(server)
        made["correction"] = corrected(server)
        made["stanzas"] = stanzas_played(server)
        armageddon = chess_playoff(server)
        level_after_two_games(armageddon)
        armageddon.post("/matches/1/coin-toss", {"method": "physical", "winner": SINDAROV})
        armageddon.post("/matches/1/armageddon-colours", {"white": ABDU, "black": SINDAROV})
        now = server.service.time.now()
        # The last round of the main event ended 12 minutes ago; no lots drawn yet.
        made["break"] = chess_playoff(
            server, lots=False, event=uzchess_json(now - timedelta(minutes=12))
        )
        game = chess_playoff(server)
        game.game(1, 1, "start")
        game.command("press", match=1, game=1, side="white", move=1)
        armageddon.game(1, 3, "start")
        made["game"], made["armageddon"] = game, armageddon
        yield made


def final_played(server: RunningServer) -> Playoff:
    playoff = chess_playoff(server)
    playoff.game(1, 1, "start")
    playoff.game(1, 1, "result", {"result": "0-1"})
    playoff.rest()
    playoff.game(1, 2, "start")
    playoff.game(1, 2, "result", {"result": "1-0"})  # Sindarov wins 2-0
    playoff.post("/matches/2/lots", {"method": "physical", "white": SINDAROV})
    for game, result in ((1, "1/2-1/2"), (2, "0-1")):
        playoff.rest()
        playoff.game(2, game, "start")
        playoff.game(2, game, "result", {"result": result})
    return playoff


def corrected(server: RunningServer) -> Playoff:
    """Abdusattorov won match 1 2-0 and the final began; then game 1's scoresheets
    were found swapped: the match is level, the final's game 1 no longer played."""
    playoff = chess_playoff(server)
    for game, result in ((1, "1-0"), (2, "0-1")):
        playoff.game(1, game, "start")
        playoff.game(1, game, "result", {"result": result})
        playoff.rest()
    playoff.post("/matches/2/lots", {"method": "physical", "white": PRAGG})
    playoff.game(2, 1, "start")
    with server.client(playoff.token) as chief:
        corrected = chief.put(f"/api/playoffs/{playoff.id}/matches/1/games/1/result", json={
            "result": "0-1", "reason": "the scoresheets were swapped", "confirm": True})
        assert corrected.status_code == 200, corrected.text
    return playoff


def stanzas_played(server: RunningServer) -> Playoff:
    """Stanza 1 played, stanza 2 under way: board 1 scored at both tables, board 2
    at table 1 only."""
    playoff = bridge_playoff(server)
    for stanza, board, table, ns in (
        (1, 1, 1, 620), (1, 1, 2, 170), (1, 2, 1, -100), (1, 2, 2, 300),
        (2, 1, 1, 420), (2, 1, 2, -50), (2, 2, 1, 1430),
    ):
        playoff.post("/board-scores", {"stanza": stanza, "board": board, "table": table,
                                       "ns_score": ns})
    return playoff


def ready(page: Page, scene: str) -> None:
    """Wait for what the scene shows."""
    waits = {
        "break": "[data-testid=idle-countdown][data-until]",
        "game": "[data-testid=clock-black][data-running=true]",
        "armageddon": "[data-testid=armageddon-banner][data-state=on]",
        "stanzas": "[data-testid=scoreboard]",
        "placings": "[data-testid=placings]",
        "correction": "[data-testid=correction]",
    }
    page.wait_for_selector(waits[scene], timeout=3000)
    page.wait_for_timeout(150)  # a frame for the countdown and the names to settle


Screen = Callable[[str, int, int], "Page"]


@pytest.fixture(scope="module")
def screen(browser: Browser) -> Iterator[Screen]:
    """A page for each address, opened once and then turned to each screen size (as
    when a screen is rotated or changed): a page load per size would cost the suite
    a second each. Each page is checked at the end for REST reads, as any other."""
    with ExitStack() as stack:
        pages: dict[str, Page] = {}

        def at(url: str, width: int, height: int) -> Page:
            if url not in pages:
                pages[url] = stack.enter_context(opened(browser, url, width, height))
            page = pages[url]
            page.set_viewport_size({"width": width, "height": height})
            # Two frames: the resize handled, then the names fitted to the new size.
            page.evaluate("() => new Promise((done) => requestAnimationFrame("
                          "() => requestAnimationFrame(done)))")
            return page

        yield at


@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("scene", SCENES)
def test_the_page_fits_the_screen_without_scrolling(
    screen: Screen, scenes: dict[str, Playoff], scene: str, width: int, height: int
) -> None:
    playoff = scenes[scene]
    page = screen(playoff.url, width, height)
    ready(page, scene)
    path = save_screenshot(page, f"hall-{scene}-{width}x{height}", animations="disabled")
    text = check(page, width, height)
    stage = page.get_by_test_id("stage").bounding_box()
    side = page.get_by_test_id("side").bounding_box()
    assert stage is not None and side is not None
    if height > width:  # portrait: the bracket and schedule below the stage
        assert side["y"] >= stage["y"] + stage["height"] - 1
    else:
        assert side["x"] >= stage["x"] + stage["width"] - 1
    expect_scene(page, scene, text, width, height)
    if path is not None and os.environ.get("UPDATE_DOCS_SCREENSHOTS"):
        # The docs' pictures: refreshed on request, so a test run leaves the tree clean.
        shutil.copyfile(path, ROOT / "docs" / f"hall-{scene}-{width}x{height}.png")


def expect_scene(page: Page, scene: str, text: str, width: int, height: int) -> None:
    """What each scene must show, at every size."""
    if scene == "break":
        assert "BREAK AFTER THE MAIN EVENT" in text
        assert page.locator("[data-until]").count() == 1
        players = page.get_by_test_id("idle-players").inner_text()
        assert "–" in players and "colours by lot" in text
    elif scene in ("game", "armageddon"):
        clock = page.get_by_test_id("clock-white")
        clock_px = clock.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
        assert clock_px >= min(width, height) * 0.1  # large enough to read from 10 m
        box = clock.bounding_box()
        assert box is not None and box["y"] + box["height"] <= height
        if scene == "armageddon":
            assert page.get_by_test_id("armageddon-banner").is_visible()
            assert "DRAW = BLACK WINS" in text
    elif scene == "stanzas":
        # Stanza 1: 10 IMPs (+450) and 9 (-400); stanza 2's board 1 (+470): 10 more.
        assert page.get_by_test_id("running-total").locator(".imps").all_inner_texts() == [
            "20", "9"
        ]
        assert "1430" not in text and "+1430" not in text  # table 2 has not played it
    elif scene == "placings":
        assert page.get_by_test_id("champion").inner_text() == "Sindarov, Javokhir"
        assert "100,000" in text
        assert "the other places come from the main event's tiebreaks" in text
    elif scene == "correction":
        assert "Result corrected" in text and "no longer played" in text


# --------------------------------------------------------------------------- long names


LONG = "Vachier-Lagrave Dominguez, Maximilian Leinier Alexandre"
SHORT = "Vachier-Lagrave Dominguez"


@pytest.fixture(scope="module")
def long_names(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Playoff, Playoff]]:
    """The UzChess Cup with Abdusattorov under a very long name: one play-off before
    play, one with game 1 running."""
    data = json.loads(uzchess_json())
    for player in data["players"]:
        if player["id"] == ABDU:
            player["name"] = LONG
    event = json.dumps(data)
    assert UZCHESS.exists()
    db = tmp_path_factory.mktemp("long-names") / "log.db"
    with running_server(db, SkippableTime()) as server:
        idle = chess_playoff(server, event=event)
        running = chess_playoff(server, event=event)
        running.game(1, 1, "start")
        yield idle, running


@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_long_names_use_the_short_form_or_shrink_and_never_break_inside_a_word(
    screen: Screen, long_names: tuple[Playoff, Playoff], width: int, height: int
) -> None:
    for playoff, where in zip(long_names, ("idle-players", "game"), strict=True):
        page = screen(playoff.url, width, height)
        page.get_by_test_id(where).wait_for(timeout=3000)
        page.wait_for_function(
            f"!{CLOCK.format(side='white')} || {CLOCK.format(side='white')}.textContent",
            timeout=2000,
        )
        page.wait_for_timeout(150)
        save_screenshot(page, f"hall-long-name-{where}-{width}x{height}")
        check(page, width, height)
        name = page.get_by_test_id(where).locator(f"[data-full='{LONG}']")
        assert name.count() >= 1
        shown = name.first.evaluate(
            "e => [e.textContent, e.dataset.shown, parseFloat(getComputedStyle(e).fontSize)]"
        )
        assert shown[0] in (LONG, SHORT)
        assert shown[0] == SHORT or shown[1] == "full"


# --------------------------------------------------------------------------- a set played again


@pytest.fixture(scope="module")
def replayed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Playoff]:
    """Six flat boards: still tied, the set is played again (EBU 143.2.1); stanzas 4
    and 5 of the second set played, stanza 6 under way."""
    db = tmp_path_factory.mktemp("replayed") / "log.db"
    with running_server(db, SkippableTime()) as server:
        playoff = bridge_playoff(server)
        scores = [(stanza, board, table, 420) for stanza in (1, 2, 3) for board in (1, 2)
                  for table in (1, 2)]
        scores += [(4, 1, 1, 620), (4, 1, 2, 170), (4, 2, 1, -50), (4, 2, 2, -50),
                   (5, 1, 1, 100), (5, 1, 2, -600), (5, 2, 1, 0), (5, 2, 2, 90), (6, 1, 1, 400)]
        for stanza, board, table, ns in scores:
            playoff.post("/board-scores", {"stanza": stanza, "board": board, "table": table,
                                           "ns_score": ns})
        yield playoff


@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_a_set_played_again_keeps_the_first_on_the_board_and_fits(
    screen: Screen, replayed: Playoff, width: int, height: int
) -> None:
    page = screen(replayed.url, width, height)
    page.get_by_test_id("scoreboard").wait_for(timeout=3000)
    page.wait_for_timeout(150)
    save_screenshot(page, f"hall-set-2-{width}x{height}")
    text = check(page, width, height)
    earlier = page.get_by_test_id("earlier-set")
    assert earlier.inner_text() == "Set 1: 0–0, still tied: played again"
    assert page.get_by_test_id("stanza-number").inner_text() == "Stanza 6 (3 of 3, set 2)"
    assert "IMPs, set 2, running total" in text
    boards = page.locator("[data-testid=stanza-board]")
    assert boards.evaluate_all("els => els.map(e => e.dataset.stanza)") == [
        "4", "4", "5", "5", "6", "6"
    ]
    assert page.get_by_test_id("next-game").inner_text() == (
        "If still tied after stanza 6, the extra boards are played again."
    )
    listed = page.get_by_test_id("stanza-list").locator("li .stanza-label").all_inner_texts()
    assert listed == ["Stanza 4 · 2 boards", "Stanza 5 · 2 boards", "Stanza 6 · 2 boards"]


# --------------------------------------------------------------------------- more players


NAMES = ["Carlsen, Magnus", "Nakamura, Hikaru", "Caruana, Fabiano", "Praggnanandhaa R",
         "Vachier-Lagrave, Maxime", "Nepomniachtchi, Ian", "Abdusattorov, Nodirbek",
         "Gukesh D"]


def all_drawn(players: str) -> str:
    """A round robin in which every game is drawn: everyone ties for first."""
    event = round_robin(players, {a + b: "1/2-1/2" for a, b in combinations(players, 2)})
    data = json.loads(event.model_dump_json())
    for player, name in zip(data["players"], NAMES, strict=False):
        player["name"] = name
    for game in data["games"]:
        game["ended_at"] = "2025-06-27T18:00:00+00:00"
    return json.dumps(data)


@pytest.fixture(scope="module")
def many(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[int, Playoff]]:
    """Four players (GCT 2015 reg. 8: both semi-finals' first games running) and eight
    (reg. 9: the four quarter-finals' first games running)."""
    db = tmp_path_factory.mktemp("many") / "log.db"
    with running_server(db, SkippableTime()) as server:
        made = {}
        for count in (4, 8):
            playoff = chess_playoff(server, lots=False, event=all_drawn("ABCDEFGH"[:count]))
            state = server.service.playoff(playoff.id)
            first_round = [m for m in state.chess.matches if m.round == 1 and not m.bye]
            for match in first_round:
                playoff.post(f"/matches/{match.id}/lots",
                             {"method": "physical", "white": match.players[0]})
                playoff.game(match.id, 1, "start")
            made[count] = playoff
        yield made


@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("count", [4, 8])
def test_several_games_at_once_fit_too(
    screen: Screen, many: dict[int, Playoff], count: int, width: int, height: int
) -> None:
    page = screen(many[count].url, width, height)
    page.wait_for_function(
        f"document.querySelectorAll('[data-testid=game]').length === {count // 2}",
        timeout=3000,
    )
    page.wait_for_timeout(150)
    save_screenshot(page, f"hall-{count}-players-{width}x{height}")
    check(page, width, height)
    clocks = page.locator(".time[data-running=true]")
    assert clocks.count() == count // 2


# --------------------------------------------------------------------------- languages


LANGUAGES = ["en", "es", "fr", "de", "ru"]
PSEUDO = "en-XA"

EVENT_NAME = "UzChess Cup Masters 2025"
"""The organiser's name of the event, which the play-off takes as its own: as given."""

LEFT_OUT = """(given) => {
  // Every text on the page, less what the catalogs said (in brackets in the
  // pseudo-language), the names (as given: data-full, data-short), and figures.
  const names = new Set();
  for (const el of document.querySelectorAll("[data-full], [data-short]")) {
    if (el.dataset.full) names.add(el.dataset.full);
    if (el.dataset.short) names.add(el.dataset.short);
  }
  for (const name of given) names.add(name);
  const listed = [...names].sort((a, b) => b.length - a.length);
  const left = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const el = node.parentElement;
    if (!el || el.closest("noscript, script, [hidden]")) continue;
    let text = node.textContent;
    for (const name of listed) text = text.split(name).join(" ");
    let before;
    do {  // innermost brackets first: a message may hold another
      before = text;
      text = text.replace(/\\[[^\\[\\]]*\\]/g, " ");
    } while (text !== before);
    if (/[A-Za-z]{2,}/.test(text)) left.push(node.textContent.trim());
  }
  return left;
}"""


def at_size(page: Page, width: int, height: int) -> Page:
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate("() => new Promise((done) => requestAnimationFrame("
                  "() => requestAnimationFrame(done)))")
    return page


@pytest.mark.parametrize("scene", SCENES)
def test_in_the_pseudo_language_every_text_is_from_the_catalogs_and_still_fits(
    browser: Browser, scenes: dict[str, Playoff], scene: str
) -> None:
    """``en-XA`` makes every message 40 % longer and accented, in brackets: at every
    size nothing is cut off or drawn over another, and no text is left in plain
    English (names are shown as given)."""
    with opened(browser, scenes[scene].url_in(PSEUDO)) as page:
        page.wait_for_function("document.documentElement.lang === 'en-XA'", timeout=3000)
        for width, height in SIZES:
            at_size(page, width, height)
            ready(page, scene)
            save_screenshot(page, f"hall-{PSEUDO}-{scene}-{width}x{height}",
                            animations="disabled")
            check(page, width, height)
            left = page.evaluate(LEFT_OUT, [EVENT_NAME])
            assert left == [], left


SAID_IN_ENGLISH = ("now playing", "break after the main event", "colours by lot",
                   "draw = black wins", "play-off decides first place only")
"""The hall's own words in English, said otherwise in every other language."""


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("scene", ["armageddon", "break", "placings"])
def test_the_hall_in_each_language_fits_every_screen(
    browser: Browser, scenes: dict[str, Playoff], scene: str, language: str
) -> None:
    with opened(browser, scenes[scene].url_in(language)) as page:
        page.wait_for_function(f"document.documentElement.lang === '{language}'",
                               timeout=3000)
        for width, height in SIZES:
            at_size(page, width, height)
            ready(page, scene)
            path = save_screenshot(page, f"hall-{language}-{scene}-{width}x{height}",
                                   animations="disabled")
            text = check(page, width, height).lower()
            if language != "en":
                # The hall's own words in the screen's language, not in English.
                assert [w for w in SAID_IN_ENGLISH if re.search(rf"\b{w}\b", text)] == []
            if path is not None and scene == "armageddon" and \
                    os.environ.get("UPDATE_DOCS_SCREENSHOTS"):
                target = ROOT / "docs" / "languages"
                target.mkdir(exist_ok=True)
                shutil.copyfile(path, target / f"hall-{language}-{width}x{height}.png")
