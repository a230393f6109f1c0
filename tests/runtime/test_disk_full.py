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

from orchestrator.core.timesource import ManualTime
from tests.support.server import RunningServer, running_server
from tests.support.ws import cmd, make_playoff, raw_frames, raw_hello


class Disk:
    """The disk the log is on, which the test fills and frees.

    As root (``make test``, CI): a tmpfs of 4 MiB mounted for the test, filled by a
    file. Where mounting is not allowed (another user), the log's own database is
    capped at the pages it has (``PRAGMA max_page_count``): SQLite then refuses a
    write with the very error of a full disk (SQLITE_FULL), so the test runs there
    too and asserts the same."""

    def __init__(self, folder: Path, mounted: bool) -> None:
        self.folder = folder
        self.mounted = mounted
        self._junk = folder / "junk"
        self._server: RunningServer | None = None

    def fill(self, server: RunningServer) -> None:
        self._server = server
        if self.mounted:
            fd = os.open(self._junk, os.O_WRONLY | os.O_CREAT, 0o600)
            try:
                with contextlib.suppress(OSError):
                    while True:
                        os.write(fd, b"\0" * 4096)
            finally:
                os.close(fd)
        else:
            self._cap("(SELECT page_count FROM pragma_page_count())")

    def free(self) -> None:
        if self.mounted:
            self._junk.unlink()
        else:
            self._cap("1073741823")

    def _cap(self, pages: str) -> None:
        assert self._server is not None
        log = self._server.service.store.store  # the SQLite store behind the writer
        with log._write_lock:
            count = log._writer.execute(f"SELECT {pages}").fetchone()[0]
            log._writer.execute(f"PRAGMA max_page_count = {int(count)}")


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Disk]:
    folder = tmp_path / "disk"
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(folder)],
        capture_output=True, text=True, check=False,
    )
    if mounted.returncode != 0 and (os.environ.get("CI") or os.geteuid() == 0):
        pytest.fail(f"a tmpfs could not be mounted: {mounted.stderr.strip()}")
    try:
        yield Disk(folder, mounted.returncode == 0)
    finally:
        if mounted.returncode == 0:
            subprocess.run(["umount", "-l", str(folder)], check=False)


async def test_a_full_disk_is_said_in_words_and_the_next_command_after_it_succeeds(
    small_disk: Disk,
) -> None:
    db = small_disk.folder / "playoff.db"
    with running_server(db, ManualTime()) as server:
        setup = await asyncio.to_thread(make_playoff, server, 1)
        url = server.base_url.replace("http", "ws") + f"/ws/playoffs/{setup.playoff_id}"
        ws, _ = await raw_hello(url, setup.arbiter)
        with server.client(setup.arbiter) as http:
            started = http.post(f"{setup.base}/1/games/1/start")
            assert started.status_code == 201
            await asyncio.to_thread(small_disk.fill, server)
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
            small_disk.free()
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
