"""What to do when a part the tests start (Chromium, PostgreSQL, Redis) is missing.

``make test`` installs each one as root (Debian packages), so where it could have
been installed (as root, or in CI) its absence is a broken set-up and the test
fails, saying how to mend it. Only a user who cannot install packages gets a skip,
and the skip says which tests did not run and the command that would run them.
"""

from __future__ import annotations

import os
from typing import NoReturn

import pytest


def missing(part: str, package: str, needed_by: str) -> NoReturn:
    """``part`` (Debian's ``package``) is not installed; ``needed_by`` names the tests."""
    if os.environ.get("CI") or os.geteuid() == 0:
        pytest.fail(
            f"{part} is missing, so {needed_by} cannot run: 'make test' installs it "
            f"(apt-get install -y {package})"
        )
    pytest.skip(
        f"{part} is not installed and this user cannot install it, so {needed_by} did not "
        f"run: 'sudo apt-get install -y {package}', then run them again"
    )
