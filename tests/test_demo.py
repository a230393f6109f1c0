"""``playoff demo``: keeps its own regulation, never deletes a log unasked, says what is wrong."""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from orchestrator.demo import DemoRefused, demo_event_at, prepare_demo
from orchestrator.timesource import ManualTime
from tests.cli import ROOT, playoff_process, unwrapped
from tests.server import free_port, running_server

BREAK = timedelta(minutes=30)  # GCT 2015 reg. 5


def _log(base_url: str, token: str, playoff_id: str) -> list[dict[str, Any]]:
    answer = httpx.get(
        f"{base_url}/api/playoffs/{playoff_id}/events",
        headers={"Authorization": f"Bearer {token}"},
        trust_env=False,
    )
    assert answer.status_code == 200, answer.text
    events: list[dict[str, Any]] = answer.json()["events"]
    return events


def _assert_started_after_the_break(events: list[dict[str, Any]]) -> None:
    created = next(e for e in events if e["type"] == "playoff-created")["data"]
    started = next(e for e in events if e["type"] == "game-started")
    assert (started["data"]["match"], started["data"]["game"]) == (1, 1)
    assert started["data"].get("override") is None
    assert not started["data"].get("overridden")
    last_game = max(datetime.fromisoformat(t) for t in created["main_event_ended"].values())
    assert datetime.fromisoformat(started["recorded_at"]) - last_game > BREAK


# --------------------------------------------------------------------------- the rule


def test_the_demo_event_finished_more_than_the_break_before_the_demo() -> None:
    now = ManualTime().now()
    event = demo_event_at(now)
    last = [g for g in event.games if g.round == event.rounds]
    assert len(last) == 5
    assert all(g.ended_at is not None and now - g.ended_at > BREAK for g in last)
    # Earlier rounds are as the crosstable gives them.
    assert all(g.ended_at is None for g in event.games if g.round < event.rounds)


def test_prepare_demo_starts_match_1_after_the_break_without_override(tmp_path: Path) -> None:
    clock = ManualTime()
    made = asyncio.run(prepare_demo(tmp_path / "demo.db", clock))
    with running_server(tmp_path / "demo.db", clock) as server:
        events = _log(server.base_url, made.chief_token, made.playoff_id)
        created = next(e for e in events if e["type"] == "playoff-created")["data"]
        for ended in created["main_event_ended"].values():
            assert clock.now() - datetime.fromisoformat(ended) > BREAK
        _assert_started_after_the_break(events)


def test_prepare_demo_keeps_an_existing_log_unless_fresh(tmp_path: Path) -> None:
    db = tmp_path / "demo.db"
    first = asyncio.run(prepare_demo(db, ManualTime()))
    size = db.stat().st_size
    with pytest.raises(DemoRefused, match="--fresh"):
        asyncio.run(prepare_demo(db, ManualTime()))
    assert db.stat().st_size == size
    with running_server(db, ManualTime()) as server:
        assert server.client(first.chief_token).get(
            f"/api/playoffs/{first.playoff_id}"
        ).status_code == 200
    again = asyncio.run(prepare_demo(db, ManualTime(), fresh=True))
    with running_server(db, ManualTime()) as server:
        client = server.client(again.chief_token)
        assert client.get(f"/api/playoffs/{again.playoff_id}").status_code == 200
        # The first log's play-off is gone: to this token, as any id not its event's,
        # which it is told what it opens.
        gone = client.get(f"/api/playoffs/{first.playoff_id}")
        assert gone.status_code == 404
        assert f"its play-off is {again.playoff_id} (" in gone.json()["detail"]


# --------------------------------------------------------------------------- the command


