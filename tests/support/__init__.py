"""What the tests share: servers, browsers, command lines, events and data."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
"""The project's checkout."""

DATA = ROOT / "tests" / "data"
"""The tests' event files, formats, logs and samples."""
