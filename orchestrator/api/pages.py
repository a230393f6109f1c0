"""The pages people open in a browser: the start page, the hall display, the
arbiter console and the board clock.

All are static files in ``clients/`` (plain ES modules sharing ``clients/common``)
served by the service itself from a folder it is given (no CDN, no network beyond
the service), so they work in a hall without internet.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, HTMLResponse

__all__ = ["PAGES", "router"]

PAGES = ("display", "console", "common", "start", "clock")
"""The folders of ``clients/`` served under ``/static/``."""


def router(clients: Path) -> APIRouter:
    pages = APIRouter()

    def page(folder: Path, name: str = "index.html") -> FileResponse | HTMLResponse:
        index = folder / name
        if not index.exists():
            return HTMLResponse("<!doctype html><title>Not built</title><p>Page missing.</p>", 503)
        return FileResponse(index, media_type="text/html", headers={"Cache-Control": "no-cache"})

    @pages.get("/", include_in_schema=False, response_model=None)
    async def start() -> FileResponse | HTMLResponse:
        """The start page: the pages of the service, and those a token opens."""
        return page(clients / "start")

    @pages.get("/display/{playoff_id}", include_in_schema=False, response_model=None)
    async def display(playoff_id: str) -> FileResponse | HTMLResponse:
        """The hall display: ``/display/{playoff}#key=<display key>`` (the key stays in
        the fragment: the browser never sends it, and no log holds it)."""
        return page(clients / "display")

    @pages.get("/arbiter/{playoff_id}", include_in_schema=False, response_model=None)
    async def arbiter(playoff_id: str) -> FileResponse | HTMLResponse:
        """The arbiter console: ``/arbiter/{playoff}`` (the token is entered on the page)."""
        return page(clients / "console")

    @pages.get("/clock/{playoff_id}", include_in_schema=False, response_model=None)
    async def board_clock(playoff_id: str) -> FileResponse | HTMLResponse:
        """The board clock the players press: ``/clock/{playoff}#key=<board key>`` (the
        key stays in the fragment: the browser never sends it, and no log holds it)."""
        return page(clients / "clock")

    @pages.get("/arbiter/events/{event_id}", include_in_schema=False, response_model=None)
    async def event_console(event_id: str) -> FileResponse | HTMLResponse:
        """The arbiter console of a main event before its play-off (the play-off watch):
        ``/arbiter/events/{event}`` (the token is entered on the page)."""
        return page(clients / "console", "event.html")

    @pages.get("/display/events/{event_id}", include_in_schema=False, response_model=None)
    async def event_display(event_id: str) -> FileResponse | HTMLResponse:
        """The hall display of a main event before its play-off:
        ``/display/events/{event}#key=<display key>``."""
        return page(clients / "display", "event.html")

    return pages
