"""The pages people open in a browser: the hall display and the arbiter console."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

router = APIRouter()

_PLACEHOLDER = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>{title}</title></head><body style="font-family:sans-serif;background:#000;color:#fff">
<h1>{title}</h1><p>Play-off <code>{playoff}</code>. The live page is served here.</p>
<p>Its state: <code>/api/playoffs/{playoff}</code></p></body></html>"""


@router.get("/display/{playoff_id}", response_class=HTMLResponse, include_in_schema=False)
async def display(playoff_id: str) -> HTMLResponse:
    return HTMLResponse(_PLACEHOLDER.format(title="Hall display", playoff=playoff_id))


@router.get("/arbiter/{playoff_id}", response_class=HTMLResponse, include_in_schema=False)
async def arbiter(playoff_id: str) -> HTMLResponse:
    return HTMLResponse(_PLACEHOLDER.format(title="Arbiter console", playoff=playoff_id))