@contextmanager
def demo_process(*args: str) -> Iterator[tuple[subprocess.Popen[str], dict[str, str]]]:
    """``playoff demo`` serving, and what it printed up to its play-off's address."""
    process = subprocess.Popen(
        [sys.executable, "-m", "orchestrator.cli", "demo", *args],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "200"},
    )
    try:
        printed: dict[str, str] = {}
        assert process.stdout is not None
        for line in process.stdout:
            text = line.strip()
            for label in ("Hall display:", "Arbiter console:", "Chief arbiter's token:",
                          "Play-off:"):
                value = text.removeprefix(label).strip()
                # The bracket's title also begins "Play-off:"; the address is a URL.
                if text.startswith(label) and (label != "Play-off:" or "://" in value):
                    printed[label] = value
            if "Play-off:" in printed:
                break
        assert "Play-off:" in printed, "the demo did not print its addresses"
        yield process, printed
    finally:
        process.terminate()
        process.wait(timeout=20)


def _wait_for(url: str) -> httpx.Response:
    deadline = time.monotonic() + 20
    while True:
        try:
            return httpx.get(url, trust_env=False)
        except httpx.TransportError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def test_the_demo_runs_twice_with_fresh_and_keeps_its_regulation(tmp_path: Path) -> None:
    db = tmp_path / "demo" / "playoff.db"
    for _ in range(2):  # as `make demo` does, run after run
        port = free_port()
        with demo_process("--db", str(db), "--fresh", "--port", str(port)) as (_, printed):
            base = f"http://127.0.0.1:{port}"
            playoff_id = printed["Play-off:"].rsplit("/", 1)[-1]
            assert _wait_for(printed["Hall display:"]).status_code == 200
            assert _wait_for(printed["Arbiter console:"]).status_code == 200
            _assert_started_after_the_break(
                _log(base, printed["Chief arbiter's token:"], playoff_id)
            )


def test_the_demo_refuses_to_delete_an_existing_log(tmp_path: Path) -> None:
    db = tmp_path / "playoff.db"
    asyncio.run(prepare_demo(db, ManualTime()))
    before = db.read_bytes()
    run = playoff_process("demo", "--db", str(db), "--port", str(free_port()))
    assert run.returncode == 2
    message = " ".join(run.stderr.split())
    assert unwrapped(f"{db} already holds a log") in unwrapped(message)
    assert "--fresh" in message
    assert "Traceback" not in run.stderr
    assert run.stdout == ""  # refused before anything was shown
    assert db.read_bytes() == before


@pytest.mark.parametrize("fresh", [(), ("--fresh",)])
def test_a_file_that_is_not_a_log_is_left_alone(tmp_path: Path, fresh: tuple[str, ...]) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("the arbiter's notes\n", encoding="utf-8")
    run = playoff_process("demo", "--db", str(notes), *fresh, "--port", str(free_port()))
    assert run.returncode == 2
    assert "is not an SQLite log" in " ".join(run.stderr.split())
    assert "Traceback" not in run.stderr
    assert notes.read_text(encoding="utf-8") == "the arbiter's notes\n"


@pytest.mark.parametrize("command", ["demo", "serve"])
def test_a_port_in_use_is_named_with_the_option_to_change_it(
    tmp_path: Path, command: str
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        db = tmp_path / "new.db"
        run = playoff_process(command, "--db", str(db), "--port", str(port))
    assert run.returncode == 2
    message = " ".join(run.stderr.split())
    assert f"port {port} is already in use" in message
    assert "--port" in message
    assert "Traceback" not in run.stderr
    assert not db.exists()  # nothing was written


def test_the_makefile_passes_the_port_and_starts_its_own_log_afresh() -> None:
    make = shutil.which("make")
    if make is None:
        # The README's two commands are make targets: without make there is no set-up.
        pytest.fail("make is missing: 'make demo' and 'make test' need it (apt-get install make)")
    # -n: print the recipe only; -o: take the virtualenv as installed.
    run = subprocess.run(
        [make, "-n", "-o", ".venv/.installed", "demo", "PORT=8123"],
        cwd=ROOT, capture_output=True, text=True, timeout=30,
    )
    assert run.returncode == 0, run.stderr
    command = [line for line in run.stdout.splitlines() if "playoff demo" in line]
    assert len(command) == 1, run.stdout
    assert "--port 8123" in command[0]
    assert "--fresh" in command[0]
    assert "--db .demo/playoff.db" in command[0]
