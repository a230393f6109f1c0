"""``playoff demo``: keeps its own regulation, never deletes a log unasked, says what is wrong."""

from __future__ import annotations

import asyncio
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from orchestrator.cli.demo import DemoRefused, demo_event_at, prepare_demo
from orchestrator.core.timesource import ManualTime
from tests.support import ROOT
from tests.support.browser import browser
from tests.support.cli import playoff_process, unwrapped
from tests.support.server import free_port, running_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser

__all__ = ["browser"]  # the fixture, from tests/support/browser.py

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
            for label in ("Start page:", "API docs:", "Hall display:", "Arbiter console:",
                          "Event console:", "Chief arbiter's token:", "Arbiter's token:",
                          "Resume:", "Play-off:"):
                value = text.removeprefix(label).strip()
                # The bracket's title also begins "Play-off:"; the address is a URL.
                if text.startswith(label) and (label != "Play-off:" or "://" in value):
                    printed[label] = value
            if text.startswith("Board clock, match "):  # one per match: "…, match 1: URL"
                label, _, value = text.partition(": ")
                printed[label + ":"] = value.strip()
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


@contextmanager
def two_ports_in_use() -> Iterator[int]:
    """Two neighbouring ports listened on: the first of them."""
    for _ in range(50):
        with socket.socket() as first, socket.socket() as second:
            first.bind(("127.0.0.1", 0))
            port: int = first.getsockname()[1]
            try:
                second.bind(("127.0.0.1", port + 1))
            except OSError:
                continue
            first.listen()
            second.listen()
            yield port
            return
    raise AssertionError("no two neighbouring ports free on this machine")


@pytest.mark.parametrize("command", ["demo", "serve"])
def test_a_port_in_use_is_named_with_the_option_to_change_it(
    tmp_path: Path, command: str
) -> None:
    # The next port taken too: the one suggested is one found free, not the next.
    with two_ports_in_use() as port:
        db = tmp_path / "new.db"
        run = playoff_process(command, "--db", str(db), "--port", str(port))
        assert run.returncode == 2
        message = " ".join(run.stderr.split())
        assert f"port {port} is already in use" in message
        # The port it suggests is one the service could listen on.
        suggested = re.search(r"--port (\d+) is free now", message)
        assert suggested is not None, message
        free = int(suggested.group(1))
        assert free not in (port, port + 1)
        with socket.socket() as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(("127.0.0.1", free))
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


# --------------------------------------------------------------------------- getting in


def test_every_address_the_demo_prints_answers_a_browser_with_a_page(
    tmp_path: Path, browser: Browser
) -> None:
    from playwright.sync_api import expect

    port = free_port()
    with demo_process("--db", str(tmp_path / "playoff.db"), "--port", str(port)) as (
        _, printed
    ):
        base = f"http://127.0.0.1:{port}"
        assert printed["Start page:"] == f"{base}/"
        _wait_for(printed["Start page:"])
        page = browser.new_page()
        page.set_default_timeout(30_000)  # a demo in a process of its own, on a busy machine
        try:
            pages = {
                label: value for label, value in printed.items() if value.startswith(base)
            }
            boards = sorted(label for label in pages if label.startswith("Board clock"))
            assert set(pages) - set(boards) == {
                "Start page:", "API docs:", "Hall display:", "Arbiter console:",
                "Event console:", "Play-off:",
            }
            # The demo's play-off (GCT, three players) has two matches: a board each.
            assert boards == ["Board clock, match 1:", "Board clock, match 2:"]
            for label, url in pages.items():
                page.goto("about:blank")  # two links differing after '#' load anew
                answer = page.goto(url)
                assert answer is not None, label
                assert answer.headers["content-type"].startswith("text/html"), label
            # What each shows: the hall display its play-off, live; the others their page.
            page.goto(printed["Hall display:"])
            page.wait_for_function("window.displayState && window.displayState.synced")
            expect(page.get_by_test_id("title")).to_contain_text("UzChess Cup Masters 2025")
            page.goto(printed["Play-off:"])
            expect(page.get_by_test_id("address")).to_have_text(printed["Play-off:"])
            # The board clock's link opens the board of its match, live, with its key.
            assert "#key=" in printed["Board clock, match 1:"]
            page.goto(printed["Board clock, match 1:"])
            page.wait_for_function("window.boardState.connection === 'live'")
            expect(page.get_by_test_id("half-left")).to_be_visible()
            page.goto(printed["Start page:"])
            page.get_by_test_id("token-input").fill(printed["Arbiter's token:"])
            page.get_by_test_id("token-submit").click()
            page.locator("[data-page=arbiter-console] a").click()
            page.wait_for_url(printed["Arbiter console:"])
            expect(page.get_by_test_id("connection")).to_have_text("live")
        finally:
            page.close()


def test_the_demo_resumes_after_a_crash_with_the_command_it_prints(tmp_path: Path) -> None:
    db = tmp_path / "demo" / "playoff.db"
    port = free_port()
    with demo_process("--db", str(db), "--port", str(port)) as (process, printed):
        chief = printed["Chief arbiter's token:"]
        playoff_id = printed["Play-off:"].rsplit("/", 1)[-1]
        _wait_for(printed["Hall display:"])
        before = _log(f"http://127.0.0.1:{port}", chief, playoff_id)
        process.kill()  # a crash: no shutdown of any kind
        process.wait(timeout=20)
    resume = printed["Resume:"].split(" (after", 1)[0]
    words = shlex.split(resume)
    assert words[:4] == ["playoff", "serve", "--db", str(db)]
    assert words[4:] == ["--port", str(port)]
    log = tmp_path / "serve.log"
    with open(log, "wb") as output:
        served = subprocess.Popen(
            [sys.executable, "-m", "orchestrator.cli", *words[1:]],
            cwd=ROOT, stdout=output, stderr=subprocess.STDOUT,
        )
        try:
            # A loaded machine may take a while to start it; one that exited says why.
            deadline = time.monotonic() + 60
            while True:
                assert served.poll() is None, log.read_text()
                try:
                    answer = httpx.get(printed["Hall display:"], trust_env=False)
                    break
                except httpx.TransportError:
                    assert time.monotonic() < deadline, log.read_text()
                    time.sleep(0.1)
            assert answer.status_code == 200
            after = _log(f"http://127.0.0.1:{port}", chief, playoff_id)
            assert after == before  # every acknowledged event, nothing else
            token = printed["Arbiter's token:"]
            arbiter = httpx.get(
                printed["Play-off:"], trust_env=False,
                headers={"Authorization": f"Bearer {token}"},
            )
            assert arbiter.status_code == 200
            (match,) = [m for m in arbiter.json()["matches"] if m["id"] == 1]
            (game,) = [g for g in match["games"] if g["number"] == 1]
            assert game["started_at"] is not None and game["result"] is None
        finally:
            served.terminate()
            served.wait(timeout=20)


def test_the_readme_resumes_the_log_that_make_demo_writes() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    (demo,) = [line for line in makefile.splitlines() if "playoff demo" in line]
    db = re.search(r"--db (\S+)", demo)
    assert db is not None
    resume = re.findall(r"^\.venv/bin/playoff serve --db (\S+)", readme, flags=re.M)
    assert resume == [db.group(1)]
    # The command the README gives is the one the demo prints for that log.
    from orchestrator.cli.main import resume_command

    assert resume_command(Path(db.group(1)), "127.0.0.1", 8000).endswith(
        f"playoff serve --db {db.group(1)}"
    )
