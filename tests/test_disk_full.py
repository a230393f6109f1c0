"""The disk holding the log fills up while the arbiters work: each command the disk
refuses is answered 507 (REST) or an ``unavailable`` frame (the websocket, whose
connection is kept) with words an arbiter understands, the health check says so,
nothing is half-recorded, and once space is freed the next command succeeds.

The disk is a real one of its own: a small tmpfs, mounted for the test (as root, as
``make test`` and CI run; another user cannot mount one, and the test says so).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from orchestrator.timesource import ManualTime
from tests.server import running_server
from tests.test_ws_streams import cmd, make_playoff, raw_frames, raw_hello


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "disk"
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(folder)],
        capture_output=True, text=True, check=False,
    )
    if mounted.returncode != 0:
        if os.environ.get("CI") or os.geteuid() == 0:
            pytest.fail(f"a tmpfs could not be mounted: {mounted.stderr.strip()}")
        pytest.skip("mounting a small disk needs root: run the tests as root (as CI does)")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def fill(folder: Path) -> Path:
    """A file that takes every byte left on the disk."""
    junk = folder / "junk"
    fd = os.open(junk, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        with contextlib.suppress(OSError):
            while True:
                os.write(fd, b"\0" * 4096)
    finally:
        os.close(fd)
    return junk


async def test_a_full_disk_is_said_in_words_and_the_next_command_after_it_succeeds(
    small_disk: Path,
) -> None:
    db = small_disk / "playoff.db"
    with running_server(db, ManualTime()) as server:
        setup = await asyncio.to_thread(make_playoff, server, 1)
        url = server.base_url.replace("http", "ws") + f"/ws/playoffs/{setup.playoff_id}"
        ws, _ = await raw_hello(url, setup.arbiter)
        with server.client(setup.arbiter) as http:
            started = http.post(f"{setup.base}/1/games/1/start")
            assert started.status_code == 201
            junk = await asyncio.to_thread(fill, small_disk)
            statuses: list[int] = []
            refusal = None
            move = {"white": 0, "black": 0}
            side = "white"
            for _ in range(200):  # until the disk refuses (free pages may take a few)
                move[side] += 1
                answer = http.post(f"/api/playoffs/{setup.playoff_id}/commands", json={
                    "type": "press", "match": 1, "game": 1, "side": side, "move": move[side],
                })
                statuses.append(answer.status_code)
                if answer.status_code != 201:
                    refusal = answer
                    move[side] -= 1
                    break
                side = "black" if side == "white" else "white"
            print(f"\n{statuses.count(201)} presses recorded before the disk was full")
            assert refusal is not None, "the disk never filled"
            assert refusal.status_code == 507, refusal.text
            assert refusal.headers["Retry-After"] == "30"
            words = refusal.json()["detail"]
            assert words.startswith("the server's disk is full: nothing was recorded")
            health = http.get("/api/health").json()
            assert health["status"] == "degraded"
            assert health["log"] == "the server's disk is full"
            seq = http.get(f"/api/playoffs/{setup.playoff_id}").json()["seq"]
            # The websocket: refused in the same words, the connection kept.
            await ws.send(cmd("p1", type="press", match=1, game=1, side=side,
                              move=move[side] + 1))
            frame = (await raw_frames(ws, lambda f: f.get("id") == "p1"))[-1]
            assert frame["t"] == "error" and frame["d"]["code"] == "unavailable"
            assert frame["d"]["reason"] == words
            assert frame["d"]["retry_after_s"] == 30
            assert http.get(f"/api/playoffs/{setup.playoff_id}").json()["seq"] == seq
            # Space freed: the same command, resent with its id, is recorded once.
            junk.unlink()
            await ws.send(cmd("p1", type="press", match=1, game=1, side=side,
                              move=move[side] + 1))
            frame = (await raw_frames(ws, lambda f: f.get("id") == "p1"))[-1]
            assert frame["t"] == "ack", frame
            assert http.get("/api/health").json() == {"status": "ok", "quarantined": 0}
            assert http.get(f"/api/playoffs/{setup.playoff_id}").json()["seq"] == seq + 1
            await ws.send(json.dumps({"t": "ping"}))
            await raw_frames(ws, lambda f: f["t"] == "pong")
        await ws.close()
        final = server.service.playoff(setup.playoff_id)
    # Whatever was acknowledged folds again at the next start.
    with running_server(db, ManualTime()) as again:
        assert again.service.playoff(setup.playoff_id).clocks == final.clocks
        assert again.service.quarantined == {}
