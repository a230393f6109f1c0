"""Run the ``playoff`` command: in this process through Typer's runner, or as a real
process as a user does (``playoff_process``)."""

from __future__ import annotations

import os
import subprocess
import sys
from contextlib import chdir
from dataclasses import dataclass
from pathlib import Path

from typer.testing import CliRunner

from orchestrator.cli.main import app
from tests.support import ROOT


@dataclass
class Run:
    """What a run of the command left: as ``subprocess.CompletedProcess`` has it."""

    args: list[str]
    returncode: int
    stdout: str
    stderr: str


def playoff(*args: str, cwd: Path | None = None) -> Run:
    """The command run in this process, with its output streams apart.

    An exception that escaped the command is raised here, so that the test fails as
    the real command would (with a traceback) rather than reading an empty stderr.
    """
    # The width a pipe gets from the real command (Rich's default when not a terminal).
    env = {"COLUMNS": os.environ.get("COLUMNS", "80")}
    with chdir(cwd or ROOT):
        result = CliRunner().invoke(app, list(args), env=env, catch_exceptions=True)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return Run(list(args), result.exit_code, result.stdout, result.stderr)


def playoff_process(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The real ``playoff`` command in a process of its own."""
    return subprocess.run(
        [sys.executable, "-m", "orchestrator.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd or ROOT,
        timeout=60,
    )


def unwrapped(text: str) -> str:
    """``text`` without its white space: what a message says, however the terminal's
    width wrapped it (a long path is broken anywhere, even inside a name)."""
    return "".join(text.split())
