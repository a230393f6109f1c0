"""The API docs (`/docs`) work in a hall with no internet: their scripts and styles
come from the service itself, not from a CDN."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

pytest.importorskip("playwright.sync_api", reason="the browser tests need playwright")

from tests.support.browser import browser
from tests.support.server import running_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Route

__all__ = ["browser"]  # the fixture, from tests/support/browser.py


def test_the_api_docs_render_with_every_other_host_unreachable(
    browser: Browser, tmp_path: Path
) -> None:
    with running_server(tmp_path / "log.db") as server:
        html = server.client().get("/docs").text
        assert "cdn." not in html and "https://" not in html.split("</head>")[0]
        context = browser.new_context()
        outside: list[str] = []

        def only_the_service(route: Route) -> None:
            if route.request.url.startswith(server.base_url):
                route.continue_()
            else:  # no internet in the hall
                outside.append(route.request.url)
                route.abort()

        context.route("**/*", only_the_service)
        page = context.new_page()
        page.goto(f"{server.base_url}/docs")
        page.get_by_text("/api/playoffs/{playoff_id}/commands").first.wait_for(timeout=10_000)
        assert page.locator(".opblock").count() > 20  # every route, rendered
        assert outside == []
        context.close()
