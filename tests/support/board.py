"""The board clock in a browser: a tablet (touch) opening /clock/{playoff}#key=..."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from tests.support.display import Playoff, ok

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

TABLET = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def board_key(playoff: Playoff, match: int) -> dict[str, Any]:
    """A board key for ``match``, minted by the chief arbiter as the contract says."""
    with playoff.server.client(playoff.token) as chief:
        event_id = ok(chief.get(f"/api/playoffs/{playoff.id}"))["event_id"]
        made = ok(chief.post(f"/api/events/{event_id}/tokens", json={
            "role": "board", "playoff": playoff.id, "match": match,
        }))
    return made


def clock_url(playoff: Playoff, key: dict[str, Any]) -> str:
    return f"{playoff.server.base_url}{key['link']}"


@contextmanager
def board_page(
    browser: Browser, url: str, viewport: dict[str, int] | None = None
) -> Iterator[Page]:
    """A touch tablet on the board clock, online and showing its board."""
    size = viewport or TABLET
    context: BrowserContext = browser.new_context(
        viewport={"width": size["width"], "height": size["height"]},
        has_touch=True, is_mobile=True,
    )
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(url)
        page.wait_for_function(
            "window.boardState && window.boardState.connection === 'live'", timeout=10_000
        )
        yield page
        assert errors == [], errors
    finally:
        context.close()


def state(page: Page) -> dict[str, Any]:
    shown: dict[str, Any] = page.evaluate("window.boardState")
    return shown


def half_of(page: Page, side: str) -> str:
    """Which half ("left" or "right") shows ``side`` now."""
    for place in ("left", "right"):
        if page.get_by_test_id(f"half-{place}").get_attribute("data-side") == side:
            return place
    raise AssertionError(f"no half shows {side}")


def tap(page: Page, side: str) -> None:
    """The player of ``side`` has moved and taps their half."""
    page.get_by_test_id(f"half-{half_of(page, side)}").tap()


def wait_running(page: Page, side: str, timeout: int = 5000) -> None:
    page.wait_for_function(
        "side => ['left', 'right'].some(p => { const h = window.boardState.halves[p];"
        " return h && h.side === side && h.running; })",
        arg=side, timeout=timeout,
    )


def settled(page: Page, timeout: int = 5000) -> None:
    """Every press the page sent has been answered and none is held."""
    page.wait_for_function(
        "window.boardState.pending === 0 && window.boardState.queued === 0", timeout=timeout
    )


def events(playoff: Playoff, kind: str) -> list[dict[str, Any]]:
    """The logged events of ``kind``, their data, in order."""
    with playoff.server.client(playoff.token) as chief:
        log = ok(chief.get(f"/api/playoffs/{playoff.id}/events"))
    rows = log["events"] if isinstance(log, dict) else log
    return [row["data"] for row in rows if row["type"] == kind]


WORDED = ("title", "game_name", "waits", "increment", "draw_means")
"""The board view's texts worded by the server (the others are names, figures and
identifiers)."""


def bracketed(text: str) -> bool:
    """A text in ``en-XA``, the pseudo-language: each message in [brackets]."""
    return text.startswith("[") and text.endswith("]")


def unworded(view: dict[str, Any], fields: tuple[str, ...] = WORDED) -> dict[str, str]:
    """The worded fields of a board view that are not in ``en-XA`` (empty ones aside)."""
    return {name: view[name] for name in fields if view[name] and not bracketed(view[name])}


# Every visible text on the page, and whether it is whole: inside the screen and
# inside every box that clips it (an ellipsis is a text cut off too).
VISIBLE_TEXTS = """() => {
  const texts = [];
  const cut = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const clips = (el) => {
    const style = getComputedStyle(el);
    return style.overflowX !== "visible" || style.overflowY !== "visible";
  };
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    const el = node.parentElement;
    if (!text || !el || !el.checkVisibility({ visibilityProperty: true })) continue;
    if (el.closest("noscript")) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
    if (!rects.length) continue;
    texts.push(text);
    const boxes = [{ left: 0, top: 0, right: innerWidth, bottom: innerHeight }];
    for (let a = el; a && a !== document.documentElement; a = a.parentElement) {
      if (a !== document.body && clips(a)) boxes.push(a.getBoundingClientRect());
    }
    const outside = rects.some((r) => boxes.some((b) => r.left < b.left - 1
      || r.right > b.right + 1 || r.top < b.top - 1 || r.bottom > b.bottom + 1));
    if (outside || el.scrollWidth > el.clientWidth + 1 && clips(el)) cut.push(text);
  }
  return { texts, cut, title: document.title };
}"""


def visible_texts(page: Page) -> dict[str, Any]:
    """The page's visible texts, those cut off, and its title."""
    found: dict[str, Any] = page.evaluate(VISIBLE_TEXTS)
    return found
