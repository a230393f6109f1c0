"""Headless Debian Chromium driven by Playwright, for the browser tests.

Playwright's own browser download is not used: the project's setup installs
Debian's ``chromium`` (``make browser``). Where Chromium cannot be installed the
browser tests are skipped with that reason, never in CI.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.support import ROOT
from tests.support.parts import missing

if TYPE_CHECKING:
    from playwright.sync_api import Page

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
ARTIFACTS = ROOT / "test-artifacts"


def chromium_or_skip() -> str:
    if Path(CHROMIUM).exists() or shutil.which("chromium"):
        return CHROMIUM if Path(CHROMIUM).exists() else str(shutil.which("chromium"))
    missing("Chromium", "chromium", "the browser tests")


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    executable = chromium_or_skip()
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=FLAGS)
        try:
            yield launched
        finally:
            launched.close()


def screenshots_wanted() -> bool:
    """Screenshots cost a tenth of a second or more each and are looked at only now
    and then: taken when asked for (``TEST_SCREENSHOTS=1``, or to refresh the docs'
    pictures)."""
    return any(os.environ.get(name) for name in ("TEST_SCREENSHOTS", "UPDATE_DOCS_SCREENSHOTS"))


def screenshot_path(name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS / f"{name}.png"


def save_screenshot(page: Page, name: str, **options: Any) -> Path | None:
    """``test-artifacts/<name>.png`` when screenshots are wanted: its path, else None."""
    if not screenshots_wanted():
        return None
    path = screenshot_path(name)
    page.screenshot(path=str(path), **options)
    return path
