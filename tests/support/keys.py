"""Helpers shared by tests."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page


from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import httpx

from tests.support.events import uzchess_json
from tests.support.server import RunningServer

JSON = {"Content-Type": "application/json"}


TIMEOUT_MS = 10_000


def ok(response: httpx.Response) -> dict[str, Any]:
    assert response.status_code in (200, 201), response.text
    body: dict[str, Any] = response.json()
    return body


@dataclass
class Event:
    """An uploaded UzChess Cup, its play-off (unless ``playoff`` is None) and tokens."""

    id: str
    chief: str
    arbiter: str
    display: str
    playoff: str | None


def uploaded(server: RunningServer, *, playoff: bool = True) -> Event:
    with server.client() as anonymous:
        made = ok(anonymous.post("/api/events", content=uzchess_json().encode(), headers=JSON))
    event_id, chief = made["id"], made["chief_token"]
    with server.client(chief) as http:
        playoff_id = ok(http.post(f"/api/events/{event_id}/playoff", json={}))["id"] \
            if playoff else None
        tokens = [
            ok(http.post(f"/api/events/{event_id}/tokens", json={"role": role}))["token"]
            for role in ("arbiter", "display")
        ]
    return Event(event_id, chief, tokens[0], tokens[1], playoff_id)


@contextmanager
def page_of(browser: Browser, url: str) -> Iterator[Page]:
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT_MS)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(url)
        yield page
        assert errors == [], errors
    finally:
        context.close()



