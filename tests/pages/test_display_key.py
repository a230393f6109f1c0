"""The display key never reaches the service's log.

The display's address carries its key in the fragment (``/display/{playoff}#key=``),
which a browser never sends; an old link with ``?key=`` still works, and the page
moves the key into the fragment at once. The request of such an old link, and a
websocket opened with a token in its query, reach the server all the same: the
real command (``playoff serve``) writes them to its log with the values redacted.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from tests.support import ROOT

pytest.importorskip("playwright.sync_api", reason="the browser tests need playwright")

from websockets.sync.client import connect

from orchestrator.cli.main import RedactSecrets
from tests.support.browser import browser
from tests.support.events import uzchess_json
from tests.support.server import free_port

if TYPE_CHECKING:
    from playwright.sync_api import Browser

__all__ = ["browser"]  # the fixture, from tests/support/browser.py



def ok(response: httpx.Response) -> dict[str, Any]:
    assert response.status_code in (200, 201), response.text
    body: dict[str, Any] = response.json()
    return body


def test_the_key_is_in_no_line_of_the_access_log(browser: Browser, tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = tmp_path / "service.log"
    with open(log, "wb") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "orchestrator.cli", "serve", "--db", str(tmp_path / "log.db"),
             "--host", "127.0.0.1", "--port", str(port)],
            cwd=ROOT, stdout=output, stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
    try:
        deadline = time.monotonic() + 60  # a margin for a loaded machine
        while True:
            assert process.poll() is None, log.read_text()
            try:
                httpx.get(f"{base}/openapi.json", trust_env=False, timeout=1)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the service did not answer in 60 s"
                time.sleep(0.05)
        with httpx.Client(base_url=base, trust_env=False, timeout=10) as http:
            created = ok(http.post("/api/events", content=uzchess_json().encode(),
                                   headers={"Content-Type": "application/json"}))
            chief = {"Authorization": f"Bearer {created['chief_token']}"}
            playoff_id = ok(http.post(f"/api/events/{created['id']}/playoff", json={},
                                      headers=chief))["id"]
            key = ok(http.post(f"/api/events/{created['id']}/tokens", json={"role": "display"},
                               headers=chief))["token"]

        context = browser.new_context(viewport={"width": 1280, "height": 720})
        try:
            page = context.new_page()
            for address in (f"/display/{playoff_id}#key={key}", f"/display/{playoff_id}?key={key}"):
                page.goto(base + address)
                page.wait_for_function("window.displayState.synced", timeout=5000)
                assert page.evaluate("location.hash") == f"#key={key}"
        finally:
            context.close()
        # A client that puts a token in the websocket's address (refused: the
        # token goes in hello), as the server logs every websocket it accepts.
        with connect(f"ws://127.0.0.1:{port}/ws/playoffs/{playoff_id}?token={key}"):
            pass
    finally:
        if process.poll() is None:
            os.kill(process.pid, signal.SIGTERM)
        process.wait(timeout=15)

    lines = log.read_text().splitlines()
    assert [line for line in lines if key in line] == []
    pages = [line for line in lines if f"GET /display/{playoff_id}" in line]
    assert len(pages) == 2, lines
    assert f"GET /display/{playoff_id} HTTP/1.1" in pages[0]
    assert f"GET /display/{playoff_id}?key=[redacted] HTTP/1.1" in pages[1]
    assert any(f"/ws/playoffs/{playoff_id}?token=[redacted]" in line for line in lines), lines


def test_the_filter_redacts_keys_and_tokens_in_any_query() -> None:
    record = logging.LogRecord(
        "uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
        ("10.0.0.7:5123", "GET", "/display/p1?lang=en&KEY=s3cr3t&token=t0k&x=1", "1.1", 200),
        None,
    )
    assert RedactSecrets().filter(record)
    assert record.getMessage() == (
        '10.0.0.7:5123 - "GET /display/p1?lang=en&KEY=[redacted]&token=[redacted]&x=1 '
        'HTTP/1.1" 200'
    )
