"""The pages people open in a browser: the hall display and the arbiter console.

Both are static files in ``clients/`` served by the service itself (no CDN, no
network beyond the service), so they work in a hall without internet.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, HTMLResponse

import clients

router = APIRouter()

CLIENTS = Path(clients.__file__).resolve().parent
DISPLAY = CLIENTS / "display"
CONSOLE = CLIENTS / "console"


def _page(folder: Path) -> FileResponse | HTMLResponse:
    index = folder / "index.html"
    if not index.exists():
        return HTMLResponse("<!doctype html><title>Not built</title><p>Page missing.</p>", 503)
    return FileResponse(index, media_type="text/html", headers={"Cache-Control": "no-cache"})


@router.get("/display/{playoff_id}", include_in_schema=False, response_model=None)
async def display(playoff_id: str) -> FileResponse | HTMLResponse:
    """The hall display: ``/display/{playoff}?key=<display key>``."""
    return _page(DISPLAY)


@router.get("/arbiter/{playoff_id}", include_in_schema=False, response_model=None)
async def arbiter(playoff_id: str) -> FileResponse | HTMLResponse:
    """The arbiter console: ``/arbiter/{playoff}`` (the token is entered on the page)."""
    return _page(CONSOLE)
